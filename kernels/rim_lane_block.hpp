// CPU backend only: a block of rolling trajectories whose rim passages (paper Proposition 12 with
// kappa = -1/R) run W at a time in SIMD lanes - the Figure-18 system (roll4:disc-transversal, one
// passage per trajectory) and roll4:disc (passages between flat-part flights, Figures 19-20); the
// rolling tables' trajectories (table_roll_lanes.hpp) run in the same block. Each lane holds one
// passage's RimStepper (rim_passage.hpp), which decides its next GBS step (an adaptive step, a
// Newton iterate of the exit, the step to the exit); gbs_step_lanes (gbs.hpp) computes the steps of
// all W lanes together, its loops over the lanes vectorised by the compiler, and each stepper takes
// its own. When a lane's passage is over, its trajectory goes on on its own (roll4:disc: the
// junction and the flight to the next passage) and either starts its next passage in the lane or
// writes its result, and the lane takes the next trajectory of the block. Each trajectory is set
// up, stepped and reported exactly as its one-trajectory kernel does it (simulate_disc_transversal,
// simulate_roll4_disc), so the results are that kernel's, bit for bit (tests/test_rim_lanes.cpp).
#pragma once
#include <cstdint>

#include "lane_held.hpp"
#include "skipstone/rolling/disc_transversal.hpp"
#include "skipstone/rolling/noisy_disc.hpp"
#include "skipstone/rolling/noisy_disc_transversal.hpp"
#include "skipstone/rolling/roll4_disc.hpp"
#include "skipstone/sinks.hpp"

namespace skipstone::cpu_lanes {

// The transversal right-hand side of W lanes, each with its own parameters.
template <class T, int W>
struct TransversalLanes {
  T kappa[W], r[W], eta[W];

  __attribute__((always_inline)) void rhs(const T* y, T* f) const {
    for (int l = 0; l < W; ++l) {
      T fc, fs;
      disc_transversal_rhs<W>(kappa[l], r[l], eta[l], y + l, f + l, fc, fs);
    }
  }
};

// Both blocks of roll4:disc on N^c for W lanes.
template <class T, int W>
struct DiscRimLanes {
  T kappa[W], r[W], eta[W], G[W];

  __attribute__((always_inline)) void rhs(const T* y, T* f) const {
    for (int l = 0; l < W; ++l) disc_rim_rhs<W>(kappa[l], r[l], eta[l], G[l], y + l, f + l);
  }
};

// The trajectories of a Figure-18 scan in a lane block: one passage each.
template <class T, int W>
struct TransversalTrajectories {
  using Scalar = T;
  using Sys = TransversalPassage<T>;
  using Stepper = RimStepper<kRimExtrapolationDepth, Sys, T>;
  static constexpr int kLanes = W;
  static constexpr std::uint64_t kBlock = 256;  // trajectories per block (the passages are short)

  TransversalLanes<T, W> lanes{};
  const ScanSpec* spec;
  DiscardSink sink;

  TransversalTrajectories(const ScanSpec& s) : spec(&s) {
    for (int l = 0; l < W; ++l) lanes.r[l] = T(1);  // lanes never filled compute on finite numbers
  }

  // Trajectory `index` into lane l: false when it is over at once (`out` written).
  bool begin(int l, std::uint64_t index, Stepper& stepper, TrajectoryResult& out) {
    const ScanPoint pt = scan_point(*spec, index);
    if (pt.p[P_NOISE] != kNoiseNone) {  // fixed-step stochastic passages: one at a time, in double
      out = simulate_noisy_transversal(*spec, pt, index, sink);
      return false;
    }
    const TransversalStart<T> st = disc_transversal_start<T>(*spec, pt);
    if (st.masked) {
      out = masked_result();
      return false;
    }
    stepper.start(st.passage, st.y0, T(spec->t_max), spec->max_steps, sink);
    lanes.kappa[l] = st.passage.sys.kappa;
    lanes.r[l] = st.passage.sys.r;
    lanes.eta[l] = st.passage.sys.eta;
    return true;
  }
  void take(int, Stepper& stepper, T* y, T err) { stepper.take(y, err, sink); }
  // The passage in lane l is over: so is its trajectory.
  bool next_passage(int, Stepper& stepper, TrajectoryResult& out) {
    out = disc_transversal_result(rim_passage_of(stepper.system(), stepper.run()));
    return false;
  }
};

// The trajectories of a roll4:disc scan in a lane block: passages between flat-part flights.
template <class T, int W>
struct DiscRollTrajectories {
  using Scalar = T;
  using Sys = DiscRimSystemT<T>;
  using Stepper = RimStepper<kRimExtrapolationDepth, Sys, T>;
  static constexpr int kLanes = W;
  static constexpr std::uint64_t kBlock = 2 * W;  // trajectories per block (each has many passages)

  DiscRimLanes<T, W> lanes{};
  DiscRollRunT<T> run[W];
  const ScanSpec* spec;
  DiscardSink sink;

  DiscRollTrajectories(const ScanSpec& s) : spec(&s) {
    for (int l = 0; l < W; ++l) lanes.r[l] = T(1);  // lanes never filled compute on finite numbers
  }

  bool begin(int l, std::uint64_t index, Stepper& stepper, TrajectoryResult& out) {
    const ScanPoint pt = scan_point(*spec, index);
    if (pt.p[P_NOISE] != kNoiseNone) {  // fixed-step stochastic passages: one trajectory at a time, in double
      out = simulate_noisy_roll4_disc(*spec, pt, index, sink);
      return false;
    }
    DiscRollModelT<T> m;
    PlateStateT<T> s;
    RollOptions opt;
    T theta, y0[10];
    if (roll4_disc_edge_setup(*spec, pt, m, opt, theta, y0)) {  // a state row on the edge
      T y[10];
      run[l].start_on_edge(DiscWall<T>{m.R, T(0), false}, RollModelT<T>{m.r, m.eta, m.G, m.g}, theta, y0, opt, sink, y);
      start_passage(l, stepper, y);
      return true;
    }
    if (!roll4_disc_setup(*spec, pt, m, s, opt)) {
      out = masked_result();
      return false;
    }
    run[l].start(DiscWall<T>{m.R, T(0), false}, RollModelT<T>{m.r, m.eta, m.G, m.g}, s, opt, sink);
    return fly(l, stepper, out);
  }
  void take(int l, Stepper& stepper, T* y, T err) {
    auto steps = run[l].edge_steps(sink);
    stepper.take(y, err, steps);
  }
  // The passage in lane l is over: the junction, then the flight to the next passage (the
  // circle has no breaks, so a passage is one piece).
  bool next_passage(int l, Stepper& stepper, TrajectoryResult& out) {
    T y[10];
    if (run[l].leave_piece(stepper.run(), y) == EdgeEnd::over) {
      out = run[l].result();
      return false;
    }
    return fly(l, stepper, out);
  }

 private:
  bool fly(int l, Stepper& stepper, TrajectoryResult& out) {
    T y[10];
    if (!run[l].fly_to_edge(sink, y)) {
      out = run[l].result();
      return false;
    }
    start_passage(l, stepper, y);
    return true;
  }
  void start_passage(int l, Stepper& stepper, const T* y) {
    const Sys& sys = run[l].sys;
    lanes.kappa[l] = sys.kappa;
    lanes.r[l] = sys.r;
    lanes.eta[l] = sys.eta;
    lanes.G[l] = sys.G;
    auto steps = run[l].edge_steps(sink);
    stepper.start(sys, y, T(run[l].t_left()), run[l].steps_left(), steps);
  }
};

template <class Trajectories>
class RimLaneBlock {
 public:
  static constexpr std::uint64_t kBlock = Trajectories::kBlock;

  RimLaneBlock(const ScanSpec& spec, std::uint64_t first, std::uint64_t count, TrajectoryResult* out)
      : spec_(spec), first_(first), count_(count), out_(out), traj_(spec) {}

  void run() {
    for (int l = 0; l < W; ++l) fill(l);
    while (any_lane_held(held_)) step_lanes();
  }

 private:
  using T = typename Trajectories::Scalar;
  using Stepper = typename Trajectories::Stepper;
  static constexpr int W = Trajectories::kLanes;
  static constexpr int K = kRimExtrapolationDepth;
  static constexpr int N = Trajectories::Sys::N;

  // Lane l takes the next trajectory of the block that needs a step; the others met on the way
  // (masked, over before their first step) are written.
  void fill(int l) {
    held_[l] = false;
    h_[l] = T(0);
    while (next_ < count_) {
      const std::uint64_t i = next_++;
      if (!traj_.begin(l, first_ + i, stepper_[l], out_[i])) continue;
      slot_[l] = i;
      if (to_next_step(l)) {
        held_[l] = true;
        return;
      }
    }
  }

  // Names lane l's next step in h_[l], going on to the trajectory's next passage when one is
  // over; false when the trajectory is over (its result written).
  bool to_next_step(int l) {
    while (!stepper_[l].next_step(h_[l]))
      if (!traj_.next_passage(l, stepper_[l], out_[slot_[l]])) return false;
    return true;
  }

  __attribute__((flatten)) void compute_steps() {
    gbs_step_lanes<N, K, W>(traj_.lanes, y_, h_, y_step_, err_, T(spec_.rtol), T(spec_.atol));
  }

  // One GBS step in every lane, then every held lane's stepper takes its own.
  void step_lanes() {
    for (int l = 0; l < W; ++l) {
      if (!held_[l]) continue;
      const T* y = stepper_[l].y();
      for (int i = 0; i < N; ++i) y_[i * W + l] = y[i];
    }
    compute_steps();
    for (int l = 0; l < W; ++l) {
      if (!held_[l]) continue;
      T y[N];
      for (int i = 0; i < N; ++i) y[i] = y_step_[i * W + l];
      traj_.take(l, stepper_[l], y, err_[l]);
      if (!to_next_step(l)) fill(l);
    }
  }

  const ScanSpec& spec_;
  std::uint64_t first_, count_, next_ = 0;
  TrajectoryResult* out_;
  Trajectories traj_;
  T y_[N * W] = {}, y_step_[N * W], h_[W], err_[W];
  Stepper stepper_[W];
  std::uint64_t slot_[W];
  bool held_[W];
};

}  // namespace skipstone::cpu_lanes
