// driven:disk (the rolling robot's disk moved by point masses on rails): its equations (4.1),
// (4.3), (4.4) against the ball's 3D equations (2.20), (2.10), (2.11) written out here in the
// body frame; energy conservation without drive and the work-energy balance with it; the normal
// force and the friction against second differences of the centre of mass along an integrated
// path; steps that land on the drive's kinks; the closed forms of a disk without masses (or with
// them at the centre); the document's example; config checks.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <random>
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

constexpr double kPlanarAgreement = 1e-12;   // (4.1)/(4.3)/(4.4) vs (2.20)/(2.10)/(2.11), relative
constexpr double kEnergyDrift = 1e-11;       // no drive, t in [0, 20], default tolerances
constexpr double kWorkBalance = 1e-10;       // with the drive: |E - E0 - W| relative
constexpr double kSecondDifference = 2e-6;   // N, f vs central second differences (h = 1e-3), relative to M g
constexpr double kClosedForm = 1e-12;        // no masses: constant speed, N = M g, f = 0
constexpr double kEventTime = 1e-9;          // detach_time located in its step, relative

// ---- the ball's equations in the body frame, any masses (Section 2) ----
struct V3 {
  double x, y, z;
};
V3 operator+(V3 a, V3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
V3 operator*(double k, V3 a) { return {k * a.x, k * a.y, k * a.z}; }
V3 cross3(V3 a, V3 b) { return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x}; }
double dot3(V3 a, V3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

struct BallMass {
  double m;
  V3 chi, chid, chidd;  // body frame, from the geometric centre
};

struct BallForces {
  V3 Omega_dot;
  double N;
  V3 friction;  // spatial
};

// Omega' (2.20), N (2.10) and the friction (2.11) without external force; Lambda's columns are
// the body axes in space.
BallForces ball_forces(const std::vector<BallMass>& ms, V3 I, double r, double g, V3 Gamma, V3 Omega, const V3 Lambda[3]) {
  // [sum m_i hat(s_i)^2 - I] Omega' = Omega x I Omega + sum m_i s_i x {g Gamma + Omega x (Omega x chi_i + 2 chi_i') + chi_i''}
  double A[3][3] = {{-I.x, 0, 0}, {0, -I.y, 0}, {0, 0, -I.z}};
  const V3 IO = {I.x * Omega.x, I.y * Omega.y, I.z * Omega.z};
  V3 b = cross3(Omega, IO);
  for (const BallMass& q : ms) {
    const V3 s = r * Gamma + q.chi;
    const double ss = dot3(s, s), sv[3] = {s.x, s.y, s.z};
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) A[i][j] += q.m * (sv[i] * sv[j] - (i == j ? ss : 0.0));
    b = b + q.m * cross3(s, g * Gamma + cross3(Omega, cross3(Omega, q.chi) + 2.0 * q.chid) + q.chidd);
  }
  // Cramer's rule
  const auto det = [](double M[3][3]) {
    return M[0][0] * (M[1][1] * M[2][2] - M[1][2] * M[2][1]) - M[0][1] * (M[1][0] * M[2][2] - M[1][2] * M[2][0]) +
           M[0][2] * (M[1][0] * M[2][1] - M[1][1] * M[2][0]);
  };
  const double D = det(A), bv[3] = {b.x, b.y, b.z};
  double x[3];
  for (int k = 0; k < 3; ++k) {
    double C[3][3];
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) C[i][j] = j == k ? bv[i] : A[i][j];
    x[k] = det(C) / D;
  }
  BallForces out;
  out.Omega_dot = {x[0], x[1], x[2]};
  V3 sum = {0, 0, 0};
  double M = 0.0;
  for (const BallMass& q : ms) {
    const V3 s = r * Gamma + q.chi;
    sum = sum + q.m * (cross3(out.Omega_dot, s) + cross3(Omega, cross3(Omega, q.chi) + 2.0 * q.chid) + q.chidd);
    M += q.m;
  }
  out.N = M * g + dot3(sum, Gamma);
  const V3 spatial = sum.x * Lambda[0] + sum.y * Lambda[1] + sum.z * Lambda[2];
  out.friction = {spatial.x, spatial.y, 0.0};
  return out;
}

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

TEST(DrivenDisk, PlanarEquationsAreTheBallsEquations) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> U(-3.0, 3.0);
  double worst = 0.0;
  for (int trial = 0; trial < 200; ++trial) {
    const DrivenRig rig = random_rig(rng);
    double y[kDiskStateSize];
    for (double& v : y) v = U(rng);
    y[kDiskTime] = 0.1 * (U(rng) + 3.0);  // on every piece of the drive
    const DiskForces disk = driven_disk_forces(rig, y);
    const double phi = y[kDiskPhi], phid = y[kDiskPhiDot];
    std::vector<BallMass> ms = {{rig.m0, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}}};
    for (int i = 0; i < kDrivenMasses; ++i) {
      const double th = y[kDiskTheta + i], w = y[kDiskThetaDot + i], u = drive_of(rig, i, y[kDiskTime]);
      const V3 z = rig.rail[i] * V3{std::cos(th), 0, std::sin(th)}, dz = rig.rail[i] * V3{-std::sin(th), 0, std::cos(th)};
      ms.push_back({rig.m[i], z, w * dz, (w * w) * (-1.0 * z) + u * dz});
    }
    const V3 Gamma = {std::sin(phi), 0, std::cos(phi)}, Omega = {0, -phid, 0};
    const V3 Lambda[3] = {{std::cos(phi), 0, std::sin(phi)}, {0, 1, 0}, {-std::sin(phi), 0, std::cos(phi)}};
    const V3 I = {0.5 + 0.25 * (U(rng) + 3.0), rig.d2, 0.5 + 0.25 * (U(rng) + 3.0)};  // d1, d3 drop out
    const BallForces ball = ball_forces(ms, I, rig.r, rig.g, Gamma, Omega, Lambda);
    const double scale = rig_mass(rig) * (rig.g + rig.r * (1.0 + phid * phid));
    EXPECT_NEAR(ball.Omega_dot.y, -disk.phidd, kPlanarAgreement * (1.0 + std::fabs(disk.phidd)));
    EXPECT_NEAR(ball.Omega_dot.x, 0.0, kPlanarAgreement);
    EXPECT_NEAR(ball.Omega_dot.z, 0.0, kPlanarAgreement);
    EXPECT_NEAR(ball.N, disk.N, kPlanarAgreement * scale);
    EXPECT_NEAR(ball.friction.x, disk.f, kPlanarAgreement * scale);
    EXPECT_NEAR(ball.friction.y, 0.0, kPlanarAgreement * scale);
    worst = std::fmax(worst, std::fabs(ball.N - disk.N) / scale);
    worst = std::fmax(worst, std::fabs(ball.friction.x - disk.f) / scale);
  }
  RecordProperty("worst_relative_difference", sci(worst));
}

json disk_config(const json& params, const json& initial, double t_max = 20.0) {
  json p = params.is_null() ? json::object() : params;
  if (!p.contains("gamma")) p["gamma"] = 1.0;
  return {{"system", "driven:disk"},
          {"parameters", p},
          {"initial", initial.is_null() ? json::object() : initial},
          {"stop", {{"t_max", t_max}}}};
}

struct StepLog {
  std::vector<double> t, x, speed;
  template <class V, class S>
  void on_event(double time, V x_, const S& s, V) {
    if constexpr (std::is_same_v<V, Vec2>) {
      t.push_back(time);
      x.push_back(x_.x);
      speed.push_back(s.u.x);
    }
  }
  template <class T>
  void on_step(T, const T*) {}
};

TrajectoryResult run_disk(const json& cfg, StepLog* log = nullptr) {
  StepLog none;
  return simulate_trajectory(testing::config_from(cfg).spec, 0, log ? *log : none);
}

TEST(DrivenDisk, EnergyIsConservedWithoutDrive) {
  // masses fixed in the disk, off balance: the disk rocks and rolls
  const TrajectoryResult r = run_disk(disk_config({{"drive", 0.0}}, {{"theta", -0.3}, {"speed", 0.4}}));
  ASSERT_EQ(r.status, Status::finished);
  EXPECT_LT(r.energy_error, kEnergyDrift);
  RecordProperty("energy_error", sci(r.energy_error));
}

TEST(DrivenDisk, WorkEnergyBalanceWithDrive) {
  const TrajectoryResult r = run_disk(disk_config({{"drive", 3.0}}, {{"speed", 0.5}}));
  ASSERT_EQ(r.status, Status::finished);
  EXPECT_LT(r.energy_error, kWorkBalance);
  RecordProperty("energy_error", sci(r.energy_error));
}

TEST(DrivenDisk, StepsLandOnTheDrivesKinks) {
  StepLog log;
  run_disk(disk_config({{"drive_t1", 0.13}, {"drive_t2", 0.37}}, {{"speed", 1.0}}, 1.0), &log);
  const auto has = [&](double t) { return std::find(log.t.begin(), log.t.end(), t) != log.t.end(); };
  EXPECT_TRUE(has(0.13));
  EXPECT_TRUE(has(0.37));
  EXPECT_EQ(log.t.back(), 1.0);
}

// Centre of mass of the rig at a state (e1, e3 components), the centre at -r (phi - phi0).
void centre_of_mass(const DrivenRig& rig, const double* y, double phi0, double& X, double& Z) {
  const double phi = y[kDiskPhi], c = std::cos(phi), s = std::sin(phi), M = rig_mass(rig);
  X = rig.m0 * (-rig.r * (phi - phi0));
  Z = rig.m0 * rig.r;
  for (int i = 0; i < kDrivenMasses; ++i) {
    const double th = y[kDiskTheta + i], z1 = rig.rail[i] * std::cos(th), z3 = rig.rail[i] * std::sin(th);
    X += rig.m[i] * (-rig.r * (phi - phi0) + c * z1 - s * z3);
    Z += rig.m[i] * (rig.r + s * z1 + c * z3);
  }
  X /= M;
  Z /= M;
}

TEST(DrivenDisk, ContactForceIsTheCentreOfMassAcceleration) {
  DrivenRig rig;
  rig.m0 = 1.0;
  rig.r = 1.0;
  rig.d2 = 1.0;
  rig.g = 1.0;
  const double rails[4] = {0.9, 1.9 / 3.0, 1.1 / 3.0, 0.1};
  for (int i = 0; i < 4; ++i) {
    rig.m[i] = 1.0;
    rig.rail[i] = rails[i];
  }
  rig.amp = 2.0;
  rig.t1 = 0.1;
  rig.t2 = 0.2;
  rig.mu_s = 0.5;
  const DrivenDiskSystem sys{rig};
  const double h = 1e-3;
  double y[kDiskStateSize] = {-1.2, -1.5, -1.6, -1.5, 0, 0, 0, 0, 0.3, -0.7, 0.0, 0.0};
  std::vector<std::vector<double>> path;
  for (int k = 0; k <= 3000; ++k) {  // t = k h on [0, 3]: kinks at k = 100 and 200
    path.emplace_back(y, y + kDiskStateSize);
    double yn[kDiskStateSize];
    gbs_step<kDiskStateSize, 6>(sys, y, h, yn, 1e-13, 1e-13);
    yn[kDiskTime] = (k + 1) * h;
    std::copy(yn, yn + kDiskStateSize, y);
  }
  const double M = rig_mass(rig), phi0 = path[0][kDiskPhi];
  double worst = 0.0;
  for (int k = 1; k < 3000; ++k) {
    if (k >= 99 && k <= 101) continue;  // stencils across a kink of the drive
    if (k >= 199 && k <= 201) continue;
    double X[3], Z[3];
    for (int j = 0; j < 3; ++j) centre_of_mass(rig, path[k - 1 + j].data(), phi0, X[j], Z[j]);
    const double ax = (X[0] - 2 * X[1] + X[2]) / (h * h), az = (Z[0] - 2 * Z[1] + Z[2]) / (h * h);
    const DiskForces F = driven_disk_forces(rig, path[k].data());
    EXPECT_NEAR(F.N, M * (rig.g + az), kSecondDifference * M * rig.g) << "t " << k * h;
    EXPECT_NEAR(F.f, M * ax, kSecondDifference * M * rig.g) << "t " << k * h;
    worst = std::fmax(worst, std::fmax(std::fabs(F.N - M * (rig.g + az)), std::fabs(F.f - M * ax)) / (M * rig.g));
  }
  RecordProperty("worst_relative_difference", sci(worst));
}

TEST(DrivenDisk, WithoutMassesItRollsAtConstantSpeed) {
  for (const json& params : {json{{"m1", 0.0}, {"m2", 0.0}, {"m3", 0.0}, {"m4", 0.0}},
                             json{{"r1", 0.0}, {"r2", 0.0}, {"r3", 0.0}, {"r4", 0.0}}}) {
    StepLog log;
    const double v = 0.7, g = 1.0;
    const TrajectoryResult r = run_disk(disk_config(params, {{"speed", v}, {"phi", 0.4}}), &log);
    ASSERT_EQ(r.status, Status::finished);
    for (std::size_t k = 0; k < log.t.size(); ++k) {
      EXPECT_NEAR(log.x[k], v * log.t[k], kClosedForm * (1.0 + log.t[k]));
      EXPECT_NEAR(log.speed[k], v, kClosedForm);
    }
    EXPECT_NEAR(r.normal_force_min, g, kClosedForm);
    EXPECT_NEAR(r.friction_ratio_max, 0.0, kClosedForm);
    EXPECT_TRUE(std::isnan(r.detach_time));
    EXPECT_TRUE(std::isnan(r.slip_time));
  }
}

// The document's example (Section 5) from rest with the masses below the centre: the contact
// observables are finite, the disk never detaches, and with mu_s below the friction it needs
// it slips.
TEST(DrivenDisk, DocumentExampleNeedsItsFriction) {
  const TrajectoryResult r = run_disk(disk_config({}, {}));
  ASSERT_EQ(r.status, Status::finished);
  EXPECT_GT(r.normal_force_min, 0.0);
  EXPECT_TRUE(std::isnan(r.detach_time));
  ASSERT_TRUE(std::isfinite(r.friction_ratio_max));
  RecordProperty("friction_ratio_max", sci(r.friction_ratio_max));
  RecordProperty("normal_force_min", sci(r.normal_force_min));
  const TrajectoryResult enough = run_disk(disk_config({{"mu_s", 1.01 * r.friction_ratio_max}}, {}));
  EXPECT_TRUE(std::isnan(enough.slip_time));
  const TrajectoryResult less = run_disk(disk_config({{"mu_s", 0.99 * r.friction_ratio_max}}, {}));
  EXPECT_TRUE(std::isfinite(less.slip_time));
}

// detach_time is located inside its step: a run stopped just before it never detaches, one
// stopped just after finds the same time. Past it the floor would have to pull, which no finite
// friction coefficient makes up for: friction_ratio_max is +inf, finite before.
TEST(DrivenDisk, HardDriveDetachesAtTheLocatedTime) {
  const json params = {{"drive", 40.0}};
  const TrajectoryResult r = run_disk(disk_config(params, {}, 2.0));
  ASSERT_TRUE(std::isfinite(r.detach_time));
  EXPECT_LT(r.normal_force_min, 0.0);
  EXPECT_GT(r.detach_time, 0.0);
  EXPECT_EQ(r.friction_ratio_max, INFINITY);
  const TrajectoryResult before = run_disk(disk_config(params, {}, r.detach_time * (1.0 - kEventTime)));
  EXPECT_TRUE(std::isnan(before.detach_time));
  EXPECT_GT(before.normal_force_min, 0.0);
  EXPECT_TRUE(std::isfinite(before.friction_ratio_max));
  const TrajectoryResult after = run_disk(disk_config(params, {}, r.detach_time * (1.0 + kEventTime)));
  EXPECT_NEAR(after.detach_time, r.detach_time, kEventTime * r.detach_time);
  RecordProperty("detach_time", sci(r.detach_time));
}

TEST(DrivenDisk, ConfigChecks) {
  EXPECT_THROW(testing::config_from(disk_config({{"r1", 1.0}}, {})), ConfigError);
  EXPECT_THROW(testing::config_from(disk_config({{"drive_t1", 0.3}, {"drive_t2", 0.2}}, {})), ConfigError);
  EXPECT_THROW(testing::config_from(disk_config({{"m1", -1.0}}, {})), ConfigError);
  json no_t_max = disk_config({}, {});
  no_t_max["stop"] = {{"max_events", 10}};
  EXPECT_THROW(testing::config_from(no_t_max), ConfigError);
}

}  // namespace
}  // namespace skipstone
