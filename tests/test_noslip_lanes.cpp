// The CPU backend's SIMD-lane path for no-slip scans in a round wall (kernels/noslip_lanes.hpp,
// kernels/noslip_lane_block.hpp) against the one-trajectory kernel: bit-identical results for
// disc and cylinder:disc scans that make lanes leave in every way there is (the event budget,
// t_max part-way through a flight, energy drift, trajectories with the other kind of gravity or
// masked between lane trajectories, interior and impact starts, scanned R, g, speed and gamma
// including the specular gamma = 0, counts that are not a multiple of the lane count), in double
// and in float (the float kernels' lanes), and one lane round against one step() for each kind
// of lane in both precisions.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "lane_comparison.hpp"
#include "noslip_lanes.hpp"

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
      {"disc: t_max ends trajectories at different impacts",
       R"({"system": "disc", "initial": {"start": "boundary", "speed": 1.0},
           "scan": {"type": "random", "count": 1003, "seed": 4,
                    "axes": [{"param": "angle", "min": -1.5, "max": 1.5}, {"param": "spin", "min": -2, "max": 2},
                             {"param": "R", "min": 0.5, "max": 2.0}, {"param": "gamma", "min": 0.0, "max": 1.5}]},
           "stop": {"t_max": 37.3}})",
       {Status::finished}, true},
      {"disc: energy drift stops lanes part-way",
       R"({"system": "disc", "parameters": {"gamma": 0.8}, "initial": {"start": "impact", "speed": 1.3},
           "scan": {"type": "random", "count": 517, "seed": 5,
                    "axes": [{"param": "angle", "min": -1.5, "max": 1.5}, {"param": "slip", "min": -1, "max": 1}]},
           "stop": {"max_events": 4000}, "options": {"energy_tolerance": 4e-15}})",
       {Status::finished, Status::energy_drift}, true},
      {"disc: trajectories with gravity between lane trajectories",
       R"({"system": "disc", "parameters": {"gamma": 0.6}, "initial": {"start": "boundary", "spin": 0.3},
           "scan": {"type": "grid", "axes": [{"param": "g", "min": 0.0, "max": 1.0, "n": 3},
                                             {"param": "speed", "min": 0.5, "max": 1.0, "n": 2},
                                             {"param": "angle", "min": -1.5, "max": 1.5, "n": 41}]},
           "stop": {"max_events": 250, "t_max": 400.0}})",
       {Status::finished}, true},
      {"disc: interior starts, some outside the table",
       R"({"system": "disc", "parameters": {"gamma": 0.0, "R": 1.5}, "initial": {"start": "interior", "speed": 0.7},
           "scan": {"type": "random", "count": 300, "seed": 6,
                    "axes": [{"param": "x", "min": -1.4, "max": 1.4}, {"param": "y", "min": -1.4, "max": 1.4},
                             {"param": "angle", "min": 0, "max": 6.28}, {"param": "spin", "min": -1, "max": 1}]},
           "stop": {"max_events": 777}})",
       {Status::finished, Status::masked}, false},
      {"cylinder:disc with gravity: skipping runs to t_max, g = 0 between them",
       R"({"system": "cylinder:disc", "parameters": {"R": 1.0, "gamma": 0.8164965809},
           "initial": {"start": "impact", "speed": 1.0, "vz": 0.2},
           "scan": {"type": "grid", "axes": [{"param": "g", "min": 0.0, "max": 2.0, "n": 3},
                                             {"param": "angle", "min": 0.3, "max": 1.5, "n": 37},
                                             {"param": "slip", "min": -0.3, "max": 0.3, "n": 9}]},
           "stop": {"t_max": 60.0}})",
       {Status::finished}, true},
      {"cylinder:disc with gravity: energy drift and the event budget",
       R"({"system": "cylinder:disc", "parameters": {"R": 1.3, "g": 1.0, "eta": 0.5},
           "initial": {"start": "impact", "speed": 1.0},
           "scan": {"type": "random", "count": 611, "seed": 7,
                    "axes": [{"param": "angle", "min": -1.5, "max": 1.5}, {"param": "slip", "min": -0.5, "max": 0.5},
                             {"param": "vz", "min": -1, "max": 1}]},
           "stop": {"max_events": 3000}, "options": {"energy_tolerance": 6e-15}})",
       {Status::finished, Status::energy_drift}, true},
      {"cylinder:disc without gravity, interior starts",
       R"({"system": "cylinder:disc", "parameters": {"R": 1.0, "gamma": 0.5}, "initial": {"start": "interior"},
           "scan": {"type": "random", "count": 200, "seed": 8,
                    "axes": [{"param": "x", "min": -1.1, "max": 1.1}, {"param": "vx", "min": -1, "max": 1},
                             {"param": "vy", "min": 0.1, "max": 1}, {"param": "wz", "min": -1, "max": 1}]},
           "stop": {"max_events": 500, "t_max": 300.0}})",
       {Status::finished, Status::masked}, true},
  };
}

// The case in the float kernels: precision float, and an energy tolerance that stops float runs
// part-way as the double one stops double runs (scaled by eps_float / eps_double = 2^29).
std::string in_float(const char* config) {
  json j = json::parse(config);
  j["options"]["precision"] = "float";
  if (j["options"].contains("energy_tolerance"))
    j["options"]["energy_tolerance"] = j["options"]["energy_tolerance"].get<double>() * 0x1p29;
  return j.dump();
}

TEST(NoSlipLanes, ScansMatchTheOneTrajectoryKernelBitwise) {
  std::vector<LaneCase> cases = lane_cases();
  std::vector<std::string> names, configs;
  for (const LaneCase& c : lane_cases()) {
    names.push_back(std::string("float ") + c.name);
    configs.push_back(in_float(c.config));
  }
  for (std::size_t i = 0, n = cases.size(); i < n; ++i) {
    LaneCase c = cases[i];
    c.name = names[i].c_str();
    c.config = configs[i].c_str();
    cases.push_back(c);
  }
  for (const LaneCase& c : cases) {
    testing::LaneScan scan;
    testing::run_lane_scan(c.name, c.config, fields, scan);
    if (HasFatalFailure()) return;
    std::uint64_t min_events = UINT64_MAX, max_events = 0;
    for (const TrajectoryResult& r : scan.results) {
      if (r.status == Status::masked) continue;
      min_events = std::min(min_events, r.events);
      max_events = std::max(max_events, r.events);
    }
    for (Status s : c.must_see) EXPECT_GT(scan.seen[s], 0) << c.name << ": no trajectory ended " << status_name(s);
    if (c.lengths_differ) {
      EXPECT_LT(min_events, max_events) << c.name << ": every trajectory ran " << max_events << " impacts";
    }
  }
}

// Loads 8 trajectories of `config` (after their first step) into lanes and compares 20 rounds,
// one at a time, with step() of the same steppers: results, positions, states, chord counts.
template <ModelKind M, class Table, class V, class S, bool kGravity>
void expect_rounds_are_steps(json config) {
  config["stop"] = {{"max_events", 1000}};
  config.erase("options");
  using T = scalar_of<V>;
  constexpr Precision P = precision_of<T>;
  if (P == Precision::float32) config["options"] = {{"precision", "float"}};
  const RunConfig rc = testing::config_from(config);
  constexpr int W = 8;
  using Lanes = cpu_lanes::NoSlipLanes<Table, V, S, kGravity, W>;
  Lanes lanes;
  typename Lanes::Stepper steppers[W];
  DiscardSink sink;
  for (int l = 0; l < W; ++l) {
    const ScanPoint pt = scan_point(rc.spec, static_cast<std::uint64_t>(l) + 10);
    with_noslip_setup_of<M, TableKind::disc, P>(rc.spec, pt, [&](const NoSlipSetup<Table, V, S>& su) {
      ASSERT_FALSE(su.masked);
      ASSERT_EQ(kGravity, su.g != 0);
      steppers[l].start(su.table, su.k, su.g, su.start, su.opt, sink);
    });
    while (!cpu_lanes::in_lane_state(steppers[l])) ASSERT_TRUE(steppers[l].step(sink));
    lanes.load(l, steppers[l]);
  }
  const NoSlipRunOptions opt = noslip_options(rc.spec, true, false, 0.0);
  for (int round = 0; round < 20; ++round) {
    ASSERT_FALSE(lanes.advance(1, opt)) << "round " << round;
    for (int l = 0; l < W; ++l) {
      typename Lanes::Stepper from_lane = steppers[l];
      lanes.store(l, from_lane);
      ASSERT_TRUE(steppers[l].step(sink));
      const TrajectoryResult a = from_lane.result(), b = steppers[l].result();
      ASSERT_EQ(0, std::memcmp(&a, &b, sizeof a)) << "lane " << l << " round " << round << "\n"
                                                  << fields(a) << "\n"
                                                  << fields(b);
      ASSERT_EQ(0, std::memcmp(&from_lane.x, &steppers[l].x, sizeof from_lane.x));
      ASSERT_EQ(0, std::memcmp(&from_lane.nu, &steppers[l].nu, sizeof from_lane.nu));
      ASSERT_EQ(0, std::memcmp(&from_lane.st, &steppers[l].st, sizeof from_lane.st));
      ASSERT_EQ(0, std::memcmp(&from_lane.ob.chord_start, &steppers[l].ob.chord_start, sizeof from_lane.ob.chord_start));
      ASSERT_EQ(from_lane.ob.chord_odd, steppers[l].ob.chord_odd);
      lanes.load(l, steppers[l]);
    }
  }
}

template <class T>
void expect_rounds_are_steps_in() {
  expect_rounds_are_steps<ModelKind::noslip_plane, DiscTableT<T>, Vec2T<T>, State2DT<T>, false>(
      json::parse(lane_cases()[0].config));
  if (::testing::Test::HasFatalFailure()) return;
  json gravity = json::parse(lane_cases()[5].config);
  using Cylinder = CylinderTable<DiscTableT<T>>;
  expect_rounds_are_steps<ModelKind::noslip_cylinder, Cylinder, Vec3T<T>, State3DT<T>, true>(gravity);
  if (::testing::Test::HasFatalFailure()) return;
  json no_gravity = gravity;
  no_gravity["parameters"].erase("g");
  expect_rounds_are_steps<ModelKind::noslip_cylinder, Cylinder, Vec3T<T>, State3DT<T>, false>(no_gravity);
}

TEST(NoSlipLanes, OneRoundIsOneStep) { expect_rounds_are_steps_in<double>(); }
TEST(NoSlipLanes, OneRoundIsOneStepInFloat) { expect_rounds_are_steps_in<float>(); }

}  // namespace
}  // namespace skipstone
