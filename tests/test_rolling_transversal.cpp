// The Figure-18 system (roll4:disc transversal block, Proposition 12): E1 exact to round-off,
// the observed order of the GBS integrator equals its design order 2K, time reversal of a
// friendly roll, and exit times against an independent integration (classical RK4 in the
// angle phi with trigonometric right-hand side, fine fixed steps, bisection for the event)
// to 1e-8 on a sample of map pixels; the float kernel against the double one.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <random>
#include <vector>

#include "skipstone/rolling/disc_transversal.hpp"
#include "skipstone/simulate.hpp"
#include "test_support.hpp"

namespace skipstone {
namespace {

constexpr double kExitTimeAgreement = 1e-8;  // map exit_time vs independent integration
constexpr double kEnergyRoundOff = 1e-14;

struct NullSteps {
  template <class T>
  void on_step(T, const T*) {}
};

// Independent reference: state (v1, v2, S12, phi, arc), RK4 with step h, event by bisection.
struct Reference {
  double kappa, r, eta;
  void rhs(const double* y, double* f) const {
    const double c = std::cos(y[3]), s = std::sin(y[3]);
    const double w = 1.0 / (1.0 - r * kappa * s);
    const double fc = kappa * c * w, fs = kappa * s * w;
    f[0] = -fc * y[1] * y[1] - eta * fs * y[1] * y[2];
    f[1] = fc * y[0] * y[1] - eta / r * y[0] * y[2];
    f[2] = eta * (fs + 1.0 / r) * y[0] * y[1];
    f[3] = y[0] / r;
    f[4] = y[1] * w;
  }
  void rk4(const double* y, double h, double* out) const {
    double k1[5], k2[5], k3[5], k4[5], t[5];
    rhs(y, k1);
    for (int i = 0; i < 5; ++i) t[i] = y[i] + 0.5 * h * k1[i];
    rhs(t, k2);
    for (int i = 0; i < 5; ++i) t[i] = y[i] + 0.5 * h * k2[i];
    rhs(t, k3);
    for (int i = 0; i < 5; ++i) t[i] = y[i] + h * k3[i];
    rhs(t, k4);
    for (int i = 0; i < 5; ++i) out[i] = y[i] + h / 6.0 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
  }
  // exit time and side (+1: phi back to 0, -1: phi reaches pi), 0 if none by t_max
  std::pair<double, int> exit(double v1, double v2, double S, double h, double t_max) const {
    double y[5] = {v1, v2, S, 0.0, 0.0}, next[5];
    for (double t = 0.0; t < t_max; t += h) {
      rk4(y, h, next);
      if (next[3] < 0.0 || next[3] > kPi) {
        const double target = next[3] < 0.0 ? 0.0 : kPi;
        double lo = 0.0, hi = h;
        for (int it = 0; it < 80; ++it) {
          const double mid = 0.5 * (lo + hi);
          rk4(y, mid, next);
          ((next[3] - target) * (target == 0.0 ? 1.0 : -1.0) > 0.0 ? lo : hi) = mid;
        }
        return {t + 0.5 * (lo + hi), target == 0.0 ? 1 : -1};
      }
      std::copy(next, next + 5, y);
    }
    return {t_max, 0};
  }
};

// Pixels of the 256 x 256 Figure-18 map (examples/figure18.json at n = 256) whose exit the
// unguarded Newton iteration put at the end of a long step, up to 0.73 too late, because the
// smooth continuation of the trajectory past phi = pi turned back inside the step (0.2 % of
// the map; rim_passage.hpp now brackets the first crossing). Run as the map runs them (the
// failure depends on the exact step sequence) and checked against the independent reference.
TEST(RollingTransversal, ExitInsideALongStepIsTheFirstCrossing) {
  const RunConfig rc = testing::config_from(nlohmann::json::parse(R"({
    "system": "roll4:disc-transversal", "parameters": {"R": 1.0, "r": 1.0, "eta": 0.5},
    "initial": {"start": "rim_entry", "speed": 1.0},
    "scan": {"type": "grid", "axes": [{"param": "v2", "min": -1.0, "max": 1.0, "n": 256},
                                      {"param": "S12", "min": -1.0, "max": 1.0, "n": 256}]},
    "stop": {"t_max": 200.0}, "options": {"rtol": 1e-11, "atol": 1e-11, "max_steps": 100000}})"));
  const Reference ref{-1.0, 1.0, 0.5};
  for (const std::uint64_t index : {1183u, 3511u, 62282u}) {  // exit times were 19.5, 14.17, 14.45
    DiscardSink sink;
    const TrajectoryResult r = simulate_trajectory(rc.spec, index, sink);
    const double v2 = -1.0 + 2.0 * static_cast<double>(index % 256) / 255.0;
    const double S = -1.0 + 2.0 * static_cast<double>(index / 256) / 255.0;
    const auto [t_ref, side_ref] = ref.exit(std::sqrt(1.0 - v2 * v2 - S * S), v2, S, 1e-3, 200.0);
    ASSERT_EQ(r.status, Status::exited);
    EXPECT_EQ(r.exit_side, side_ref);
    EXPECT_NEAR(r.exit_time, t_ref, kExitTimeAgreement * (1.0 + t_ref)) << "pixel " << index << ": v2=" << v2 << " S12=" << S;
  }
}

TEST(RollingTransversal, ExitTimesAgreeWithIndependentIntegration) {
  const DiscTransversalSystem sys{-1.0, 1.0, 0.5};
  const Reference ref{-1.0, 1.0, 0.5};
  std::mt19937_64 gen(3);
  std::uniform_real_distribution<double> d(-1.0, 1.0);
  int compared = 0;
  while (compared < 12) {
    const double v2 = d(gen), S = d(gen);
    const double v1sq = 1.0 - v2 * v2 - S * S;
    if (v1sq < 0.05) continue;
    NullSteps sink;
    const RimPassage p = integrate_rim_passage<kRimExtrapolationDepth>(sys, std::sqrt(v1sq), v2, S, 60.0, 1e-11, 1e-11,
                                                                        100000, sink);
    const auto [t_ref, side_ref] = ref.exit(std::sqrt(v1sq), v2, S, 1e-3, 60.0);
    if (side_ref == 0) continue;
    ASSERT_EQ(p.status, Status::exited);
    EXPECT_EQ(p.side, side_ref);
    EXPECT_NEAR(p.t, t_ref, kExitTimeAgreement * (1.0 + t_ref)) << "v2=" << v2 << " S12=" << S;
    EXPECT_LT(p.energy_error, kEnergyRoundOff);
    ++compared;
  }
}

// The float kernel against the double one over a 40 x 40 Figure-18 grid: float at
// rtol = atol = 1e-5 (the float GBS cannot go much lower: its error estimate is round-off
// dominated), double at 1e-11.
constexpr double kFloatTolerance = 1e-5;
constexpr double kFloatMedianExitTime = 1e-4;  // median |exit_time float - double|
constexpr double kFloatSideDiffers = 0.02;  // fraction of pixels with another exit side
constexpr double kFloatEnergy = 1e-6;                  // E1 after projection: a few float eps

TEST(RollingTransversal, FloatKernelAgreesWithDoubleWithinFloatTolerances) {
  const DiscTransversalSystem sys{-1.0, 1.0, 0.5};
  const DiscTransversalSystemT<float> sys_f{-1.0f, 1.0f, 0.5f};
  std::vector<double> dts;
  int pixels = 0, side_differs = 0;
  for (int i = 0; i < 40; ++i)
    for (int j = 0; j < 40; ++j) {
      const double v2 = -1.0 + 2.0 * i / 39.0, S = -1.0 + 2.0 * j / 39.0;
      const double v1sq = 1.0 - v2 * v2 - S * S;
      if (!(v1sq > 0.0)) continue;
      DiscardSink sink;
      const RimPassage d = integrate_rim_passage<kRimExtrapolationDepth>(sys, std::sqrt(v1sq), v2, S, 200.0, 1e-11,
                                                                          1e-11, 1000000, sink);
      const RimPassageT<float> f = integrate_rim_passage<kRimExtrapolationDepth>(
          sys_f, static_cast<float>(std::sqrt(v1sq)), static_cast<float>(v2), static_cast<float>(S), 200.0f,
          static_cast<float>(kFloatTolerance), static_cast<float>(kFloatTolerance), 1000000, sink);
      ++pixels;
      EXPECT_LT(f.energy_error, kFloatEnergy) << "v2=" << v2 << " S12=" << S;
      if (d.status != f.status || d.side != f.side) {
        ++side_differs;
        continue;
      }
      if (d.status == Status::exited) dts.push_back(std::fabs(static_cast<double>(f.t) - d.t));
    }
  ASSERT_GT(dts.size(), 900u);
  std::nth_element(dts.begin(), dts.begin() + dts.size() / 2, dts.end());
  const double median = dts[dts.size() / 2];
  std::cout << "float vs double: " << pixels << " pixels, exit side differs on " << side_differs
            << ", median |dt| " << median << "\n";
  EXPECT_LT(median, kFloatMedianExitTime);
  EXPECT_LE(side_differs, kFloatSideDiffers * pixels);
}

TEST(RollingTransversal, ShortExcursionPastTheJunctionIsCaught) {
  // Found by the SciPy comparison (benchmarks/): phi dips to about -0.01 below 0 at t = 11.68
  // for half a time unit and comes back; a step spanning the dip has sin(phi) > 0 at both ends.
  const double v2 = -0.573980, S = 0.814591, v1 = std::sqrt(1.0 - v2 * v2 - S * S);
  const DiscTransversalSystem sys{-1.0, 1.0, 0.5};
  const Reference ref{-1.0, 1.0, 0.5};
  NullSteps sink;
  const RimPassage p = integrate_rim_passage<kRimExtrapolationDepth>(sys, v1, v2, S, 60.0, 1e-11, 1e-11, 100000, sink);
  const auto [t_ref, side_ref] = ref.exit(v1, v2, S, 1e-3, 60.0);
  ASSERT_EQ(p.status, Status::exited);
  EXPECT_EQ(p.side, side_ref);
  EXPECT_NEAR(p.t, t_ref, kExitTimeAgreement * (1.0 + t_ref));
}

// Global error of fixed-step GBS with depth K over [0, T] (no projection): order 2K.
template <int K>
double fixed_step_error(double H) {
  const DiscTransversalSystem sys{-1.0, 0.5, 0.6};
  const double y0[6] = {0.8, 0.3, -0.5, 1.0, 0.0, 0.0};
  const auto run = [&](double h, int n, double* out) {
    double y[6];
    std::copy(y0, y0 + 6, y);
    for (int i = 0; i < n; ++i) {
      double next[6];
      gbs_step<6, K>(sys, y, h, next, 1.0, 1.0);
      std::copy(next, next + 6, y);
    }
    std::copy(y, y + 6, out);
  };
  const double T = 0.8;
  double ref[6], y[6];
  run(T / 64.0, 64, ref);  // far more accurate than the runs compared below
  run(H, static_cast<int>(std::lround(T / H)), y);
  double e = 0.0;
  for (int i = 0; i < 6; ++i) e = std::max(e, std::fabs(y[i] - ref[i]));
  return e;
}

TEST(RollingTransversal, ObservedOrderMatchesDesignOrder) {
  // K = 2: order 4; K = 3: order 6 (errors stay well above round-off at these steps)
  const double o4 = std::log2(fixed_step_error<2>(0.2) / fixed_step_error<2>(0.1));
  const double o6 = std::log2(fixed_step_error<3>(0.4) / fixed_step_error<3>(0.2));
  EXPECT_NEAR(o4, 4.0, 0.5);
  EXPECT_NEAR(o6, 6.0, 0.6);
}

TEST(RollingTransversal, FriendlyRollIsTimeReversible) {
  const DiscTransversalSystem sys{-1.0, 1.0, 0.5};
  NullSteps sink;
  // find a same-side exit
  for (double v2 : {-0.6, -0.3, 0.0, 0.3, 0.6}) {
    for (double S : {-0.6, -0.2, 0.2, 0.6}) {
      const double v1 = std::sqrt(1.0 - v2 * v2 - S * S);
      const RimPassage a = integrate_rim_passage<kRimExtrapolationDepth>(sys, v1, v2, S, 100.0, 1e-12, 1e-12, 100000, sink);
      if (a.status != Status::exited || a.side != 1) continue;
      // reverse velocities and spin at the exit: the ball re-enters at phi = 0 with v1 > 0
      const RimPassage b = integrate_rim_passage<kRimExtrapolationDepth>(sys, -a.y[0], -a.y[1], -a.y[2], 100.0, 1e-12,
                                                                         1e-12, 100000, sink);
      ASSERT_EQ(b.status, Status::exited);
      EXPECT_EQ(b.side, 1);
      EXPECT_NEAR(b.t, a.t, 1e-9 * (1.0 + a.t));
      EXPECT_NEAR(b.arc, -a.arc, 1e-9 * (1.0 + std::fabs(a.arc)));
      EXPECT_NEAR(-b.y[0], v1, 1e-9);
      EXPECT_NEAR(-b.y[1], v2, 1e-9);
      EXPECT_NEAR(-b.y[2], S, 1e-9);
      return;
    }
  }
  FAIL() << "no friendly roll found in the sample";
}

TEST(RollingTransversal, MapMasksOutsideTheEnergySphere) {
  const RunConfig rc = testing::config_from(nlohmann::json::parse(R"({
    "system": "roll4:disc-transversal", "parameters": {"eta": 0.5, "r": 1.0},
    "initial": {"v2": 0.8, "S12": 0.7}, "stop": {"t_max": 10.0}})"));
  DiscardSink sink;
  EXPECT_EQ(simulate_trajectory(rc.spec, 0, sink).status, Status::masked);
}

TEST(RollingTransversal, EtaZeroIsGeodesic) {
  // eta = 0: S12 is parallel (constant) and |v| is constant; on the curved part the geodesic
  // through phi = 0 with v2 = 0 is a great half-circle: exit at phi = pi after pi r / v1.
  const DiscTransversalSystem sys{-1.0, 0.7, 0.0};
  NullSteps sink;
  const RimPassage p = integrate_rim_passage<kRimExtrapolationDepth>(sys, 0.9, 0.0, 0.3, 50.0, 1e-12, 1e-12, 100000, sink);
  ASSERT_EQ(p.status, Status::exited);
  EXPECT_EQ(p.side, -1);
  EXPECT_NEAR(p.t, kPi * 0.7 / 0.9, 1e-10);
  EXPECT_NEAR(p.y[2], 0.3, 1e-13);
}

}  // namespace
}  // namespace skipstone
