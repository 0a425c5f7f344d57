// CPU backend only: a block of no-slip trajectories in a round wall (disc, cylinder:disc) run W
// at a time in SIMD lanes (noslip_lanes.hpp). Each trajectory is set up and started exactly as
// the one-trajectory kernel does it (simulate_noslip_of); its stepper steps on its own until it
// reaches the lane state (a collision pending on the wall), then rides in a lane until a round
// is not a plain one, which the stepper does itself - then back into a lane, or, when the
// trajectory is over, its result is written and the lane takes the next trajectory of the
// block. Trajectories outside the allowed set, or whose gravity is not the lanes' kind (g = 0
// in gravity lanes and the reverse), never enter a lane. Results are those of the
// one-trajectory kernel, bit for bit (tests/test_noslip_lanes.cpp).
#pragma once
#include <cstdint>

#include "lane_held.hpp"
#include "noslip_lanes.hpp"
#include "skipstone/noslip_model.hpp"

namespace skipstone::cpu_lanes {

// Steps s until it is in the lane state (true) or its trajectory is over (false).
template <class Stepper>
bool step_to_lane_state(Stepper& s, DiscardSink& sink) {
  while (!in_lane_state(s))
    if (!s.step(sink)) return false;
  return true;
}

template <ModelKind M, class Table, class V, class S, bool kGravity, int W>
class NoSlipLaneBlock {
 public:
  using Lanes = NoSlipLanes<Table, V, S, kGravity, W>;
  using Stepper = typename Lanes::Stepper;
  using T = typename Lanes::T;
  static constexpr std::uint64_t kBlock = 16 * W;  // trajectories per block

  NoSlipLaneBlock(const ScanSpec& spec, std::uint64_t first, std::uint64_t count, TrajectoryResult* out)
      : spec_(spec), first_(first), count_(count), out_(out),
        opt_(noslip_options(spec, true, false, 0.0)) {}

  void run() {
    for (int l = 0; l < W; ++l) fill(l);
    while (any_lane_held(held_))
      if (lanes_.advance(kRoundsPerAdvance, opt_))
        for (int l = 0; l < W; ++l)
          if (held_[l] && !lanes_.running[l]) leave_lane(l);
  }

 private:
  static constexpr int kRoundsPerAdvance = 1 << 16;

  // Lane l takes the next trajectory of the block that reaches the lane state; the others met
  // on the way are run to their end here.
  void fill(int l) {
    held_[l] = false;
    lanes_.running[l] = 0;
    while (!held_[l] && next_ < count_) {
      const std::uint64_t i = next_++;
      const ScanPoint pt = scan_point(spec_, first_ + i);
      with_noslip_setup_of<M, TableKind::disc, precision_of<T>>(spec_, pt, [&](const NoSlipSetup<Table, V, S>& su) {
        if (su.masked || (su.g != T(0)) != kGravity) {
          out_[i] = run_setup(su, sink_);
          return;
        }
        Stepper& s = stepper_[l];
        s.start(su.table, su.k, su.g, su.start, su.opt, sink_);
        if (!step_to_lane_state(s, sink_)) {
          out_[i] = s.result();
          return;
        }
        slot_[l] = i;
        held_[l] = true;
        lanes_.load(l, s);
      });
    }
  }

  // Lane l stopped before a round that is not a plain one: its stepper does that round.
  void leave_lane(int l) {
    Stepper& s = stepper_[l];
    lanes_.store(l, s);
    if (s.step(sink_) && step_to_lane_state(s, sink_)) {
      lanes_.load(l, s);
      return;
    }
    out_[slot_[l]] = s.result();
    fill(l);
  }

  const ScanSpec& spec_;
  std::uint64_t first_, count_, next_ = 0;
  TrajectoryResult* out_;
  NoSlipRunOptions opt_;
  DiscardSink sink_;
  Lanes lanes_{};  // zeroed: lanes a short block never fills are computed on, never read
  Stepper stepper_[W];
  std::uint64_t slot_[W];
  bool held_[W];
};

}  // namespace skipstone::cpu_lanes
