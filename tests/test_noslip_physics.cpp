// No-slip billiard physics against exact results (MODELS.md section 2): Theorem 1 (cylinder
// trajectories project onto the cross-section's, with and without gravity), bounded height in
// the strip under gravity over 1e6 impacts with energy kept to 1e-12, the sphere invariant
// K = x ^ u - gamma R w, the single caustic of the specular disc, the rolling impact (only the
// normal velocity changes).
#include <gtest/gtest.h>

#include <cmath>
#include <type_traits>

#include "skipstone/simulate.hpp"
#include "test_support.hpp"

namespace skipstone {
namespace {

using nlohmann::json;
using testing::EventLog;

constexpr double kTheorem1Tol = 1e-9;        // projection vs 2D run, O(1) quantities, 2000 impacts
constexpr double kLongRunEnergyTol = 1e-12;  // strip with gravity, 1e6 impacts
constexpr double kOnWallTol = 8e-16;         // | |x| / R - 1 | at impacts of the disc and sphere
constexpr double kRollingImpactTol = 1e-15;  // rolling impact: each O(1) component, a few ulps

TEST(Theorem1, CylinderProjectsOntoTheCrossSection) {
  // the stadium is chaotic: round-off differences grow exponentially, so it is compared over
  // fewer impacts
  const std::pair<const char*, int> cases[] = {{"disc", 2000}, {"ellipse", 2000}, {"stadium", 12}};
  for (const auto& [table, impacts] : cases) {
    for (double g : {0.0, 2.5}) {
      const double gamma = 0.7, s = 0.37;
      json two = {{"system", table}, {"parameters", {{"gamma", gamma}}},
                  {"initial", {{"start", "interior"}, {"x", 0.1}, {"y", -0.2}, {"angle", 0.9}, {"speed", 1.3}, {"spin", s}}},
                  {"stop", {{"max_events", impacts}}}};
      json three = {{"system", std::string("cylinder:") + table},
                    {"parameters", {{"gamma", gamma}, {"g", g}}},
                    {"initial", {{"start", "interior"}, {"x", 0.1}, {"y", -0.2}, {"z", 3.0},
                                 {"vx", 1.3 * std::cos(0.9)}, {"vy", 1.3 * std::sin(0.9)}, {"vz", 0.8},
                                 {"wx", -0.4}, {"wy", 0.25}, {"wz", s}}},
                    {"stop", {{"max_events", impacts}}}};
      const RunConfig c2 = testing::config_from(two), c3 = testing::config_from(three);
      EventLog<Vec2, State2D> log2;
      EventLog<Vec3, State3D> log3;
      simulate_trajectory(c2.spec, 0, log2);
      simulate_trajectory(c3.spec, 0, log3);
      ASSERT_EQ(log2.events.size(), log3.events.size()) << table << " g=" << g;
      for (std::size_t i = 0; i < log2.events.size(); ++i) {
        const auto& a = log2.events[i];
        const auto& b = log3.events[i];
        ASSERT_NEAR(a.t, b.t, kTheorem1Tol) << table << " event " << i;
        ASSERT_NEAR(a.x.x, b.x.x, kTheorem1Tol);
        ASSERT_NEAR(a.x.y, b.x.y, kTheorem1Tol);
        ASSERT_NEAR(a.state.u.x, b.state.u.x, kTheorem1Tol);
        ASSERT_NEAR(a.state.u.y, b.state.u.y, kTheorem1Tol);
        ASSERT_NEAR(a.state.s, b.state.w.z, kTheorem1Tol);  // S = s J is the rotation about the axis
      }
    }
  }
}

TEST(Strip, HeightBoundedAndEnergyExactOverAMillionImpacts) {
  json cfg = {{"system", "strip"}, {"parameters", {{"L", 1.0}, {"gamma", std::sqrt(0.5)}, {"g", 1.0}}},
              {"initial", {{"start", "boundary"}, {"boundary_s", 0.0}, {"y", 0.0}, {"angle", 0.3}, {"speed", 1.0}, {"spin", 0.2}}},
              {"stop", {{"max_events", 1000000}}}, {"options", {{"bounded_depth", 5.0}}}};
  const RunConfig rc = testing::config_from(cfg);
  DiscardSink sink;
  const TrajectoryResult r = simulate_trajectory(rc.spec, 0, sink);
  EXPECT_EQ(r.status, Status::finished);
  EXPECT_EQ(r.events, 1000000u);
  EXPECT_LT(r.energy_error, kLongRunEnergyTol);
  EXPECT_EQ(r.bounded, 1.0);
  EXPECT_GT(r.z_min, -5.0);
  EXPECT_LT(r.z_max, 5.0);
  EXPECT_GT(r.t_end, 1e5);  // long in time too: the ball did not just rattle in place
}

TEST(Strip, SpecularBallFallsFreely) {
  // gamma = 0: ordinary reflection, the height is a free-fall parabola
  json cfg = {{"system", "strip"}, {"parameters", {{"gamma", 0.0}, {"g", 1.0}}},
              {"initial", {{"start", "boundary"}, {"angle", 0.0}, {"speed", 1.0}}},
              {"stop", {{"t_max", 10.0}}}};
  DiscardSink sink;
  const TrajectoryResult r = simulate_trajectory(testing::config_from(cfg).spec, 0, sink);
  EXPECT_NEAR(r.z_final, -50.0, 1e-12);
  EXPECT_EQ(r.events, 10u);
}

TEST(Sphere, InvariantKIsConservedAndGivesTheAnnulusAxis) {
  const double gamma = 0.9, R = 1.5;
  json cfg = {{"system", "sphere"}, {"parameters", {{"R", R}, {"gamma", gamma}}},
              {"initial", {{"x", 0.2}, {"y", 0.1}, {"z", -0.3}, {"vx", 0.5}, {"vy", -0.7}, {"vz", 0.2},
                           {"wx", 0.3}, {"wy", 0.1}, {"wz", -0.6}}},
              {"stop", {{"max_events", 20000}}}};
  const RunConfig rc = testing::config_from(cfg);
  EventLog<Vec3, State3D> log;
  const TrajectoryResult r = simulate_trajectory(rc.spec, 0, log);
  const auto K = [&](const auto& e) { return cross(e.x, e.state.u) - (gamma * R) * e.state.w; };
  const Vec3 K0 = K(log.events[1]);
  for (std::size_t i = 1; i < log.events.size(); ++i) ASSERT_LT(norm(K(log.events[i]) - K0), 1e-11) << i;
  const Vec3 axis = (1.0 / norm(K0)) * K0;
  EXPECT_NEAR(r.annulus_axis[0], axis.x, 1e-12);
  EXPECT_NEAR(r.annulus_axis[2], axis.z, 1e-12);
  EXPECT_GT(r.annulus_width, 0.0);
  EXPECT_LT(r.annulus_width, kPi);
}

TEST(Sphere, SpecularMotionIsPlanar) {
  json cfg = {{"system", "sphere"}, {"parameters", {{"gamma", 0.0}}},
              {"initial", {{"x", 0.2}, {"y", 0.1}, {"z", -0.3}, {"vx", 0.5}, {"vy", -0.7}, {"vz", 0.2}}},
              {"stop", {{"max_events", 5000}}}};
  DiscardSink sink;
  const TrajectoryResult r = simulate_trajectory(testing::config_from(cfg).spec, 0, sink);
  EXPECT_LT(r.annulus_width, 1e-10);  // a great circle
}

// The round tables form the wall normal as -p/R without normalising it; that is exact to
// O(eps) only because every impact point is settled back onto the wall. Over 1e6 impacts the
// impact points stay on the wall to round-off and the energy stays exact.
template <class V>
struct MaxOffWallSink {
  double R, worst = 0.0;
  template <class V2, class S2>
  void on_event(double t, V2 x, const S2&, V2) {  // impacts only, not an interior start at t = 0
    if constexpr (std::is_same_v<V2, V>)
      if (t > 0.0) worst = std::fmax(worst, std::fabs(norm(x) / R - 1.0));
  }
  template <class T>
  void on_step(T, const T*) {}
};

template <class V>
void expect_impacts_on_the_wall(const json& cfg, double R) {
  MaxOffWallSink<V> sink{R};
  const TrajectoryResult r = simulate_trajectory(testing::config_from(cfg).spec, 0, sink);
  EXPECT_EQ(r.status, Status::finished);
  EXPECT_EQ(r.events, 1000000u);
  EXPECT_LT(sink.worst, kOnWallTol);
  EXPECT_LT(r.energy_error, kLongRunEnergyTol);
}

TEST(Disc, ImpactPointsStayOnTheWallOverAMillionImpacts) {
  expect_impacts_on_the_wall<Vec2>(
      {{"system", "disc"}, {"parameters", {{"gamma", std::sqrt(2.0 / 3.0)}, {"R", 1.7}}},
       {"initial", {{"start", "boundary"}, {"boundary_s", 0.1}, {"angle", 0.4}, {"speed", 1.0}, {"spin", 0.3}}},
       {"stop", {{"max_events", 1000000}}}},
      1.7);
}

TEST(Sphere, ImpactPointsStayOnTheWallOverAMillionImpacts) {
  expect_impacts_on_the_wall<Vec3>(
      {{"system", "sphere"}, {"parameters", {{"gamma", std::sqrt(2.0 / 3.0)}, {"R", 0.6}}},
       {"initial", {{"start", "interior"}, {"x", 0.1}, {"y", -0.2}, {"z", 0.05}, {"vx", 0.3}, {"vy", 0.5},
                    {"vz", -0.4}, {"wx", 0.2}, {"wy", -0.1}, {"wz", 0.4}}},
       {"stop", {{"max_events", 1000000}}}},
      0.6);
}

TEST(Disc, SpecularHasOneCausticNoSlipHasTwo) {
  for (double gamma : {0.0, std::sqrt(0.5)}) {
    json cfg = {{"system", "disc"}, {"parameters", {{"gamma", gamma}}},
                {"initial", {{"start", "boundary"}, {"boundary_s", 0.1}, {"angle", 0.4}, {"speed", 1.0}, {"spin", 0.3}}},
                {"stop", {{"max_events", 10000}}}};
    DiscardSink sink;
    const TrajectoryResult r = simulate_trajectory(testing::config_from(cfg).spec, 0, sink);
    if (gamma == 0.0) {
      EXPECT_NEAR(r.rho_even, std::sin(0.4), 1e-12);  // chord distance R sin(angle), every chord
      EXPECT_LT(r.caustic_gap, 1e-12);
    } else {
      EXPECT_GT(r.caustic_gap, 1e-3);  // Figure 5: the double caustic
    }
    EXPECT_LT(r.energy_error, 1e-12);
  }
}

TEST(Impact, RollingImpactOnlyReversesTheNormalVelocity) {
  // slip = slip_z = 0: the contact point does not slide, the state is in the rolling subspace
  // (Section 2.1), on which the no-slip map is the identity on the tangential velocity and the
  // spin; only the normal velocity changes sign (as in every impact). The start's collision at
  // t = 0 is logged as the state before (row 0) and after (row 1) it.
  const double gamma = std::sqrt(0.4);
  json cfg = {{"system", "cylinder:disc"}, {"parameters", {{"gamma", gamma}, {"g", 1.0}}},
              {"initial", {{"start", "impact"}, {"boundary_s", 0.25}, {"angle", 1.2}, {"speed", 1.0},
                           {"vz", 0.3}, {"slip", 0.0}, {"slip_z", 0.0}, {"spin_normal", 0.2}}},
              {"stop", {{"max_events", 1}}}};
  EventLog<Vec3, State3D> log;
  simulate_trajectory(testing::config_from(cfg).spec, 0, log);
  ASSERT_EQ(log.events.size(), 2u);
  const Vec3 nu = {0.0, -1.0, 0.0};  // boundary_s = 0.25 is the point (0, R)
  const auto& before = log.events[0];
  const auto& after = log.events[1];
  EXPECT_EQ(after.t, before.t);
  EXPECT_EQ(after.x.x, before.x.x);
  EXPECT_EQ(after.x.y, before.x.y);
  EXPECT_EQ(after.x.z, before.x.z);
  const Vec3 u0 = before.state.u, w0 = before.state.w;
  ASSERT_GT(std::fabs(dot(u0, nu)), 0.1);  // a real impact: the normal part is not small
  ASSERT_GT(norm(w0 - dot(w0, nu) * nu), 0.1);  // and the tangential spin is not zero
  const Vec3 u_expected = u0 - (2.0 * dot(u0, nu)) * nu;
  EXPECT_NEAR(after.state.u.x, u_expected.x, kRollingImpactTol);
  EXPECT_NEAR(after.state.u.y, u_expected.y, kRollingImpactTol);
  EXPECT_NEAR(after.state.u.z, u_expected.z, kRollingImpactTol);
  EXPECT_NEAR(after.state.w.x, w0.x, kRollingImpactTol);
  EXPECT_NEAR(after.state.w.y, w0.y, kRollingImpactTol);
  EXPECT_NEAR(after.state.w.z, w0.z, kRollingImpactTol);
}

}  // namespace
}  // namespace skipstone
