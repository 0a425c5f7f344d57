// CPU backend only: the trajectories of a roll3:<table> or roll4:<table> scan (rolling/
// table_wall.hpp; paper Proposition 12 with the wall's curvature kappa(q)) in the SIMD lanes of
// rim_lane_block.hpp: the edge passages of W trajectories integrated together, each trajectory's
// flights, junctions and breaks of the wall (a passage that reaches the end of a piece goes on
// over the next piece, without a flight) done on its own, exactly as run_table_roll does them,
// so the results are the one-trajectory kernel's bit for bit (tests/test_rim_lanes.cpp).
// The edge system's right-hand side (edge_system.hpp) in lanes: the curvature of each lane's
// piece as kn / kd and its coordinate rate C / kd (edge_arc.hpp), constant on a line, circle or
// vertex piece and computed per lane from the ellipse's q; roll3's in-plane gravity per lane from
// e1(q), e2(q) of its piece. The sines and cosines of q are poly_sincos's, so every lane loop
// vectorises and is the scalar EdgeSystem::rhs's arithmetic, lane by lane. In scalar type T
// (double, or float for the float kernels: twice the lanes per register).
#pragma once
#include <cstdint>

#include "skipstone/noslip_model.hpp"
#include "skipstone/rolling/noisy_table.hpp"
#include "skipstone/rolling/table_wall.hpp"
#include "skipstone/sinks.hpp"

namespace skipstone::cpu_lanes {

// The edge system of W lanes (N = 6: roll3, N = 10: roll4), each on its own piece of the wall.
// Ellipse: kn, kd, C and the frame depend on q (the ellipse table, semi-axes a, b); else kn, kd,
// C are the pieces' constants and the frame e1_ref turned by turn (q - q_ref).
template <class T, int N, int W, bool Ellipse>
struct EdgeLanes {
  T kn[W], kd[W], C[W], r[W], eta[W], G[W];
  T turn[W], q_ref[W], e1x_ref[W], e1y_ref[W];  // line, circle, vertex
  T a[W], b[W];                                 // ellipse

  // Lane l on the piece of `sys`.
  void set(int l, const EdgeSystem<N, T>& sys) {
    const EdgeArcT<T>& arc = sys.arc;
    kn[l] = arc.kn;
    kd[l] = arc.kd;
    C[l] = arc.kc;
    turn[l] = arc.turn;
    q_ref[l] = arc.q_ref;
    e1x_ref[l] = arc.e1_ref.x;
    e1y_ref[l] = arc.e1_ref.y;
    a[l] = arc.a;
    b[l] = arc.b;
    r[l] = sys.r;
    eta[l] = sys.eta;
    G[l] = sys.G;
  }

  __attribute__((always_inline)) void rhs(const T* y, T* f) const {
    T n_q[W], d_q[W], C_q[W];
    const T *n = kn, *d = kd, *c = C;
    if constexpr (Ellipse) {
      for (int l = 0; l < W; ++l) ellipse_terms(a[l], b[l], y[5 * W + l], n_q[l], d_q[l], C_q[l]);
      n = n_q, d = d_q, c = C_q;
    }
    for (int l = 0; l < W; ++l) {
      T fc, fs;
      edge_transversal_rhs<W>(n[l], d[l], c[l], r[l], eta[l], y + l, f + l, fc, fs);
      if constexpr (N == 10) longitudinal_rhs<W>(fc, fs, r[l], eta[l], G[l], y + l, f + l);
    }
    if constexpr (N == 6) {
      bool gravity = false;
      for (int l = 0; l < W; ++l) gravity = gravity || G[l] != T(0);
      if (!gravity) return;
      for (int l = 0; l < W; ++l) {  // as EdgeSystem::rhs, in the lanes with gravity
        const T q = y[5 * W + l];
        T e1y, e2y;
        if constexpr (Ellipse) ellipse_normal_y(a[l], b[l], q, e1y, e2y);
        else turned_normal_y(turn[l], q_ref[l], e1x_ref[l], e1y_ref[l], q, e1y, e2y);
        T f0 = f[l], f1 = f[W + l];
        inplane_gravity_rhs(G[l], y[3 * W + l], e1y, e2y, f0, f1);
        f[l] = G[l] != T(0) ? f0 : f[l];
        f[W + l] = G[l] != T(0) ? f1 : f[W + l];
      }
    }
  }
};

// The trajectories of a roll3:<table> (N = 6) or roll4:<table> (N = 10) scan on table TK, in T.
template <class T, int N, TableKind TK, int W>
struct TableRollTrajectories {
  using Scalar = T;
  using Table = decltype(plane_table_of<TK>(std::declval<const ScanSpec&>(), std::declval<const ScanPoint&>()));
  using Wall = TableWall<Table, N, T>;
  using Sys = EdgeSystem<N, T>;
  using Stepper = RimStepper<kRimExtrapolationDepth, Sys, T>;
  static constexpr int kLanes = W;
  static constexpr std::uint64_t kBlock = 2 * W;  // trajectories per block (each has many passages)

  EdgeLanes<T, N, W, TK == TableKind::ellipse> lanes{};
  TableRollRun<Wall> run[W];
  const ScanSpec* spec;
  DiscardSink sink;

  TableRollTrajectories(const ScanSpec& s) : spec(&s) {
    for (int l = 0; l < W; ++l)  // lanes never filled compute on finite numbers
      lanes.r[l] = lanes.kd[l] = lanes.C[l] = lanes.a[l] = lanes.b[l] = T(1);
  }

  bool begin(int l, std::uint64_t index, Stepper& stepper, TrajectoryResult& out) {
    const ScanPoint pt = scan_point(*spec, index);
    if (pt.p[P_NOISE] != kNoiseNone) {  // fixed-step stochastic passages: one trajectory at a time, in double
      out = simulate_noisy_table_roll<N, TK>(*spec, pt, index, sink);
      return false;
    }
    const Table table = plane_table_of<TK>(*spec, pt);
    RollModel m;
    PlateState s;
    RollOptions opt;
    int entry_part;
    EdgeArc arc;
    double y0[N];
    if (table_roll_edge_setup<N>(table, *spec, pt, m, opt, arc, y0)) {  // a state row on the edge
      T yt[N], y[N];
      for (int i = 0; i < N; ++i) yt[i] = T(y0[i]);
      run[l].start_on_edge(table_wall<N, T>(table), roll_model_as<T>(m), arc, yt, opt, sink, y);
      start_piece(l, stepper, y);
      return true;
    }
    if (!table_roll_setup<N>(table, *spec, pt, m, s, opt, entry_part)) {
      out = masked_result();
      return false;
    }
    run[l].start(table_wall<N, T>(table), roll_model_as<T>(m), plate_state_as<T>(s), opt, sink);
    if (entry_part < 0) return fly(l, stepper, out);
    T y[N];
    run[l].enter_at_start(entry_part, y);
    start_piece(l, stepper, y);
    return true;
  }
  void take(int l, Stepper& stepper, T* y, T err) {
    auto steps = run[l].edge_steps(sink);
    stepper.take(y, err, steps);
  }
  // The passage over lane l's piece is over: the next piece, or the junction and the flight to
  // the next passage.
  bool next_passage(int l, Stepper& stepper, TrajectoryResult& out) {
    T y[N];
    const EdgeEnd next = run[l].leave_piece(stepper.run(), y);
    if (next == EdgeEnd::over) {
      out = run[l].result();
      return false;
    }
    if (next == EdgeEnd::plate) return fly(l, stepper, out);
    start_piece(l, stepper, y);
    return true;
  }

 private:
  bool fly(int l, Stepper& stepper, TrajectoryResult& out) {
    T y[N];
    if (!run[l].fly_to_edge(sink, y)) {
      out = run[l].result();
      return false;
    }
    start_piece(l, stepper, y);
    return true;
  }
  void start_piece(int l, Stepper& stepper, const T* y) {
    lanes.set(l, run[l].sys);
    auto steps = run[l].edge_steps(sink);
    stepper.start(run[l].sys, y, T(run[l].t_left()), run[l].steps_left(), steps);
  }
};

}  // namespace skipstone::cpu_lanes
