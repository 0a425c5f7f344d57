// The rubber ball of the symmetric rolling models (parameter no_twist = 1): no spin about the
// contact normal, so the centre follows the geodesics of N_r under the effective gravity
// g / (1 + gamma^2). Checked here: on the strip and between the planes the height falls
// freely at g / (1 + gamma^2), where the rolling ball stays bounded; the path depends on the
// moment of inertia only through that gravity; as r -> 0 roll4:disc and roll4:stadium converge
// to the specular ball (the no-slip cylinder with beta = 0 under g / (1 + gamma^2)), the error
// linear in r (tables printed); bad input. The inside cylinder against Newton-Euler with the
// no-twist couple: tests/test_rolling_inside_cylinder.cpp.
#include <gtest/gtest.h>

#include <cmath>
#include <iomanip>
#include <iostream>
#include <string>
#include <vector>

#include "config_error.hpp"
#include "skipstone/simulate.hpp"
#include "test_support.hpp"

namespace skipstone {
namespace {

using nlohmann::json;
using Log3 = testing::EventLog<Vec3, State3D>;

constexpr double kFreeFall = 1e-11;       // z(T) against z0 + v T - G T^2 / 2, T = 5
constexpr double kBoundedAway = 0.5;      // the rolling ball ends at least this far above the rubber one
constexpr double kDiscLimitSlope = 60.0;  // |x_rubber(T) - x_specular(T)| <= 60 r for r <= 0.025 (T = 4.6)
constexpr double kStadiumLimitSlope = 60.0;  // same for roll4:stadium (T = 6)

TrajectoryResult run(const json& cfg, Log3* log = nullptr) {
  Log3 own;
  return simulate_trajectory(testing::config_from(cfg).spec, 0, log ? *log : own);
}

// ---- free fall on the strip and between the planes ----

TEST(RubberRolling, StripAndPlanesFallFreelyAtTheEffectiveGravity) {
  const double gamma = 1.0, g = 2.0, G = g / (1.0 + gamma * gamma), T = 5.0, z0 = 0.0, vz = 0.3;
  for (const char* system : {"roll3:strip", "roll4:planes"}) {
    const bool planes = std::string(system) == "roll4:planes";
    json init = {{"x1", 0.2}, {"z", z0}, {"v1", 3.0}, {"v2", planes ? 0.4 : vz}};
    if (planes) init["v3"] = vz;
    for (double r : {0.3, 0.05}) {
      json cfg = {{"system", system},
                  {"parameters", {{"L", 1.0}, {"r", r}, {"gamma", gamma}, {"g", g}, {"no_twist", 1}}},
                  {"initial", init},
                  {"stop", {{"t_max", T}}}};
      const TrajectoryResult rubber = run(cfg);
      ASSERT_EQ(rubber.status, Status::finished) << system;
      EXPECT_GT(rubber.events, 4u) << system;  // it crossed the edges
      EXPECT_NEAR(rubber.z_final, z0 + vz * T - 0.5 * G * T * T, kFreeFall) << system << " r " << r;
      // the rolling ball with the same start keeps its height within a band (Section 4.1, Theorem 13)
      cfg["parameters"].erase("no_twist");
      const TrajectoryResult rolling = run(cfg);
      EXPECT_GT(rolling.z_final - rubber.z_final, kBoundedAway) << system << " r " << r;
    }
  }
}

// ---- the moment of inertia enters only through the effective gravity ----

TEST(RubberRolling, PathDependsOnTheMomentOnlyThroughTheEffectiveGravity) {
  const auto stadium = [](double gamma, int no_twist) {
    return json{{"system", "roll4:stadium"},
                {"parameters",
                 {{"half_length", 1.0}, {"R", 1.0}, {"r", 0.1}, {"gamma", gamma}, {"g_effective", 1.0},
                  {"no_twist", no_twist}}},
                {"initial", {{"x1", 0.3}, {"x2", -0.2}, {"v1", 0.8}, {"v2", 0.5}, {"v3", 0.6}}},
                {"stop", {{"t_max", 40.0}}}};
  };
  const TrajectoryResult light = run(stadium(0.3, 1)), heavy = run(stadium(2.0, 1));
  ASSERT_EQ(light.status, Status::finished);
  EXPECT_GT(light.events, 10u);
  EXPECT_EQ(light.events, heavy.events);
  EXPECT_EQ(light.z_final, heavy.z_final);
  EXPECT_EQ(light.z_max, heavy.z_max);
  // the rolling balls of the same two moments part: their spin couples to the velocity at the edge
  EXPECT_GT(std::fabs(run(stadium(0.3, 0)).z_final - run(stadium(2.0, 0)).z_final), 1e-3);
}

// ---- r -> 0: specular reflection ----
// Over the edge a rubber ball follows a geodesic of the tube around the wall: as r -> 0 the
// passage takes no time and reverses the normal velocity, keeping the tangential one, which is
// the no-slip map with beta = 0 (Eq. (3)) with the spin left alone. Every passage takes O(r)
// time and moves the centre by O(r), so the position after a fixed time T differs by O(r). T
// lies mid-flight, so that the passage counts agree from r = 0.025 down.

const double kLimitRadii[] = {0.1, 0.05, 0.025, 0.0125, 1e-3};

void check_specular_limit(const std::string& rubber_system, const std::string& noslip_system, const json& table,
                          double slope, double T) {
  const double gamma = 0.8, g = 1.64, G = g / (1.0 + gamma * gamma);
  const double x1 = 0.2, x2 = -0.1, v1 = 0.7, v2 = 0.45, v3 = 0.4;
  json ns_params = table;
  ns_params["beta"] = 0.0;
  ns_params["g"] = G;
  const json ns = {{"system", noslip_system},
                   {"parameters", ns_params},
                   {"initial", {{"start", "interior"}, {"x", x1}, {"y", x2}, {"z", 0.0}, {"vx", v1}, {"vy", v2}, {"vz", v3}}},
                   {"stop", {{"t_max", T}}}};
  Log3 ref_log;
  const TrajectoryResult ref = run(ns, &ref_log);
  const Vec3 xr = ref_log.events.back().x;
  std::cout << rubber_system << " (no_twist) vs specular " << noslip_system << " (beta = 0, g = " << G << "), T = " << T
            << ": " << ref.events << " impacts\n         r   |dx(T)|      ratio  |dx|/r  events\n";
  std::vector<double> errs;
  for (double r : kLimitRadii) {
    json params = table;
    params.update({{"r", r}, {"gamma", gamma}, {"g", g}, {"no_twist", 1}});
    const json cfg = {{"system", rubber_system},
                      {"parameters", params},
                      {"initial", {{"x1", x1}, {"x2", x2}, {"z", 0.0}, {"v1", v1}, {"v2", v2}, {"v3", v3}}},
                      {"stop", {{"t_max", T}}}};
    Log3 log;
    const TrajectoryResult res = run(cfg, &log);
    ASSERT_EQ(res.status, Status::finished) << r;
    const double err = norm(log.events.back().x - xr);
    std::cout << std::setw(10) << r << "  " << std::scientific << std::setprecision(3) << err << std::defaultfloat
              << std::setprecision(4) << "  " << std::setw(6) << (errs.empty() ? NAN : errs.back() / err) << "  "
              << std::setw(6) << err / r << "  " << res.events << "\n";
    if (!errs.empty()) {
      EXPECT_LT(err, errs.back()) << "r " << r;
    }
    if (r <= 0.025) {
      EXPECT_LT(err, slope * r) << "r " << r;
      EXPECT_EQ(res.events, ref.events) << "r " << r;
    }
    errs.push_back(err);
  }
  EXPECT_GT(errs[2] / errs[3], 1.6);  // halving r from 0.025 to 0.0125 roughly halves the error
  EXPECT_LT(errs[2] / errs[3], 2.5);
}

TEST(RubberRolling, DiscConvergesToTheSpecularBallAsTheRadiusShrinks) {
  check_specular_limit("roll4:disc", "cylinder:disc", {{"R", 1.0}}, kDiscLimitSlope, 4.6);
}

TEST(RubberRolling, StadiumConvergesToTheSpecularBallAsTheRadiusShrinks) {
  check_specular_limit("roll4:stadium", "cylinder:stadium", {{"half_length", 0.5}, {"R", 1.0}}, kStadiumLimitSlope, 6.0);
}

// ---- bad input ----

void expect_config_error(const json& cfg, const std::string& key, const std::string& words) {
  try {
    testing::config_from(cfg);
    ADD_FAILURE() << "accepted; expected an error at " << key;
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.key(), key) << e.what();
    EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
  }
}

TEST(RubberRolling, BadInputNamesTheKey) {
  const json base = {{"system", "roll4:disc"},
                     {"parameters", {{"r", 0.1}, {"eta", 0.5}, {"g", 1.0}, {"no_twist", 1}}},
                     {"initial", {{"x1", 0.2}, {"v1", 0.5}}},
                     {"stop", {{"t_max", 10.0}}}};
  EXPECT_NO_THROW(testing::config_from(base));
  json c = base;
  c["parameters"]["no_twist"] = 0.5;
  expect_config_error(c, "parameters.no_twist", "0 or 1");
  c = base;
  c["initial"]["S13"] = 0.2;
  expect_config_error(c, "initial.S13", "a rubber ball does not spin");
  c = base;
  c["scan"] = {{"type", "grid"}, {"axes", {{{"param", "S12"}, {"min", -1.0}, {"max", 1.0}, {"n", 3}}}}};
  expect_config_error(c, "scan.axes[0].param", "scanning the spin S12");
  c = base;
  c["parameters"].erase("no_twist");
  c["scan"] = {{"type", "grid"}, {"axes", {{{"param", "no_twist"}, {"min", 0.0}, {"max", 1.0}, {"n", 2}}}}};
  expect_config_error(c, "scan.axes[0].param", "not a scan axis");
  c = base;
  c["parameters"]["noise"] = 2;
  c["parameters"]["noise_sigma"] = 0.1;
  expect_config_error(c, "parameters.noise", "free to twist");
  c = base;
  c["system"] = "roll3:strip";
  c["parameters"] = {{"r", 0.1}, {"gamma", 1.0}, {"no_twist", 1}};
  c["initial"] = {{"v1", 1.0}, {"spin", 0.3}};
  expect_config_error(c, "initial.spin", "allowed: 0");
}

}  // namespace
}  // namespace skipstone
