// The float kernels of the rolling tables roll3:<table> and roll4:<table> (options.precision
// float; table_wall.hpp and edge_system.hpp templated on the scalar type, Proposition 12 with the
// wall's curvature kappa(s)) on the stadium (passages over the breaks of the curvature) and the
// ellipse (kappa varying along the wall), with gravity (roll3's in-plane, roll4's axial):
// the config takes precision float for every rolling table; the invariants stay at float
// round-off over long runs; and over a short horizon, before the chaos of the table separates
// the two runs, the float run ends as the double run does (status, passages, exit side) with its
// exit time, exit arc, final and highest height within float tolerances of the double ones.
// (Not z_min: on the edge the height's extremes are taken at the integrator's steps, and the
// float run's steps are not the double run's, so that z_min differs by up to 2e-2 on these runs
// whether the double run is at its default tolerances or at the float's.)
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <vector>

#include "config.hpp"
#include "config_error.hpp"
#include "skipstone/simulate.hpp"
#include "test_support.hpp"

namespace skipstone {
namespace {

using nlohmann::json;

// E1 (+ G y for roll3) and E2 + G x3 over 400 edge passages: the projection after every step
// keeps them at float round-off (eps 1.2e-7); energy_error measured up to 1.3e-6.
constexpr double kFloatEnergy = 5e-6;
// Short horizon (t_max 6, up to 3 passages), float at rtol = atol = 1e-5 against double at
// 1e-12, per trajectory: the exit time and exit arc of the first passage (measured up to 5.0e-5)
// and z_max, z_final relative to 1 + |z| (measured up to 2.2e-4).
constexpr double kFloatExit = 5e-4;
constexpr double kFloatHeight = 1e-3;

struct TableCase {
  const char* name;
  json config;  // without options
};

json roll3(const char* system, const json& table) {
  json p = {{"r", 0.1}, {"eta", 0.5}, {"g_effective", 1.0}};
  p.update(table);
  return {{"system", system}, {"parameters", p}, {"initial", {{"start", "plate"}, {"x1", 0.0}, {"x2", 0.5}}}};
}

json roll4(const char* system, const json& table) {
  json p = {{"r", 0.1}, {"eta", 0.5}, {"g_effective", 1.0}};
  p.update(table);
  return {{"system", system},
          {"parameters", p},
          {"initial", {{"start", "plate"}, {"x1", -0.715}, {"x2", 0.0}, {"z", 0.0}, {"v3", 0.2}, {"S13", 0.1},
                       {"S23", -1.0}}}};
}

std::vector<TableCase> cases() {
  const json stadium = {{"half_length", 1.0}, {"R", 1.0}}, ellipse = {{"a", 2.0}, {"b", 1.0}};
  return {{"roll3:stadium", roll3("roll3:stadium", stadium)},
          {"roll3:ellipse", roll3("roll3:ellipse", ellipse)},
          {"roll4:stadium", roll4("roll4:stadium", stadium)},
          {"roll4:ellipse", roll4("roll4:ellipse", ellipse)}};
}

json with(json config, const json& scan, const json& stop, const char* precision) {
  config["scan"] = scan;
  config["stop"] = stop;
  config["options"] = {{"precision", precision}};
  config["observables"] = {"status", "events", "energy_error", "exit_time", "exit_arc", "exit_side",
                           "z_min", "z_max", "z_final"};
  return config;
}

std::vector<TrajectoryResult> run_all(const json& config) {
  const ScanSpec spec = testing::config_from(config).spec;
  std::vector<TrajectoryResult> out;
  DiscardSink sink;
  for (std::uint64_t i = 0; i < spec.count; ++i) out.push_back(simulate_trajectory(spec, i, sink));
  return out;
}

// Every rolling table takes precision float, at the float default tolerances; below what float
// resolves it is refused by name.
TEST(FloatRollTables, ConfigAcceptsFloatForEveryRollingTable) {
  int tables = 0;
  for (const SystemTraits& t : kSystems) {
    if (t.model != ModelKind::roll3_table && t.model != ModelKind::roll4_table) continue;
    ++tables;
    json config = {{"system", t.name},
                   {"parameters", {{"eta", 0.5}, {"r", 0.05}}},
                   {"stop", {{"t_max", 10.0}}},
                   {"options", {{"precision", "float"}}}};
    if (t.table == TableKind::polygon) config["parameters"]["vertices"] = {{0.0, 1.0}, {-1.0, -1.0}, {1.0, -1.0}};
    const RunConfig rc = testing::config_from(config);
    EXPECT_EQ(rc.spec.precision, Precision::float32) << t.name;
    EXPECT_EQ(rc.spec.rtol, kFloatDefaultTolerance) << t.name;
    EXPECT_EQ(rc.spec.energy_tolerance, kFloatEnergyTolerance) << t.name;
    json fine = config;
    fine["options"]["rtol"] = 1e-9;
    EXPECT_THROW(testing::config_from(fine), ConfigError) << t.name;
  }
  EXPECT_EQ(tables, 11) << "roll3 on six tables, roll4 on five";
}

TEST(FloatRollTables, InvariantsStayAtFloatRoundOffOverLongRuns) {
  const json one = {{"type", "grid"}, {"axes", {{{"param", "v1"}, {"min", 0.6}, {"max", 0.6}, {"n", 1}},
                                                {{"param", "v2"}, {"min", 0.45}, {"max", 0.45}, {"n", 1}},
                                                {{"param", "S12"}, {"min", 0.3}, {"max", 0.3}, {"n", 1}}}}};
  for (const TableCase& c : cases()) {
    const TrajectoryResult f = run_all(with(c.config, one, {{"t_max", 1e4}, {"max_events", 400}}, "float"))[0];
    std::cout << c.name << " float: " << status_name(f.status) << ", " << f.events << " passages to t = " << f.t_end
              << ", energy_error " << f.energy_error << "\n";
    EXPECT_EQ(f.status, Status::finished) << c.name;
    EXPECT_EQ(f.events, 400u) << c.name;
    EXPECT_LT(f.energy_error, kFloatEnergy) << c.name;
    EXPECT_GT(f.energy_error, 0.0) << c.name << ": a float run that rounds nothing is not a float run";
  }
}

TEST(FloatRollTables, ShortRunsAgreeWithDouble) {
  const json scan = {{"type", "random"},
                     {"count", 24},
                     {"seed", 7},
                     {"axes", {{{"param", "v1"}, {"min", -1.0}, {"max", 1.0}},
                               {{"param", "v2"}, {"min", -1.0}, {"max", 1.0}},
                               {{"param", "S12"}, {"min", -0.6}, {"max", 0.6}}}}};
  const json stop = {{"t_max", 6.0}};
  for (const TableCase& c : cases()) {
    const std::vector<TrajectoryResult> d = run_all(with(c.config, scan, stop, "double"));
    const std::vector<TrajectoryResult> f = run_all(with(c.config, scan, stop, "float"));
    double exit = 0.0, height = 0.0, energy = 0.0;
    int passages = 0, differs = 0;
    for (std::size_t i = 0; i < d.size(); ++i) {
      const TrajectoryResult &a = d[i], &b = f[i];
      EXPECT_EQ(b.status, a.status) << c.name << " trajectory " << i;
      EXPECT_EQ(b.events, a.events) << c.name << " trajectory " << i;
      EXPECT_EQ(b.exit_side, a.exit_side) << c.name << " trajectory " << i;
      passages += static_cast<int>(a.events);
      differs += b.exit_time != a.exit_time;
      if (a.events > 0) {
        exit = std::max({exit, std::fabs(b.exit_time - a.exit_time), std::fabs(b.exit_arc - a.exit_arc)});
      }
      for (const auto z : {&TrajectoryResult::z_max, &TrajectoryResult::z_final})
        height = std::max(height, std::fabs(b.*z - a.*z) / (1.0 + std::fabs(a.*z)));
      energy = std::max(energy, b.energy_error);
    }
    std::cout << c.name << ", " << d.size() << " trajectories, " << passages << " passages to t = 6: float - double "
              << "exit time/arc max " << exit << ", z_max/z_final max " << height << "; float energy_error max "
              << energy
              << "\n";
    EXPECT_GT(passages, static_cast<int>(d.size())) << c.name << ": the horizon holds passages";
    EXPECT_GT(differs, 0) << c.name << ": the float run is a different kernel, not the double one";
    EXPECT_LT(exit, kFloatExit) << c.name;
    EXPECT_LT(height, kFloatHeight) << c.name;
    EXPECT_LT(energy, kFloatEnergy) << c.name;
  }
}

}  // namespace
}  // namespace skipstone
