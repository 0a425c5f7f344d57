// Boundary coordinates of the 3D no-slip models (skipstone/boundary_map.hpp: the row
// (s, z | cos_theta, p, p_up, spin_n, spin_t, spin_up) of every impact of cylinder:<table> and
// sphere) and the escape observables mean_free_time and coverage beyond the 2D tables:
// - the rows against the impact states of the same trajectory in a wall frame built otherwise
//   (the cross-section table's own boundary frame; on the sphere east = z x x / |z x x|);
// - a cylinder without axial motion gives its cross-section table's 2D rows;
// - the specular sphere: impacts on the great circle normal to x x u, all at one angle, and the
//   mean free time of the chord 2 R cos(angle) / |u|;
// - end to end through the CLI: the cylinder's mean free time is the cross-section table's
//   whatever the axial motion, coverage bins the coordinates it names, a rolling table's mean
//   free time and coverage against its recorded edge entries, the files and their column names,
//   and bad keys exit 2 naming them.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_support.hpp"
#include "npy_values.hpp"
#include "skipstone/simulate.hpp"
#include "skipstone/tables/stadium.hpp"
#include "test_support.hpp"

namespace skipstone {
namespace {

using nlohmann::json;
using testing::CliResult;
using testing::describe;
namespace fs = std::filesystem;

constexpr double kRowRoundOff = 1e-12;  // a row's coordinates against the independent frame

// The impacts of one 3D trajectory: the state at each (from on_event, whose normal is nonzero
// only at an impact) and the row the kernel reports right after it.
struct Impacts3D {
  struct Impact {
    Vec3 x, u, w, nu;
    std::array<double, kImpactCoords3D> row;
  };
  std::vector<Impact> impacts;
  Impact pending{};
  template <class V, class S>
  void on_event(double, V x, const S& st, V nu) {
    if constexpr (std::is_same_v<S, State3D>) pending = {x, st.u, st.w, nu, {}};
  }
  template <class T>
  void on_step(T, const T*) {}
  void on_impact(double, const double* c) {
    std::copy(c, c + kImpactCoords3D, pending.row.begin());
    impacts.push_back(pending);
  }
};

// The 2D impacts' rows of a 2D table, with their times.
struct Impacts2D {
  std::vector<double> t;
  std::vector<std::array<double, kImpactCoords2D>> rows;
  template <class V, class S>
  void on_event(double, V, const S&, V) {}
  template <class T>
  void on_step(T, const T*) {}
  void on_impact(double time, const double* c) {
    t.push_back(time);
    rows.push_back({c[0], c[1], c[2]});
  }
};

// Trajectory 0 of `config` through `sink`, by the kernel of system (M, T) with or without
// gravity as the scan asks (only these variants are compiled here, not every system's).
template <ModelKind M, TableKind T, class Sink>
void run_variant(const json& config, Sink& sink) {
  const RunConfig rc = testing::config_from(config);
  ASSERT_EQ(rc.spec.model, M);
  ASSERT_EQ(rc.spec.table, T);
  if (scan_has_gravity(rc.spec)) simulate_variant<Variant<M, T, Precision::float64, GravityKind::any>>(rc.spec, 0, sink);
  else simulate_variant<Variant<M, T, Precision::float64, GravityKind::none>>(rc.spec, 0, sink);
}

constexpr ModelKind kCylinder = ModelKind::noslip_cylinder, kPlane = ModelKind::noslip_plane,
                    kSphere = ModelKind::noslip_sphere;

json cylinder_stadium(const json& initial, double gamma, double g, int max_events) {
  return {{"system", "cylinder:stadium"},
          {"parameters", {{"half_length", 1.0}, {"R", 1.0}, {"gamma", gamma}, {"g", g}}},
          {"initial", initial},
          {"stop", {{"max_events", max_events}}}};
}

TEST(BoundaryMap3D, CylinderRowsAreTheWallFrameComponentsOfTheImpactState) {
  const json start = {{"start", "interior"}, {"x", 0.3}, {"y", 0.2}, {"z", 0.0}, {"vx", 0.6}, {"vy", 0.5},
                      {"vz", 0.7}, {"wx", 0.4}, {"wy", -0.3}, {"wz", 0.2}};
  Impacts3D log;
  run_variant<kCylinder, TableKind::stadium>(cylinder_stadium(start, 0.8165, 1.0, 200), log);
  ASSERT_EQ(log.impacts.size(), 200u);
  const StadiumTable stadium{1.0, 1.0};
  for (std::size_t k = 0; k < log.impacts.size(); ++k) {
    const auto& [x, u, w, nu, row] = log.impacts[k];
    // s names the wall point: the table's own frame there holds the impact point
    const BoundaryFrame f = stadium.boundary_frame(row[0]);
    EXPECT_NEAR(f.x.x, x.x, 1e-12) << k;
    EXPECT_NEAR(f.x.y, x.y, 1e-12) << k;
    const Vec3 tangent = {f.tangent.x, f.tangent.y, 0.0}, normal = {f.nu.x, f.nu.y, 0.0};
    const double speed = norm(u);
    EXPECT_NEAR(dot(normal, nu), 1.0, 1e-12) << k;
    EXPECT_EQ(row[1], x.z) << k;
    EXPECT_NEAR(row[2], dot(u, tangent) / speed, kRowRoundOff) << k;
    EXPECT_NEAR(row[3], u.z / speed, kRowRoundOff) << k;
    EXPECT_NEAR(row[4], dot(w, normal) / speed, kRowRoundOff) << k;
    EXPECT_NEAR(row[5], dot(w, tangent) / speed, kRowRoundOff) << k;
    EXPECT_NEAR(row[6], w.z / speed, kRowRoundOff) << k;
  }
}

TEST(BoundaryMap3D, CylinderWithoutAxialMotionGivesItsCrossSectionTablesRows) {
  // 20 impacts: the two runs round differently (the 2D start takes the angle), which the
  // stadium's chaos amplifies by about e per impact
  constexpr double kSameCrossSection = 1e-9;
  const double angle = 0.7, speed = 1.3, spin = 0.45;
  const json flat = {{"system", "stadium"},
                     {"parameters", {{"half_length", 1.0}, {"R", 1.0}, {"gamma", 0.8165}}},
                     {"initial", {{"start", "interior"}, {"x", 0.3}, {"y", 0.2}, {"angle", angle}, {"speed", speed},
                                  {"spin", spin}}},
                     {"stop", {{"max_events", 20}}}};
  const json start = {{"start", "interior"}, {"x", 0.3}, {"y", 0.2}, {"z", 0.5},
                      {"vx", speed * std::cos(angle)}, {"vy", speed * std::sin(angle)}, {"vz", 0.0},
                      {"wx", 0.0}, {"wy", 0.0}, {"wz", spin}};
  Impacts2D plane;
  run_variant<kPlane, TableKind::stadium>(flat, plane);
  Impacts3D cylinder;
  run_variant<kCylinder, TableKind::stadium>(cylinder_stadium(start, 0.8165, 0.0, 20), cylinder);
  ASSERT_EQ(plane.rows.size(), 20u);
  ASSERT_EQ(cylinder.impacts.size(), 20u);
  for (std::size_t k = 0; k < 20; ++k) {
    const auto& row = cylinder.impacts[k].row;
    EXPECT_NEAR(row[0], plane.rows[k][0], kSameCrossSection) << k;  // s
    EXPECT_EQ(row[1], 0.5) << k;                                   // z
    EXPECT_NEAR(row[2], plane.rows[k][1], kSameCrossSection) << k;  // p
    EXPECT_EQ(row[3], 0.0) << k;                                   // p_up
    EXPECT_NEAR(row[4], 0.0, kRowRoundOff) << k;                    // spin_n
    EXPECT_NEAR(row[5], 0.0, kRowRoundOff) << k;                    // spin_t
    EXPECT_NEAR(row[6], plane.rows[k][2], kSameCrossSection) << k;  // spin_up is the 2D spin
  }
}

json sphere(double gamma, double g, const json& initial, int max_events) {
  return {{"system", "sphere"},
          {"parameters", {{"R", 1.0}, {"gamma", gamma}, {"g", g}}},
          {"initial", initial},
          {"stop", {{"max_events", max_events}}}};
}

const json kSphereStart = {{"start", "interior"}, {"x", 0.3}, {"y", 0.1}, {"z", 0.2}, {"vx", 0.5}, {"vy", 0.7},
                           {"vz", -0.4}, {"wx", 0.3}, {"wy", 0.2}, {"wz", 0.1}};

TEST(BoundaryMap3D, SphereRowsAreTheWallFrameComponentsOfTheImpactState) {
  Impacts3D log;
  run_variant<kSphere, TableKind::none>(sphere(0.6325, 1.0, kSphereStart, 300), log);
  ASSERT_EQ(log.impacts.size(), 300u);
  const Vec3 z_axis = {0.0, 0.0, 1.0};
  for (std::size_t k = 0; k < log.impacts.size(); ++k) {
    const auto& [x, u, w, nu, row] = log.impacts[k];
    const double rho = norm(x);
    const Vec3 radial = (1.0 / rho) * x;
    const Vec3 east = (1.0 / norm(cross(z_axis, radial))) * cross(z_axis, radial);
    const Vec3 north = cross(radial, east);
    double s = std::atan2(x.y, x.x) / (2.0 * M_PI);
    if (s < 0.0) s += 1.0;
    const double speed = norm(u);
    EXPECT_NEAR(dot(nu, radial), -1.0, 1e-12) << k;  // the inward normal
    EXPECT_NEAR(row[0], s, kRowRoundOff) << k;
    EXPECT_NEAR(row[1], x.z / rho, kRowRoundOff) << k;
    EXPECT_NEAR(row[2], dot(u, east) / speed, kRowRoundOff) << k;
    EXPECT_NEAR(row[3], dot(u, north) / speed, kRowRoundOff) << k;
    EXPECT_NEAR(row[4], dot(w, nu) / speed, kRowRoundOff) << k;
    EXPECT_NEAR(row[5], dot(w, east) / speed, kRowRoundOff) << k;
    EXPECT_NEAR(row[6], dot(w, north) / speed, kRowRoundOff) << k;
  }
}

TEST(BoundaryMap3D, SpecularSphereImpactsLieOnAGreatCircleAtOneAngle) {
  constexpr double kInvariant = 1e-12;  // the plane of the orbit and the angle, over 500 chords
  const json config = sphere(0.0, 0.0, kSphereStart, 500);
  Impacts3D log;
  run_variant<kSphere, TableKind::none>(config, log);
  BoundarySink free_time;
  run_variant<kSphere, TableKind::none>(config, free_time);
  ASSERT_EQ(log.impacts.size(), 500u);
  const Vec3 x0 = {0.3, 0.1, 0.2}, u0 = {0.5, 0.7, -0.4};
  const Vec3 L = (1.0 / norm(cross(x0, u0))) * cross(x0, u0);
  const double sin_angle = std::hypot(log.impacts[0].row[2], log.impacts[0].row[3]);
  for (std::size_t k = 0; k < log.impacts.size(); ++k) {
    const auto& row = log.impacts[k].row;
    const double lon = 2.0 * M_PI * row[0], sin_theta = std::sqrt(1.0 - row[1] * row[1]);
    const Vec3 point = {sin_theta * std::cos(lon), sin_theta * std::sin(lon), row[1]};
    EXPECT_NEAR(dot(point, L), 0.0, kInvariant) << k;
    EXPECT_NEAR(std::hypot(row[2], row[3]), sin_angle, kInvariant) << k;
  }
  const double chord_time = 2.0 * 1.0 * std::sqrt(1.0 - sin_angle * sin_angle) / norm(u0);
  EXPECT_NEAR(free_time.mean_free_time(), chord_time, kInvariant * chord_time);
}

class BoundaryMap3DCli : public testing::CliTest {};

// The cross-section motion of a cylinder is its table's whatever the axial motion (Theorem 1),
// so its impact times and mean free time are too.
TEST_F(BoundaryMap3DCli, CylinderMeanFreeTimeIsTheCrossSectionTablesWhateverTheAxialMotion) {
  // relative: 12 impacts of two runs that round differently (the 2D start takes the angle; the
  // 3D map mixes in the axial components), which the no-slip stadium's chaos amplifies by about
  // e per impact (measured: 3e-6 apart after 30 impacts, 1e-8 between the axial velocities)
  constexpr double kSameImpacts = 1e-9;
  const double angle = 0.7;
  const json plane = {{"system", "stadium"},
                      {"parameters", {{"half_length", 1.0}, {"R", 1.0}, {"gamma", 0.8165}}},
                      {"initial", {{"start", "interior"}, {"x", 0.3}, {"y", 0.2}, {"angle", angle}, {"speed", 1.0},
                                   {"spin", 0.45}}},
                      {"stop", {{"max_events", 12}}},
                      {"observables", {"status", "mean_free_time"}}};
  const json cylinder = {
      {"system", "cylinder:stadium"},
      {"parameters", {{"half_length", 1.0}, {"R", 1.0}, {"gamma", 0.8165}, {"g", 2.0}}},
      {"initial", {{"start", "interior"}, {"x", 0.3}, {"y", 0.2}, {"z", 0.0}, {"vx", std::cos(angle)},
                   {"vy", std::sin(angle)}, {"wx", 0.3}, {"wy", -0.6}, {"wz", 0.45}}},
      {"scan", {{"type", "grid"}, {"axes", {{{"param", "vz"}, {"min", -2.0}, {"max", 2.0}, {"n", 5}}}}}},
      {"stop", {{"max_events", 12}}},
      {"observables", {"status", "mean_free_time"}}};
  CliResult r = run(write_config("plane.json", plane.dump()), dir_ / "plane");
  ASSERT_EQ(r.rc, 0) << describe(r);
  r = run(write_config("cylinder.json", cylinder.dump()), dir_ / "cylinder");
  ASSERT_EQ(r.rc, 0) << describe(r);
  const double expected = testing::npy_values<double>(dir_ / "plane" / "mean_free_time.npy").at(0);
  const std::vector<double> got = testing::npy_values<double>(dir_ / "cylinder" / "mean_free_time.npy");
  ASSERT_EQ(got.size(), 5u);
  EXPECT_GT(expected, 0.1);
  for (std::size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], expected, kSameImpacts * expected) << i;
}

// A specular cylinder:disc keeps p and p_up at every impact, so coverage over them is one cell;
// over (s, p) the same trajectories visit many.
TEST_F(BoundaryMap3DCli, CoverageBinsTheCoordinatesItNames) {
  const auto config = [](const std::string& coverage) {
    return R"({"system": "cylinder:disc", "parameters": {"R": 1.0, "gamma": 0.0},
      "initial": {"start": "interior", "x": 0.2, "y": 0.1, "z": 0.0, "vx": 0.8, "vy": 0.3, "wz": 0.2},
      "scan": {"type": "grid", "axes": [{"param": "vz", "min": -0.9, "max": 0.9, "n": 4}]},
      "stop": {"max_events": 400}, "observables": ["status", "coverage"],
      "outputs": {"coverage": )" + coverage + "}}";
  };
  ASSERT_EQ(run(write_config("angles.json", config(R"({"coords": ["p", "p_up"], "bins": [10, 10]})")), dir_ / "a").rc, 0);
  const CliResult r = run(write_config("wall.json", config(R"({"bins": [10, 10]})")), dir_ / "w");
  ASSERT_EQ(r.rc, 0) << describe(r);
  const std::vector<double> angles = testing::npy_values<double>(dir_ / "a" / "coverage.npy");
  const std::vector<double> wall = testing::npy_values<double>(dir_ / "w" / "coverage.npy");
  ASSERT_EQ(angles.size(), 4u);
  for (std::size_t i = 0; i < angles.size(); ++i) {
    EXPECT_EQ(angles[i], 0.01) << i;
    EXPECT_GE(wall[i], 0.05) << i;  // s runs round the whole wall
  }
  const json meta = json::parse(testing::read_text(dir_ / "a" / "meta.json"));
  EXPECT_EQ(meta["config"]["outputs"]["coverage"]["coords"], json::array({"p", "p_up"})) << meta["config"].dump();
}

// Every impact of every sphere trajectory in a map over (s, cos_theta), the rows of all of
// them with the 3D column names, and the map is the histogram of the rows.
TEST_F(BoundaryMap3DCli, SphereMapAndRowsNameTheirCoordinates) {
  const std::string cfg = R"({"system": "sphere", "parameters": {"R": 1.0, "gamma": 0.6325, "g": 1.0},
    "initial": {"start": "interior", "x": 0.3, "y": 0.1, "z": 0.2, "vx": 0.5, "vy": 0.7, "vz": -0.4, "wx": 0.3},
    "scan": {"type": "grid", "axes": [{"param": "wy", "min": -1.0, "max": 1.0, "n": 3}]},
    "stop": {"max_events": 50}, "observables": ["status", "events"],
    "outputs": {"boundary_map": {"coords": ["s", "cos_theta"], "bins": [8, 4]},
                "boundary_events": {"every": 1, "max_events_per_trajectory": 100}}})";
  const CliResult r = run(write_config("sphere.json", cfg), dir_ / "out");
  ASSERT_EQ(r.rc, 0) << describe(r);
  const json meta = json::parse(testing::read_text(dir_ / "out" / "meta.json"));
  const json columns = json::array({"trajectory", "wy", "event", "t", "s", "cos_theta", "p", "p_up", "spin_n", "spin_t",
                                    "spin_up"});
  EXPECT_EQ(meta["boundary_events"]["columns"], columns) << meta.dump();
  const std::vector<double> rows = testing::npy_values<double>(dir_ / "out" / "boundary_events.npy");
  const std::vector<std::uint64_t> map = testing::npy_values<std::uint64_t>(dir_ / "out" / "boundary_map.npy");
  const std::vector<std::uint64_t> events = testing::npy_values<std::uint64_t>(dir_ / "out" / "events.npy");
  std::uint64_t impacts = 0;
  for (std::uint64_t e : events) impacts += e;
  ASSERT_GT(impacts, 100u);
  ASSERT_EQ(rows.size(), impacts * columns.size());
  ASSERT_EQ(map.size(), 32u);
  std::vector<std::uint64_t> binned(32, 0);
  for (std::size_t k = 0; k < rows.size(); k += columns.size()) {
    const double s = rows[k + 4], c = rows[k + 5];
    const std::size_t i = std::min<std::size_t>(7, static_cast<std::size_t>(s * 8.0));
    const std::size_t j = std::min<std::size_t>(3, static_cast<std::size_t>((c + 1.0) / 2.0 * 4.0));
    ++binned[i * 4 + j];
    EXPECT_LE(rows[k + 6] * rows[k + 6] + rows[k + 7] * rows[k + 7], 1.0 + 1e-12) << k;  // p, p_up
  }
  EXPECT_EQ(map, binned);
  EXPECT_TRUE(fs::exists(dir_ / "out" / "boundary_map.png"));
}

// A rolling table's mean free time is the mean time between its edge entries, and its coverage
// the fraction of the cells its entries fall in: both against the recorded entries.
TEST_F(BoundaryMap3DCli, RollingTableMeanFreeTimeAndCoverageFollowItsEdgeEntries) {
  constexpr double kMeanOfTimes = 1e-12;  // relative
  const std::string cfg = R"({"system": "roll3:stadium",
    "parameters": {"half_length": 1.0, "R": 1.0, "r": 0.1, "eta": 0.5},
    "initial": {"start": "plate", "x1": 0.2, "x2": 0.1, "v1": 0.6, "S12": 0.2},
    "scan": {"type": "grid", "axes": [{"param": "v2", "min": 0.3, "max": 0.9, "n": 4}]},
    "stop": {"t_max": 60.0}, "observables": ["status", "mean_free_time", "coverage"],
    "outputs": {"coverage": {"bins": [20, 10]},
                "boundary_events": {"every": 1, "max_events_per_trajectory": 5000}}})";
  const CliResult r = run(write_config("roll3.json", cfg), dir_ / "out");
  ASSERT_EQ(r.rc, 0) << describe(r);
  const std::vector<double> rows = testing::npy_values<double>(dir_ / "out" / "boundary_events.npy");
  const std::vector<double> mft = testing::npy_values<double>(dir_ / "out" / "mean_free_time.npy");
  const std::vector<double> coverage = testing::npy_values<double>(dir_ / "out" / "coverage.npy");
  constexpr std::size_t kColumns = 7;  // trajectory, v2, event, t, s, p, spin
  ASSERT_EQ(mft.size(), 4u);
  for (std::size_t i = 0; i < 4; ++i) {
    std::vector<double> t;
    std::set<std::pair<int, int>> cells;
    for (std::size_t k = 0; k < rows.size(); k += kColumns)
      if (rows[k] == static_cast<double>(i)) {
        t.push_back(rows[k + 3]);
        cells.insert({std::min(19, static_cast<int>(rows[k + 4] * 20.0)),
                      std::min(9, static_cast<int>((rows[k + 5] + 1.0) / 2.0 * 10.0))});
      }
    ASSERT_GE(t.size(), 5u) << i;
    EXPECT_NEAR(mft[i], (t.back() - t.front()) / static_cast<double>(t.size() - 1), kMeanOfTimes * mft[i]) << i;
    EXPECT_EQ(coverage[i], static_cast<double>(cells.size()) / 200.0) << i;
  }
}

TEST_F(BoundaryMap3DCli, BadKeysExitTwoNamingTheKey) {
  const std::string cylinder = R"({"system": "cylinder:disc", "parameters": {"R": 1.0, "gamma": 0.5},
    "initial": {"start": "interior", "x": 0.2, "vx": 0.8}, "stop": {"max_events": 10}, )";
  const std::string sphere = R"({"system": "sphere", "parameters": {"R": 1.0, "gamma": 0.5},
    "initial": {"start": "interior", "x": 0.2, "vx": 0.8}, "stop": {"max_events": 10}, )";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {sphere + R"("outputs": {"boundary_map": {"coords": ["s", "z"], "bins": [4, 4]}}})", "outputs.boundary_map.coords"},
      {cylinder + R"("outputs": {"boundary_map": {"coords": ["p", "p"], "bins": [4, 4]}}})", "outputs.boundary_map.coords"},
      {cylinder + R"("outputs": {"boundary_map": {"coords": ["s", "z"], "bins": [4, 4]}}})", "outputs.boundary_map.ranges"},
      {cylinder + R"("observables": ["coverage"], "outputs": {"coverage": {"coords": ["s", "z"], "bins": [4, 4]}}})",
       "outputs.coverage.coords"},
      {R"({"system": "rubber:sphere", "stop": {"t_max": 1.0},
           "outputs": {"boundary_map": {"coords": ["s", "p"], "bins": [4, 4]}}})", "outputs.boundary_map"},
  };
  for (const auto& [config, key] : cases) {
    const CliResult r = run(write_config("bad.json", config), dir_ / "bad");
    EXPECT_EQ(r.rc, 2) << config << "\n" << describe(r);
    EXPECT_NE(r.err.find(key), std::string::npos) << key << "\n" << describe(r);
    EXPECT_FALSE(fs::exists(dir_ / "bad")) << config;
  }
}

}  // namespace
}  // namespace skipstone
