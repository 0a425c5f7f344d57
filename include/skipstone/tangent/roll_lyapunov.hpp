// The largest finite-time Lyapunov exponent of a rolling ball on a table (rolling/table_roll.hpp)
// from its tangent dynamics: one tangent vector rides along the trajectory,
//   flat parts:  the closed-form flight's exact tangent map (tangent/roll_junction.hpp),
//   N^c:         the variational equations in the same GBS steps as the state
//                (tangent/rim_tangent.hpp: Df delta by forward differentiation of the rhs),
//   junctions:   the saltation matrices of the entry, the exit and the breaks of the wall
//                (tangent/roll_junction.hpp),
// and is renormalised after every junction (the Benettin method, as tangent/lyapunov_frame.hpp
// does for the no-slip models). With R_k the norms divided by and the final norm included, at
// the end of the run (time t, N edge passages; the walls' junction frames and the kernels'
// entry points: tangent/roll_lyapunov_systems.hpp)
//   lambda = (1/t) sum log R_k   (`lyapunov`),   mu = (1/N) sum log R_k   (`lyapunov_per_event`).
//
// Coordinates: the vector lives in the coordinates the run keeps its state in (plate
// coordinates on a flat part, the frame state on N^c: roll_junction.hpp), and each norm is the
// Euclidean one of those components. The junction maps between them are linear on the tangent
// vectors with bounded inverses on a bounded energy shell, and the renormalisations are scalars,
// which commute with every linear map: the sum of the logs is log |delta(t)| / |delta(0)| in
// whatever coordinates delta(t) is read, and another choice of coordinates or norm changes it by
// a bounded amount, the exponent by O(1/t).
//
// Neutral directions: the flow direction, the changes of the invariants (E1, E2 + G x3) and, on
// the disc, the rotation about its axis grow at most linearly (a shear between neighbouring
// energies), log(t)/t in the exponent; they do not hide a positive largest
// exponent, which a generic vector picks up. The start vector is the uniform one in plate
// coordinates (1, ..., 1) / sqrt(N - 1), and it is not projected off them: on an integrable
// table the exponent then decays like log(t)/t (tested on roll4:disc).
//
// A start on N^c (a state row inside an edge passage: go_on_edge) starts the vector in edge
// coordinates. The frame state has N components with (y[3], y[4]) = (cos phi, sin phi) on the
// unit circle, so a tangent vector there has (d[3], d[4]) = (-sin phi, cos phi) dphi: the start
// vector is the uniform one (1, ..., 1) / sqrt(N - 1) in the passage's natural coordinates
// (v1, v2, S12, phi, q[, v3, S13, S23, x3]), its phi component mapped so; its Euclidean norm in
// edge coordinates is 1 as well.
//
// The run is the plain run's own (TableRollRun): the same steps, the same outputs (the final
// state row included); only the tangent vector is added. A sink that asks for samples (trace
// --sample) gets the plain run (disc_output.hpp's exact stops are not followed by the tangent
// vector).
#pragma once
#include <cmath>
#include <cstdint>

#include "skipstone/result.hpp"
#include "skipstone/rolling/table_roll.hpp"
#include "skipstone/tangent/rim_tangent.hpp"
#include "skipstone/tangent/roll_junction.hpp"

namespace skipstone {

template <class Wall>
struct RollLyapunovRun {
  using Sys = typename Wall::Sys;
  using TSys = TangentRimSystem<Sys>;
  static constexpr int N = Sys::N, P = N - 1, K = kRimExtrapolationDepth;

  TableRollRun<Wall> run;
  double d[N];        // the tangent vector: plate coordinates (P components) or edge coordinates
  bool edge_coords;   // d is in edge coordinates (the run is on N^c)
  double log_growth;  // the sum of the logs of the renormalisations
  std::uint64_t breaks;  // breaks of the wall crossed on N^c
  bool saltation = true;    // false: the junctions without their time shifts (tests only)
  bool renormalise = true;  // false: the raw tangent map (tests only)

  // One trajectory from s0 with the start tangent d0 (plate coordinates; nullptr: the uniform
  // vector); the run's result with the exponents.
  // entry_part >= 0: s0 is a wall point of that part moving outward, and the run is the one
  // passage that starts there (a rim_entry start: run_table_roll), d0 its tangent before the
  // entry.
  template <class Sink>
  SKIPSTONE_HD TrajectoryResult go(const Wall& wall, const RollModel& m, const PlateState& s0, const RollOptions& opt,
                                   Sink& sink, const double* d0 = nullptr, int entry_part = -1) {
    double* row = table_state_row<Wall>(sink);
    run.start(wall, m, s0, opt, sink);
    for (int i = 0; i < P; ++i) d[i] = d0 ? d0[i] : 1.0 / sqrt(double(P));
    edge_coords = false;
    log_growth = 0.0;
    breaks = 0;
    double Y[2 * N];
    bool on_edge = true;
    if (entry_part >= 0) run.enter_at_start(entry_part, Y);
    else on_edge = run.fly_to_edge(sink, Y);
    after_flight(on_edge, Y);
    return passages(sink, Y, on_edge, row);
  }

  // One trajectory from the frame state y0 inside a passage on the wall's piece `piece`
  // (TableRollRun::start_on_edge) with the start tangent d0 in the passage's natural coordinates
  // (v1, v2, S12, phi, q[, v3, S13, S23, x3]; nullptr: the uniform vector), carried into edge
  // coordinates (the header comment); the run's result with the exponents.
  template <class Sink>
  SKIPSTONE_HD TrajectoryResult go_on_edge(const Wall& wall, const RollModel& m, const typename Wall::Piece& piece,
                                           const double* y0, const RollOptions& opt, Sink& sink,
                                           const double* d0 = nullptr) {
    double* row = table_state_row<Wall>(sink);
    double Y[2 * N];
    run.start_on_edge(wall, m, piece, y0, opt, sink, Y);
    for (int i = 0, k = 0; i < N; ++i) {
      if (i == 4) continue;  // (d[3], d[4]) from the phi component d0[3]
      d[i] = d0 ? d0[k] : 1.0 / sqrt(double(P));
      ++k;
    }
    const double dphi = d[3];
    d[3] = -y0[4] * dphi;
    d[4] = y0[3] * dphi;
    edge_coords = true;
    log_growth = 0.0;
    breaks = 0;
    for (int i = 0; i < N; ++i) Y[N + i] = d[i];
    return passages(sink, Y, true, row);
  }

 private:
  // The passages after a start, from the state and tangent vector in Y (on_edge: a passage from
  // Y follows), and the exponents at the end; `row` (if not null) receives the state row there.
  template <class Sink>
  SKIPSTONE_HD TrajectoryResult passages(Sink& sink, double* Y, bool on_edge, double* row) {
    const RollOptions& opt = run.opt;
    EdgeSectionOf<Sink, Wall> section;  // the section's search of the steps (the state part of Y)
    if constexpr (has_on_flight<Sink>::value) section.rtol = opt.rtol, section.atol = opt.atol;
    while (on_edge) {
      const TSys tsys{run.sys};
      RimStepper<K, TSys, double> stepper;
      EdgeSteps<Sink, Wall> steps_sink = run.edge_steps(sink, &section);
      stepper.start(tsys, Y, run.t_left(), run.steps_left(), steps_sink);
      double h, y_step[2 * N];
      while (stepper.next_step(h)) {
        const double err = gbs_step<2 * N, K>(tsys, stepper.y(), h, y_step, opt.rtol, opt.atol);
        stepper.take(y_step, err, steps_sink);
      }
      const RimRun<2 * N, double>& whole = stepper.run();
      RimRun<N, double> state{whole.status, whole.side, whole.t, whole.steps, {}};
      for (int i = 0; i < N; ++i) {
        state.y[i] = whole.y[i];
        d[i] = whole.y[N + i];
      }
      double f_edge[N];
      run.sys.rhs(state.y, f_edge);
      const EdgeFrame fr = junction_frame(run.wall, run.sys, state.y);
      const EdgeEnd next = run.leave_piece(state, Y);
      if (next == EdgeEnd::next_piece) {  // on over the next piece of the wall from Y
        double f_after[N];
        run.sys.rhs(Y, f_after);
        tangent_cross_break<N>(d, f_edge, f_after, saltation);
        ++breaks;
        for (int i = 0; i < N; ++i) Y[N + i] = d[i];
        continue;
      }
      if (next != EdgeEnd::plate) break;
      double dp[P];
      tangent_leave_edge<N>(d, state.y, f_edge, fr, run.s, run.m.G, dp, saltation);
      for (int i = 0; i < P; ++i) d[i] = dp[i];
      edge_coords = false;
      rescale();
      on_edge = run.fly_to_edge(sink, Y);
      after_flight(on_edge, Y);
    }
    if constexpr (Wall::kStateRows) {
      if (row) run.write_state_row(Y, row);
    }
    TrajectoryResult res = run.result();
    const double total = log_growth + 0.5 * log(norm2());
    res.lyapunov = res.t_end > 0.0 ? total / res.t_end : NAN;
    res.lyapunov_per_event = res.events > 0 ? total / double(res.events) : NAN;
    return res;
  }

  SKIPSTONE_HD int dim() const { return edge_coords ? N : P; }
  SKIPSTONE_HD double norm2() const {
    double s = 0.0;
    for (int i = 0; i < dim(); ++i) s += d[i] * d[i];
    return s;
  }
  SKIPSTONE_HD void rescale() {
    if (!renormalise) return;
    const double r = sqrt(norm2());
    log_growth += log(r);
    for (int i = 0; i < dim(); ++i) d[i] /= r;
  }

  // The flight fly_to_edge has just made, and the entry into N^c if one follows (its state in
  // Y[0 .. N); the tangent vector goes to Y[N .. 2N)).
  SKIPSTONE_HD void after_flight(bool on_edge, double* Y) {
    tangent_plate_flight<N>(d, run.flight);
    if (!on_edge) return;
    double f_edge[N];
    run.sys.rhs(Y, f_edge);
    tangent_enter_edge<N>(d, run.s, run.m.G, junction_frame(run.wall, run.sys, Y), f_edge, Y + N, saltation);
    for (int i = 0; i < N; ++i) d[i] = Y[N + i];
    edge_coords = true;
    rescale();
    for (int i = 0; i < N; ++i) Y[N + i] = d[i];
  }
};

}  // namespace skipstone
