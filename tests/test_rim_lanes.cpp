// The CPU backend's SIMD-lane path for rim passages (kernels/rim_lane_block.hpp: the
// RimSteppers of W passages with their GBS steps computed together by gbs_step_lanes) against
// the one-trajectory kernel: bit-identical results for Figure-18 scans in double and float whose
// passages end in every way there is (exit at phi = 0 and at phi = pi, t_max on the rim, the
// step budget, masked points between them) and for roll4:disc scans whose trajectories end in
// every way there is (t_max on a plate or on the rim, the event and step budgets, energy drift,
// masked starts, both sheets), in double and float, with R, r, eta and gravity differing from
// lane to lane and counts that are not a multiple of the lane count; the same for the rolling
// tables roll3:<table> and roll4:<table> (passages over the stadium's breaks and round a
// polygon's vertices, the ellipse, the Sinai scatterers, the disc; with and without gravity,
// roll3's in-plane gravity zero in some lanes; rim_entry starts); and one gbs_step_lanes call
// against gbs_step lane by lane, each with its own step length.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "lane_comparison.hpp"
#include "rim_lane_block.hpp"

namespace skipstone {
namespace {

std::string fields(const TrajectoryResult& r) {
  char b[512];
  std::snprintf(b, sizeof b, "status %s events %llu side %d steps %llu t_end %.17g err %.17g exit %.17g arc %.17g "
                "z %.17g %.17g rho %.17g %.17g",
                status_name(r.status), static_cast<unsigned long long>(r.events), r.exit_side,
                static_cast<unsigned long long>(r.steps), r.t_end, r.energy_error, r.exit_time, r.exit_arc, r.z_min,
                r.z_max, r.rho_even, r.rho_odd);
  return b;
}

struct LaneCase {
  std::string name;
  std::string config;
  std::vector<Status> must_see;  // statuses the case exists to produce
  bool both_sides;               // Figure 18: exits at phi = 0 and at phi = pi
};

// The same case run by the float kernel, with `options` added to the config's.
LaneCase in_float(const LaneCase& c, const nlohmann::json& options = nlohmann::json::object()) {
  nlohmann::json config = nlohmann::json::parse(c.config);
  config["options"]["precision"] = "float";
  for (const auto& [key, value] : options.items()) config["options"][key] = value;
  return {"float kernel, " + c.name, config.dump(), c.must_see, c.both_sides};
}

// The rolling tables (roll3:<table>, roll4:<table>): passages over the breaks of the stadium and
// round a polygon's vertices, the ellipse's varying curvature, the Sinai scatterers, with and
// without gravity (roll3's in-plane gravity differing from lane to lane), rim_entry starts.
std::vector<LaneCase> table_cases() {
  const std::string pentagon = R"("vertices": [[0.0, 1.0], [-0.951057, 0.309017], [-0.587785, -0.809017],
                                                [0.587785, -0.809017], [0.951057, 0.309017]])";
  return {
      {"roll4:stadium under gravity, t_max on plates and on the edge",
       R"({"system": "roll4:stadium", "parameters": {"half_length": 1.0, "R": 1.0, "r": 0.1, "eta": 0.5,
                                                     "g_effective": 1.0},
           "initial": {"start": "plate", "x1": -0.715, "x2": 0.0, "z": 0.0, "v2": 1.0, "S23": -1.0},
           "scan": {"type": "random", "count": 37, "seed": 21,
                    "axes": [{"param": "v1", "min": -2, "max": -0.2}, {"param": "S12", "min": 0.3, "max": 0.9}]},
           "stop": {"t_max": 12.0}})",
       {Status::finished}, false},
      {"roll4:stadium on N^-, the event budget, half_length and r differing between lanes",
       R"({"system": "roll4:stadium", "parameters": {"R": 1.0, "eta": 0.5, "g_effective": 0.0},
           "initial": {"start": "plate_minus", "x1": 0.2, "x2": 0.1, "z": 0.0, "v1": 0.7, "v2": 1.0, "v3": 0.3,
                       "S13": 0.2, "S23": -1.0},
           "scan": {"type": "random", "count": 29, "seed": 22,
                    "axes": [{"param": "half_length", "min": 0.2, "max": 1.5}, {"param": "r", "min": 0.05, "max": 0.3},
                             {"param": "S12", "min": -0.9, "max": 0.9}]},
           "stop": {"t_max": 50.0, "max_events": 9}})",
       {Status::finished}, false},
      {"roll3:stadium, in-plane gravity differing between lanes (0 in some)",
       R"({"system": "roll3:stadium", "parameters": {"half_length": 1.0, "R": 1.0, "r": 0.1, "eta": 0.5},
           "initial": {"start": "plate", "x1": 0.0, "x2": 0.5, "v2": 0.0},
           "scan": {"type": "grid", "axes": [{"param": "v1", "min": -1, "max": 1, "n": 7},
                                             {"param": "S12", "min": -0.5, "max": 0.5, "n": 5},
                                             {"param": "g_effective", "min": 0.0, "max": 1.0, "n": 2}]},
           "stop": {"t_max": 15.0}})",
       {Status::finished}, false},
      {"roll3:stadium rim_entry starts: one passage each",
       R"({"system": "roll3:stadium", "parameters": {"half_length": 1.0, "R": 1.0, "r": 0.1, "eta": 0.5},
           "initial": {"start": "rim_entry", "speed": 1.0},
           "scan": {"type": "grid", "axes": [{"param": "boundary_s", "min": 0.0, "max": 0.875, "n": 8},
                                             {"param": "v2", "min": -1, "max": 1, "n": 9},
                                             {"param": "S12", "min": -1, "max": 1, "n": 5}]},
           "stop": {"t_max": 200.0}})",
       {Status::exited, Status::masked}, false},
      {"roll3:polygon under gravity: round the vertices, the step budget",
       R"({"system": "roll3:polygon", "parameters": {)" + pentagon + R"(, "r": 0.1, "gamma": 0.6324555320336759,
                                                      "g": 1.0},
           "initial": {"start": "plate", "x1": 0.0, "x2": 0.0, "v2": 0.6},
           "scan": {"type": "random", "count": 41, "seed": 23,
                    "axes": [{"param": "v1", "min": -1, "max": 1}, {"param": "S12", "min": -1, "max": 1}]},
           "stop": {"t_max": 20.0}, "options": {"rtol": 1e-10, "atol": 1e-10, "max_steps": 300}})",
       {Status::finished, Status::integrator_failure}, false},
      {"roll4:rectangle, round the corners",
       R"({"system": "roll4:rectangle", "parameters": {"width": 2.0, "height": 1.0, "r": 0.1, "eta": 0.5,
                                                       "g_effective": 1.0},
           "initial": {"start": "plate", "x1": 0.1, "x2": 0.2, "z": 0.0, "v3": 0.0, "S13": 0.0, "S23": 0.0},
           "scan": {"type": "random", "count": 31, "seed": 24,
                    "axes": [{"param": "v1", "min": -1, "max": 1}, {"param": "v2", "min": -1, "max": 1},
                             {"param": "S12", "min": -1, "max": 1}]},
           "stop": {"t_max": 10.0}})",
       {Status::finished}, false},
      {"roll4:polygon, energy drift",
       R"({"system": "roll4:polygon", "parameters": {)" + pentagon + R"(, "r": 0.1, "eta": 0.5, "g_effective": 1.0},
           "initial": {"start": "plate", "x1": 0.0, "x2": 0.0, "z": 0.0, "v2": 0.6, "v3": 0.2, "S13": 0.1,
                       "S23": 0.0},
           "scan": {"type": "random", "count": 23, "seed": 25,
                    "axes": [{"param": "v1", "min": -1, "max": 1}, {"param": "S12", "min": -1, "max": 1}]},
           "stop": {"t_max": 20.0}, "options": {"energy_tolerance": 4e-16}})",
       {Status::energy_drift}, false},
      {"roll3:ellipse under in-plane gravity",
       R"({"system": "roll3:ellipse", "parameters": {"a": 2.0, "b": 1.0, "r": 0.1, "eta": 0.5, "g_effective": 1.0},
           "initial": {"start": "plate", "x2": 0.0, "v1": 0.0},
           "scan": {"type": "random", "count": 27, "seed": 26,
                    "axes": [{"param": "x1", "min": -1.9, "max": 1.9}, {"param": "v2", "min": -1, "max": 1},
                             {"param": "S12", "min": -1, "max": 1}]},
           "stop": {"t_max": 10.0}})",
       {Status::finished}, false},
      {"roll4:ellipse, a differing between lanes",
       R"({"system": "roll4:ellipse", "parameters": {"b": 1.0, "r": 0.1, "eta": 0.5, "g_effective": 1.0},
           "initial": {"start": "plate", "x1": 0.3, "x2": 0.0, "z": 0.0, "v1": 0.0, "v2": 1.0, "v3": 0.0, "S13": 0.0,
                       "S23": 0.0},
           "scan": {"type": "random", "count": 25, "seed": 27,
                    "axes": [{"param": "a", "min": 1.2, "max": 2.5}, {"param": "S12", "min": -1, "max": 1}]},
           "stop": {"t_max": 15.0}})",
       {Status::finished}, false},
      {"roll3:sinai, over the scatterers' edges; roll3:disc",
       R"({"system": "roll3:sinai", "parameters": {"side": 1.0, "radius": 0.25, "r": 0.05, "eta": 0.5, "g": 0.0},
           "initial": {"start": "plate", "x1": 0.5, "v1": 0.921061, "v2": 0.389418},
           "scan": {"type": "random", "count": 33, "seed": 28,
                    "axes": [{"param": "x2", "min": -0.5, "max": 0.5}, {"param": "S12", "min": -1.5, "max": 1.5}]},
           "stop": {"t_max": 4.0}})",
       {Status::finished}, false},
      {"roll4:sinai",
       R"({"system": "roll4:sinai", "parameters": {"side": 1.0, "radius": 0.25, "r": 0.05, "eta": 0.5,
                                                   "g_effective": 0.5},
           "initial": {"start": "plate", "x1": 0.5, "z": 0.0, "v1": 0.921061, "v2": 0.389418, "v3": 0.0,
                       "S13": 0.0, "S23": 0.3},
           "scan": {"type": "random", "count": 21, "seed": 29,
                    "axes": [{"param": "x2", "min": -0.5, "max": 0.5}, {"param": "S12", "min": -1.5, "max": 1.5}]},
           "stop": {"t_max": 4.0}})",
       {Status::finished}, false},
      {"roll3:disc, in-plane gravity",
       R"({"system": "roll3:disc", "parameters": {"R": 1.0, "r": 0.1, "eta": 0.5, "g_effective": 1.0},
           "initial": {"start": "plate", "x1": 0.0, "x2": 0.3},
           "scan": {"type": "random", "count": 19, "seed": 30,
                    "axes": [{"param": "v1", "min": -1, "max": 1}, {"param": "v2", "min": -1, "max": 1},
                             {"param": "S12", "min": -1, "max": 1}]},
           "stop": {"t_max": 10.0}})",
       {Status::finished}, false},
  };
}

std::vector<LaneCase> lane_cases() {
  std::vector<LaneCase> cases = {
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
      {"roll4:disc, t_max on plates and on the rim, starts outside the disc",
       R"({"system": "roll4:disc", "parameters": {"eta": 0.5},
           "initial": {"start": "plate", "x2": 0.0, "z": 0.0, "v2": 1.0, "v3": 0.0, "S13": 0.0, "S23": -1.0},
           "scan": {"type": "random", "count": 77, "seed": 12,
                    "axes": [{"param": "x1", "min": -1.3, "max": 1.3}, {"param": "v1", "min": -2, "max": -0.2},
                             {"param": "S12", "min": 0.3, "max": 0.9}, {"param": "R", "min": 0.9, "max": 1.4},
                             {"param": "r", "min": 0.05, "max": 0.3}, {"param": "g_effective", "min": 0, "max": 2}]},
           "stop": {"t_max": 30.0}})",
       {Status::finished, Status::masked}, false},
      {"roll4:disc on N^-, the event budget and energy drift",
       R"({"system": "roll4:disc", "parameters": {"R": 1.0, "r": 0.1, "eta": 0.5, "g_effective": 1.0},
           "initial": {"start": "plate_minus", "x2": 0.1, "z": 0.0, "v2": 1.0, "v3": 0.3, "S13": 0.2, "S23": -1.0},
           "scan": {"type": "random", "count": 41, "seed": 13,
                    "axes": [{"param": "x1", "min": -0.9, "max": 0.9}, {"param": "v1", "min": -2, "max": 2},
                             {"param": "S12", "min": -0.9, "max": 0.9}]},
           "stop": {"t_max": 100.0, "max_events": 25}, "options": {"energy_tolerance": 4e-16}})",
       {Status::finished, Status::energy_drift}, false},
      {"roll4:disc, the step budget",
       R"({"system": "roll4:disc", "parameters": {"R": 1.0, "r": 0.1, "eta": 0.5, "g_effective": 1.0},
           "initial": {"start": "plate", "x1": -0.715, "x2": 0.0, "v2": 1.0, "S23": -1.0},
           "scan": {"type": "random", "count": 19, "seed": 14,
                    "axes": [{"param": "v1", "min": -2, "max": -0.2}, {"param": "S12", "min": 0.3, "max": 0.9}]},
           "stop": {"t_max": 200.0}, "options": {"max_steps": 1100}})",
       {Status::integrator_failure, Status::finished}, false},
  };
  // roll4:disc in float: the last three cases again, energy drift at a float-sized tolerance
  const std::size_t n = cases.size();
  cases.push_back(in_float(cases[n - 3]));
  cases.push_back(in_float(cases[n - 2], {{"energy_tolerance", 2e-7}}));
  cases.push_back(in_float(cases[n - 1]));
  for (const LaneCase& c : table_cases()) cases.push_back(c);
  // the rolling tables in float: every case again, energy drift at a float-sized tolerance and
  // the step budget at the float tolerances
  for (const LaneCase& c : table_cases()) {
    const nlohmann::json config = nlohmann::json::parse(c.config);
    const nlohmann::json options = config.contains("options") ? config["options"] : nlohmann::json::object();
    if (options.contains("energy_tolerance")) cases.push_back(in_float(c, {{"energy_tolerance", 2e-7}}));
    else if (options.contains("rtol")) cases.push_back(in_float(c, {{"rtol", 1e-5}, {"atol", 1e-5}, {"max_steps", 200}}));
    else cases.push_back(in_float(c));
  }
  return cases;
}

TEST(RimLanes, ScansMatchTheOneTrajectoryKernelBitwise) {
  for (const LaneCase& c : lane_cases()) {
    testing::LaneScan scan;
    testing::run_lane_scan(c.name, c.config, fields, scan);
    if (HasFatalFailure()) return;
    std::set<int> sides;
    std::set<std::uint64_t> steps;
    for (std::size_t i = 0; i < scan.results.size(); ++i) {
      const TrajectoryResult& r = scan.results[i];
      if (r.status == Status::exited) sides.insert(r.exit_side);
      if (r.status != Status::masked) steps.insert(r.steps);
      if (scan.rc.spec.model == ModelKind::roll_disc && r.status != Status::masked) {
        EXPECT_GT(r.events, 0u) << c.name << ": trajectory " << i << " never reached the rim";
      }
    }
    for (Status s : c.must_see) EXPECT_GT(scan.seen[s], 0) << c.name << ": no trajectory ended " << status_name(s);
    if (c.both_sides) {
      EXPECT_EQ(2u, sides.size()) << c.name << ": exits on one side only";
    }
    EXPECT_GT(steps.size(), 2u) << c.name << ": passages of equal length do not test lane refills";
  }
}

// The rolling-table presets (examples/), their grids cut to a few points per axis: the lanes'
// results are the one-trajectory kernel's.
TEST(RimLanes, RollingTablePresetsMatchTheOneTrajectoryKernelBitwise) {
  constexpr int kPointsPerAxis = 7;
  for (const char* name : {"roll3_polygon", "roll3_sinai", "roll3_stadium", "roll4_stadium", "roll4_ellipse",
                           "roll4_stadium_shadow", "figure4"}) {
    const std::string path = std::string(SKIPSTONE_SOURCE_DIR) + "/examples/" + name + ".json";
    std::ifstream in(path);
    ASSERT_TRUE(in) << path;
    nlohmann::json config = nlohmann::json::parse(in);
    for (auto& axis : config["scan"]["axes"])
      if (axis["n"].get<int>() > kPointsPerAxis) axis["n"] = kPointsPerAxis;
    testing::LaneScan scan;
    testing::run_lane_scan(name, config.dump(), fields, scan);
    if (HasFatalFailure()) return;
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
