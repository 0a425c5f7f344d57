// The float kernels of the no-slip disc and cylinder:disc (options.precision "float": the
// impact-to-impact arithmetic of noslip_trajectory.hpp, tables/disc.hpp and collision.hpp in
// float) against exact results and against the double kernel, with tolerances in units of
// float's rounding unit: the single caustic R sin(angle) of the specular disc (docs/models.md),
// impact points on the wall and the energy over 1e6 impacts, Theorem 1 (a cylinder trajectory
// projects onto the cross-section's) with gravity along the axis, the energy bound on the
// height, and the no-slip disc's double caustic (Figure 5) against the double kernel's.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <type_traits>

#include "backends.hpp"
#include "config.hpp"
#include "skipstone/simulate.hpp"
#include "test_support.hpp"

namespace skipstone {
namespace {

using nlohmann::json;

constexpr double kEpsFloat = 1.1920929e-7;  // 2^-23
// Each float impact rounds the incidence angle, so the invariants of the disc random-walk by ~eps
// per impact: ~100 eps after 1e4 impacts (measured 72 eps at R = 1.7).
constexpr double kFloatCausticTol = 300 * kEpsFloat;        // specular rho / R vs sin(angle), 1e4 impacts
constexpr double kFloatOnWallTol = 4 * kEpsFloat;           // | |x| / R - 1 | at impacts, 1e6 impacts
constexpr double kFloatLongRunEnergyTol = 200 * kEpsFloat;  // max relative energy defect, 1e6 impacts
// The 3D map rounds differently from the 2D one; the difference grows linearly, ~5 eps per impact.
constexpr int kTheorem1Impacts = 100;
constexpr double kFloatTheorem1Tol = 2e-4;                  // cylinder projection vs disc, O(1) values
constexpr double kFloatVsDoubleCaustic = 3e-4;  // no-slip rho_even / rho_odd, float vs double, 2e4 impacts

json in_float(json cfg) {
  cfg["options"]["precision"] = "float";
  return cfg;
}

TrajectoryResult run_one(const json& cfg) {
  DiscardSink sink;
  return simulate_trajectory(testing::config_from(cfg).spec, 0, sink);
}

TEST(FloatDisc, SpecularBallHasOneCausticAtRSinAngle) {
  for (double R : {1.0, 1.7}) {
    const json cfg = in_float({{"system", "disc"}, {"parameters", {{"gamma", 0.0}, {"R", R}}},
                               {"initial", {{"start", "boundary"}, {"boundary_s", 0.1}, {"angle", 0.4}, {"speed", 1.0}}},
                               {"stop", {{"max_events", 10000}}}});
    const TrajectoryResult r = run_one(cfg);
    EXPECT_EQ(r.status, Status::finished);
    EXPECT_NEAR(r.rho_even / R, std::sin(0.4), kFloatCausticTol) << "R " << R;
    EXPECT_NEAR(r.rho_odd / R, std::sin(0.4), kFloatCausticTol) << "R " << R;
    EXPECT_LT(r.energy_error, kFloatLongRunEnergyTol);
  }
}

// Largest | |x| / R - 1 | over the impacts (not the start at t = 0), measured in double.
struct MaxOffWallSink {
  double R, worst = 0.0;
  template <class V, class S>
  void on_event(double t, V x, const S&, V) {
    if constexpr (std::is_same_v<V, Vec2T<float>>)
      if (t > 0.0) worst = std::fmax(worst, std::fabs(norm(vec_as<double>(x)) / R - 1.0));
  }
  template <class T>
  void on_step(T, const T*) {}
};

TEST(FloatDisc, ImpactPointsStayOnTheWallAndEnergyStaysOverAMillionImpacts) {
  const double R = 1.7;
  const json cfg = in_float({{"system", "disc"}, {"parameters", {{"gamma", std::sqrt(2.0 / 3.0)}, {"R", R}}},
                             {"initial", {{"start", "boundary"}, {"boundary_s", 0.1}, {"angle", 0.4}, {"speed", 1.0},
                                          {"spin", 0.3}}},
                             {"stop", {{"max_events", 1000000}}}});
  MaxOffWallSink sink{R};
  const TrajectoryResult r = simulate_trajectory(testing::config_from(cfg).spec, 0, sink);
  EXPECT_EQ(r.status, Status::finished);
  EXPECT_EQ(r.events, 1000000u);
  EXPECT_LT(sink.worst, kFloatOnWallTol);
  EXPECT_GT(sink.worst, 0.0) << "float impact points lie exactly on the wall: is the run in double?";
  EXPECT_LT(r.energy_error, kFloatLongRunEnergyTol);
  EXPECT_GT(r.energy_error, 1e-9) << "a float run's energy defect is float round-off";
}

TEST(FloatCylinder, ProjectsOntoTheFloatDiscTrajectory) {
  for (double g : {0.0, 2.5}) {
    const double gamma = 0.7, s = 0.37;
    const json two = in_float(
        {{"system", "disc"}, {"parameters", {{"gamma", gamma}}},
         {"initial", {{"start", "interior"}, {"x", 0.1}, {"y", -0.2}, {"angle", 0.9}, {"speed", 1.3}, {"spin", s}}},
         {"stop", {{"max_events", kTheorem1Impacts}}}});
    const json three = in_float({{"system", "cylinder:disc"},
                                 {"parameters", {{"gamma", gamma}, {"g", g}}},
                                 {"initial", {{"start", "interior"}, {"x", 0.1}, {"y", -0.2}, {"z", 3.0},
                                              {"vx", 1.3 * std::cos(0.9)}, {"vy", 1.3 * std::sin(0.9)}, {"vz", 0.8},
                                              {"wx", -0.4}, {"wy", 0.25}, {"wz", s}}},
                                 {"stop", {{"max_events", kTheorem1Impacts}}}});
    testing::EventLog<Vec2T<float>, State2DT<float>> log2;
    testing::EventLog<Vec3T<float>, State3DT<float>> log3;
    simulate_trajectory(testing::config_from(two).spec, 0, log2);
    simulate_trajectory(testing::config_from(three).spec, 0, log3);
    ASSERT_EQ(log2.events.size(), kTheorem1Impacts + 1u) << "g=" << g;
    ASSERT_EQ(log3.events.size(), log2.events.size()) << "g=" << g;
    double worst = 0.0, worst_t = 0.0;  // over the events: positions, velocities, spin; times relative to 1 + t
    for (std::size_t i = 0; i < log2.events.size(); ++i) {
      const auto& a = log2.events[i];
      const auto& b = log3.events[i];
      worst_t = std::fmax(worst_t, std::fabs(a.t - b.t) / (1.0 + a.t));
      for (double d : {a.x.x - b.x.x, a.x.y - b.x.y, a.state.u.x - b.state.u.x, a.state.u.y - b.state.u.y,
                       a.state.s - b.state.w.z})
        worst = std::fmax(worst, std::fabs(d));
    }
    EXPECT_LT(worst, kFloatTheorem1Tol) << "g=" << g;
    EXPECT_LT(worst_t, kFloatTheorem1Tol) << "g=" << g;
    std::printf("float Theorem 1, g = %g: max difference %.3g (states), %.3g (times)\n", g, worst, worst_t);
  }
}

TEST(FloatCylinder, HeightStaysBelowTheEnergyBound) {
  // g (z - z0) <= E0: the kinetic energy at the start bounds the height the ball can climb
  const double g = 1.0, speed = 1.0, vz = 0.6;
  const json cfg = in_float({{"system", "cylinder:disc"}, {"parameters", {{"gamma", std::sqrt(2.0 / 3.0)}, {"g", g}}},
                             {"initial", {{"start", "impact"}, {"boundary_s", 0.0}, {"z", 0.0}, {"angle", 1.2},
                                          {"speed", speed}, {"vz", vz}, {"slip", 0.1}}},
                             {"stop", {{"max_events", 20000}}}, {"options", {{"bounded_depth", 10.0}}}});
  const RunConfig rc = testing::config_from(cfg);
  testing::EventLog<Vec3T<float>, State3DT<float>> log;
  const TrajectoryResult r = simulate_trajectory(rc.spec, 0, log);
  ASSERT_EQ(r.status, Status::finished);
  const auto& s0 = log.events[1].state;  // after the impact at t = 0: E0 of the run
  const double e0 = 0.5 * (double(dot(s0.u, s0.u)) + double(dot(s0.w, s0.w)));
  EXPECT_LE(r.z_max, e0 / g * (1.0 + kFloatLongRunEnergyTol));
  EXPECT_GT(r.z_max, 0.0);
  EXPECT_LT(r.energy_error, kFloatLongRunEnergyTol);
}

TEST(FloatDisc, DoubleCausticMatchesTheDoubleKernel) {
  const json cfg = {{"system", "disc"}, {"parameters", {{"gamma", std::sqrt(2.0 / 3.0)}}},
                    {"initial", {{"start", "boundary"}, {"speed", 1.0}}},
                    {"scan", {{"type", "random"}, {"count", 256}, {"seed", 11},
                              {"axes", {{{"param", "angle"}, {"min", -1.4}, {"max", 1.4}},
                                        {{"param", "spin"}, {"min", -1.0}, {"max", 1.0}}}}}},
                    {"stop", {{"max_events", 20000}}}};
  const RunConfig d = testing::config_from(cfg), f = testing::config_from(in_float(cfg));
  ASSERT_EQ(f.spec.precision, Precision::float32);
  EXPECT_EQ(f.spec.energy_tolerance, kFloatEnergyTolerance);
  std::vector<TrajectoryResult> a(d.spec.count), b(f.spec.count);
  cpu::run_chunk(d.spec, 0, d.spec.count, a.data());
  cpu::run_chunk(f.spec, 0, f.spec.count, b.data());
  double worst = 0.0, worst_gap = 0.0;
  for (std::uint64_t i = 0; i < d.spec.count; ++i) {
    ASSERT_EQ(a[i].status, Status::finished);
    ASSERT_EQ(b[i].status, Status::finished) << i;
    ASSERT_EQ(b[i].events, a[i].events);
    worst = std::fmax(worst, std::fmax(std::fabs(a[i].rho_even - b[i].rho_even), std::fabs(a[i].rho_odd - b[i].rho_odd)));
    worst_gap = std::fmax(worst_gap, std::fabs(a[i].caustic_gap - b[i].caustic_gap));
    EXPECT_LT(b[i].energy_error, kFloatLongRunEnergyTol) << i;
  }
  EXPECT_LT(worst, kFloatVsDoubleCaustic);
  EXPECT_LT(worst_gap, 2 * kFloatVsDoubleCaustic);
  EXPECT_GT(worst, 0.0) << "float and double runs are identical: is the float kernel running?";
}

}  // namespace
}  // namespace skipstone
