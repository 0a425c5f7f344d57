// The CPU backend's SIMD-lane path for no-slip disc scans (kernels/disc_lanes.hpp,
// kernels/disc_lane_block.hpp) against the one-trajectory kernel: bit-identical results for
// scans that make lanes leave in every way there is (the event budget, t_max part-way through
// a flight, energy drift, trajectories with gravity or masked between lane trajectories,
// interior and impact starts, scanned R, speed and gamma including the specular gamma = 0,
// counts that are not a multiple of the lane count), and one lane round against one step().
#include <gtest/gtest.h>

#include <cstring>
#include <map>

#include "backends.hpp"
#include "disc_lanes.hpp"
#include "skipstone/simulate.hpp"
#include "test_support.hpp"

namespace skipstone {
namespace {

using nlohmann::json;

std::string fields(const TrajectoryResult& r) {
  char b[512];
  std::snprintf(b, sizeof b, "status %s events %llu t_end %.17g err %.17g z %.17g %.17g %.17g drift %.17g rho %.17g %.17g",
                status_name(r.status), static_cast<unsigned long long>(r.events), r.t_end, r.energy_error, r.z_min,
                r.z_max, r.z_final, r.z_drift, r.rho_even, r.rho_odd);
  return b;
}

struct LaneCase {
  const char* name;
  const char* config;
  std::vector<Status> must_see;  // statuses the case exists to produce
  bool lengths_differ;           // trajectories end after different numbers of impacts
};

std::vector<LaneCase> lane_cases() {
  return {
      {"t_max ends trajectories at different impacts",
       R"({"system": "disc", "initial": {"start": "boundary", "speed": 1.0},
           "scan": {"type": "random", "count": 1003, "seed": 4,
                    "axes": [{"param": "angle", "min": -1.5, "max": 1.5}, {"param": "spin", "min": -2, "max": 2},
                             {"param": "R", "min": 0.5, "max": 2.0}, {"param": "gamma", "min": 0.0, "max": 1.5}]},
           "stop": {"t_max": 37.3}})",
       {Status::finished}, true},
      {"energy drift stops lanes part-way",
       R"({"system": "disc", "parameters": {"gamma": 0.8}, "initial": {"start": "impact", "speed": 1.3},
           "scan": {"type": "random", "count": 517, "seed": 5,
                    "axes": [{"param": "angle", "min": -1.5, "max": 1.5}, {"param": "slip", "min": -1, "max": 1}]},
           "stop": {"max_events": 4000}, "options": {"energy_tolerance": 4e-15}})",
       {Status::finished, Status::energy_drift}, true},
      {"gravity and masked trajectories between lane trajectories",
       R"({"system": "disc", "parameters": {"gamma": 0.6}, "initial": {"start": "boundary", "spin": 0.3},
           "scan": {"type": "grid", "axes": [{"param": "g", "min": 0.0, "max": 1.0, "n": 3},
                                             {"param": "speed", "min": 0.5, "max": 1.0, "n": 2},
                                             {"param": "angle", "min": -1.5, "max": 1.5, "n": 41}]},
           "stop": {"max_events": 250, "t_max": 400.0}})",
       {Status::finished}, true},
      {"interior starts",
       R"({"system": "disc", "parameters": {"gamma": 0.0, "R": 1.5}, "initial": {"start": "interior", "speed": 0.7},
           "scan": {"type": "random", "count": 300, "seed": 6,
                    "axes": [{"param": "x", "min": -1.4, "max": 1.4}, {"param": "y", "min": -1.4, "max": 1.4},
                             {"param": "angle", "min": 0, "max": 6.28}, {"param": "spin", "min": -1, "max": 1}]},
           "stop": {"max_events": 777}})",
       {Status::finished, Status::masked}, false},
  };
}

TEST(DiscLanes, ScansMatchTheOneTrajectoryKernelBitwise) {
  for (const LaneCase& c : lane_cases()) {
    const RunConfig rc = testing::config_from(json::parse(c.config));
    std::vector<TrajectoryResult> out(rc.spec.count);
    cpu::run_chunk(rc.spec, 0, rc.spec.count, out.data());
    std::map<Status, int> seen;
    std::uint64_t min_events = UINT64_MAX, max_events = 0;
    for (std::uint64_t i = 0; i < rc.spec.count; ++i) {
      DiscardSink sink;
      const TrajectoryResult ref = simulate_trajectory(rc.spec, i, sink);
      ASSERT_EQ(0, std::memcmp(&ref, &out[i], sizeof ref)) << c.name << ": trajectory " << i << "\n" << fields(ref) << "\n" << fields(out[i]);
      ++seen[ref.status];
      if (ref.status != Status::masked) {
        min_events = std::min(min_events, ref.events);
        max_events = std::max(max_events, ref.events);
      }
    }
    for (Status s : c.must_see) EXPECT_GT(seen[s], 0) << c.name << ": no trajectory ended " << status_name(s);
    if (c.lengths_differ) {
      EXPECT_LT(min_events, max_events) << c.name << ": every trajectory ran " << max_events << " impacts";
    }
  }
}

TEST(DiscLanes, OneRoundIsOneStep) {
  json j = json::parse(lane_cases()[0].config);
  j["stop"] = {{"max_events", 1000}};
  const RunConfig rc = testing::config_from(j);
  constexpr int W = 8;
  cpu_lanes::DiscLanes<W> lanes;
  cpu_lanes::DiscStepper steppers[W];
  DiscardSink sink;
  for (int l = 0; l < W; ++l) {
    const ScanPoint pt = scan_point(rc.spec, static_cast<std::uint64_t>(l) + 10);
    const auto su = plane_setup(DiscTable{pt.p[P_R]}, rc.spec, pt, true);
    ASSERT_FALSE(su.masked);
    steppers[l].start(su.table, su.k, su.g, su.start, su.opt, sink);
    ASSERT_TRUE(steppers[l].step(sink) && cpu_lanes::in_lane_state(steppers[l]));
    lanes.load(l, steppers[l]);
  }
  const NoSlipRunOptions opt = noslip_options(rc.spec, true, false, 0.0);
  for (int round = 0; round < 20; ++round) {
    ASSERT_FALSE(lanes.advance(1, opt));
    for (int l = 0; l < W; ++l) {
      cpu_lanes::DiscStepper from_lane = steppers[l];
      lanes.store(l, from_lane);
      ASSERT_TRUE(steppers[l].step(sink));
      const TrajectoryResult a = from_lane.result(), b = steppers[l].result();
      ASSERT_EQ(0, std::memcmp(&a, &b, sizeof a)) << "lane " << l << " round " << round << "\n" << fields(a) << "\n" << fields(b);
      ASSERT_EQ(0, std::memcmp(&from_lane.x, &steppers[l].x, sizeof from_lane.x));
      ASSERT_EQ(0, std::memcmp(&from_lane.st, &steppers[l].st, sizeof from_lane.st));
      ASSERT_EQ(from_lane.ob.chord_index, steppers[l].ob.chord_index);
      lanes.load(l, steppers[l]);
    }
  }
}

}  // namespace
}  // namespace skipstone
