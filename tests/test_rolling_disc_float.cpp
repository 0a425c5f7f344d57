// The float kernel of roll4:disc (options.precision float; roll4_disc.hpp templated on the
// scalar type, Proposition 12): E1 and E2 + G x3 held at float round-off by the projection over
// long runs, time reversal to float accuracy, and Figure 20 reproduced: the same
// bounded-height/collapsed-caustic relation, with caustic radii and height drift close to the
// double run's. (The N^- start as the exact mirror image: test_rolling_disc.cpp, both precisions.)
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>

#include "roll4_disc_checks.hpp"
#include "skipstone/simulate.hpp"
#include "test_support.hpp"

namespace skipstone {
namespace {

using nlohmann::json;
using Log = testing::EventLog<Vec3, State3D>;

// E1 and E2 + G x3 over 2000 rim passages: the projection after every step keeps them at
// float round-off (eps 1.2e-7); measured up to 5.2e-7 (energy_error 4.6e-7).
constexpr double kFloatEnergy = 5e-6;
// Time reversal after 20 rim passages at rtol = atol = 1e-5: measured 9.5e-5 (double: 1e-9
// at 1e-12).
constexpr double kFloatReversal = 1e-3;
// Figure-20 runs (t = 200, 111-201 rim passages) against double: caustic radii (measured up to
// 2.6e-5) and the height drift relative to 1 + |z_drift| (up to 1.4e-5; the falling balls
// drift by -12).
constexpr double kFloatCaustics = 5e-4;
constexpr double kFloatDrift = 1e-4;
// Figure 20 (test_rolling_disc.cpp): the bounded start's caustics collapse, the others do not.
constexpr double kBoundedStart = -0.715;
constexpr double kCollapsedGap = 5e-3;
constexpr double kOpenGap = 0.1;

json disc_config(double g_eff, const json& initial, const json& stop, const char* precision) {
  return {{"system", "roll4:disc"},
          {"parameters", {{"R", 1.0}, {"r", 0.1}, {"eta", 0.5}, {"g_effective", g_eff}}},
          {"initial", initial},
          {"stop", stop},
          {"options", {{"precision", precision}, {"bounded_depth", 2.0}}}};
}

TrajectoryResult run_config(const json& cfg, Log* log = nullptr) {
  Log own;
  const ScanSpec spec = testing::config_from(cfg).spec;
  return simulate_trajectory(spec, 0, log ? *log : own);
}

TEST(FloatRollDisc, EnergiesStayAtFloatRoundOffOverLongRuns) {
  const json init = {{"x1", 0.1}, {"x2", -0.2}, {"z", 0.0}, {"v1", 0.8}, {"v2", 0.5}, {"v3", 0.3},
                     {"S12", -0.4}, {"S13", 0.2}, {"S23", 0.6}};
  for (double g : {0.0, 1.0}) {
    Log log;
    const TrajectoryResult res = run_config(disc_config(g, init, {{"max_events", 2000}}, "float"), &log);
    ASSERT_EQ(res.status, Status::finished);
    ASSERT_EQ(res.events, 2000u);
    const testing::EnergyDefects d = testing::energy_defects(log, g);
    std::cout << "float, g_eff = " << g << ": " << log.events.size() << " rows, 2000 rim passages, max rel. defect E1 "
              << d.e1 << ", E2 + g x3 " << d.e2 << ", energy_error " << res.energy_error << "\n";
    EXPECT_LT(d.e1, kFloatEnergy);
    EXPECT_LT(d.e2, kFloatEnergy);
    EXPECT_LT(res.energy_error, kFloatEnergy);
    EXPECT_GT(res.energy_error, 0.0) << "a float run that rounds nothing is not a float run";
  }
}

TEST(FloatRollDisc, TimeReversalRecoversTheStartToFloatAccuracy) {
  const DiscRollModelT<float> m{1.0f, 0.1f, 0.5f, 1.0f, 1.0f / 0.75f};
  const PlateStateT<float> s0 = {1, {0.2f, -0.1f}, {0.7f, 0.45f}, 0.4f, 0.0f, -0.3f, 0.25f, 0.8f};
  double t_end = 0.0;
  const double err = testing::time_reversal_error(m, s0, {0.0, 0, 1e-4, 1.0, 1e-5, 1e-5, 1000000}, 20, &t_end);
  std::cout << "float time reversal after 20 rim passages (t = " << t_end << "): max state error " << err << "\n";
  EXPECT_LT(err, kFloatReversal);
}

json figure20(double x1, double v1, const char* precision) {
  const json init = {{"x1", x1}, {"x2", 0.0}, {"z", 0.0}, {"v1", v1}, {"v2", 1.0}, {"v3", 0.0},
                     {"S12", 0.61}, {"S13", 0.0}, {"S23", -1.0}};
  return disc_config(1.0, init, {{"t_max", 200.0}}, precision);
}

TEST(FloatRollDisc, Figure20AgreesWithDouble) {
  for (double v1 : {-0.2, -2.0}) {
    for (double x1 : {kBoundedStart, 1.0}) {
      const TrajectoryResult d = run_config(figure20(x1, v1, "double")), f = run_config(figure20(x1, v1, "float"));
      std::cout << "Figure 20, start (" << x1 << ", 0), v1 = " << v1 << ": float - double: events " << f.events
                << " vs " << d.events << ", rho_even " << f.rho_even - d.rho_even << ", rho_odd " << f.rho_odd - d.rho_odd
                << ", z_drift " << f.z_drift - d.z_drift << ", caustic_gap " << f.caustic_gap << " vs " << d.caustic_gap
                << ", float energy_error " << f.energy_error << "\n";
      ASSERT_EQ(f.status, Status::finished);
      EXPECT_EQ(f.bounded, d.bounded);
      EXPECT_NEAR(f.rho_even, d.rho_even, kFloatCaustics);
      EXPECT_NEAR(f.rho_odd, d.rho_odd, kFloatCaustics);
      EXPECT_NEAR(f.z_drift, d.z_drift, kFloatDrift * (1.0 + std::fabs(d.z_drift)));
      EXPECT_EQ(f.events, d.events);
      if (x1 == kBoundedStart) {
        EXPECT_EQ(f.bounded, 1.0);
        EXPECT_LT(f.caustic_gap, kCollapsedGap);
      } else {
        EXPECT_GT(f.caustic_gap, kOpenGap);
      }
    }
  }
}

}  // namespace
}  // namespace skipstone
