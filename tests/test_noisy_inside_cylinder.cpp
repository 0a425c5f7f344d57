// roll3:inside-cylinder with noisy constraints (rolling/noisy_inside_cylinder.hpp): the slip
// equations against Newton-Euler with a slipping contact (an independent Cartesian model, the
// slip a smooth prescribed path), the energy rate of the drift (zero under roughness on every
// state, not under slip), sigma = 0 against the closed form, the observed strong order of the
// runs on one Brownian path against the design order, realisations and repeatability, the
// turns, the Poincare sections on the noisy steps, the refusals. The height series of the
// closed form: tests/test_height_series.cpp.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "config_error.hpp"
#include "skipstone/simulate.hpp"
#include "section_crossings.hpp"
#include "strong_order.hpp"
#include "test_support.hpp"

namespace skipstone {
namespace {

using nlohmann::json;
using testing::config_from;
using testing::EventLog;

constexpr double kSlipNewtonEuler = 1e-9;  // drift with a prescribed slip vs Newton-Euler, both RK4
constexpr double kEnergyRate = 1e-13;      // roughness: |dE/dt| / (|terms|) of the drift
constexpr double kSlipEnergyRate = 1e-5;   // slip: the least |dE/dt| / (|terms|) of the states (2.5e-4 measured)
// a section crossing's time where theta is linear (roughness): the root of the linear
// interpolant, to round-off
constexpr double kSectionTime = 1e-9;
// its height against the run stopped there: the line between the step's ends against the
// scheme's shortened last step, O(h^1.5) along a noisy path (h = 1e-3)
constexpr double kSectionHeight = 1e-4;
constexpr double kSigmaZero = 1e-5;        // sigma = 0 at noise_dt = 1e-3 over t = 20: Heun's phase error ~ w^3 dt^2 t / 6

json cylinder(const json& params, const json& initial, const json& stop) {
  return {{"system", "roll3:inside-cylinder"}, {"parameters", params}, {"initial", initial}, {"stop", stop}};
}

// ---- independent reference: Newton-Euler with a slipping contact, Cartesian, RK4 ----
// Unit mass, I = gamma^2 r^2; y = (a, v, omega); n = e_rho (axis -> centre -> contact). The
// contact point moves at the prescribed u(t) = n1(t) e_theta + n2(t) e3: v = r n x omega + u.
// Differentiating with v' = f - g e3, omega' = n x f / (gamma^2 r):
//   f - g e3 = q + (n (n.f) - f) / gamma^2 + u',  q = r n' x omega,
// u' = n1' e_theta + n2' e3 - n1 theta' n (e_theta' = -theta' n). So f.n = q.n - n1 theta' and
// f_t = gamma^2 (q_t + g e3 + n1' e_theta + n2' e3) / (1 + gamma^2).
struct Slip {
  double a1, w1, a2, w2;  // n1 = a1 sin(w1 t), n2 = a2 cos(w2 t)
  double n1(double t) const { return a1 * std::sin(w1 * t); }
  double n2(double t) const { return a2 * std::cos(w2 * t); }
  double dn1(double t) const { return a1 * w1 * std::cos(w1 * t); }
  double dn2(double t) const { return -a2 * w2 * std::sin(w2 * t); }
};

void newton_euler_slip(double t, const double* y, double gamma, double g, double r, const Slip& u, double* f) {
  const Vec3 a = {y[0], y[1], y[2]}, v = {y[3], y[4], y[5]}, om = {y[6], y[7], y[8]};
  const double rad = std::hypot(a.x, a.y);
  const Vec3 n = {a.x / rad, a.y / rad, 0.0}, et = {-n.y, n.x, 0.0};
  const Vec3 vh = {v.x, v.y, 0.0};
  const Vec3 dn = (1.0 / rad) * (vh - dot(n, vh) * n);
  const double theta_rate = dot(v, et) / rad;
  const Vec3 q = r * cross(dn, om);
  const double g2 = gamma * gamma;
  const Vec3 qt = q - dot(q, n) * n;
  const Vec3 force = (dot(q, n) - u.n1(t) * theta_rate) * n +
                     (g2 / (1.0 + g2)) * (qt + Vec3{0.0, 0.0, g} + u.dn1(t) * et + Vec3{0.0, 0.0, u.dn2(t)});
  const Vec3 acc = force - Vec3{0.0, 0.0, g};
  const Vec3 dom = (1.0 / (g2 * r)) * cross(n, force);
  const double out[9] = {v.x, v.y, v.z, acc.x, acc.y, acc.z, dom.x, dom.y, dom.z};
  for (int i = 0; i < 9; ++i) f[i] = out[i];
}

// RK4 of y' = rhs(t, y) with n components over [0, T].
template <int N, class Rhs>
void rk4(double* y, double T, int steps, const Rhs& rhs) {
  const double h = T / steps;
  double k1[N], k2[N], k3[N], k4[N], tmp[N];
  for (int s = 0; s < steps; ++s) {
    const double t = s * h;
    rhs(t, y, k1);
    for (int i = 0; i < N; ++i) tmp[i] = y[i] + 0.5 * h * k1[i];
    rhs(t + 0.5 * h, tmp, k2);
    for (int i = 0; i < N; ++i) tmp[i] = y[i] + 0.5 * h * k2[i];
    rhs(t + 0.5 * h, tmp, k3);
    for (int i = 0; i < N; ++i) tmp[i] = y[i] + h * k3[i];
    rhs(t + h, tmp, k4);
    for (int i = 0; i < N; ++i) y[i] += h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
  }
}

TEST(NoisyInsideCylinder, SlipEquationsMatchNewtonEulerWithASlippingContact) {
  struct Case {
    double R, r, gamma, g, W1, W2, s;
    Slip u;
  };
  const Case cases[] = {{1.0, 0.2, std::sqrt(0.4), 9.81, 2.0, 0.4, -0.2, {0.3, 1.7, -0.2, 2.3}},
                        {2.0, 0.5, std::sqrt(2.0 / 3.0), 1.0, -0.7, -0.3, 0.5, {0.5, 0.9, 0.4, 1.1}},
                        {1.0, 0.9, 0.2, 3.0, 1.1, 0.0, 0.0, {-0.25, 3.0, 0.15, 0.5}}};
  for (const Case& k : cases) {
    const double rho = k.R - k.r, eta = eta_from_gamma(k.gamma), e2 = eta * eta;
    const double G = k.g / (1.0 + k.gamma * k.gamma), T = 3.0;
    const NoisyInsideCylinderSystem sys{rho, eta, G, 0.0, OuNoise{0.0, 1.0, kNoiseSlip}};
    // skipstone's drift with n(t) prescribed: y = (theta, z, W1, W2, s, n1, n2)
    double ys[7] = {0.0, 0.0, k.W1, k.W2, k.s, 0.0, 0.0};
    rk4<7>(ys, T, 20000, [&](double t, const double* y, double* f) {
      double yn[7] = {y[0], y[1], y[2], y[3], y[4], k.u.n1(t), k.u.n2(t)};
      sys.drift(yn, f);
      f[5] = f[6] = 0.0;
    });
    // Newton-Euler from the same start: v = W + eta^2 u(0), omega from the constraint and s
    const Vec3 er = {1.0, 0.0, 0.0}, et = {0.0, 1.0, 0.0};
    const double v1 = k.W1 + e2 * k.u.n1(0.0), v2 = k.W2 + e2 * k.u.n2(0.0);
    // v - u = r n x omega: omega_theta = (v2 - n2) / r, omega_3 = -(v1 - n1) / r; s = eta r omega_rho
    const Vec3 om = (k.s / (eta * k.r)) * er + ((v2 - k.u.n2(0.0)) / k.r) * et +
                    Vec3{0.0, 0.0, -(v1 - k.u.n1(0.0)) / k.r};
    double yn[9] = {rho, 0.0, 0.0, v1 * et.x, v1 * et.y, v2, om.x, om.y, om.z};
    rk4<9>(yn, T, 20000, [&](double t, const double* y, double* f) { newton_euler_slip(t, y, k.gamma, k.g, k.r, k.u, f); });
    const double theta = std::atan2(yn[1], yn[0]);
    const Vec3 n = {std::cos(theta), std::sin(theta), 0.0}, etn = {-n.y, n.x, 0.0};
    const Vec3 v = {yn[3], yn[4], yn[5]};
    const double dtheta = std::remainder(ys[0] - theta, 2.0 * kPi);
    EXPECT_NEAR(dtheta, 0.0, kSlipNewtonEuler);
    EXPECT_NEAR(ys[1], yn[2], kSlipNewtonEuler) << "z";
    EXPECT_NEAR(ys[2] + e2 * k.u.n1(T), dot(v, etn), kSlipNewtonEuler) << "v1";
    EXPECT_NEAR(ys[3] + e2 * k.u.n2(T), v.z, kSlipNewtonEuler) << "v2";
    EXPECT_NEAR(ys[4], eta * k.r * dot(Vec3{yn[6], yn[7], yn[8]}, n), kSlipNewtonEuler) << "s";
    EXPECT_EQ(ys[2], k.W1);  // W1' = 0
  }
}

// dE/dt of E = (W1^2 + W2^2 + s^2) / 2 + G z along the drift, at random states and noise values.
TEST(NoisyInsideCylinder, RoughnessKeepsTheEnergyOnEveryStateSlipExchangesIt) {
  std::mt19937_64 gen(5);
  std::uniform_real_distribution<double> any(-2.0, 2.0);
  double rough_worst = 0.0, slip_least = INFINITY;
  for (int i = 0; i < 200; ++i) {
    const double y[7] = {any(gen), any(gen), any(gen), any(gen), any(gen), any(gen), any(gen)};
    for (int kind : {kNoiseRoughness, kNoiseSlip}) {
      const NoisyInsideCylinderSystem sys{0.8, std::sqrt(2.0 / 7.0), 0.7, 0.0, OuNoise{0.5, 0.3, kind}};
      double f[7];
      sys.drift(y, f);
      const double terms[4] = {y[2] * f[2], y[3] * f[3], y[4] * f[4], sys.G * f[1]};
      double rate = 0.0, scale = 0.0;
      for (double x : terms) rate += x, scale += std::fabs(x);
      if (kind == kNoiseRoughness) rough_worst = std::max(rough_worst, std::fabs(rate) / scale);
      else slip_least = std::min(slip_least, std::fabs(rate) / scale);
    }
  }
  std::printf("|dE/dt| / scale over 200 states: roughness at most %.2e, slip at least %.2e\n", rough_worst, slip_least);
  EXPECT_LE(rough_worst, kEnergyRate);
  EXPECT_GE(slip_least, kSlipEnergyRate);
}

json noisy_params(int kind, double sigma, double dt = 1e-3) {
  return {{"R", 1.0},       {"r", 0.2},         {"gamma", std::sqrt(0.4)}, {"g", 1.0},
          {"noise", kind},  {"noise_sigma", sigma}, {"noise_tau", 0.5},     {"noise_dt", dt}};
}
const json kStart = {{"start", "wall"}, {"angle", 0.3}, {"z", 0.5}, {"v1", 1.2}, {"v2", -0.3}, {"spin", 0.2}};

TEST(NoisyInsideCylinder, SigmaZeroIsTheClosedForm) {
  json det = noisy_params(0, 0.0);
  const auto exact = [&] {
    EventLog<Vec3, State3D> log;
    const TrajectoryResult r = simulate_trajectory(config_from(cylinder(det, kStart, {{"t_max", 20.0}})).spec, 0, log);
    EXPECT_EQ(r.status, Status::finished);
    return log;
  }();
  for (int kind : {kNoiseSlip, kNoiseRoughness}) {
    EventLog<Vec3, State3D> log;
    const TrajectoryResult r =
        simulate_trajectory(config_from(cylinder(noisy_params(kind, 0.0), kStart, {{"t_max", 20.0}})).spec, 0, log);
    EXPECT_EQ(r.status, Status::finished) << kind;
    ASSERT_EQ(log.events.size(), exact.events.size()) << "the same turns, kind " << kind;
    double worst = 0.0;
    for (std::size_t i = 0; i < log.events.size(); ++i) {
      const auto &a = log.events[i], &b = exact.events[i];
      const double d[10] = {a.t - b.t, a.x.x - b.x.x, a.x.y - b.x.y, a.x.z - b.x.z, a.state.u.x - b.state.u.x,
                            a.state.u.y - b.state.u.y, a.state.u.z - b.state.u.z, a.state.w.x - b.state.w.x,
                            a.state.w.y - b.state.w.y, a.state.w.z - b.state.w.z};
      for (double x : d) worst = std::max(worst, std::fabs(x));
    }
    std::printf("sigma = 0, kind %d: %zu events, largest difference from the closed form %.2e\n", kind,
                log.events.size(), worst);
    EXPECT_LE(worst, kSigmaZero) << "kind " << kind;
  }
}

// The RMS over paths of the end state's error (position, velocity, w) at t_max of runs with
// step h against the run with step h_ref on the same Brownian path.
double strong_error(int kind, double h, double h_ref, double t_max, int paths) {
  const auto m = static_cast<std::uint32_t>(std::lround(h / h_ref));
  const RunConfig coarse = config_from(cylinder(noisy_params(kind, 0.5, h), kStart, {{"t_max", t_max}}));
  const RunConfig fine = config_from(cylinder(noisy_params(kind, 0.5, h_ref), kStart, {{"t_max", t_max}}));
  double sum = 0.0;
  for (int path = 0; path < paths; ++path) {
    const std::uint64_t key = noise_key(13, static_cast<std::uint64_t>(path), 0);
    EventLog<Vec3, State3D> a, b;
    EXPECT_EQ(noisy_inside_cylinder_run(coarse.spec, scan_point(coarse.spec, 0), CounterNoise{key, m}, a).status,
              Status::finished);
    EXPECT_EQ(noisy_inside_cylinder_run(fine.spec, scan_point(fine.spec, 0), CounterNoise{key, 1}, b).status,
              Status::finished);
    const auto &x = a.events.back(), &y = b.events.back();
    const Vec3 d[3] = {x.x - y.x, x.state.u - y.state.u, x.state.w - y.state.w};
    for (const Vec3& v : d) sum += dot(v, v);
  }
  return std::sqrt(sum / paths);
}

TEST(NoisyInsideCylinder, ObservedStrongOrderIsTheDesignOrder) {
  const double t_max = 1.0, h_finest = 1.0 / 320;
  for (int kind : {kNoiseSlip, kNoiseRoughness}) {
    const std::string label = "kind " + std::to_string(kind);
    const double order = testing::observed_strong_order(
        1.0 / 40, h_finest, label.c_str(), [&](double h) { return strong_error(kind, h, h_finest / 16, t_max, 64); });
    EXPECT_NEAR(order, testing::kDesignStrongOrder, testing::kOrderSlack) << label;
  }
}

TEST(NoisyInsideCylinder, RealisationsDifferAndRepeat) {
  for (int kind : {kNoiseSlip, kNoiseRoughness}) {
    json params = noisy_params(kind, 0.3);
    const auto end_height = [&](int realisation) {
      params["realisation"] = realisation;
      DiscardSink none;
      return simulate_trajectory(config_from(cylinder(params, kStart, {{"t_max", 10.0}})).spec, 0, none).z_final;
    };
    const double z0 = end_height(0), z1 = end_height(1);
    EXPECT_EQ(z0, end_height(0)) << "the same realisation again, kind " << kind;
    EXPECT_GT(std::fabs(z0 - z1), 1e-3) << "another realisation, kind " << kind;
  }
}

TEST(NoisyInsideCylinder, TurnsAreCountedInTheStartsDirection) {
  // v1 < 0: clockwise; under roughness |v1| = |W1| is constant, so the turns come every
  // 2 pi rho / |v1|, as without noise
  json params = noisy_params(kNoiseRoughness, 0.4);
  json start = kStart;
  start["v1"] = -1.2;
  EventLog<Vec3, State3D> log;
  const TrajectoryResult r = simulate_trajectory(config_from(cylinder(params, start, {{"max_events", 3}})).spec, 0, log);
  EXPECT_EQ(r.status, Status::finished);
  EXPECT_EQ(r.events, 3u);
  const double turn = 2.0 * kPi * 0.8 / 1.2;
  ASSERT_EQ(log.events.size(), 4u);
  for (int k = 1; k <= 3; ++k) {
    EXPECT_NEAR(log.events[k].t, k * turn, 1e-9) << "turn " << k;
    EXPECT_NEAR(std::atan2(log.events[k].x.y, log.events[k].x.x), 0.3, 1e-12) << "back at the start's angle";
  }
  EXPECT_EQ(r.t_end, log.events.back().t);
}

// The plane y = 0 crossed counterclockwise (x > 0 side): under roughness v1 = W1 is constant, so
// theta is linear in t and the crossings come at the closed form's times, t_k = (2 pi k - 0.3) rho
// / v1, whatever the noise does to the height; each on the plane, its z the run's at that time.
TEST(NoisyInsideCylinder, SectionsSearchTheNoisySteps) {
  const RunConfig rc = config_from(cylinder(noisy_params(kNoiseRoughness, 0.3), kStart, {{"t_max", 20.0}}));
  testing::SectionCrossings found(testing::section_plane({0.0, 1.0, 0.0}, 0.0, 1, 3));
  const ScanPoint pt = scan_point(rc.spec, 0);
  simulate_noisy_inside_cylinder(rc.spec, pt, 0, found);
  ASSERT_EQ(found.count(), 4u);
  for (std::uint64_t k = 0; k < found.count(); ++k) {
    const double want = (2.0 * kPi * static_cast<double>(k + 1) - 0.3) * 0.8 / 1.2;
    EXPECT_NEAR(found.time(k), want, kSectionTime) << "crossing " << k;
    EXPECT_NEAR(found.centre(k)[1], 0.0, kSectionTime) << "on the plane";
    EXPECT_GT(found.centre(k)[0], 0.0) << "counterclockwise through the x > 0 half";
    ScanSpec stopped = rc.spec;
    stopped.t_max = found.time(k);
    DiscardSink none;
    const double z = simulate_noisy_inside_cylinder(stopped, pt, 0, none).z_final;
    EXPECT_NEAR(found.centre(k)[2], z, kSectionHeight) << "crossing " << k;
  }
}

TEST(NoisyInsideCylinder, ConfigRefusesWhatTheNoisyRunDoesNotCompute) {
  const json params = noisy_params(kNoiseSlip, 0.3);
  for (const char* obs : {"lyapunov", "slip_time"}) {
    try {
      json cfg = cylinder(params, kStart, {{"t_max", 1.0}});
      cfg["observables"] = {"status", obs};
      config_from(cfg);
      ADD_FAILURE() << obs << " was accepted with noise";
    } catch (const ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find("observables[1]"), std::string::npos) << e.what();
    }
  }
  json rubber = params;
  rubber["no_twist"] = 1;
  EXPECT_THROW(config_from(cylinder(rubber, {{"start", "wall"}, {"v1", 1.0}}, {{"t_max", 1.0}})), ConfigError);
}

}  // namespace
}  // namespace skipstone
