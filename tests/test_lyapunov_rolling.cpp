// The Lyapunov exponent of the rolling models (include/skipstone/tangent/roll_lyapunov.hpp):
// the variational equations' Jacobian-vector product against central differences of the
// right-hand side; the tangent map over one edge passage and over a run of several against
// central differences of the integrated trajectory, and that it fails without the saltation
// terms; the exponent against Benettin's two-trajectory estimate on the same trajectory; the
// integrable roll4:disc without spin coupling (eta = 0: exponent ~ log(t)/t); the mirror
// x4 -> -x4 (a start on N^- gives the exponent of the mirrored start on N^+); the other
// observables bit-identical with and without the exponent; the config errors.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "backends.hpp"
#include "config_error.hpp"
#include "skipstone/simulate.hpp"
#include "skipstone/tangent/roll_lyapunov.hpp"
#include "test_support.hpp"

namespace {

using namespace skipstone;
using nlohmann::json;

constexpr int kP = 9;  // roll4 plate coordinates (tangent/roll_junction.hpp)

// Central differences of step 1e-7 of the rhs (rational in y): truncation ~1e-14, rounding ~1e-9.
constexpr double kRhsJacobianTolerance = 1e-7;
// The tangent map against central differences of step 1e-6 of the integrated trajectory (rtol =
// atol = 1e-12): the trajectory's step sizes move with the start at the integrator's tolerance.
constexpr double kJacobianTolerance = 1e-5;
// Without the saltation terms the map is wrong by O(1).
constexpr double kSaltationEffect = 1e-2;
// Benettin's two-trajectory estimate (eps = 1e-8, renormalised every passage) against the
// tangent exponent over the same time: O(eps) apart.
constexpr double kTwoTrajectoryTolerance = 1e-4;
// The mirror start on N^-: the same exponent up to the round-off of the mirrored arithmetic.
constexpr double kMirrorTolerance = 1e-9;

const DiscRollModel kModel{1.0, 0.1, 0.5, 0.3};  // R, r, eta, G
const PlateState kStart{1, {0.3, -0.2}, {-1.1, 0.7}, 0.4, 0.0, 0.61, -0.3, 0.25};

RollOptions options(double t_max, std::uint64_t max_events = UINT64_MAX) {
  return {t_max, max_events, 1e-6, 1.0, 1e-12, 1e-12, UINT64_MAX};
}

void to_plate(const PlateState& s, double* c) {
  const double v[kP] = {s.p.x, s.p.y, s.u.x, s.u.y, s.A12, s.u3, s.A13, s.A23, s.z};
  for (int i = 0; i < kP; ++i) c[i] = v[i];
}
PlateState from_plate(int sheet, const double* c) {
  return {sheet, {c[0], c[1]}, {c[2], c[3]}, c[5], c[8], c[4], c[6], c[7]};
}

RollModel roll_model(const DiscRollModel& m) { return {m.r, m.eta, m.G}; }
DiscWall<double> wall(const DiscRollModel& m) { return {m.R, 0.0, false}; }

// The plain run's plate state at t_max (which must fall on a flat part).
PlateState end_state(const DiscRollModel& m, const PlateState& s0, double t_max) {
  DiscardSink sink;
  RollEnd end;
  run_roll4_disc(m, s0, options(t_max), sink, &end);
  EXPECT_TRUE(end.on_plate);
  return end.state;
}

// The middle of the flight after the k-th edge passage (k >= 1), so that a run to it ends on
// a flat part with k passages made.
double mid_flight_after(const DiscRollModel& m, const PlateState& s0, std::uint64_t k) {
  DiscardSink sink;
  RollEnd end;
  const TrajectoryResult r = run_roll4_disc(m, s0, options(INFINITY, k), sink, &end);
  EXPECT_EQ(r.events, k);
  return r.t_end + 0.5 * time_to_rim(end.state.p, end.state.u, m.R, true);
}

// max over the columns |J_tangent e_i - J_fd e_i| / max |J_fd e_i| of the map from s0 to t_max.
double jacobian_mismatch(const DiscRollModel& m, const PlateState& s0, double t_max, bool saltation) {
  constexpr double h = 1e-6;
  double c0[kP], worst = 0.0, scale = 0.0;
  to_plate(s0, c0);
  for (int i = 0; i < kP; ++i) {
    double cp[kP], cm[kP], fp[kP], fm[kP], e[kP] = {};
    e[i] = 1.0;
    for (int k = 0; k < kP; ++k) cp[k] = cm[k] = c0[k];
    cp[i] += h;
    cm[i] -= h;
    to_plate(end_state(m, from_plate(s0.sheet, cp), t_max), fp);
    to_plate(end_state(m, from_plate(s0.sheet, cm), t_max), fm);
    RollLyapunovRun<DiscWall<double>> lr;
    lr.renormalise = false;
    lr.saltation = saltation;
    DiscardSink sink;
    lr.go(wall(m), roll_model(m), s0, options(t_max), sink, e);
    EXPECT_FALSE(lr.edge_coords);
    for (int k = 0; k < kP; ++k) {
      const double fd = (fp[k] - fm[k]) / (2.0 * h);
      worst = std::fmax(worst, std::fabs(lr.d[k] - fd));
      scale = std::fmax(scale, std::fabs(fd));
    }
  }
  return worst / scale;
}

TEST(RollingTangent, JacobianVectorProductMatchesFiniteDifferencesOfTheRhs) {
  const DiscRimSystem sys{-1.0, 0.1, 0.5, 0.3, 1.0, 1.0};
  const TangentRimSystem<DiscRimSystem> tsys{sys};
  const double phi = 0.7;
  const double y[10] = {0.3, -0.5, 0.4, std::cos(phi), std::sin(phi), 0.2, 0.25, -0.6, 0.35, 0.1};
  double z[20], out[20];
  for (int i = 0; i < 10; ++i) z[i] = y[i];
  for (int j = 0; j < 10; ++j) {
    for (int i = 0; i < 10; ++i) z[10 + i] = i == j ? 1.0 : 0.0;
    tsys.rhs(z, out);
    constexpr double h = 1e-7;
    double yp[10], ym[10], fp[10], fm[10];
    for (int i = 0; i < 10; ++i) yp[i] = ym[i] = y[i];
    yp[j] += h;
    ym[j] -= h;
    sys.rhs(yp, fp);
    sys.rhs(ym, fm);
    for (int i = 0; i < 10; ++i) EXPECT_NEAR(out[10 + i], (fp[i] - fm[i]) / (2.0 * h), kRhsJacobianTolerance) << i << j;
  }
}

TEST(RollingTangent, OnePassageMatchesFiniteDifferencesOfTheTrajectory) {
  const double t = mid_flight_after(kModel, kStart, 1);
  const double with = jacobian_mismatch(kModel, kStart, t, true), without = jacobian_mismatch(kModel, kStart, t, false);
  std::cout << "one passage (t = " << t << "): relative mismatch " << with << ", without saltation " << without << "\n";
  EXPECT_LT(with, kJacobianTolerance);
  EXPECT_GT(without, kSaltationEffect);
}

TEST(RollingTangent, ARunOfPassagesMatchesFiniteDifferencesOfTheTrajectory) {
  for (double G : {0.0, 0.3}) {
    DiscRollModel m = kModel;
    m.G = G;
    const double t = mid_flight_after(m, kStart, 6);
    const double with = jacobian_mismatch(m, kStart, t, true), without = jacobian_mismatch(m, kStart, t, false);
    std::cout << "six passages, G " << G << " (t = " << t << "): relative mismatch " << with << ", without saltation "
              << without << "\n";
    EXPECT_LT(with, kJacobianTolerance) << G;
    EXPECT_GT(without, kSaltationEffect) << G;
  }
}

// The exponent of the run from s0 to t_max (start vector d0, or the uniform one).
TrajectoryResult lyapunov_run(const DiscRollModel& m, const PlateState& s0, double t_max, const double* d0 = nullptr) {
  RollLyapunovRun<DiscWall<double>> lr;
  DiscardSink sink;
  return lr.go(wall(m), roll_model(m), s0, options(t_max), sink, d0);
}

TEST(RollingLyapunov, AgreesWithTwoNeighbouringTrajectories) {
  constexpr double kEps = 1e-8;
  constexpr std::uint64_t kPassages = 40;
  double d[kP], z[kP];
  for (double& v : d) v = 1.0 / 3.0;
  PlateState s = kStart;
  double log_sum = 0.0, t = 0.0;
  for (std::uint64_t k = 0; k < kPassages; ++k) {
    const double dt = mid_flight_after(kModel, s, 1);
    to_plate(s, z);
    double zp[kP], fa[kP], fb[kP];
    for (int i = 0; i < kP; ++i) zp[i] = z[i] + kEps * d[i];
    const PlateState a = end_state(kModel, s, dt);
    to_plate(a, fa);
    to_plate(end_state(kModel, from_plate(s.sheet, zp), dt), fb);
    double n2 = 0.0;
    for (int i = 0; i < kP; ++i) {
      d[i] = (fb[i] - fa[i]) / kEps;
      n2 += d[i] * d[i];
    }
    log_sum += 0.5 * std::log(n2);
    for (double& v : d) v /= std::sqrt(n2);
    s = a;
    t += dt;
  }
  const TrajectoryResult r = lyapunov_run(kModel, kStart, t);
  EXPECT_EQ(r.events, kPassages);
  EXPECT_NEAR(r.lyapunov, log_sum / t, kTwoTrajectoryTolerance);
  std::cout << "roll4:disc (R 1, r 0.1, eta 0.5, G 0.3): lyapunov " << r.lyapunov << " over t = " << t
            << ", two trajectories " << log_sum / t << "\n";
}

// eta = 0 decouples the spin: the passages are those of a ball rolling round a fixed rim and the
// disc's rotation symmetry makes the flat-part map integrable; the exponent decays like
// log(t)/t (the shear between neighbouring energies).
TEST(RollingLyapunov, IntegrableDiscDecaysLikeLogTOverT) {
  DiscRollModel m = kModel;
  m.eta = 0.0;
  m.G = 0.0;
  double prev = INFINITY;
  for (double t : {1e2, 1e3, 1e4}) {
    const TrajectoryResult r = lyapunov_run(m, kStart, t);
    const double ratio = r.lyapunov * t / std::log(t);
    std::cout << "eta = 0: t " << t << " lyapunov " << r.lyapunov << " lyapunov t / log t " << ratio << "\n";
    EXPECT_LT(ratio, 3.0);
    EXPECT_LT(r.lyapunov, prev);
    prev = r.lyapunov;
  }
}

TEST(RollingLyapunov, TheMirrorStartOnTheOtherFaceHasTheSameExponent) {
  for (double eta : {0.0, 0.5}) {
    DiscRollModel m = kModel;
    m.eta = eta;
    PlateState minus = kStart;
    minus.sheet = -1;
    const TrajectoryResult a = lyapunov_run(m, kStart, 200.0), b = lyapunov_run(m, minus, 200.0);
    EXPECT_NEAR(a.lyapunov, b.lyapunov, kMirrorTolerance * std::fabs(a.lyapunov)) << eta;
    EXPECT_EQ(a.events, b.events);
  }
}

json disc_config(const json& observables) {
  json j = json::parse(R"({"system": "roll4:disc",
    "parameters": {"R": 1.0, "r": 0.1, "eta": 0.5, "g_effective": 0.3},
    "initial": {"start": "plate", "x2": -0.2, "z": 0.0, "v1": -1.1, "v2": 0.7, "v3": 0.4,
                "S12": 0.61, "S13": -0.3, "S23": 0.25},
    "scan": {"type": "grid", "axes": [{"param": "x1", "min": -0.5, "max": 0.5, "n": 6}]},
    "stop": {"t_max": 50.0}})");
  if (!observables.is_null()) j["observables"] = observables;
  return j;
}

TEST(RollingLyapunov, RequestingItLeavesTheOtherObservablesBitIdentical) {
  const RunConfig plain = skipstone::testing::config_from(disc_config(nullptr));
  json with = plain.observables;
  with.push_back("lyapunov");
  with.push_back("lyapunov_per_event");
  const RunConfig lyap = skipstone::testing::config_from(disc_config(with));
  EXPECT_EQ(lyap.spec.lyapunov_vectors, 1);
  const std::uint64_t n = 6;
  std::vector<TrajectoryResult> a(n), b(n);
  cpu::run_chunk(plain.spec, 0, n, a.data());
  cpu::run_chunk(lyap.spec, 0, n, b.data());
  for (std::uint64_t i = 0; i < n; ++i) {
    EXPECT_TRUE(std::isfinite(b[i].lyapunov)) << i;
    EXPECT_TRUE(std::isnan(a[i].lyapunov)) << i;
    b[i].lyapunov = a[i].lyapunov;
    b[i].lyapunov_per_event = a[i].lyapunov_per_event;
    EXPECT_EQ(std::memcmp(&a[i], &b[i], sizeof(TrajectoryResult)), 0) << i;
  }
}

TEST(RollingLyapunovConfig, FloatIsRefusedAndTheUnfinishedSystemsHaveNoExponent) {
  json j = disc_config(json::array({"lyapunov"}));
  j["options"] = {{"precision", "float"}};
  try {
    skipstone::testing::config_from(j);
    FAIL() << "float + lyapunov accepted";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("double"), std::string::npos) << e.what();
  }
}

}  // namespace
