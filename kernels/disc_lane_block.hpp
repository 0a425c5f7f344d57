// CPU backend only: a block of no-slip disc trajectories run W at a time in SIMD lanes
// (disc_lanes.hpp). Each trajectory is set up and started exactly as simulate_noslip_of
// does it; its stepper steps on its own until it reaches the lane state (a collision pending
// on the wall), then rides in a lane until a round is not a plain one, which the stepper
// does itself - then back into a lane, or, when the trajectory is over, its result is written
// and the lane takes the next trajectory of the block. Trajectories with gravity or outside
// the allowed set never enter a lane. Results are those of the one-trajectory kernel, bit for
// bit (tests/test_backends.cpp).
#pragma once
#include <cstdint>

#include "disc_lanes.hpp"
#include "skipstone/noslip_model.hpp"

namespace skipstone::cpu_lanes {

// Whether a scan's trajectories can run in disc lanes.
inline bool runs_in_disc_lanes(const ScanSpec& spec) {
  return spec.model == ModelKind::noslip_plane && spec.table == TableKind::disc &&
         spec.precision == Precision::float64;
}

// Steps s until it is in the lane state (true) or its trajectory is over (false).
inline bool step_to_lane_state(DiscStepper& s, DiscardSink& sink) {
  while (!in_lane_state(s))
    if (!s.step(sink)) return false;
  return true;
}

template <int W>
class DiscLaneBlock {
 public:
  DiscLaneBlock(const ScanSpec& spec, std::uint64_t first, std::uint64_t count, TrajectoryResult* out)
      : spec_(spec), first_(first), count_(count), out_(out), opt_(noslip_options(spec, true, false, 0.0)) {}

  void run() {
    for (int l = 0; l < W; ++l) fill(l);
    while (any_held())
      if (lanes_.advance(kRoundsPerAdvance, opt_))
        for (int l = 0; l < W; ++l)
          if (held_[l] && !lanes_.running[l]) leave_lane(l);
  }

 private:
  static constexpr int kRoundsPerAdvance = 1 << 16;

  bool any_held() const {
    for (int l = 0; l < W; ++l)
      if (held_[l]) return true;
    return false;
  }

  // Lane l takes the next trajectory of the block that reaches the lane state; the others met
  // on the way are run to their end here.
  void fill(int l) {
    held_[l] = false;
    lanes_.running[l] = false;
    while (next_ < count_) {
      const std::uint64_t i = next_++;
      const ScanPoint pt = scan_point(spec_, first_ + i);
      const NoSlipSetup<DiscTable, Vec2, State2D> su = plane_setup(DiscTable{pt.p[P_R]}, spec_, pt, true);
      if (su.masked || su.g != 0.0) {
        out_[i] = run_setup(su, sink_);
        continue;
      }
      DiscStepper& s = stepper_[l];
      s.start(su.table, su.k, su.g, su.start, su.opt, sink_);
      if (step_to_lane_state(s, sink_)) {
        slot_[l] = i;
        held_[l] = true;
        lanes_.load(l, s);
        return;
      }
      out_[i] = s.result();
    }
  }

  // Lane l stopped before a round that is not a plain one: its stepper does that round.
  void leave_lane(int l) {
    DiscStepper& s = stepper_[l];
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
  DiscLanes<W> lanes_;
  DiscStepper stepper_[W];
  std::uint64_t slot_[W];
  bool held_[W];
};

}  // namespace skipstone::cpu_lanes
