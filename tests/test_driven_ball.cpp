// driven:ball (the ball rolling on a plane moved by point masses on rails): with every rail in the
// E1-E3 plane and Omega along E2 it is driven:disk, equation by equation (2.20)/(2.10)/(2.11) vs
// (4.1)/(4.3)/(4.4) and run by run; energy conservation without drive, the work-energy balance
// with it (and energy not conserved by itself then); the normal force and the friction against
// second differences of the centre of mass along a 3D path; the mirror symmetry; the closed form
// without masses; steps that land on the drive's kinks; config checks. The ball's own inertia and
// centre of mass (d1, d2, d3 and chi_0 of (2.20)): without masses an asymmetric balanced ball is
// Chaplygin's ball, whose angular momentum about the contact point is constant in space; a
// bottom-heavy ball rocks at the rolling pendulum's frequency about either principal axis.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "config_error.hpp"
#include "skipstone/simulate.hpp"
#include "test_support.hpp"

namespace skipstone {
namespace {

using nlohmann::json;

std::string sci(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6e", v);
  return buf;
}

constexpr double kPlanarForces = 1e-12;      // ball vs disk equations at one state, relative
constexpr double kPlanarRun = 1e-8;          // ball vs disk runs: positions, located event times
constexpr double kPlanarSampled = 1e-6;      // ball vs disk runs: extremes over their own step ends
constexpr double kEnergyDrift = 1e-11;       // no drive, t in [0, 20], default tolerances
constexpr double kWorkBalance = 1e-10;       // with the drive: |E - E0 - W| relative
constexpr double kDriveWork = 1e-2;          // with the drive E - E0 is at least this (relative)
constexpr double kSecondDifference = 2e-6;   // N, f vs central second differences (h = 1e-3), relative to M g
constexpr double kMirror = 1e-12;            // mirrored runs, relative
constexpr double kClosedForm = 1e-12;        // no masses: constant velocity, N = M g, f = 0
constexpr double kUnitNorm = 1e-10;          // gamma_drift over a run at default tolerances
constexpr double kChaplyginMomentum = 1e-10;  // |K(t) - K(0)| / |K(0)| over t in [0, 10], h = 1e-3
constexpr double kRockingPeriod = 1e-6;      // small rocking (amplitude ~2e-4 rad) vs the linear period

DrivenRig random_rig(std::mt19937_64& rng) {
  std::uniform_real_distribution<double> U(0.1, 2.0);
  DrivenRig rig;
  rig.m0 = U(rng);
  rig.r = U(rng);
  rig.d2 = U(rng);
  rig.g = U(rng);
  for (int i = 0; i < kDrivenMasses; ++i) {
    rig.m[i] = U(rng);
    rig.rail[i] = 0.95 * rig.r * U(rng) / 2.0;
  }
  rig.amp = U(rng) - 1.0;
  rig.t1 = 0.1;
  rig.t2 = 0.2;
  rig.mu_s = 0.5;
  return rig;
}

// The ball's state of a disk state: Lambda = R_e2(-phi), Omega = (0, -phi', 0).
void ball_of_disk(const double* d, double* b) {
  std::fill(b, b + kBallStateSize, 0.0);
  b[kBallQuat] = std::cos(-0.5 * d[kDiskPhi]);
  b[kBallQuat + 2] = std::sin(-0.5 * d[kDiskPhi]);
  b[kBallOmega + 1] = -d[kDiskPhiDot];
  for (int i = 0; i < kDrivenMasses; ++i) {
    b[kBallTheta + i] = d[kDiskTheta + i];
    b[kBallThetaDot + i] = d[kDiskThetaDot + i];
  }
  b[kBallTime] = d[kDiskTime];
}

TEST(DrivenBall, PlanarBallIsTheDiskEquationByEquation) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> U(-3.0, 3.0);
  double worst = 0.0;
  for (int trial = 0; trial < 200; ++trial) {
    const DrivenRig rig = random_rig(rng);
    double d[kDiskStateSize], b[kBallStateSize];
    for (double& v : d) v = U(rng);
    d[kDiskTime] = 0.1 * (U(rng) + 3.0);  // on every piece of the drive
    ball_of_disk(d, b);
    const DiskForces disk = driven_disk_forces(rig, d);
    DrivenBallRig ball_rig = driven_ball_rig(rig, 0.0);  // d1, d3 do not enter a turn about E2
    ball_rig.moments = Vec3{0.6 * rig.d2, rig.d2, 1.3 * rig.d2};
    const BallForces ball = driven_ball_forces(ball_rig, b);
    const double scale = rig_mass(rig) * (rig.g + rig.r * (1.0 + d[kDiskPhiDot] * d[kDiskPhiDot]));
    EXPECT_NEAR(ball.Omega_dot.y, -disk.phidd, kPlanarForces * (1.0 + std::fabs(disk.phidd)));
    EXPECT_NEAR(ball.Omega_dot.x, 0.0, kPlanarForces * (1.0 + std::fabs(disk.phidd)));
    EXPECT_NEAR(ball.Omega_dot.z, 0.0, kPlanarForces * (1.0 + std::fabs(disk.phidd)));
    EXPECT_NEAR(ball.N, disk.N, kPlanarForces * scale);
    EXPECT_NEAR(ball.f1, disk.f, kPlanarForces * scale);
    EXPECT_NEAR(ball.f2, 0.0, kPlanarForces * scale);
    EXPECT_NEAR(ball.power, disk.power, kPlanarForces * (1.0 + std::fabs(disk.power)));
    worst = std::fmax(worst, std::fabs(ball.N - disk.N) / scale);
    worst = std::fmax(worst, std::fabs(ball.f1 - disk.f) / scale);
  }
  RecordProperty("worst_relative_difference", sci(worst));
}

json rig_config(const char* system, const json& params, const json& initial, double t_max = 20.0) {
  json p = params.is_null() ? json::object() : params;
  if (!p.contains("gamma")) p["gamma"] = 1.0;
  return {{"system", system},
          {"parameters", p},
          {"initial", initial.is_null() ? json::object() : initial},
          {"stop", {{"t_max", t_max}}}};
}

json ball_config(const json& params, const json& initial, double t_max = 20.0) {
  return rig_config("driven:ball", params, initial, t_max);
}

// Every event's time and centre (x, y) and velocity, of either dimension.
struct PathLog {
  std::vector<double> t, x, y, vx, vy;
  template <class V, class S>
  void on_event(double time, V c, const S& s, V) {
    t.push_back(time);
    x.push_back(c.x);
    vx.push_back(s.u.x);
    if constexpr (std::is_same_v<V, Vec3>) {
      y.push_back(c.y);
      vy.push_back(s.u.y);
    } else {
      y.push_back(0.0);
      vy.push_back(0.0);
    }
  }
  template <class T>
  void on_step(T, const T*) {}
  // the centre at time `at`, an event time of the log
  std::size_t at(double when) const { return std::find(t.begin(), t.end(), when) - t.begin(); }
};

TrajectoryResult run(const json& cfg, PathLog* log = nullptr) {
  PathLog none;
  return simulate_trajectory(testing::config_from(cfg).spec, 0, log ? *log : none);
}

TEST(DrivenBall, PlanarBallIsTheDiskRunByRun) {
  const double v = 0.4, phi = 0.3, theta = -1.2, T = 5.0;
  json params = {{"drive", 2.5}};
  const json disk_init = {{"phi", phi}, {"speed", v}, {"theta", theta}};
  // mu_s below the friction the run needs: it slips inside some step
  params["mu_s"] = 0.9 * run(rig_config("driven:disk", params, disk_init, T)).friction_ratio_max;
  json ball_params = params;
  ball_params["rail_twist"] = 0.0;
  PathLog disk_log, ball_log;
  const TrajectoryResult disk =
      run(rig_config("driven:disk", params, disk_init, T), &disk_log);
  const TrajectoryResult ball =
      run(ball_config(ball_params, {{"phi", phi}, {"wy", v}, {"theta", theta}}, T), &ball_log);
  ASSERT_EQ(disk.status, Status::finished);
  ASSERT_EQ(ball.status, Status::finished);
  for (double when : {0.1, 0.2, T}) {
    const std::size_t kd = disk_log.at(when), kb = ball_log.at(when);
    ASSERT_LT(kd, disk_log.t.size()) << when;
    ASSERT_LT(kb, ball_log.t.size()) << when;
    EXPECT_NEAR(ball_log.x[kb], disk_log.x[kd], kPlanarRun * (1.0 + std::fabs(disk_log.x[kd]))) << when;
    EXPECT_NEAR(ball_log.y[kb], 0.0, kPlanarRun) << when;
    EXPECT_NEAR(ball_log.vx[kb], disk_log.vx[kd], kPlanarRun * (1.0 + std::fabs(disk_log.vx[kd]))) << when;
  }
  ASSERT_GT(disk.slip_time, 0.0);
  EXPECT_NEAR(ball.slip_time, disk.slip_time, kPlanarRun * disk.slip_time);
  EXPECT_NEAR(ball.normal_force_min, disk.normal_force_min, kPlanarSampled);
  EXPECT_NEAR(ball.friction_ratio_max, disk.friction_ratio_max, kPlanarSampled);
  RecordProperty("x_at_t_max", sci(ball_log.x.back()));
  RecordProperty("slip_time", sci(ball.slip_time));
}

// The ball's own inertia and centre of mass as the asymmetric tests set them.
const json kAsymmetricBall = {{"d1_ratio", 0.6}, {"d3_ratio", 1.3}, {"cm1", 0.1}, {"cm2", -0.05}, {"cm3", -0.2}};

TEST(DrivenBall, EnergyIsConservedWithoutDrive) {
  json asymmetric = kAsymmetricBall;
  asymmetric["drive"] = 0.0;
  for (const json& params : {json{{"drive", 0.0}}, asymmetric}) {
    const TrajectoryResult r =
        run(ball_config(params, {{"theta", -0.3}, {"lean", 0.4}, {"wx", 0.3}, {"wy", 0.5}, {"wz", -0.7}}));
    ASSERT_EQ(r.status, Status::finished) << params;
    EXPECT_LT(r.energy_error, kEnergyDrift) << params;
    EXPECT_LT(r.gamma_drift, kUnitNorm) << params;
    RecordProperty(params.contains("cm1") ? "energy_error_asymmetric" : "energy_error", sci(r.energy_error));
    RecordProperty(params.contains("cm1") ? "gamma_drift_asymmetric" : "gamma_drift", sci(r.gamma_drift));
  }
}

TEST(DrivenBall, TheConfigSetsTheBallsInertiaAndCentreOfMass) {
  json params = kAsymmetricBall;
  params["gamma"] = 0.5;
  params["m0"] = 2.0;
  params["r"] = 1.5;
  const RunConfig cfg = testing::config_from(ball_config(params, {}));
  const DrivenBallRig b = driven_ball_rig(cfg.spec, scan_point(cfg.spec, 0));
  const double d2 = 2.0 * 0.25 * 1.5 * 1.5;
  EXPECT_DOUBLE_EQ(b.moments.x, 0.6 * d2);
  EXPECT_DOUBLE_EQ(b.moments.y, d2);
  EXPECT_DOUBLE_EQ(b.moments.z, 1.3 * d2);
  EXPECT_DOUBLE_EQ(b.chi0.x, 0.1);
  EXPECT_DOUBLE_EQ(b.chi0.y, -0.05);
  EXPECT_DOUBLE_EQ(b.chi0.z, -0.2);
}

DrivenRig document_rig(double amp) {
  DrivenRig rig;
  rig.m0 = rig.r = rig.d2 = rig.g = 1.0;
  const double rails[4] = {0.9, 1.9 / 3.0, 1.1 / 3.0, 0.1};
  for (int i = 0; i < 4; ++i) {
    rig.m[i] = 1.0;
    rig.rail[i] = rails[i];
  }
  rig.amp = amp;
  rig.t1 = 0.1;
  rig.t2 = 0.2;
  rig.mu_s = 0.5;
  return rig;
}

// Centre of mass of the rig in space at a state (the ball's own at chi_0 from its centre).
Vec3 centre_of_mass(const DrivenBallRig& b, const double* y) {
  const Rotation L = quat_rotation(y + kBallQuat);
  Vec3 body = b.m0 * b.chi0;
  for (int i = 0; i < kDrivenMasses; ++i) body = body + b.m[i] * ball_rail_point(b, i, y).z;
  const Vec3 off = L.apply(body);
  const double M = rig_mass(b);
  return Vec3{y[kBallPos], y[kBallPos + 1], b.r} + (1.0 / M) * off;
}

// The state of an orientation (lean about E1, then phi about -e2) and a body angular velocity,
// every mass at rest at rail angle theta.
void ball_state(double lean, double phi, Vec3 omega, double theta, double* y) {
  std::fill(y, y + kBallStateSize, 0.0);
  const double qy[4] = {std::cos(-0.5 * phi), 0.0, std::sin(-0.5 * phi), 0.0},
               qx[4] = {std::cos(0.5 * lean), std::sin(0.5 * lean), 0.0, 0.0};
  quat_mul(qy, qx, y + kBallQuat);
  y[kBallOmega] = omega.x;
  y[kBallOmega + 1] = omega.y;
  y[kBallOmega + 2] = omega.z;
  for (int i = 0; i < kDrivenMasses; ++i) y[kBallTheta + i] = theta;
}

// One fixed step of the equations, the time carried exactly.
void fixed_step(const DrivenBallSystem& sys, double* y, double h, int k) {
  double yn[kBallStateSize];
  gbs_step<kBallStateSize, 6>(sys, y, h, yn, 1e-13, 1e-13);
  yn[kBallTime] = (k + 1) * h;
  std::copy(yn, yn + kBallStateSize, y);
}

// A path at fixed steps h on [0, 3] (kinks at k = 100, 200), tilted, spinning and driven.
std::vector<std::vector<double>> fixed_step_path(const DrivenBallSystem& sys, double h) {
  double y[kBallStateSize];
  ball_state(0.4, 0.3, Vec3{0.3, -0.7, 0.5}, 0.0, y);
  const double theta0[4] = {-1.2, -1.5, -1.6, -1.5};
  for (int i = 0; i < 4; ++i) y[kBallTheta + i] = theta0[i];
  std::vector<std::vector<double>> path;
  for (int k = 0; k <= 3000; ++k) {
    path.emplace_back(y, y + kBallStateSize);
    fixed_step(sys, y, h, k);
  }
  return path;
}

// The document's rig, and the same with an asymmetric ball whose centre of mass is off its centre.
std::vector<DrivenBallSystem> driven_balls() {
  DrivenBallSystem asymmetric{driven_ball_rig(document_rig(2.0), 0.25 * kPi)};
  asymmetric.rig.moments = Vec3{0.6, 1.0, 1.3};
  asymmetric.rig.chi0 = Vec3{0.1, -0.05, -0.2};
  return {DrivenBallSystem{driven_ball_rig(document_rig(2.0), 0.25 * kPi)}, asymmetric};
}

TEST(DrivenBall, ContactForceIsTheCentreOfMassAcceleration) {
  double worst = 0.0;
  for (const DrivenBallSystem& sys : driven_balls()) {
    const double h = 1e-3, M = rig_mass(sys.rig), g = sys.rig.g;
    const auto path = fixed_step_path(sys, h);
    for (int k = 1; k < 3000; ++k) {
      if ((k >= 99 && k <= 101) || (k >= 199 && k <= 201)) continue;  // stencils across a kink of the drive
      const Vec3 a = centre_of_mass(sys.rig, path[k - 1].data()), b = centre_of_mass(sys.rig, path[k].data()),
                 c = centre_of_mass(sys.rig, path[k + 1].data());
      const Vec3 acc = (1.0 / (h * h)) * (a - 2.0 * b + c);
      const BallForces F = driven_ball_forces(sys.rig, path[k].data());
      EXPECT_NEAR(F.N, M * (g + acc.z), kSecondDifference * M * g) << "t " << k * h;
      EXPECT_NEAR(F.f1, M * acc.x, kSecondDifference * M * g) << "t " << k * h;
      EXPECT_NEAR(F.f2, M * acc.y, kSecondDifference * M * g) << "t " << k * h;
      worst = std::fmax(worst, std::fabs(F.N - M * (g + acc.z)) / (M * g));
      worst = std::fmax(worst, std::fmax(std::fabs(F.f1 - M * acc.x), std::fabs(F.f2 - M * acc.y)) / (M * g));
    }
  }
  RecordProperty("worst_relative_difference", sci(worst));
}

// The same paths' energy: the drive's work is what changes it (not conserved by itself).
TEST(DrivenBall, TheDriveChangesTheEnergyByItsWork) {
  for (const DrivenBallSystem& sys : driven_balls()) {
    const auto path = fixed_step_path(sys, 1e-3);
    const double E0 = driven_ball_energy(sys.rig, path.front().data());
    const double E1 = driven_ball_energy(sys.rig, path.back().data()), W = path.back()[kBallWork];
    const double scale = driven_ball_kinetic(sys.rig, path.back().data()) + rig_mass(sys.rig) * sys.rig.g;
    EXPECT_GT(std::fabs(E1 - E0), kDriveWork * scale);
    EXPECT_LT(std::fabs(E1 - E0 - W), kWorkBalance * scale);
    RecordProperty(sys.rig.chi0.z != 0.0 ? "energy_change_asymmetric" : "energy_change", sci(E1 - E0));
  }
}

// Chaplygin's ball (balanced, d1 != d2 != d3, no masses): the angular momentum about the contact
// point, K = I Omega + m0 s_0 x (Omega x s_0) with s_0 = r Gamma, is constant in space (Lambda K),
// a consequence of (2.20) with the gyroscopic term Omega x I Omega that the integrator does not
// enforce. Without that term, or with a moment on the wrong axis, K turns.
TEST(DrivenBall, ChaplyginBallKeepsItsAngularMomentumAboutTheContact) {
  DrivenRig rig = document_rig(0.0);
  for (double& m : rig.m) m = 0.0;
  DrivenBallSystem sys{driven_ball_rig(rig, 0.25 * kPi)};
  sys.rig.moments = Vec3{0.6, 1.0, 1.3};
  const auto momentum = [&](const double* y) {
    const Rotation L = quat_rotation(y + kBallQuat);
    const Vec3 W{y[kBallOmega], y[kBallOmega + 1], y[kBallOmega + 2]}, s0 = rig.r * L.gamma();
    return L.apply(ball_moment_times(sys.rig, W) + rig.m0 * cross(s0, cross(W, s0)));
  };
  double y[kBallStateSize];
  ball_state(0.4, 0.3, Vec3{0.3, -0.7, 0.5}, 0.0, y);
  const Vec3 K0 = momentum(y);
  const double h = 1e-3;
  double worst = 0.0, turned = 0.0;  // the body turns: K in the body frame is not constant
  const Vec3 W0{y[kBallOmega], y[kBallOmega + 1], y[kBallOmega + 2]};
  for (int k = 0; k < 10000; ++k) {
    fixed_step(sys, y, h, k);
    const Vec3 dK = momentum(y) - K0;
    worst = std::fmax(worst, std::sqrt(dot(dK, dK)) / std::sqrt(dot(K0, K0)));
    const Vec3 dW = Vec3{y[kBallOmega], y[kBallOmega + 1], y[kBallOmega + 2]} - W0;
    turned = std::fmax(turned, std::sqrt(dot(dW, dW)));
  }
  EXPECT_LT(worst, kChaplyginMomentum);
  EXPECT_GT(turned, 0.1);
  RecordProperty("worst_relative_change", sci(worst));
}

// A bottom-heavy ball (centre of mass e below the geometric centre, no masses) rocking about a
// principal axis E_k through the upright rest state: the rolling pendulum, with frequency
// w^2 = m0 g e / (d_k + m0 (r - e)^2), the moment about the centre of mass plus m0 times the
// squared distance from the contact point. About E2 with d2 and about E1 with d1 = 0.7 d2.
TEST(DrivenBall, BottomHeavyBallRocksAtTheRollingPendulumFrequency) {
  DrivenRig rig = document_rig(0.0);
  for (double& m : rig.m) m = 0.0;
  rig.d2 = 0.4;
  const double e = 0.3;
  DrivenBallSystem sys{driven_ball_rig(rig, 0.25 * kPi)};
  sys.rig.moments = Vec3{0.7 * rig.d2, rig.d2, 1.2 * rig.d2};
  sys.rig.chi0 = Vec3{0.0, 0.0, -e};
  for (int axis : {0, 1}) {
    const double d = axis == 0 ? sys.rig.moments.x : sys.rig.moments.y;
    const double w = std::sqrt(rig.m0 * rig.g * e / (d + rig.m0 * (rig.r - e) * (rig.r - e)));
    double y[kBallStateSize];
    ball_state(0.0, 0.0, axis == 0 ? Vec3{1e-4, 0.0, 0.0} : Vec3{0.0, 1e-4, 0.0}, 0.0, y);
    // upward zero crossings of the rocking rate after the start, by linear interpolation
    std::vector<double> crossings;
    const double h = 1e-2;
    double before = y[kBallOmega + axis];
    for (int k = 0; crossings.size() < 4; ++k) {
      fixed_step(sys, y, h, k);
      const double now = y[kBallOmega + axis];
      if (before < 0.0 && now >= 0.0) crossings.push_back((k + before / (before - now)) * h);
      before = now;
      ASSERT_LT(k, 100000);
    }
    const double period = (crossings[3] - crossings[0]) / 3.0, expected = 2.0 * kPi / w;
    EXPECT_NEAR(period, expected, kRockingPeriod * expected) << "axis E" << axis + 1;
    RecordProperty(axis == 0 ? "period_about_E1" : "period_about_E2", sci(period));
    RecordProperty(axis == 0 ? "expected_about_E1" : "expected_about_E2", sci(expected));
  }
}

TEST(DrivenBall, WorkEnergyBalanceWithDrive) {
  const TrajectoryResult r = run(ball_config({{"drive", 3.0}}, {{"lean", 0.2}, {"wy", 0.5}, {"wz", 0.4}}));
  ASSERT_EQ(r.status, Status::finished);
  EXPECT_LT(r.energy_error, kWorkBalance);
  RecordProperty("energy_error", sci(r.energy_error));
}

// The mirror in the e1-e3 plane takes the rails of twist tau to those of -tau, the orientation
// (phi, lean, heading) to (phi, -lean, -heading) and Omega to (-wx, wy, -wz): the centre's path
// (x, y) to (x, -y), N and |f| unchanged. Every state component only changes sign, so the two
// runs take the same steps.
TEST(DrivenBall, MirrorSymmetry) {
  const json init = {{"phi", 0.2}, {"lean", 0.3}, {"heading", 0.7}, {"wx", 0.4}, {"wy", -0.6}, {"wz", 0.9},
                     {"theta", -1.3}};
  json mirror = init;
  for (const char* k : {"lean", "heading", "wx", "wz"}) mirror[k] = -init[k].get<double>();
  PathLog a, b;
  const TrajectoryResult ra = run(ball_config({{"drive", 2.0}, {"rail_twist", 0.6}}, init, 10.0), &a);
  const TrajectoryResult rb = run(ball_config({{"drive", 2.0}, {"rail_twist", -0.6}}, mirror, 10.0), &b);
  ASSERT_EQ(ra.status, Status::finished);
  ASSERT_EQ(a.t.size(), b.t.size());
  const double scale = 1.0 + std::fabs(a.x.back()) + std::fabs(a.y.back());
  EXPECT_NEAR(b.x.back(), a.x.back(), kMirror * scale);
  EXPECT_NEAR(b.y.back(), -a.y.back(), kMirror * scale);
  EXPECT_GT(std::fabs(a.y.back()), 1e-3);  // the path leaves the e1-e3 plane: the mirror is a test
  EXPECT_NEAR(rb.normal_force_min, ra.normal_force_min, kMirror * std::fabs(ra.normal_force_min));
  EXPECT_NEAR(rb.friction_ratio_max, ra.friction_ratio_max, kMirror * ra.friction_ratio_max);
}

// Without masses (or with them at the centre) the ball keeps its velocity r (wy, -wx) from the
// upright start, and the plane pushes with M g and no friction.
TEST(DrivenBall, WithoutMassesItRollsStraightOn) {
  for (const json& params : {json{{"m1", 0.0}, {"m2", 0.0}, {"m3", 0.0}, {"m4", 0.0}},
                             json{{"r1", 0.0}, {"r2", 0.0}, {"r3", 0.0}, {"r4", 0.0}}}) {
    PathLog log;
    const double wx = 0.3, wy = 0.7, wz = -0.5, r = 1.0;
    const TrajectoryResult res = run(ball_config(params, {{"wx", wx}, {"wy", wy}, {"wz", wz}}), &log);
    ASSERT_EQ(res.status, Status::finished);
    for (std::size_t k = 0; k < log.t.size(); ++k) {
      EXPECT_NEAR(log.x[k], r * wy * log.t[k], kClosedForm * (1.0 + log.t[k]));
      EXPECT_NEAR(log.y[k], -r * wx * log.t[k], kClosedForm * (1.0 + log.t[k]));
    }
    EXPECT_NEAR(res.friction_ratio_max, 0.0, kClosedForm);
    EXPECT_TRUE(std::isnan(res.slip_time));
    EXPECT_TRUE(std::isnan(res.detach_time));
  }
}

TEST(DrivenBall, StepsLandOnTheDrivesKinks) {
  PathLog log;
  run(ball_config({{"drive_t1", 0.13}, {"drive_t2", 0.37}}, {{"wy", 1.0}, {"wz", 0.5}}, 1.0), &log);
  EXPECT_LT(log.at(0.13), log.t.size());
  EXPECT_LT(log.at(0.37), log.t.size());
  EXPECT_EQ(log.t.back(), 1.0);
}

TEST(DrivenBall, ConfigChecks) {
  const auto message = [](const json& cfg) {
    try {
      testing::config_from(cfg);
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message(ball_config({{"r2", 1.0}}, {})).find("r2"), std::string::npos);
  EXPECT_NE(message(ball_config({{"drive_t1", 0.3}, {"drive_t2", 0.2}}, {})).find("drive_t2"), std::string::npos);
  EXPECT_NE(message(ball_config({{"m1", -1.0}}, {})).find("m1"), std::string::npos);
  EXPECT_NE(message(ball_config({}, {{"speed", 1.0}})).find("speed"), std::string::npos);  // the disk's key
  EXPECT_NE(message(ball_config({{"rail_twist", "pi"}}, {})).find("rail_twist"), std::string::npos);
  EXPECT_NE(message(ball_config({{"d1_ratio", 2.5}}, {})).find("d1_ratio"), std::string::npos);  // > 1 + d3
  EXPECT_NE(message(ball_config({{"d1_ratio", 0.3}, {"d3_ratio", 0.5}}, {})).find("triangle"), std::string::npos);
  EXPECT_NE(message(ball_config({{"d3_ratio", 0.0}}, {})).find("d3_ratio"), std::string::npos);
  EXPECT_NE(message(ball_config({{"cm2", 0.8}, {"cm3", -0.7}}, {})).find("cm1, cm2, cm3"), std::string::npos);
  EXPECT_EQ(message(ball_config(kAsymmetricBall, {})), "no error");
  json no_t_max = ball_config({}, {});
  no_t_max["stop"] = {{"max_events", 10}};
  EXPECT_THROW(testing::config_from(no_t_max), ConfigError);
}

}  // namespace
}  // namespace skipstone
