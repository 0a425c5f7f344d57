// Convergence order of the integrator of the full roll4:disc on the curved part: both blocks of
// Proposition 12 (DiscRimSystem, 10 components, gravity on) under GBS extrapolation (gbs.hpp) at
// the depth rim_passage.hpp uses, K = kRimExtrapolationDepth = 6. The order is well defined: K
// is fixed (the substep sequence 2, 4, ..., 2K never changes), only the step size adapts. So:
//  - fixed steps H, no projection: the global error falls as H^(2K) = H^12 (design order);
//  - fixed steps with the projection onto E1 and E2 + G x3 after every step, as integrate_rim
//    does: still order 12 (projection keeps the order; Hairer-Lubich-Wanner IV.4);
//  - the embedded error estimate |T_KK - T_K,K-1| of one step scales as H^(2K-1) = H^11, the
//    exponent the step-size controller (gbs_step_factor) assumes;
//  - adaptive runs (integrate_rim, rtol = atol = tol) over most of one passage: the error at T
//    stays below tol for tol = 1e-6 .. 1e-14. Down to about 1e-11 the step is capped by h_max
//    (about one radian of phi; the estimate there is ~3e-13), so the step count and the error
//    (round-off level) do not change with tol; below that the controller takes more steps and
//    the error follows tol (measured: 8, 10, 11 steps, errors about tol / 4 at 1e-12 .. 1e-14).
// Observed values are printed.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>

#include "skipstone/rolling/roll4_disc.hpp"

namespace skipstone {
namespace {

constexpr int K = kRimExtrapolationDepth;
constexpr double kOrderSlack = 1.0;         // observed order within design order +- 1
constexpr double kErrorPerTol = 1.0;        // adaptive error at T below tol

const double kR = 1.0, kr = 0.1, kEta = 0.5, kG = 1.0;
// Entering N^c at phi = 0 with v1 > 0 (the fixed-step runs go on past the passage's end: the
// right-hand side is smooth there too).
const double kY0[10] = {0.35, 0.8, -0.45, 1.0, 0.0, 0.0, 0.3, 0.2, -0.6, 0.0};

DiscRimSystem rim_system() {
  const double k1 = kY0[0] * kY0[0] + kY0[1] * kY0[1] + kY0[2] * kY0[2];
  const double k2 = kY0[6] * kY0[6] + kY0[7] * kY0[7] + kY0[8] * kY0[8];
  return {-1.0 / kR, kr, kEta, kG, std::sqrt(k1), k2 + 2.0 * kG * kY0[9], physical_gravity(kG, kEta)};
}

double max_diff(const double* a, const double* b) {
  double e = 0.0;
  for (int i = 0; i < 10; ++i) e = std::max(e, std::fabs(a[i] - b[i]));
  return e;
}

// n fixed GBS steps of length T / n from kY0.
void fixed_steps(int n, double T, bool project, double* out) {
  const DiscRimSystem sys = rim_system();
  double y[10], next[10];
  std::copy(kY0, kY0 + 10, y);
  for (int i = 0; i < n; ++i) {
    gbs_step<10, K>(sys, y, T / n, next, 1.0, 1.0);
    if (project) sys.project(next);
    std::copy(next, next + 10, y);
  }
  std::copy(y, y + 10, out);
}

constexpr double kT = 1.2;  // phi reaches about 2 rad: well inside N^c, one long passage

double fixed_step_error(int n, bool project) {
  double ref[10], y[10];
  fixed_steps(512, kT, project, ref);  // error ~ (n / 512)^12 of the compared runs: far below them
  fixed_steps(n, kT, project, y);
  return max_diff(y, ref);
}

TEST(RollDiscOrder, FixedStepGlobalErrorIsOrderTwelve) {
  // errors from about 2e-9 down to 6e-13, above round-off (4e-14) and past the pre-asymptotic
  // range of larger steps (with projection H = T/4 gives 10.3)
  for (bool project : {false, true}) {
    const int n[] = {6, 9, 12};
    double e[3];
    for (int i = 0; i < 3; ++i) e[i] = fixed_step_error(n[i], project);
    const double o1 = std::log(e[0] / e[1]) / std::log(9.0 / 6.0), o2 = std::log(e[1] / e[2]) / std::log(12.0 / 9.0);
    std::cout << (project ? "with" : "without") << " projection, H = T/6, T/9, T/12 (T = " << kT
              << "): errors " << e[0] << ", " << e[1] << ", " << e[2] << "; observed orders " << o1 << ", " << o2
              << " (design " << 2 * K << ")\n";
    EXPECT_NEAR(o1, 2 * K, kOrderSlack) << project;
    EXPECT_NEAR(o2, 2 * K, kOrderSlack) << project;
  }
}

TEST(RollDiscOrder, EmbeddedErrorEstimateIsOrderEleven) {
  const DiscRimSystem sys = rim_system();
  double y[10];
  const double H[] = {0.4, 0.2, 0.1};
  double est[3];
  for (int i = 0; i < 3; ++i) est[i] = gbs_step<10, K>(sys, kY0, H[i], y, 0.0, 1.0);  // atol 1: absolute RMS
  const double o1 = std::log2(est[0] / est[1]), o2 = std::log2(est[1] / est[2]);
  std::cout << "error estimate at H = 0.4, 0.2, 0.1: " << est[0] << ", " << est[1] << ", " << est[2]
            << "; observed orders " << o1 << ", " << o2 << " (design " << 2 * K - 1 << ")\n";
  EXPECT_NEAR(o1, 2 * K - 1, kOrderSlack);
  EXPECT_NEAR(o2, 2 * K - 1, kOrderSlack);
}

struct NoSteps {
  template <class T>
  void on_step(T, const T*) {}
};

TEST(RollDiscOrder, AdaptiveErrorScalesWithTolerance) {
  const DiscRimSystem sys = rim_system();
  NoSteps sink;
  const RimRun<10> pass = integrate_rim<K>(sys, kY0, 100.0, 1e-12, 1e-12, 1000000, sink);
  ASSERT_EQ(pass.status, Status::exited);
  const double T = 0.8 * pass.t;  // still on the rim: the runs end at T, not at an event
  const RimRun<10> ref = integrate_rim<K>(sys, kY0, T, 1e-15, 1e-15, 1000000, sink);
  ASSERT_EQ(ref.status, Status::finished);
  const double tols[] = {1e-6, 1e-9, 1e-12, 1e-13, 1e-14};
  double err[5];
  std::uint64_t steps[5];
  for (int i = 0; i < 5; ++i) {
    const RimRun<10> run = integrate_rim<K>(sys, kY0, T, tols[i], tols[i], 1000000, sink);
    ASSERT_EQ(run.status, Status::finished);
    err[i] = max_diff(run.y, ref.y);
    steps[i] = run.steps;
    std::cout << "tol " << tols[i] << ": " << run.steps << " steps, error at T " << err[i] << "\n";
    EXPECT_LT(err[i], kErrorPerTol * tols[i]);
  }
  EXPECT_EQ(steps[0], steps[1]);
  EXPECT_GT(steps[4], steps[1]);
}

}  // namespace
}  // namespace skipstone
