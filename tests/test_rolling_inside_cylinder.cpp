// roll3:inside-cylinder (Figure 2 left, the classical ball rolling on the inner wall of a
// vertical cylinder): the closed form against RK4 on the full constrained Newton-Euler
// equations in Cartesian coordinates, energy over 1e5 turns, the classical height frequency
// eta |Omega| (sqrt(2/7) |Omega| for a solid ball), boundedness against the eta = 0 free fall,
// rolling straight down at g/(1+gamma^2), the rubber ball (no_twist) against Newton-Euler with
// the no-twist couple, config checks. Backends: tests/test_backends.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "config_error.hpp"
#include "skipstone/simulate.hpp"
#include "test_support.hpp"

namespace skipstone {
namespace {

using nlohmann::json;
using testing::EventLog;

constexpr double kRk4Agreement = 1e-9;     // closed form vs RK4 (h = T_turn / 4000), 4 turns
constexpr double kEnergyRoundOff = 1e-13;  // 1e5 turns
constexpr double kFrequency = 1e-7;        // measured height period vs 2 pi / (eta |Omega|), relative
constexpr double kFreeFall = 1e-12;        // eta = 0 and v1 = 0: parabolas

json cylinder_config(const json& params, const json& initial, const json& stop) {
  return {{"system", "roll3:inside-cylinder"}, {"parameters", params}, {"initial", initial}, {"stop", stop}};
}

EventLog<Vec3, State3D> events_of(const json& cfg, TrajectoryResult* out = nullptr) {
  EventLog<Vec3, State3D> log;
  const TrajectoryResult r = simulate_trajectory(testing::config_from(cfg).spec, 0, log);
  if (out) *out = r;
  return log;
}

// ---- independent reference: Newton-Euler with the rolling constraint, Cartesian, RK4 ----
// Unit mass, I = gamma^2 r^2; y = (a, v, omega). n = horizontal unit vector from the axis to the
// centre (centre -> contact). Constraint v = r n x omega; differentiating and inserting
// v' = f - g e3, omega' = n x f / (gamma^2 r):  f - g e3 = q + (n (n.f) - f) / gamma^2 with
// q = r n' x omega, n' = (v_h - n (n.v_h)) / |a_h|. Hence f.n = q.n and the tangential part
// f_t = gamma^2 (q_t + g e3) / (1 + gamma^2) (e3 is tangent to the wall).
// A rubber ball (no_twist): the wall also exerts a couple c n about the normal, which keeps
// omega.n = 0: omega' gains c n / gamma^2 r^2 with (omega.n)' = 0, i.e. omega' . n = -omega . n'.
// The couple does not enter v' (n x n = 0), so f is the same expression.
void newton_euler_rhs(const double* y, double gamma, double g, double r, double* f, bool no_twist) {
  const Vec3 a = {y[0], y[1], y[2]}, v = {y[3], y[4], y[5]}, om = {y[6], y[7], y[8]};
  const double rad = std::hypot(a.x, a.y);
  const Vec3 n = {a.x / rad, a.y / rad, 0.0};
  const Vec3 vh = {v.x, v.y, 0.0};
  const Vec3 dn = (1.0 / rad) * (vh - dot(n, vh) * n);
  const Vec3 q = r * cross(dn, om);
  const double g2 = gamma * gamma;
  const Vec3 qt = q - dot(q, n) * n;
  const Vec3 force = dot(q, n) * n + (g2 / (1.0 + g2)) * (qt + Vec3{0.0, 0.0, g});
  const Vec3 acc = force - Vec3{0.0, 0.0, g};
  Vec3 dom = (1.0 / (g2 * r)) * cross(n, force);
  if (no_twist) dom = dom - dot(om, dn) * n;  // cross(n, force) has no part along n
  const double out[9] = {v.x, v.y, v.z, acc.x, acc.y, acc.z, dom.x, dom.y, dom.z};
  for (int i = 0; i < 9; ++i) f[i] = out[i];
}

void rk4(double* y, double T, int steps, double gamma, double g, double r, bool no_twist = false) {
  const double h = T / steps;
  double k1[9], k2[9], k3[9], k4[9], tmp[9];
  for (int s = 0; s < steps; ++s) {
    newton_euler_rhs(y, gamma, g, r, k1, no_twist);
    for (int i = 0; i < 9; ++i) tmp[i] = y[i] + 0.5 * h * k1[i];
    newton_euler_rhs(tmp, gamma, g, r, k2, no_twist);
    for (int i = 0; i < 9; ++i) tmp[i] = y[i] + 0.5 * h * k2[i];
    newton_euler_rhs(tmp, gamma, g, r, k3, no_twist);
    for (int i = 0; i < 9; ++i) tmp[i] = y[i] + h * k3[i];
    newton_euler_rhs(tmp, gamma, g, r, k4, no_twist);
    for (int i = 0; i < 9; ++i) y[i] += h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
  }
}

TEST(InsideCylinder, ClosedFormMatchesNewtonEulerRK4) {
  struct Case {
    double R, r, gamma, g, angle, z, v1, v2, spin;
  };
  const Case cases[] = {{1.0, 0.2, std::sqrt(0.4), 9.81, 0.3, 1.0, 2.0, 0.4, -0.2},
                        {2.0, 0.5, std::sqrt(2.0 / 3.0), 1.0, -1.0, 0.0, -0.7, -0.3, 0.5},
                        {1.0, 0.9, 0.2, 3.0, 2.0, -0.5, 1.1, 0.0, 0.0}};
  for (const Case& k : cases) {
    const json cfg = cylinder_config({{"R", k.R}, {"r", k.r}, {"gamma", k.gamma}, {"g", k.g}},
                                     {{"angle", k.angle}, {"z", k.z}, {"v1", k.v1}, {"v2", k.v2}, {"spin", k.spin}},
                                     {{"max_events", 4}});
    const auto log = events_of(cfg);
    ASSERT_EQ(log.events.size(), 5u);
    // initial state: omega_rho = s / (eta r), omega_theta = v2 / r, omega_3 = -v1 / r
    const double rho = k.R - k.r, eta = eta_from_gamma(k.gamma);
    const Vec3 er = {std::cos(k.angle), std::sin(k.angle), 0.0}, et = {-er.y, er.x, 0.0};
    const Vec3 om = (k.spin / (eta * k.r)) * er + (k.v2 / k.r) * et + Vec3{0.0, 0.0, -k.v1 / k.r};
    const Vec3 v = k.v1 * et + Vec3{0.0, 0.0, k.v2};
    double y[9] = {rho * er.x, rho * er.y, k.z, v.x, v.y, v.z, om.x, om.y, om.z};
    const double T = 2.0 * kPi * rho / std::fabs(k.v1);
    for (int i = 1; i <= 4; ++i) {
      rk4(y, T, 4000, k.gamma, k.g, k.r);
      const auto& e = log.events[i];
      const Vec3 n = {y[0] / std::hypot(y[0], y[1]), y[1] / std::hypot(y[0], y[1]), 0.0};
      const Vec3 wy = (eta * k.r * dot(Vec3{y[6], y[7], y[8]}, n)) * n;  // w = s e_rho
      EXPECT_NEAR(e.t, i * T, 1e-12);
      const double got[9] = {e.x.x, e.x.y, e.x.z, e.state.u.x, e.state.u.y, e.state.u.z, e.state.w.x, e.state.w.y, e.state.w.z};
      const double want[9] = {y[0], y[1], y[2], y[3], y[4], y[5], wy.x, wy.y, wy.z};
      for (int j = 0; j < 9; ++j) EXPECT_NEAR(got[j], want[j], kRk4Agreement) << "turn " << i << " component " << j;
    }
  }
}

// The rubber ball (no_twist = 1): the run, a helix falling at g / (1 + gamma^2), against the
// Newton-Euler reference with the no-twist couple, which knows nothing of geodesics. The same
// start without the couple (the classical ball) stays at a bounded height, so the comparison
// tells the two models apart by far more than the tolerance.
TEST(InsideCylinder, RubberBallMatchesNewtonEulerWithTheNoTwistCouple) {
  const double R = 1.0, r = 0.2, gamma = std::sqrt(0.4), g = 9.81, angle = 0.3, z0 = 1.0, v1 = 2.0, v2 = 0.4;
  const json params = {{"R", R}, {"r", r}, {"gamma", gamma}, {"g", g}, {"no_twist", 1}};
  const json init = {{"angle", angle}, {"z", z0}, {"v1", v1}, {"v2", v2}, {"spin", 0.0}};
  const auto log = events_of(cylinder_config(params, init, {{"max_events", 4}}));
  ASSERT_EQ(log.events.size(), 5u);
  const double rho = R - r;
  const Vec3 er = {std::cos(angle), std::sin(angle), 0.0}, et = {-er.y, er.x, 0.0};
  const Vec3 om = (v2 / r) * et + Vec3{0.0, 0.0, -v1 / r};  // omega . e_rho = 0
  const Vec3 v = v1 * et + Vec3{0.0, 0.0, v2};
  double rubber[9] = {rho * er.x, rho * er.y, z0, v.x, v.y, v.z, om.x, om.y, om.z};
  double classical[9];
  std::copy(rubber, rubber + 9, classical);
  const double T = 2.0 * kPi * rho / v1;
  for (int i = 1; i <= 4; ++i) {
    rk4(rubber, T, 4000, gamma, g, r, true);
    rk4(classical, T, 4000, gamma, g, r, false);
    const auto& e = log.events[i];
    const Vec3 n = {rubber[0] / rho, rubber[1] / rho, 0.0};
    EXPECT_LT(std::fabs(dot(Vec3{rubber[6], rubber[7], rubber[8]}, n)), kRk4Agreement) << "the reference twists";
    const double got[9] = {e.x.x, e.x.y, e.x.z, e.state.u.x, e.state.u.y, e.state.u.z, e.state.w.x, e.state.w.y, e.state.w.z};
    const double want[9] = {rubber[0], rubber[1], rubber[2], rubber[3], rubber[4], rubber[5], 0.0, 0.0, 0.0};
    for (int j = 0; j < 9; ++j) EXPECT_NEAR(got[j], want[j], kRk4Agreement) << "turn " << i << " component " << j;
    const double t = i * T;
    EXPECT_NEAR(e.x.z, z0 + v2 * t - 0.5 * g / (1.0 + gamma * gamma) * t * t, kRk4Agreement) << "turn " << i;
    EXPECT_GT(std::fabs(classical[2] - rubber[2]), 1e3 * kRk4Agreement) << "turn " << i;
  }
}

TEST(InsideCylinder, EnergyIsConservedToRoundOffOver1e5Turns) {
  TrajectoryResult res;
  const json cfg = cylinder_config({{"R", 1.0}, {"r", 0.25}, {"gamma", std::sqrt(0.4)}, {"g", 9.81}},
                                   {{"v1", 1.7}, {"v2", -0.8}, {"spin", 0.3}}, {{"max_events", 100000}});
  const auto log = events_of(cfg, &res);
  ASSERT_EQ(res.status, Status::finished);
  EXPECT_EQ(res.events, 100000u);
  EXPECT_LT(res.energy_error, kEnergyRoundOff);
  // the energy in the paper's units from the emitted states, |u|^2 = v1^2 + v2^2, |w| = |s|
  const double g_eff = 9.81 / 1.4;
  const auto energy = [&](const auto& e) {
    return 0.5 * (dot(e.state.u, e.state.u) + dot(e.state.w, e.state.w)) + g_eff * e.x.z;
  };
  const double e0 = energy(log.events.front());
  EXPECT_NEAR(energy(log.events.back()), e0, kEnergyRoundOff * e0);
}

// z(t) at the times k dt: the run stopped at t_max = k dt ends exactly there.
std::vector<double> sampled_height(ScanSpec spec, double dt, int n) {
  std::vector<double> z;
  for (int k = 1; k <= n; ++k) {
    spec.t_max = k * dt;
    DiscardSink sink;
    z.push_back(simulate_trajectory(spec, 0, sink).z_final);
  }
  return z;
}

TEST(InsideCylinder, HeightOscillatesWithTheClassicalFrequency) {
  // Classical: vertical angular frequency eta |Omega|, Omega = v1 / (R - r) the angular rate
  // about the axis; for a solid ball (gamma^2 = 2/5) sqrt(2/7) |Omega|, whatever g, R, r.
  for (double gamma2 : {0.4, 2.0 / 3.0, 0.05}) {
    const double R = 1.0, r = 0.3, v1 = 1.5, g = 9.81;
    const json cfg = cylinder_config({{"R", R}, {"r", r}, {"gamma", std::sqrt(gamma2)}, {"g", g}},
                                     {{"v1", v1}, {"v2", 0.2}, {"spin", 0.1}}, {{"max_events", 1000}});
    TrajectoryResult full;
    events_of(cfg, &full);
    const double mid = 0.5 * (full.z_min + full.z_max);
    const double omega_z = std::sqrt(gamma2 / (1.0 + gamma2)) * v1 / (R - r);
    if (gamma2 == 0.4) {
      EXPECT_NEAR(omega_z, std::sqrt(2.0 / 7.0) * v1 / (R - r), 1e-15);
    }
    const double period = 2.0 * kPi / omega_z, dt = period / 400.0;
    const std::vector<double> z = sampled_height(testing::config_from(cfg).spec, dt, 4000);
    std::vector<double> up;  // upward crossings of the mid height, linearly interpolated
    for (std::size_t k = 1; k < z.size(); ++k)
      if (z[k - 1] < mid && z[k] >= mid) up.push_back(dt * (k + (mid - z[k - 1]) / (z[k] - z[k - 1])));
    ASSERT_GE(up.size(), 8u);
    const double measured = (up.back() - up.front()) / (up.size() - 1);
    EXPECT_NEAR(measured / period, 1.0, kFrequency) << "gamma^2 = " << gamma2;
  }
}

TEST(InsideCylinder, HeightIsBoundedWhileTheEtaZeroBallFalls) {
  // Classical amplitude |(v2, s + g_eff / w)| / w, w = eta v1 / (R - r): here 12.18, so the
  // bounded test is given a depth of 30.
  const double eta = 0.5, v1 = 1.0, v2 = -0.5, g = 5.0, w = eta * v1 / 0.9, g_eff = g * (1.0 - eta * eta);
  const json init = {{"v1", v1}, {"v2", v2}, {"spin", 0.0}};
  const auto config = [&](double e, int turns) {
    json c = cylinder_config({{"R", 1.0}, {"r", 0.1}, {"eta", e}, {"g", g}}, init, {{"max_events", turns}});
    c["options"] = {{"bounded_depth", 30.0}};
    return c;
  };
  TrajectoryResult short_run, long_run, point_mass;
  events_of(config(eta, 100), &short_run);
  events_of(config(eta, 10000), &long_run);
  EXPECT_EQ(long_run.bounded, 1.0);
  EXPECT_NEAR(long_run.z_max - long_run.z_min, 2.0 * std::hypot(v2, g_eff / w) / w, 1e-9);
  // no net fall: 100x longer, same extremes (the oscillation has been swept many times)
  EXPECT_NEAR(long_run.z_min, short_run.z_min, 1e-9);
  EXPECT_NEAR(long_run.z_max, short_run.z_max, 1e-9);
  EXPECT_LT(std::fabs(long_run.z_drift), 1e-4);
  events_of(config(0.0, 10), &point_mass);
  EXPECT_EQ(point_mass.bounded, 0.0);
}

TEST(InsideCylinder, EtaZeroIsFreeFallWithConstantSpin) {
  const double g = 2.0, v2 = 0.7, z0 = 0.4, s = 0.3, v1 = 0.9, rho = 0.8;
  const auto log = events_of(cylinder_config({{"R", 1.0}, {"r", 0.2}, {"gamma", 0.0}, {"g", g}},
                                             {{"z", z0}, {"v1", v1}, {"v2", v2}, {"spin", s}}, {{"max_events", 20}}));
  ASSERT_EQ(log.events.size(), 21u);
  for (const auto& e : log.events) {
    EXPECT_NEAR(e.x.z, z0 + v2 * e.t - 0.5 * g * e.t * e.t, kFreeFall * (1.0 + e.t * e.t));
    EXPECT_NEAR(e.state.u.z, v2 - g * e.t, kFreeFall * (1.0 + e.t));
    EXPECT_NEAR(std::hypot(e.state.w.x, e.state.w.y), s, kFreeFall);
    EXPECT_NEAR(std::hypot(e.x.x, e.x.y), rho, kFreeFall);
  }
}

TEST(InsideCylinder, RollingStraightDownAcceleratesAtGOver1PlusGamma2) {
  // v1 = 0: the classical ball rolling down a wall, 5 g / 7 for a solid ball; g_effective
  // gives the same motion directly.
  const double g = 9.81, t_max = 2.0, z0 = 1.0;
  for (const json& grav : {json{{"g", g}}, json{{"g_effective", g / 1.4}}}) {
    json p = {{"R", 1.0}, {"r", 0.1}, {"gamma", std::sqrt(0.4)}};
    p.update(grav);
    TrajectoryResult res;
    const auto log = events_of(cylinder_config(p, {{"z", z0}, {"v1", 0.0}, {"angle", 1.0}}, {{"t_max", t_max}}), &res);
    ASSERT_EQ(res.status, Status::finished);
    EXPECT_EQ(res.events, 0u);
    EXPECT_NEAR(res.z_final, z0 - 0.5 * (5.0 / 7.0) * g * t_max * t_max, kFreeFall * 100.0);
    EXPECT_NEAR(log.events.back().x.x, 0.9 * std::cos(1.0), 1e-15);
  }
  TrajectoryResult never;
  const json no_stop = cylinder_config({{"R", 1.0}, {"r", 0.1}, {"gamma", 0.5}}, {{"v1", 0.0}}, {{"max_events", 5}});
  events_of(no_stop, &never);
  EXPECT_EQ(never.status, Status::masked);
}

TEST(InsideCylinder, ConfigRejectsABallThatDoesNotFit) {
  EXPECT_THROW(testing::config_from(cylinder_config({{"R", 1.0}, {"r", 1.0}, {"gamma", 0.5}}, json::object(),
                                                    {{"max_events", 5}})),
               ConfigError);
  const json scan = {{"system", "roll3:inside-cylinder"},
                     {"parameters", {{"R", 1.0}, {"gamma", 0.5}}},
                     {"scan", {{"type", "grid"}, {"axes", {{{"param", "r"}, {"min", 0.1}, {"max", 1.2}, {"n", 3}}}}}},
                     {"stop", {{"max_events", 5}}}};
  EXPECT_THROW(testing::config_from(scan), ConfigError);
}

}  // namespace
}  // namespace skipstone
