// roll3:<table> and roll4:<table> with noisy constraints (docs/models.md "Noisy constraints"): the
// flights on the plate and the junctions are table_roll.hpp's (a slipping face's flight under
// slip: slipping_face.hpp), and each passage over the plate's edge is integrated by the stochastic Heun scheme of
// noisy_transversal.hpp on the edge system (edge_system.hpp) with the noise, piece by piece of
// the wall. The edge is locally roll4:disc's rim with the wall's curvature kappa(q), so the two
// noises act on it as on the rim (noisy_disc.hpp):
//   slip (type 1): the contact point slips at u = (n1, n2) in the frame (tau, e2); the state
//     holds the rolling part w = v - eta^2 u, the centre moves at v = w + eta^2 u (phi', q' and
//     the reaction terms take v); roll3's in-plane gravity acts on w as on v without noise;
//   roughness (type 2): every eta of the reaction terms becomes eta (1 + n1).
// On a polygon's vertex piece (edge_system.hpp: the ball rolling round the corner point) only
// roughness acts: the piece's rates grow like 1 / (r sin phi) towards the pole above the
// vertex, and a centre moving at w + eta^2 u is driven into it (fixed steps then blow up).
// Roughness keeps the blocks skew, so E1 (roll3 with in-plane gravity: E1 + G y_c) and, for
// roll4, E2 + G x3 hold on every path: the passages are projected onto them after each step.
// Slip exchanges energy with the contact and is not projected (the run does not stop for
// energy drift). A passage that reaches a break of the wall (the stadium's curvature jumps, a
// polygon's vertex piece) stops there and goes on over the next piece with its noise, its
// time grid and its Brownian path carried over (NoiseStart). The run between the passages and
// how the noise is keyed and carried: noisy_passages.hpp.
#pragma once
#include <cmath>
#include <cstdint>

#include "skipstone/rolling/noisy_passages.hpp"
#include "skipstone/rolling/noisy_transversal.hpp"
#include "skipstone/rolling/table_wall.hpp"

namespace skipstone {

// The edge system of a piece of the wall with noisy constraints: y = (the edge system's N_
// components, n1, n2).
template <int N_>
struct NoisyEdgeSystem {
  EdgeSystem<N_, double> edge;
  OuNoise noise;
  static constexpr int N = N_ + 2;
  static constexpr int kFirstNoise = N_;
  static constexpr bool kHasBreaks = true;
  // A slipping contact held at the end `hold` of this piece (+1 its q_hi, -1 its q_lo; 0 free):
  // at a polygon's corner where the slip drives the contact into the vertex piece, whose rolling
  // (without slip) drives it back (noisy_passages.hpp). The contact stays at the vertex with
  // the part of the slip along the wall that keeps it there (u2 = -w2 / eta^2: the centre's
  // velocity along the wall zero), the equivalent control of this sliding motion.
  int hold = 0;

  SKIPSTONE_HD int noises() const { return noise.noises(); }
  SKIPSTONE_HD double diffusion() const { return noise.diffusion(); }
  // slip: driven by the plate's Brownian motion in the frame of the wall point (noisy_transversal.hpp)
  SKIPSTONE_HD int drivers() const { return noise.kind == kNoiseSlip ? 3 : noises(); }
  SKIPSTONE_HD void drive(const double* y, const double* dB, double* dW) const {
    if (noise.kind != kNoiseSlip) return noise_drive_direct(dB, dW);
    const EdgePoint e = edge.arc.point(y[5]);
    slip_drive_in_frame(y, e.e1, e.e2, dB, dW);
  }
  // The noise acting on this piece: slip is off on a polygon's vertex piece, whose rates grow
  // like 1 / (r sin phi) towards the vertex's pole, where a slipping centre would be driven
  // (the noise process runs on, unused, until the next edge piece).
  SKIPSTONE_HD int kind() const {
    return noise.kind == kNoiseSlip && edge.arc.shape == ArcShape::vertex ? kNoiseNone : noise.kind;
  }
  SKIPSTONE_HD void drift(const double* y, double* f) const {
    const double q = y[5];
    double kn, kd, C;
    edge.arc.curvature_terms(q, kn, kd, C);
    const double n2 = hold != 0 ? -y[1] / (edge.eta * edge.eta) : y[N_ + 1];
    const NoisyRates rates = noisy_transversal_rates(kn, kd, C, edge.r, edge.eta, kind(), y[N_], n2, y, f);
    if (edge.inplane_gravity()) {
      double e1y, e2y;
      edge.arc.normal_y(q, e1y, e2y);
      inplane_gravity_rhs(edge.G, y[3], e1y, e2y, f[0], f[1]);
    }
    if constexpr (N_ == 10) noisy_longitudinal_rates(rates, edge.r, edge.G, y, f);
    noise.drift(y + N_, f + N_);
  }

  // Roughness: onto the invariants the edge system projects onto, as noisy_disc.hpp does (the
  // potential's blocks rescaled wherever their target is positive); slip: (cos phi, sin phi).
  SKIPSTONE_HD void project(double* y) const {
    if (noise.kind != kNoiseRoughness) {
      normalise_phi(y);
      return;
    }
    if (edge.inplane_gravity()) {
      normalise_phi(y);
      noisy_rescale_block(y, edge.k1_total - 2.0 * edge.G * edge.centre_height(y));
    } else {
      project_transversal(y, sqrt(edge.k1_total));
    }
    if constexpr (N_ == 10) noisy_rescale_block(y + 6, edge.k2_total - 2.0 * edge.G * y[9]);
  }

  // How many times faster than the ball's own rolling, (|v1| + |v2|) / r, the state turns (the
  // scheme's sub-steps, noisy_transversal.hpp): the rotation rates of the velocity-spin block and
  // of phi, (|fc| + |fs|) |v2| + |v1| / r, with fc, fs the curvature terms of the rates
  // (1 / (r sin phi) on a vertex piece near its pole), over it.
  SKIPSTONE_HD double step_speedup(const double* y) const {
    double kn, kd, C;
    edge.arc.curvature_terms(y[5], kn, kd, C);
    const double w = kn / (kd - edge.r * kn * y[4]);
    const double v1 = fabs(kind() == kNoiseSlip ? y[0] + edge.eta * edge.eta * y[N_] : y[0]);
    const double v2 = hold != 0 ? 0.0 : fabs(wall_velocity(y));
    const double own = (v1 + v2) / edge.r;
    return own > 0.0 ? ((fabs(w * y[3]) + fabs(w * y[4])) * v2 + v1 / edge.r) / own : 1.0;
  }

  // The centre's velocity along the wall (w2 + eta^2 u2 under slip): q moves with its sign.
  SKIPSTONE_HD double wall_velocity(const double* y) const {
    return kind() == kNoiseSlip ? y[1] + edge.eta * edge.eta * y[N_ + 1] : y[1];
  }

  // The edge system's margin to the ends of the piece, its rate with the centre's velocity
  // along the wall; held at a corner, the margin of the two conditions that hold it
  // (hold_margin).
  SKIPSTONE_HD double break_margin(const double* y, double& rate) const {
    if (hold != 0) return hold_margin(y, rate);
    double z[N_];
    for (int k = 0; k < N_; ++k) z[k] = y[k];
    z[1] = wall_velocity(y);
    return edge.break_margin(z, rate);
  }

  // Held (on a slipping piece): the lesser of hold (w2 + eta^2 n2) (the slip drives the contact
  // into the corner) and -hold w2 (the rolling on the vertex piece drives it back), with its rate.
  SKIPSTONE_HD double hold_margin(const double* y, double& rate) const {
    double f[N];
    drift(y, f);
    const double in = hold * wall_velocity(y), back = -hold * y[1];
    rate = in < back ? hold * (f[1] + edge.eta * edge.eta * f[N_ + 1]) : -hold * f[1];
    return in < back ? in : back;
  }
  // At the end of a held passage: whether it ends because the slip stopped driving the contact
  // into the corner (the lesser margin is that one: the run goes on along this piece; else into
  // the vertex piece).
  SKIPSTONE_HD bool released_along_this_piece(const double* y) const { return hold * wall_velocity(y) <= -hold * y[1]; }
};

// One roll3:<table> (N = 6) or roll4:<table> (N = 10) trajectory with noisy constraints
// (noise != 0, double only), from a face, a rim_entry or a state row on the edge (face 0: the run
// goes on with that passage, the noise started as at any start).
template <int N, TableKind TK, class Sink>
SKIPSTONE_HD TrajectoryResult simulate_noisy_table_roll(const ScanSpec& spec, const ScanPoint& pt, std::uint64_t index,
                                                        Sink& sink) {
  const RollNoise noise = roll_noise(spec, pt, CounterNoise{trajectory_noise_key(spec, pt, index)});
  double* row = take_state_row(sink);
  const auto noisy_system = [&](const auto& r) { return NoisyEdgeSystem<N>{r.sys, noise.ou}; };
  if (starts_on_edge_state_row(spec, pt.p))
    return with_table_roll_edge_start<N, TK>(spec, pt, [&](const auto& table, const RollModel& m,
                                                           const RollOptions& opt, const EdgeArc& arc, const double* y0) {
      TableRollRun<decltype(table_wall<N>(table))> run;
      double y[N];
      run.start_on_edge(table_wall<N>(table), m, arc, y0, noisy_roll_options(opt, noise.ou), sink, y);
      return finish_noisy_roll(run, noise, true, y, row, sink, noisy_system);
    });
  return with_table_roll_start<N, TK>(spec, pt, [&](const auto& table, const RollModel& m, const PlateState& s,
                                                    const RollOptions& opt, int entry_part) {
    TableRollRun<decltype(table_wall<N>(table))> run;
    run.start(table_wall<N>(table), m, s, noisy_roll_options(opt, noise.ou), sink);
    double y[N];
    if (entry_part >= 0) run.enter_at_start(entry_part, y);
    return finish_noisy_roll(run, noise, entry_part >= 0, y, row, sink, noisy_system);
  });
}

}  // namespace skipstone
