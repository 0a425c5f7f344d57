// The impulse ratios of the no-slip impacts (observables impulse_ratio_max, impulse_ratio_mean):
// the least Coulomb friction coefficient a real collision would need, |tangential| / normal
// impulse. Checked against the ratio computed from the collision map's formula in the frame of
// the wall (an independent disc billiard: chords and the map written out again here), against
// the closed forms of the specular and the rolling impact, on the 3D models, and as an opt-in
// observable that leaves every other observable of a scan unchanged.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "backends.hpp"

#include "config.hpp"
#include "config_error.hpp"
#include "skipstone/noslip_model.hpp"
#include "skipstone/simulate.hpp"

namespace {

using namespace skipstone;

// Round-off of a ratio built from O(1) velocities.
constexpr double kRoundoff = 1e-12;
// A mean or maximum over a few hundred impacts of the kernel against the loop below: both
// round differently in the chords, and the disc billiard is integrable (no amplification).
constexpr double kAgreement = 1e-9;

TrajectoryResult run_config(const std::string& text, std::uint64_t index = 0) {
  const RunConfig rc = parse_config_text(text);
  DiscardSink sink;
  return simulate_trajectory(rc.spec, index, sink);
}

std::string config(const std::string& system, const std::string& parameters, const std::string& initial,
                   const std::string& stop, const std::string& observables = R"("impulse_ratio_max", "impulse_ratio_mean")") {
  return R"({"system": ")" + system + R"(", "parameters": {)" + parameters + R"(}, "initial": {)" + initial +
         R"(}, "stop": {)" + stop + R"(}, "observables": ["status", "events", )" + observables + "]}";
}

// An independent no-slip billiard in the disc of radius 1: exact chords, the 2D map in the
// wall's frame, the ratio |u_bar+ - u_bar-| / (2 |u_hat|) at every impact.
struct DiscRatios {
  double max = 0.0, mean = 0.0;
  std::uint64_t impacts = 0;
};
DiscRatios disc_ratios(double gamma, double x, double y, double ux, double uy, double s, std::uint64_t n) {
  const double c = (1.0 - gamma * gamma) / (1.0 + gamma * gamma), sb = 2.0 * gamma / (1.0 + gamma * gamma);
  DiscRatios out;
  double sum = 0.0;
  for (std::uint64_t i = 0; i < n; ++i) {
    // |x + t u| = 1: t = (-(x.u) + sqrt((x.u)^2 + |u|^2 (1 - |x|^2))) / |u|^2
    const double xu = x * ux + y * uy, uu = ux * ux + uy * uy, xx = x * x + y * y;
    const double t = (-xu + std::sqrt(xu * xu + uu * (1.0 - xx))) / uu;
    x += t * ux;
    y += t * uy;
    const double nx = -x, ny = -y, tx = -ny, ty = nx;  // inward normal, tau = J nu
    const double u_hat = ux * nx + uy * ny, u_bar = ux * tx + uy * ty;
    const double u_bar_new = c * u_bar + sb * s, s_new = sb * u_bar - c * s;
    const double ratio = std::fabs(u_bar_new - u_bar) / (2.0 * std::fabs(u_hat));
    out.max = std::max(out.max, ratio);
    sum += ratio;
    ux = -u_hat * nx + u_bar_new * tx;
    uy = -u_hat * ny + u_bar_new * ty;
    s = s_new;
  }
  out.impacts = n;
  out.mean = sum / static_cast<double>(n);
  return out;
}

TEST(ImpulseRatio, DiscMatchesAnIndependentBilliardOverManyImpacts) {
  for (const double gamma : {0.3, 0.6325, 1.0}) {
    const double angle = 0.4, spin = 0.35;
    const TrajectoryResult r = run_config(config(
        "disc", R"("R": 1.0, "gamma": )" + std::to_string(gamma),
        R"("start": "interior", "x": 0.31, "y": 0.17, "angle": 0.4, "speed": 1.0, "spin": 0.35)", R"("max_events": 300)"));
    ASSERT_EQ(r.status, Status::finished);
    ASSERT_EQ(r.events, 300u);
    const DiscRatios ref = disc_ratios(gamma, 0.31, 0.17, std::cos(angle), std::sin(angle), spin, 300);
    EXPECT_NEAR(r.impulse_ratio_max, ref.max, kAgreement) << "gamma " << gamma;
    EXPECT_NEAR(r.impulse_ratio_mean, ref.mean, kAgreement) << "gamma " << gamma;
    EXPECT_GT(ref.max, 0.05) << "the case must need friction to test anything";
  }
}

TEST(ImpulseRatio, SpecularImpactsNeedNoFriction) {
  const TrajectoryResult r = run_config(config("stadium", R"("gamma": 0.0)",
                                               R"("start": "interior", "x": 0.2, "y": 0.1, "angle": 0.7, "spin": 0.4)",
                                               R"("max_events": 200)"));
  ASSERT_EQ(r.status, Status::finished);
  EXPECT_LT(r.impulse_ratio_max, kRoundoff);
}

TEST(ImpulseRatio, RollingImpactNeedsNoFrictionAndASpinlessOneHasTheClosedForm) {
  // slip = 0: the ball arrives in the rolling subspace, where the map leaves (u_bar, s) alone
  const TrajectoryResult rolling = run_config(config(
      "disc", R"("R": 1.0, "gamma": 0.6325)", R"("start": "impact", "boundary_s": 0.1, "angle": 0.8, "slip": 0.0)",
      R"("max_events": 1)"));
  ASSERT_EQ(rolling.events, 1u);
  EXPECT_LT(rolling.impulse_ratio_max, kRoundoff);
  // a spinless ball arriving at theta from the normal: from (0, -sin theta) along +x the first
  // chord ends where |x . u| = cos theta; the ratio is (1 - cos beta) |tan theta| / 2
  for (const double theta : {0.2, 0.8, 1.3}) {
    const double gamma = 0.6325, cos_beta = (1.0 - gamma * gamma) / (1.0 + gamma * gamma);
    const std::string y0 = std::to_string(-std::sin(theta));  // as the config reads it
    const TrajectoryResult r = run_config(config("disc", R"("R": 1.0, "gamma": 0.6325)",
                                                 R"("start": "interior", "x": 0.0, "y": )" + y0 + R"(, "angle": 0.0, "spin": 0.0)",
                                                 R"("max_events": 1)"));
    ASSERT_EQ(r.events, 1u);
    const double d = -std::stod(y0), tan_theta = d / std::sqrt(1.0 - d * d);
    EXPECT_NEAR(r.impulse_ratio_max, 0.5 * (1.0 - cos_beta) * tan_theta, kRoundoff) << "theta " << theta;
    EXPECT_NEAR(r.impulse_ratio_mean, r.impulse_ratio_max, 0.0);
  }
}

// The 3D map in the wall's frame: u_bar+ - u_bar- = (c - 1) u_bar + s_beta (w x nu).
TEST(ImpulseRatio, CylinderFirstImpactMatchesTheThreeDimensionalMap) {
  const double gamma = 0.6325, c = (1.0 - gamma * gamma) / (1.0 + gamma * gamma), sb = 2.0 * gamma / (1.0 + gamma * gamma);
  // from the axis (x = y = 0) every chord of the disc cross-section is a radius: the wall point
  // is (ux, uy) / |(ux, uy)| with nu = -that
  const double ux = 0.6, uy = 0.8, uz = 0.5, wx = 0.3, wy = -0.2, wz = 0.7;
  const TrajectoryResult r = run_config(config(
      "cylinder:disc", R"("R": 1.0, "gamma": 0.6325)",
      R"("start": "interior", "x": 0.0, "y": 0.0, "z": 0.0, "vx": 0.6, "vy": 0.8, "vz": 0.5, "wx": 0.3, "wy": -0.2, "wz": 0.7)",
      R"("max_events": 1)"));
  ASSERT_EQ(r.events, 1u);
  const double nu[3] = {-0.6, -0.8, 0.0}, u[3] = {ux, uy, uz}, w[3] = {wx, wy, wz};
  const double u_hat = u[0] * nu[0] + u[1] * nu[1] + u[2] * nu[2];
  const double W[3] = {w[1] * nu[2] - w[2] * nu[1], w[2] * nu[0] - w[0] * nu[2], w[0] * nu[1] - w[1] * nu[0]};
  double dt2 = 0.0;
  for (int k = 0; k < 3; ++k) {
    const double du_bar = (c - 1.0) * (u[k] - u_hat * nu[k]) + sb * W[k];
    dt2 += du_bar * du_bar;
  }
  EXPECT_NEAR(r.impulse_ratio_max, std::sqrt(dt2) / (2.0 * std::fabs(u_hat)), kRoundoff);
}

TEST(ImpulseRatio, SphereRatiosAreFiniteAndBoundedByTheMap) {
  // |u_bar+ - u_bar-| <= |(c - 1) u_bar| + |s_beta W| <= 2 sqrt(|u_bar|^2 + |W|^2) <= 2 sqrt(2 E):
  // finite, and zero for gamma = 0
  const std::string start = R"("start": "interior", "x": 0.5, "y": 0.0, "z": 0.0, "vx": 0.0, "vy": 1.0, "vz": 0.2, "wx": 0.1, "wy": 0.4, "wz": -0.3)";
  const TrajectoryResult rough = run_config(config("sphere", R"("R": 1.0, "gamma": 0.6325)", start, R"("max_events": 100)"));
  ASSERT_EQ(rough.status, Status::finished);
  EXPECT_GT(rough.impulse_ratio_max, 0.0);
  EXPECT_LE(rough.impulse_ratio_mean, rough.impulse_ratio_max);
  const TrajectoryResult specular = run_config(config("sphere", R"("R": 1.0, "gamma": 0.0)", start, R"("max_events": 100)"));
  EXPECT_LT(specular.impulse_ratio_max, kRoundoff);
}

// Opt-in: a scan that names them runs off the SIMD lanes, and every other observable stays the
// lanes' value bit for bit (the lanes round as the stepper does by construction).
TEST(ImpulseRatio, AskingForThemLeavesTheOtherObservablesUnchanged) {
  const std::string base = R"({"system": "disc", "parameters": {"R": 1.0, "gamma": 0.6325},
    "initial": {"start": "interior", "x": 0.2, "y": 0.1, "angle": 0.3},
    "scan": {"type": "grid", "axes": [{"param": "spin", "min": -1, "max": 1, "n": 40}]},
    "stop": {"max_events": 200}, "observables": ["status", "events", "t_end", "energy_error", "rho_even")";
  const RunConfig plain = parse_config_text(base + "]}");
  const RunConfig asked = parse_config_text(base + R"(, "impulse_ratio_max"]})");
  EXPECT_FALSE(plain.spec.impulse_ratios);
  EXPECT_TRUE(asked.spec.impulse_ratios);
  std::vector<TrajectoryResult> a(40), b(40);
  cpu::run_chunk(plain.spec, 0, 40, a.data());
  cpu::run_chunk(asked.spec, 0, 40, b.data());
  for (int i = 0; i < 40; ++i) {
    EXPECT_EQ(a[i].events, b[i].events);
    EXPECT_EQ(a[i].t_end, b[i].t_end);
    EXPECT_EQ(a[i].energy_error, b[i].energy_error);
    EXPECT_EQ(a[i].rho_even, b[i].rho_even);
    EXPECT_TRUE(std::isnan(a[i].impulse_ratio_max));
    EXPECT_GT(b[i].impulse_ratio_max, 0.0);
  }
}

TEST(ImpulseRatio, RollingSystemsRejectThemNamingTheSystemsThatHaveThem) {
  try {
    parse_config_text(R"({"system": "roll4:disc", "parameters": {"R": 1.0, "r": 0.1, "eta": 0.5},
      "initial": {"start": "plate"}, "stop": {"t_max": 1}, "observables": ["impulse_ratio_max"]})");
    FAIL() << "accepted";
  } catch (const ConfigError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("observables[0]"), std::string::npos) << what;
    EXPECT_NE(what.find("cylinder:stadium"), std::string::npos) << what;
  }
}

}  // namespace
