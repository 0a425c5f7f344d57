// CPU backend only: a block of Figure-18 passages (roll4:disc-transversal, Proposition 12 with
// kappa = -1/R) run W at a time in SIMD lanes. Each lane holds one passage's RimStepper
// (rim_passage.hpp), which decides its next GBS step (an adaptive step, a Newton iterate of
// the exit, the step to the exit); gbs_step_lanes (gbs.hpp) computes the steps of all W lanes
// together, its loops over the lanes vectorised by the compiler, and each stepper takes its
// own. A lane whose passage is over writes its result and takes the next passage of the
// block. Each passage is set up, stepped and reported exactly as simulate_disc_transversal does
// it, so the results are the one-trajectory kernel's, bit for bit (tests/test_rim_lanes.cpp).
#pragma once
#include <cstdint>

#include "lane_held.hpp"
#include "skipstone/rolling/disc_transversal.hpp"
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

template <class T, int W>
class TransversalLaneBlock {
 public:
  TransversalLaneBlock(const ScanSpec& spec, std::uint64_t first, std::uint64_t count, TrajectoryResult* out)
      : spec_(spec), first_(first), count_(count), out_(out) {
    for (int l = 0; l < W; ++l) lanes_.r[l] = T(1);  // lanes never filled compute on finite numbers
  }

  void run() {
    for (int l = 0; l < W; ++l) fill(l);
    while (any_lane_held(held_)) step_lanes();
  }

 private:
  static constexpr int K = kRimExtrapolationDepth;
  static constexpr int N = 6;
  using Stepper = RimStepper<K, TransversalPassage<T>, T>;

  // Lane l takes the next passage of the block that needs a step; masked points and passages
  // over before their first step are written on the way.
  void fill(int l) {
    held_[l] = false;
    h_[l] = T(0);
    while (next_ < count_) {
      const std::uint64_t i = next_++;
      const TransversalStart<T> st = disc_transversal_start<T>(spec_, scan_point(spec_, first_ + i));
      if (st.masked) {
        out_[i] = masked_result();
        continue;
      }
      passage_[l] = st.passage;
      stepper_[l].start(st.passage, st.y0, T(spec_.t_max), spec_.max_steps, sink_);
      if (!stepper_[l].next_step(h_[l])) {
        out_[i] = result(l);
        continue;
      }
      lanes_.kappa[l] = st.passage.sys.kappa;
      lanes_.r[l] = st.passage.sys.r;
      lanes_.eta[l] = st.passage.sys.eta;
      slot_[l] = i;
      held_[l] = true;
      return;
    }
  }

  TrajectoryResult result(int l) const { return disc_transversal_result(rim_passage_of(passage_[l], stepper_[l].run())); }

  __attribute__((flatten)) void compute_steps() {
    gbs_step_lanes<N, K, W>(lanes_, y_, h_, y_step_, err_, T(spec_.rtol), T(spec_.atol));
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
      stepper_[l].take(y, err_[l], sink_);
      if (stepper_[l].next_step(h_[l])) continue;
      out_[slot_[l]] = result(l);
      fill(l);
    }
  }

  const ScanSpec& spec_;
  std::uint64_t first_, count_, next_ = 0;
  TrajectoryResult* out_;
  DiscardSink sink_;
  TransversalLanes<T, W> lanes_{};
  T y_[N * W] = {}, y_step_[N * W], h_[W], err_[W];
  TransversalPassage<T> passage_[W];
  Stepper stepper_[W];
  std::uint64_t slot_[W];
  bool held_[W];
};

}  // namespace skipstone::cpu_lanes
