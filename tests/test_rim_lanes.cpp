// The CPU backend's SIMD-lane path for Figure-18 scans (kernels/rim_lane_block.hpp: the
// RimSteppers of W passages with their GBS steps computed together by gbs_step_lanes) against
// the one-trajectory kernel: bit-identical results in double and float for scans whose passages
// end in every way there is (exit at phi = 0 and at phi = pi, t_max on the rim, the step
// budget, masked points between them), with R, r and eta differing from lane to lane and counts
// that are not a multiple of the lane count; and one gbs_step_lanes call against gbs_step
// lane by lane, each with its own step length.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <map>
#include <set>

#include "backends.hpp"
#include "rim_lane_block.hpp"
#include "skipstone/simulate.hpp"
#include "test_support.hpp"

namespace skipstone {
namespace {

using nlohmann::json;

std::string fields(const TrajectoryResult& r) {
  char b[512];
  std::snprintf(b, sizeof b, "status %s side %d steps %llu t_end %.17g err %.17g exit %.17g arc %.17g",
                status_name(r.status), r.exit_side, static_cast<unsigned long long>(r.steps), r.t_end,
                r.energy_error, r.exit_time, r.exit_arc);
  return b;
}

struct LaneCase {
  const char* name;
  const char* config;
  std::vector<Status> must_see;  // statuses the case exists to produce
  bool both_sides;               // exits at phi = 0 and at phi = pi
};

std::vector<LaneCase> lane_cases() {
  return {
      {"Figure 18 grid, eta differing between neighbouring lanes",
       R"({"system": "roll4:disc-transversal", "parameters": {"R": 1.0, "r": 1.0},
           "scan": {"type": "grid", "axes": [{"param": "v2", "min": -1, "max": 1, "n": 23},
                                             {"param": "S12", "min": -1, "max": 1, "n": 19},
                                             {"param": "eta", "min": 0.1, "max": 0.9, "n": 3}]},
           "stop": {"t_max": 200.0}, "options": {"rtol": 1e-11, "atol": 1e-11}})",
       {Status::exited, Status::masked}, true},
      {"random R, r and speed, t_max ends passages on the rim",
       R"({"system": "roll4:disc-transversal", "parameters": {"eta": 0.5},
           "scan": {"type": "random", "count": 333, "seed": 9,
                    "axes": [{"param": "v2", "min": -1, "max": 1}, {"param": "S12", "min": -1, "max": 1},
                             {"param": "R", "min": 0.5, "max": 2.0}, {"param": "r", "min": 0.2, "max": 1.5},
                             {"param": "speed", "min": 0.8, "max": 1.6}]},
           "stop": {"t_max": 4.5}, "options": {"rtol": 1e-10, "atol": 1e-12}})",
       {Status::exited, Status::finished, Status::masked}, true},
      {"the step budget ends the long passages",
       R"({"system": "roll4:disc-transversal", "parameters": {"R": 1.0, "r": 1.0, "eta": 0.5},
           "scan": {"type": "random", "count": 101, "seed": 10,
                    "axes": [{"param": "v2", "min": -0.9, "max": 0.9}, {"param": "S12", "min": -0.9, "max": 0.9}]},
           "stop": {"t_max": 200.0}, "options": {"max_steps": 18}})",
       {Status::exited, Status::integrator_failure}, false},
      {"float kernel, Figure 18 grid",
       R"({"system": "roll4:disc-transversal", "parameters": {"R": 1.0, "r": 1.0, "eta": 0.5},
           "scan": {"type": "grid", "axes": [{"param": "v2", "min": -1, "max": 1, "n": 29},
                                             {"param": "S12", "min": -1, "max": 1, "n": 31}]},
           "stop": {"t_max": 200.0}, "options": {"precision": "float", "rtol": 1e-5, "atol": 1e-5}})",
       {Status::exited, Status::masked}, true},
      {"float kernel, fewer trajectories than lanes",
       R"({"system": "roll4:disc-transversal", "parameters": {"R": 1.0, "r": 0.5, "eta": 0.3},
           "scan": {"type": "random", "count": 5, "seed": 11,
                    "axes": [{"param": "v2", "min": -0.5, "max": 0.5}, {"param": "S12", "min": -0.5, "max": 0.5}]},
           "stop": {"t_max": 100.0}, "options": {"precision": "float", "rtol": 1e-5, "atol": 1e-5}})",
       {Status::exited}, false},
  };
}

TEST(RimLanes, ScansMatchTheOneTrajectoryKernelBitwise) {
  for (const LaneCase& c : lane_cases()) {
    const RunConfig rc = testing::config_from(json::parse(c.config));
    std::vector<TrajectoryResult> out(rc.spec.count);
    cpu::run_chunk(rc.spec, 0, rc.spec.count, out.data());
    std::map<Status, int> seen;
    std::set<int> sides;
    std::set<std::uint64_t> steps;
    for (std::uint64_t i = 0; i < rc.spec.count; ++i) {
      DiscardSink sink;
      const TrajectoryResult ref = simulate_trajectory(rc.spec, i, sink);
      ASSERT_EQ(0, std::memcmp(&ref, &out[i], sizeof ref))
          << c.name << ": trajectory " << i << "\n" << fields(ref) << "\n" << fields(out[i]);
      ++seen[ref.status];
      if (ref.status == Status::exited) sides.insert(ref.exit_side);
      if (ref.status != Status::masked) steps.insert(ref.steps);
    }
    for (Status s : c.must_see) EXPECT_GT(seen[s], 0) << c.name << ": no trajectory ended " << status_name(s);
    if (c.both_sides) {
      EXPECT_EQ(2u, sides.size()) << c.name << ": exits on one side only";
    }
    EXPECT_GT(steps.size(), 2u) << c.name << ": passages of equal length do not test lane refills";
  }
}

// One lane step against gbs_step: 8 lanes with different states, parameters and step lengths.
TEST(RimLanes, OneLaneStepIsOneGbsStep) {
  constexpr int W = 8, N = 6, K = kRimExtrapolationDepth;
  cpu_lanes::TransversalLanes<double, W> lanes;
  double y[N * W], h[W], y_step[N * W], err[W];
  DiscTransversalSystem sys[W];
  for (int l = 0; l < W; ++l) {
    sys[l] = {-1.0 / (0.7 + 0.1 * l), 0.3 + 0.05 * l, 0.1 * l};
    lanes.kappa[l] = sys[l].kappa;
    lanes.r[l] = sys[l].r;
    lanes.eta[l] = sys[l].eta;
    const double phi = 0.2 * l;
    const double state[N] = {0.6 - 0.1 * l, 0.3 + 0.02 * l, -0.4 + 0.09 * l, std::cos(phi), std::sin(phi), 0.1 * l};
    for (int i = 0; i < N; ++i) y[i * W + l] = state[i];
    h[l] = 0.05 + 0.11 * l;
  }
  gbs_step_lanes<N, K, W>(lanes, y, h, y_step, err, 1e-11, 1e-12);
  for (int l = 0; l < W; ++l) {
    double y_l[N], next[N];
    for (int i = 0; i < N; ++i) y_l[i] = y[i * W + l];
    const double e = gbs_step<N, K>(sys[l], y_l, h[l], next, 1e-11, 1e-12);
    EXPECT_EQ(e, err[l]) << "lane " << l;
    for (int i = 0; i < N; ++i) EXPECT_EQ(next[i], y_step[i * W + l]) << "lane " << l << " component " << i;
  }
}

}  // namespace
}  // namespace skipstone
