// The fixed workloads of `skipstone bench` and of benchmarks/figure18_points.cpp, as configs
// (resolved by parse_config like any user config), with their sizes for the CPU, for a GPU
// and for --quick, and the flop counts of one no-slip disc impact and of one Figure-18 GBS step.
// The rolling-table workloads (roll4:stadium, roll4:ellipse, roll3:stadium, roll3:ellipse) take
// roll4:disc's sizes, so that their rates compare with its own in the same run; so does
// rubber:sphere.
#pragma once
#include <cstdint>

#include <nlohmann/json.hpp>

namespace skipstone::bench {

struct WorkloadSizes {
  std::uint64_t disc_count, disc_events;  // no-slip disc: trajectories x impacts each
  std::uint64_t cyl_count, cyl_events;    // no-slip cylinder:disc with gravity
  std::uint64_t fig18_n;                  // Figure-18 map: n x n grid
  std::uint64_t roll4_count;              // roll4:disc with gravity, and the rolling tables
  double roll4_t_max;
  std::uint64_t roll3_map_n;              // roll3:stadium rim_entry map: 8 wall points x n x n
};
WorkloadSizes workload_sizes(bool gpu, bool quick);

// No-slip disc, gamma = sqrt(2/3), boundary start, random angle in [-1.4, 1.4], spin in [-1, 1].
nlohmann::json disc_config(std::uint64_t count, std::uint64_t events);
// The disc workload asking for the impulse ratios of its impacts (one trajectory per iteration).
nlohmann::json disc_impulse_config(std::uint64_t count, std::uint64_t events);
// The same with one hole in the wall, boundary_s in [0.5, 0.501) (stop.holes): trajectories leave
// after about a thousand impacts; the scan runs one trajectory per iteration, not in lanes.
nlohmann::json disc_holes_config(std::uint64_t count, std::uint64_t events);
// No-slip cylinder:disc, g = 1, impact start, random angle in [0.8, 1.5], slip in [-0.2, 0.2].
nlohmann::json cylinder_config(std::uint64_t count, std::uint64_t events);
// No-slip cylinder:stadium (half_length 1, R 1), g = 0.4, impact start at boundary_s 0.1 with
// vz 0.3, random angle in [-1.4, 1.4], slip in [-0.2, 0.2]; observables `events` and, with
// lyapunov, the largest Lyapunov exponent (the tangent dynamics' cost against the plain run).
nlohmann::json cylinder_stadium_config(std::uint64_t count, std::uint64_t events, bool lyapunov);
// roll4:disc-transversal (Figure 18): R = r = 1, eta = 0.5, t_max 200; no start or scan.
nlohmann::json figure18_base(double rtol, double atol);
// The Figure-18 map: n x n grid over (v2, S12) in [-1, 1]^2, rtol = atol = tol.
nlohmann::json figure18_grid_config(std::uint64_t n, double tol = 1e-11);
// The same map with noisy constraints: roughness (noise 2), noise_sigma 0.2, noise_tau 0.5,
// noise_dt 1e-3, realisation 0 (the fixed-step stochastic integrator against the GBS one).
nlohmann::json figure18_noisy_config(std::uint64_t n);
// A rolling workload with noisy constraints on its rim or edge passages (on roll3:inside-cylinder's
// wall all the time): roughness (noise 2), noise_sigma 0.05, noise_tau 0.2, noise_dt 1e-3,
// realisation 0 (the fixed-step stochastic Heun steps, one trajectory at a time, against the GBS
// passages or the closed form of the same scan).
nlohmann::json rough_edge_config(nlohmann::json j);
// The same with a slipping contact (noise 1) instead: on the faces too, which are then stepped.
nlohmann::json slipping_contact_config(nlohmann::json j);
// roll4:disc with gravity, the Figure-20 setting (R 1, r 0.1, eta 0.5, g_effective 1, plate start
// at x1 = -0.715), random v1 in [-2, -0.2] and S12 in [0.3, 0.9].
nlohmann::json roll4_gravity_config(std::uint64_t count, double t_max);
// The same scan asking for the contact-force observables (off the SIMD lanes).
nlohmann::json roll4_contact_config(std::uint64_t count, double t_max);
// The same setting (start, scan, seed, stop) on another roll4 system with its table's parameters:
// e.g. roll4:stadium with half_length 0, the disc through the general table model.
nlohmann::json roll4_table_gravity_config(const char* system, const nlohmann::json& table, std::uint64_t count,
                                          double t_max);
// roll4:stadium (half_length 1, R 1) in that setting with its default observables and the largest
// Lyapunov exponent (the tangent dynamics' cost against the plain run of the same scan, which
// runs on the SIMD lanes where this one cannot).
nlohmann::json roll4_stadium_lyapunov_config(std::uint64_t count, double t_max);
// The rubber ball (no_twist 1) of roll4:stadium in that setting, its spins 0 (S23 and the S12
// axis dropped): the cost per edge passage of the no-twist equations against the rolling ball's.
nlohmann::json roll4_stadium_rubber_config(std::uint64_t count, double t_max);
// roll4:stadium in that setting with a hole in its edge, boundary_s in [0.30, 0.35) (a twentieth
// of the wall, on a cap), and the observables escape_time and hole: the cost of the test at each
// arrival at the edge, per passage, against the plain run (both on the SIMD lanes).
nlohmann::json roll4_stadium_escape_config(std::uint64_t count, double t_max);
// A closed-form rolling system (roll3:strip, roll4:planes: L 1, r 0.3, eta 0.6, g_effective 0.8;
// roll3:inside-cylinder: R 1, r 0.2, a solid ball, g 1) over random v1 in [0.5, 1.5] and v2 in
// [-0.5, 0.5], with the core and height observables and, with lyapunov, the largest Lyapunov
// exponent (the tangent map's cost against the plain run of the same scan).
nlohmann::json closed_form_rolling_config(const char* system, std::uint64_t count, double t_max, bool lyapunov);
// A roll3 system (r 0.1, eta 0.5) with in-plane gravity g_effective 1 along -y and its table's
// parameters (e.g. roll3:stadium with half_length 1, R 1): plate start at (0, 0.5), random v1 in
// [-1, 1] and S12 in [-0.5, 0.5], v2 = 0.
nlohmann::json roll3_table_gravity_config(const char* system, const nlohmann::json& table, std::uint64_t count,
                                          double t_max);
// The exit map of one edge passage of roll3:stadium (rim_entry, r 0.1, eta 0.5, no gravity,
// t_max 200): a grid of 8 entry points boundary_s in [0, 0.875] (caps and straight parts) x
// n x n over (v2, S12) in [-1, 1]^2; points off the energy sphere are masked.
nlohmann::json roll3_stadium_rim_map_config(std::uint64_t n);
// rubber:sphere (a 1, I 1, 1.5, 2, mu 1, Omega0 = e1 projected): random theta in [0.1, 3] and
// ball radius b in [0.5, 3] (outside the fixed sphere), GBS to t_max.
nlohmann::json rubber_sphere_config(std::uint64_t count, double t_max);

// driven:disk, the document's rig (defaults, gamma 1, g 1) from rest, random speed in [-2, 2] and
// drive amplitude in [0, 6] (driven_disk_map.json's ranges), t_max 20, the contact observables.
nlohmann::json driven_disk_config(std::uint64_t count);
// driven:ball on driven_disk_config's grid: the same rig (rails pi/4 apart), from upright with
// the masses below the centre, random wy in [-2, 2] (the disk's speed / r) and drive in [0, 6],
// spin wz 0.5 about the vertical, t_max 20; its rates are given over driven_disk's.
nlohmann::json driven_ball_config(std::uint64_t count);
// driven_ball_config with an asymmetric, unbalanced ball (d1 = 0.6 d2, d3 = 1.3 d2, its centre of
// mass at (0.1, -0.05, -0.2) from the centre): the gyroscopic and offset terms of (2.20); its
// rates are given over driven_ball's.
nlohmann::json driven_ball_asymmetric_config(std::uint64_t count);

// Double-precision operations of one no-slip disc impact from the wall (straight flight, the
// state after impact 1), counted by hand in noslip_trajectory.hpp, tables/disc.hpp,
// tables/hit.hpp, collision.hpp and height_stats.hpp: every add, subtract, multiply, divide and
// square root counts 1 (so an FMA counts 2); sign flips, fabs and comparisons count 0.
//   next_hit: |u|^2 3, -2x 2, (-2x).u 3, / 1, hit point x + t u 4, normal -x/R 2     15
//   flight x + dt u and t + dt                                                        5
//   settle onto the wall (one Newton step)                                            9
//   collision: 2 E0 1, |u|^2 + s^2 before 5, map Eq. (2) 18, defect 2,
//              rescale every 8th impact 12 / 8                                     27.5
//   height sample (drift sums)                                                        8
//   chord distance rho (caustics)                                                    12
constexpr double kDiscFlopsPerImpact = 76.5;

// Double-precision operations of one GBS step of the Figure-18 system (N = 6, K = 6, counted as
// above in gbs.hpp and rolling/disc_transversal.hpp). Only the step itself: the projection,
// the step control and the Newton iterates of the exit (partial steps not in `steps`) are not
// counted, so the flop rate derived from it is a lower bound.
//   right-hand side: w 4, f_c 2, f_s 2, 1/r 1, f 21 = 30; evaluations 1 + sum (n_j - 1) = 37   1110
//   midpoint sweeps n_j = 2j: h 1 and z1 12 each, 18 per substep over 36 substeps              726
//   Aitken-Neville: 15 table updates of 4 + 6 x 3                                               330
//   error estimate: 6 x 6, mean and square root 2                                                38
constexpr double kFigure18FlopsPerStep = 2204.0;

}  // namespace skipstone::bench
