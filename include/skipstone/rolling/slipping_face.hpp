// The flat faces of roll4:disc, roll3:<table> and roll4:<table> under a slipping contact (noise 1,
// docs/models.md "Noisy constraints", slip on the faces). On a face the slip u (tangent to the
// plate, no component along roll4's axis, as on the edge) enters Newton-Euler as on the edge with
// a zero shape operator: with the rolling part w = v - eta^2 u of the centre's velocity,
//   w' = G (the rolling ball's gravity in the plate: roll3's in-plane gravity, else 0),
//   x' = v = w + eta^2 u,   the spins and roll4's axial motion as without slip,
// so the rolling part flies the face's closed-form flight (fly_plate) and the centre is carried
// off it by eta^2 X, X' = u. The pair (X, u) is stepped by the stochastic Heun scheme of
// noisy_transversal.hpp (u the Ornstein-Uhlenbeck process) on the trajectory's time grid, the
// noise carried over from the edge passage before (NoiseStart, in the plate's coordinates here)
// and on to the one after; it is driven by the plate's Brownian motion (B_x, B_y), whose frame
// components drive the edge (noisy_transversal.hpp, slip_drive_in_frame). The wall crossing is
// searched on the line between the centre's positions at the ends of each step by the wall's own
// flight solve (time_to_wall), so the entry point lies on the wall (a line shorter than the
// wall's clearance around its start, a lower bound on the distance to the wall, asks no solve);
// the state there is the Hermite interpolant of X with u linear, as at a passage's exit. Samples
// (trace --sample, height_series) lie on the same interpolant; the section search (on_flight)
// gets each step's line; the trace gets a row at every step.
// Heights: roll4's x3 is the flight's (no slip along the axis); roll3's y carries the slip, and
// its extremes are taken at the step points as on the edge.
#pragma once
#include <cstdint>

#include "skipstone/rolling/edge_arc.hpp"
#include "skipstone/rolling/noisy_transversal.hpp"
#include "skipstone/rolling/table_roll.hpp"

namespace skipstone {

// The centre's displacement by the slip and the slip itself, in the plate's coordinates:
// y = (X1, X2, u1, u2), X' = u, u an Ornstein-Uhlenbeck process (both components move).
struct FaceSlipSystem {
  OuNoise noise;
  static constexpr int N = 4;
  static constexpr int kFirstNoise = 2;

  SKIPSTONE_HD int noises() const { return 2; }
  SKIPSTONE_HD double diffusion() const { return noise.diffusion(); }
  SKIPSTONE_HD void drift(const double* y, double* f) const {
    f[0] = y[2];
    f[1] = y[3];
    noise.drift(y + 2, f + 2);
  }
};

// The carried noise across a junction at the wall point with frame (e1, e2) on the sheet sg: the
// frame's components (n1, n2) along (tau, e2) are the plate vector sg n1 e1 + n2 e2, as
// plate_to_edge and edge_to_plate map the velocity. The rest of a cut step's increments is the
// plate's Brownian motion's on both sides (noisy_transversal.hpp, slip_drive_in_frame).
SKIPSTONE_HD SKIPSTONE_INLINE NoiseStart slip_across_junction(NoiseStart c, double sg, Vec2 e1, Vec2 e2,
                                                              bool to_frame) {
  const Vec2 v{c.n[0], c.n[1]};
  if (to_frame) {
    c.n[0] = sg * dot(v, e1);
    c.n[1] = dot(v, e2);
  } else {
    const Vec2 p = (sg * v.x) * e1 + v.y * e2;
    c.n[0] = p.x;
    c.n[1] = p.y;
  }
  return c;
}

// The same at the wall point of the run's current frame state y (an entry or an exit).
template <class Run>
SKIPSTONE_HD NoiseStart slip_at_edge(const NoiseStart& c, const Run& run, const double* y, bool to_frame) {
  const EdgePoint e = run.wall.edge_point(run.sys, y);
  return slip_across_junction(c, y[3] > 0.0 ? 1.0 : -1.0, e.e1, e.e2, to_frame);
}

// The flat part to the wall with the contact slipping, from the run's face state (its rolling
// part) and `carry`, the noise where the flight starts (plate coordinates; on return where it
// ends, for the passage that follows). normal_left: the outward normal of the wall point a flight
// after an exit starts from (zero for a run's first flight). Returns whether an edge passage follows (its entry state written to
// y), as TableRollRun::fly_to_edge does; the steps count in the run's step budget.
// A first step after an exit that ends off the plate (the slip turned a grazing exit round)
// re-enters the edge at the point it left, when the step's cubic Hermite of the centre's
// distance along normal_left comes back to zero (the end of the step if it does not).
template <class Wall, class Sink, class Noise>
SKIPSTONE_HD bool fly_slipping(TableRollRun<Wall>& run, Sink& sink, const OuNoise& ou, const Noise& noise, double h,
                               NoiseStart& carry, Vec2 normal_left, double* y) {
  using Run = TableRollRun<Wall>;
  constexpr int N = Run::N;
  run.flight = 0.0;
  if (!(run.events < run.opt.max_events && run.t < run.opt.t_max)) return false;
  const FaceSlipSystem sys{ou};
  const PlateState s0 = run.s;
  const double t0 = run.t, t_left = run.opt.t_max - t0;
  const double G = run.m.G;  // the rolling part's flight: roll3's in-plane, roll4's axial gravity
  const double e2 = run.m.eta * run.m.eta;
  const bool from_wall = run.wall.on_wall();
  const bool after_exit = normal_left.x != 0.0 || normal_left.y != 0.0;  // a start on the rim moving out enters at once
  const auto centre_at = [&](double tau, const double* z) {
    PlateState s = fly_plate<N>(s0, tau, G);
    s.p = s.p + e2 * Vec2{z[0], z[1]};
    return s;
  };
  double z[4] = {0.0, 0.0, carry.n[0], carry.n[1]}, f0[4], z1[4], f1[4], dB[3] = {0.0, 0.0, 0.0};
  sys.drift(z, f0);
  const bool rest = carry.rest_h > 0.0;  // step 0 finishes the step the junction cut
  const double shift = rest ? h - carry.rest_h : 0.0;
  PlateState s_prev = s0;
  double tk = 0.0;
  std::uint64_t step = carry.step;
  // The flight ends where the current step starts (t_max, the step budget spent, a failure): the
  // noise there goes on to whatever follows.
  const auto end_at_step_start = [&](double t_end) {
    run.s = s_prev;
    run.t = t_end;
    run.flight = t_end - t0;
    carry = {true, {z[2], z[3]}, step, 0.0, {0.0, 0.0, 0.0}};
    return run.arrive(sink, true, -1, y);
  };
  for (std::uint64_t k = 0;; ++k) {
    tk = k == 0 ? 0.0 : static_cast<double>(k) * h - shift;
    step = carry.step + k;  // this step's index on the trajectory's grid
    const double hk = k == 0 ? h - shift : h;
    const bool at_t_max = !(t_left - tk > 1e-9 * h);
    if (at_t_max) return end_at_step_start(run.opt.t_max);
    if (run.steps >= run.opt.max_steps) {
      run.status = Status::integrator_failure;
      return end_at_step_start(t0 + tk);
    }
    const bool to_end = t_left - tk < hk;  // the last step, shortened to end at t_max
    const double hs = to_end ? t_left - tk : hk;
    const bool cut_before = rest && k == 0;
    // driven by (B_x, B_y); B_nu drives the edge only, drawn below if a passage follows this step
    for (int i = 0; i < 2; ++i) dB[i] = cut_before ? carry.rest_dW[i] * (hs / hk) : noise.increment(i, step, hs);
    heun_step(sys, z, f0, hs, dB, z1);
    sys.drift(z1, f1);
    ++run.steps;
    PlateState s1 = centre_at(tk + hs, z1);
    if (!(isfinite(s1.p.x) && isfinite(s1.p.y) && isfinite(z1[2]) && isfinite(z1[3]))) {
      run.status = Status::non_finite;
      return end_at_step_start(t0 + tk);
    }
    PlateState line = s_prev;  // the centre's line over the step, for the wall's flight solve
    line.u = (1.0 / hs) * (s1.p - s_prev.p);
    int part = kWallMissed;
    double dt = INFINITY;
    // A line shorter than the clearance around its start stays on the plate: no solve.
    if (!(hs * norm(line.u) < run.wall.clearance(s_prev.p))) {
      dt = run.wall.time_to_wall(line, 0.0, hs, part);
      if (part == kWallMissed) {
        run.status = Status::integrator_failure;
        return end_at_step_start(t0 + tk);
      }
    }
    // back over the wall point the flight started from (the wall's solve from a wall point finds
    // the next crossing, or none at all on the part it starts on: roll4:disc's says 0 for a line
    // heading out)
    bool back = false;
    if (k == 0 && after_exit && (!(dt <= hs) || dt == 0.0) && !run.wall.contains(s1.p)) {
      const double v0 = dot(normal_left, s0.u + e2 * Vec2{z[2], z[3]});
      const double v1 = dot(normal_left, s1.u + e2 * Vec2{z1[2], z1[3]});
      const double theta = noisy_exit_theta(0.0, -hs * v0, -dot(normal_left, s1.p - s0.p), -hs * v1);
      dt = (theta > 0.0 ? theta : 1.0) * hs;
      part = run.wall.wall_part();
      back = true;
    }
    run.wall.off_wall();
    const bool hit = dt <= hs;
    const double theta = hit ? dt / hs : 1.0;
    if (hit) {
      noisy_step_between<4, 2>(z, f0, z1, f1, hs, theta, z1);
      s1 = centre_at(tk + dt, z1);
      s1.p = back ? s0.p : s_prev.p + dt * line.u;  // on the wall
    }
    const double t1 = t0 + tk + theta * hs;
    if constexpr (wants_samples<Sink>::value) {
      for (double ts = sink.next_sample(); ts <= t1; ts = sink.next_sample()) {
        double zs[4];
        noisy_step_between<4, 2>(z, f0, z1, f1, hs, (ts - t0 - tk) / hs, zs);
        const auto row = run.wall.plate_row(ts == t1 ? s1 : centre_at(ts - t0, zs), run.m.r);
        sink.on_sample(ts, row.x, row.state, row.nu);
      }
    }
    if constexpr (has_on_flight<Sink>::value) {
      const auto row = run.wall.plate_row(line, run.m.r);  // the line: no in-plane gravity
      sink.on_flight(t0 + tk, theta * hs, row.x, row.state, run.wall.flight_acceleration(N == 6 ? 0.0 : double(run.m.G)));
    }
    if constexpr (N == 6) run.hs.extremum(s1.p.y);
    if (hit || to_end) {
      const double tau = tk + theta * hs;
      if constexpr (N == 10) run.flight_apex(s0, tau);
      if constexpr (Wall::kChords) {
        if (hit && from_wall && !back) run.chords.add(s0.p, s1.p - s0.p);  // the secant, wall to wall
      }
      dB[2] = cut_before ? carry.rest_dW[2] * (hs / hk) : noise.increment(2, step, hs);
      const double rest_h = (1.0 - theta) * hs;
      carry = {true, {z1[2], z1[3]}, step + (rest_h > 0.0 ? 0 : 1), rest_h,
               {(1.0 - theta) * dB[0], (1.0 - theta) * dB[1], (1.0 - theta) * dB[2]}};
      run.s = s1;
      run.flight = tau;
      run.t = hit ? t1 : run.opt.t_max;
      return run.arrive(sink, !hit, part, y);
    }
    run.emit(sink, t1, s1, run.m.r);
    for (int i = 0; i < 4; ++i) {
      z[i] = z1[i];
      f0[i] = f1[i];
    }
    s_prev = s1;
  }
}

}  // namespace skipstone
