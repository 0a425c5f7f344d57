// Holes (stop.holes) in the edge of the rolling tables (roll3:<table>, roll4:<table>,
// roll4:disc: rolling/table_roll.hpp) and slots in the wall of cylinder:<table>
// (noslip_trajectory.hpp): the escape against the edge entries of the same scan without holes
// (the boundary-map hook, an independent record of where each passage starts), a hole over the
// whole wall, a hole the trajectories never reach, the SIMD lanes against the one-trajectory
// kernel, the cylinder's slot against the 2D table's hole for a flight without axial velocity,
// P(t) over chunks and shards, the preset, and bad input.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_support.hpp"
#include "lane_comparison.hpp"
#include "npy_values.hpp"
#include "skipstone/simulate.hpp"
#include "test_support.hpp"

namespace skipstone {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

// The edge entries of one trajectory: when, and the wall's boundary parameter there.
struct EntryLog : DiscardSink {
  std::vector<double> t, s;
  void on_impact(double time, const double* c) {
    t.push_back(time);
    s.push_back(c[0]);
  }
};

// Rolling-table scans that reach the edge many times: roll3 with and without in-plane gravity,
// roll4 under axial gravity, the stadium's breaks, a polygon's vertices, the ellipse, the Sinai
// scatterer, the disc (roll3:disc over the table wall, roll4:disc over its closed-form wall).
std::vector<json> rolling_scans() {
  const auto scan = [](const char* system, const json& parameters, const json& initial, const json& axes) {
    return json{{"system", system},
                {"parameters", parameters},
                {"initial", initial},
                {"scan", {{"type", "random"}, {"count", 23}, {"seed", 5}, {"axes", axes}}},
                {"stop", {{"t_max", 40.0}}}};
  };
  const json plate_axes = json::array({{{"param", "v1"}, {"min", -1.0}, {"max", 1.0}},
                                       {{"param", "v2"}, {"min", 0.3}, {"max", 1.0}},
                                       {{"param", "S12"}, {"min", -0.6}, {"max", 0.6}}});
  const json pentagon = json::array({{0.0, 1.0}, {-0.951057, 0.309017}, {-0.587785, -0.809017},
                                     {0.587785, -0.809017}, {0.951057, 0.309017}});
  return {
      scan("roll3:stadium", {{"half_length", 1.0}, {"R", 1.0}, {"r", 0.1}, {"eta", 0.5}},
           {{"start", "plate"}, {"x1", 0.2}, {"x2", 0.1}}, plate_axes),
      scan("roll3:stadium", {{"half_length", 1.0}, {"R", 1.0}, {"r", 0.1}, {"eta", 0.5}, {"g_effective", 0.3}},
           {{"start", "plate"}, {"x1", 0.2}, {"x2", 0.1}}, plate_axes),
      scan("roll3:polygon", {{"vertices", pentagon}, {"r", 0.05}, {"eta", 0.4}},
           {{"start", "plate"}, {"x1", 0.1}, {"x2", -0.1}}, plate_axes),
      scan("roll3:disc", {{"R", 1.0}, {"r", 0.2}, {"eta", 0.5}}, {{"start", "plate"}, {"x1", 0.3}, {"x2", 0.0}},
           plate_axes),
      scan("roll4:stadium", {{"half_length", 1.0}, {"R", 1.0}, {"r", 0.1}, {"eta", 0.5}, {"g_effective", 1.0}},
           {{"start", "plate"}, {"x1", 0.2}, {"x2", 0.1}, {"v3", 0.2}, {"S13", 0.1}}, plate_axes),
      scan("roll4:ellipse", {{"a", 2.0}, {"b", 1.0}, {"r", 0.1}, {"eta", 0.5}},
           {{"start", "plate_minus"}, {"x1", 0.5}, {"x2", 0.1}}, plate_axes),
      scan("roll4:sinai", {{"side", 1.0}, {"radius", 0.3}, {"r", 0.05}, {"eta", 0.5}},
           {{"start", "plate"}, {"x1", 0.45}, {"x2", 0.1}}, plate_axes),
      scan("roll4:disc", {{"R", 1.0}, {"r", 0.1}, {"eta", 0.5}, {"g_effective", 1.0}},
           {{"start", "plate"}, {"x1", 0.3}, {"x2", 0.0}, {"z", 0.0}, {"v3", 0.0}, {"S13", 0.0}, {"S23", -0.5}},
           plate_axes),
  };
}

json with_holes(json config, const json& holes) {
  config["stop"]["holes"] = holes;
  config["observables"] = {"status", "events", "t_end", "escape_time", "hole"};
  return config;
}

std::string name_of(const json& config) { return config["system"].get<std::string>(); }

// Every trajectory of the hole-free scan: its result and its edge entries.
struct HoleFree {
  RunConfig rc;
  std::vector<TrajectoryResult> results;
  std::vector<EntryLog> entries;
};
HoleFree run_hole_free(const json& config) {
  HoleFree h{testing::config_from(config), {}, {}};
  for (std::uint64_t i = 0; i < h.rc.spec.count; ++i) {
    EntryLog log;
    h.results.push_back(simulate_trajectory(h.rc.spec, i, log));
    h.entries.push_back(log);
  }
  return h;
}

// The first entry of `log` whose boundary parameter lies in a hole of `holes`, or -1; its hole
// in `which`.
int first_entry_in_hole(const EntryLog& log, const json& holes, int& which) {
  for (std::size_t j = 0; j < log.s.size(); ++j)
    for (std::size_t k = 0; k < holes.size(); ++k)
      if (log.s[j] >= holes[k][0].get<double>() && log.s[j] < holes[k][1].get<double>()) {
        which = static_cast<int>(k);
        return static_cast<int>(j);
      }
  return -1;
}

// Runs the scan with `holes` and checks each trajectory against the hole-free run's entries:
// where an entry lies in a hole, the ball leaves there (status through_hole) at that entry's time
// exactly, after the passages before it; elsewhere the result is the hole-free one, byte for
// byte. Returns how many escaped.
int expect_escape_at_the_first_entry_in_a_hole(const HoleFree& free, const json& config, const json& holes) {
  const RunConfig rc = testing::config_from(with_holes(config, holes));
  int escaped = 0;
  for (std::uint64_t i = 0; i < rc.spec.count; ++i) {
    DiscardSink sink;
    const TrajectoryResult r = simulate_trajectory(rc.spec, i, sink);
    int which = -1;
    const int j = first_entry_in_hole(free.entries[i], holes, which);
    if (j < 0) {
      EXPECT_EQ(0, std::memcmp(&r, &free.results[i], sizeof r)) << name_of(config) << " trajectory " << i;
      continue;
    }
    ++escaped;
    EXPECT_EQ(r.status, Status::through_hole) << name_of(config) << " trajectory " << i;
    EXPECT_EQ(r.escape_time, free.entries[i].t[j]) << name_of(config) << " trajectory " << i;
    EXPECT_EQ(r.t_end, r.escape_time) << name_of(config) << " trajectory " << i;
    EXPECT_EQ(r.hole, static_cast<double>(which)) << name_of(config) << " trajectory " << i;
    EXPECT_EQ(r.events, static_cast<std::uint64_t>(j)) << name_of(config) << " trajectory " << i;
  }
  return escaped;
}

TEST(HolesRolling, EscapeIsAtTheFirstEdgeEntryOfTheHoleFreeRunThatLiesInAHole) {
  const json holes = json::array({{0.10, 0.16}, {0.55, 0.62}});
  int survivors = 0;  // over all scans (on the disc every trajectory reaches the holes)
  for (const json& config : rolling_scans()) {
    const HoleFree free = run_hole_free(config);
    for (std::size_t i = 0; i < free.results.size(); ++i) {
      int which = -1;
      survivors += free.results[i].status != Status::masked && first_entry_in_hole(free.entries[i], holes, which) < 0;
    }
    const int escaped = expect_escape_at_the_first_entry_in_a_hole(free, config, holes);
    EXPECT_GT(escaped, 2) << name_of(config) << ": choose larger holes";
  }
  EXPECT_GT(survivors, 10) << "choose smaller holes";
}

// A hole over the whole wall: every trajectory leaves at its first arrival at the edge, at the
// time of the hole-free run's first entry, having made no passage.
TEST(HolesRolling, AHoleOverTheWholeWallEndsEveryTrajectoryAtItsFirstEdgeEntry) {
  const json whole = json::array({{0.0, 1.0}});
  for (const json& config : rolling_scans()) {
    const HoleFree free = run_hole_free(config);
    const int escaped = expect_escape_at_the_first_entry_in_a_hole(free, config, whole);
    int reached = 0;
    for (std::size_t i = 0; i < free.results.size(); ++i) reached += !free.entries[i].t.empty();
    EXPECT_EQ(escaped, reached) << name_of(config);
    EXPECT_GT(reached, 10) << name_of(config);
  }
}

// A hole in the largest gap between the hole-free scan's entry points: no trajectory reaches it,
// and every result is the hole-free one, byte for byte (the test of the entry point costs
// nothing else).
TEST(HolesRolling, AHoleNoTrajectoryReachesChangesNothing) {
  for (const json& config : rolling_scans()) {
    const HoleFree free = run_hole_free(config);
    std::vector<double> s = {0.0, 1.0};
    for (const EntryLog& log : free.entries) s.insert(s.end(), log.s.begin(), log.s.end());
    std::sort(s.begin(), s.end());
    std::size_t gap = 0;
    for (std::size_t k = 1; k < s.size(); ++k)
      if (s[k] - s[k - 1] > s[gap + 1] - s[gap]) gap = k - 1;
    const double lo = s[gap], hi = s[gap + 1], w = hi - lo;
    ASSERT_GT(w, 0.0) << name_of(config);
    const json holes = json::array({{lo + 0.25 * w, hi - 0.25 * w}});
    EXPECT_EQ(0, expect_escape_at_the_first_entry_in_a_hole(free, config, holes)) << name_of(config);
  }
}

std::string fields(const TrajectoryResult& r) {
  char b[256];
  std::snprintf(b, sizeof b, "status %s events %llu t_end %.17g escape %.17g hole %g", status_name(r.status),
                static_cast<unsigned long long>(r.events), r.t_end, r.escape_time, r.hole);
  return b;
}

// The rolling tables keep their SIMD lanes with holes (the test is in the flight the lanes share
// with the one-trajectory kernel): the same bytes, in double and float.
TEST(HolesRolling, LanesMatchTheOneTrajectoryKernelBitwise) {
  const json holes = json::array({{0.10, 0.16}, {0.55, 0.62}});
  for (const json& config : rolling_scans()) {
    for (const char* precision : {"double", "float"}) {
      json c = with_holes(config, holes);
      c["options"]["precision"] = precision;
      testing::LaneScan scan;
      testing::run_lane_scan(name_of(c) + " " + precision, c.dump(), fields, scan);
      if (HasFatalFailure()) return;
      EXPECT_GT(scan.seen[Status::through_hole], 0) << name_of(c) << " " << precision;
    }
  }
}

// cylinder:<table> over the stadium: the 2D stadium's no-slip ball started with spin 0 and the
// cylinder's started at the same point with the same horizontal velocity, no axial velocity and
// no gravity, stay in one horizontal plane (Theorem 1's projection is then the whole motion):
// the slot of the cylinder ends them as the 2D hole does, at the same impact (the survivors at
// t_max alike: same status and impacts, hole -1). The 3D collision
// rounds otherwise than the 2D one and the stadium's chaos amplifies that, hence a short t_max.
TEST(HolesCylinder, ASlotEndsAFlightWithoutAxialVelocityAsTheTwoDimensionalHole) {
  constexpr double kReduction = 1e-8;  // relative: rounding grown over about 10 impacts
  const json holes = json::array({{0.25, 0.35}, {0.75, 0.85}});
  const json axes = json::array({{{"param", "angle"}, {"min", 0.0}, {"max", 6.283185307179586}}});
  json plane = {{"system", "stadium"},
                {"parameters", {{"half_length", 1.0}, {"R", 1.0}, {"gamma", 0.8165}}},
                {"initial", {{"start", "interior"}, {"x", 0.3}, {"y", 0.2}, {"speed", 1.0}, {"spin", 0.0}}},
                {"scan", {{"type", "grid"}, {"axes", {{{"param", "angle"}, {"min", 0.0}, {"max", 6.2}, {"n", 40}}}}}},
                {"stop", {{"t_max", 25.0}, {"holes", holes}}},
                {"observables", {"status", "events", "t_end", "escape_time", "hole"}}};
  const RunConfig rc2 = testing::config_from(plane);
  int escaped = 0;
  for (std::uint64_t i = 0; i < rc2.spec.count; ++i) {
    const double angle = 6.2 * static_cast<double>(i) / 39.0;
    json cyl = plane;
    cyl["system"] = "cylinder:stadium";
    cyl["initial"] = {{"start", "interior"}, {"x", 0.3}, {"y", 0.2}, {"z", 0.5}, {"vx", std::cos(angle)},
                      {"vy", std::sin(angle)}, {"vz", 0.0}, {"wy", 0.0}, {"wz", 0.0}};
    cyl["scan"] = {{"type", "grid"}, {"axes", {{{"param", "wx"}, {"min", 0.0}, {"max", 0.0}, {"n", 1}}}}};
    const RunConfig rc3 = testing::config_from(cyl);
    DiscardSink sink;
    const TrajectoryResult a = simulate_trajectory(rc2.spec, i, sink);
    const TrajectoryResult b = simulate_trajectory(rc3.spec, 0, sink);
    ASSERT_EQ(a.status, b.status) << "angle " << angle;
    EXPECT_EQ(a.events, b.events) << "angle " << angle;
    EXPECT_EQ(a.hole, b.hole) << "angle " << angle;
    if (a.status != Status::through_hole) continue;
    ++escaped;
    EXPECT_NEAR(b.escape_time, a.escape_time, kReduction * a.escape_time) << "angle " << angle;
  }
  EXPECT_GT(escaped, 10);
}

// A slot runs over the whole height: under gravity and with axial velocity the ball leaves
// through it at whatever height it meets the wall, and the escape point (the trace's last event)
// lies on the wall inside the slot, at heights that differ from trajectory to trajectory.
TEST(HolesCylinder, ASlotIsOpenOverTheWholeHeight) {
  constexpr double kOnTheWall = 1e-9;  // distance of the escape point from the stadium's cap circle
  json cyl = {{"system", "cylinder:stadium"},
              {"parameters", {{"half_length", 1.0}, {"R", 1.0}, {"gamma", 0.8165}, {"g", 1.0}}},
              {"initial", {{"start", "interior"}, {"x", 0.3}, {"y", 0.2}, {"z", 0.0}, {"vy", 0.8}}},
              {"scan", {{"type", "random"}, {"count", 30}, {"seed", 3},
                        {"axes", {{{"param", "vz"}, {"min", -2.0}, {"max", 2.0}}, {{"param", "wz"}, {"min", -1.0}, {"max", 1.0}},
                                  {{"param", "vx"}, {"min", -1.0}, {"max", 1.0}}}}}},
              {"stop", {{"t_max", 200.0}, {"holes", {{0.30, 0.40}}}}},
              {"observables", {"status", "escape_time", "hole"}}};
  const RunConfig rc = testing::config_from(cyl);
  std::vector<double> heights;
  for (std::uint64_t i = 0; i < rc.spec.count; ++i) {
    testing::EventLog<Vec3, State3D> log;
    const TrajectoryResult r = simulate_trajectory(rc.spec, i, log);
    if (r.status != Status::through_hole) continue;
    ASSERT_FALSE(log.events.empty());
    const Vec3 x = log.events.back().x;
    EXPECT_EQ(log.events.back().t, r.escape_time) << i;
    // s in [0.30, 0.40) lies on the left cap, the circle of radius 1 about (-1, 0), which starts
    // after the top segment (length 2) at the polar angle pi/2: s = (2 + theta - pi/2) / (4 + 2 pi)
    EXPECT_NEAR(std::hypot(x.x + 1.0, x.y), 1.0, kOnTheWall) << i;
    const double theta = std::atan2(x.y, x.x + 1.0), polar = theta < 0.0 ? theta + 2.0 * M_PI : theta;
    const double s = (2.0 + polar - 0.5 * M_PI) / (4.0 + 2.0 * M_PI);
    EXPECT_GE(s, 0.30) << i;
    EXPECT_LT(s, 0.40) << i;
    heights.push_back(x.z);
  }
  ASSERT_GT(heights.size(), 5u);
  EXPECT_GT(*std::max_element(heights.begin(), heights.end()) - *std::min_element(heights.begin(), heights.end()), 1.0);
}

class HolesRollingCli : public testing::CliTest {};

std::string roll4_stadium_survival(const std::string& options) {
  return R"({"system": "roll4:stadium", "parameters": {"half_length": 1.0, "R": 1.0, "r": 0.1, "eta": 0.5},
  "initial": {"start": "plate", "x1": 0.0, "x2": 0.0, "v2": 1.0},
  "scan": {"type": "grid", "axes": [{"param": "v1", "min": -1.0, "max": 1.0, "n": 12},
                                    {"param": "S12", "min": -0.8, "max": 0.8, "n": 10}]},
  "stop": {"t_max": 80.0, "holes": [[0.30, 0.35]]},
  "observables": ["status", "escape_time", "hole"], "outputs": {"survival": {"points": 33}},
  "options": )" + options + "}";
}

// P(t) of a rolling table: the ok trajectories whose escape_time is NaN or later than t, the
// same bytes over chunks and over shards merged.
TEST_F(HolesRollingCli, SurvivalCountsAreTheEscapeTimesOverChunksAndShards) {
  const fs::path one = write_config("one.json", roll4_stadium_survival("{}"));
  const fs::path chunked = write_config("chunked.json", roll4_stadium_survival(R"({"chunk_size": 16})"));
  expect_same_files_over_chunks_and_shards(one, chunked,
                                           {"survival.npy", "survival_times.npy", "escape_time.npy", "hole.npy"});
  if (HasFatalFailure()) return;
  const auto counts = testing::npy_values<std::uint64_t>(dir_ / "one" / "survival.npy");
  const auto times = testing::npy_values<double>(dir_ / "one" / "survival_times.npy");
  const auto status = testing::npy_values<std::int8_t>(dir_ / "one" / "status.npy");
  const auto te = testing::npy_values<double>(dir_ / "one" / "escape_time.npy");
  ASSERT_EQ(counts.size(), 33u);
  for (std::size_t k = 0; k < counts.size(); ++k) {
    std::uint64_t inside = 0;
    for (std::size_t i = 0; i < status.size(); ++i)
      if ((status[i] == 0 || status[i] == 8) && !(te[i] <= times[k])) ++inside;
    EXPECT_EQ(counts[k], inside) << "t = " << times[k];
  }
  EXPECT_LT(counts.back(), counts.front());
  EXPECT_GT(counts.back(), 0u);
}

// The preset: a roll4:stadium scan with a hole, its survival counts and escape-time map.
TEST_F(HolesRollingCli, PresetRoll4StadiumEscapeRuns) {
  const fs::path cfg = fs::path(SKIPSTONE_SOURCE_DIR) / "examples" / "roll4_stadium_escape.json";
  const testing::CliResult r = run(cfg, dir_ / "out", "--backend cpu");
  ASSERT_EQ(r.rc, 0) << testing::describe(r);
  const json meta = testing::read_json(dir_ / "out" / "meta.json");
  const auto counts = testing::npy_values<std::uint64_t>(dir_ / "out" / "survival.npy");
  EXPECT_EQ(meta.at("escape").at("escaped").get<std::uint64_t>(), counts.front() - counts.back());
  EXPECT_GT(meta.at("escape").at("escaped").get<std::uint64_t>(), counts.front() / 2);
  EXPECT_TRUE(fs::exists(dir_ / "out" / "escape_time.png"));
}

TEST_F(HolesRollingCli, BadInputExitsTwoNamingTheKey) {
  const auto other = [](const std::string& system, const std::string& initial, const std::string& axis,
                        const std::string& holes, const std::string& extra = "") {
    return R"({"system": ")" + system + R"(", "parameters": {"r": 0.1, "eta": 0.5}, "initial": )" + initial +
           R"(, "scan": {"type": "grid", "axes": [{"param": ")" + axis + R"(", "min": 0, "max": 0.1, "n": 2}]},
      "stop": {"t_max": 10, "holes": )" + holes + "}" + extra + "}";
  };
  const std::string hole = "[[0.1, 0.3]]";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {other("roll3:strip", "{}", "x1", hole), "stop.holes"},
      {other("roll4:planes", "{}", "x1", hole), "stop.holes"},
      {other("roll4:disc-transversal", "{}", "v2", hole), "stop.holes"},
      {other("roll3:stadium", R"({"start": "rim_entry"})", "v2", hole), "stop.holes"},
      {other("roll4:stadium", R"({"start": "plate"})", "v1", "[[0.1, 1.3]]"), "stop.holes[0]"},
      {other("roll4:stadium", R"({"start": "plate"})", "v1", hole,
             R"(, "observables": ["status", "escape_time"], "outputs": {"survival": {"points": 1}})"),
       "outputs.survival.points"},
  };
  for (const auto& [config, key] : cases) {
    const fs::path cfg = write_config("bad.json", config);
    const testing::CliResult r = run(cfg, dir_ / "bad");
    EXPECT_EQ(r.rc, 2) << config << "\n" << testing::describe(r);
    EXPECT_NE(r.err.find(key), std::string::npos) << key << "\n" << testing::describe(r);
    EXPECT_FALSE(fs::exists(dir_ / "bad")) << config;
  }
}

}  // namespace
}  // namespace skipstone
