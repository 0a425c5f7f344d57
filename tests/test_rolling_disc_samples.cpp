// Sampled output of roll4:disc (disc_output.hpp, `skipstone trace --sample DT`): one row at
// every multiple of DT, flat parts and rim passages alike; each row equals the final state of
// the same trajectory stopped at t_max = k DT (the method is that exact stop); sampling leaves
// the trajectory unchanged; and the samples agree with a far tighter integration to the
// accuracy of the trajectory itself (figures printed).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <vector>

#include "skipstone/rolling/roll4_disc.hpp"
#include "skipstone/sinks.hpp"

namespace skipstone {
namespace {

constexpr double kStopMatch = 1e-13;        // sample vs the run stopped at that time
constexpr double kSampleAccuracy = 1e-9;    // rtol = atol = 1e-12 samples vs rtol = atol = 1e-15
constexpr double kDt = 1.0 / 64.0;          // exact in binary, so k DT hits t_max exactly
constexpr double kTMax = 6.0;

struct Row {
  double t;
  DiscRow row;
};

double row_diff(const DiscRow& a, const DiscRow& b) {
  const double d[] = {a.x.x - b.x.x, a.x.y - b.x.y, a.x.z - b.x.z, a.state.u.x - b.state.u.x,
                      a.state.u.y - b.state.u.y, a.state.u.z - b.state.u.z, a.state.w.x - b.state.w.x,
                      a.state.w.y - b.state.w.y, a.state.w.z - b.state.w.z, a.nu.x - b.nu.x, a.nu.y - b.nu.y};
  double e = 0.0;
  for (double v : d) e = std::max(e, std::fabs(v));
  return e;
}

struct Sampler {
  double dt;
  double k = 0.0;
  std::vector<Row> rows = {};
  double next_sample() const { return k * dt; }
  void on_sample(double t, Vec3 x, const State3D& s, Vec3 nu) {
    rows.push_back({t, {x, s, nu}});
    k += 1.0;
  }
  template <class V, class S>
  void on_event(double, V, const S&, V) {}
  template <class T>
  void on_step(T, const T*) {}
};

struct LastEvent {
  double t = -1.0;
  DiscRow row;
  void on_event(double te, Vec3 x, const State3D& s, Vec3 nu) {
    t = te;
    row = {x, s, nu};
  }
  template <class T>
  void on_step(T, const T*) {}
};

const DiscRollModel kModel{1.0, 0.1, 0.5, 1.0};
// the Figure-20 spin with a start that reaches the rim quickly
const PlateState kStart = {1, {0.5, 0.0}, {-0.8, 1.0}, 0.2, 0.0, 0.61, 0.0, -1.0};

DiscRollOptions options(double t_max, double tol) { return {t_max, UINT64_MAX, 1e-9, 1.0, tol, tol, 1000000}; }

TEST(RollDiscSamples, OneRowPerMultipleOfDtEqualToTheStoppedRun) {
  Sampler s{kDt};
  const TrajectoryResult res = run_roll4_disc(kModel, kStart, options(kTMax, 1e-12), s);
  ASSERT_EQ(res.status, Status::finished);
  ASSERT_GE(res.events, 3u);
  ASSERT_EQ(s.rows.size(), static_cast<std::size_t>(kTMax / kDt) + 1);
  int on_rim = 0;
  double worst = 0.0;
  for (std::size_t k = 0; k < s.rows.size(); ++k) {
    const Row& r = s.rows[k];
    EXPECT_EQ(r.t, k * kDt);
    if (r.row.nu.x != 0.0 || r.row.nu.y != 0.0) ++on_rim;
    LastEvent last;
    run_roll4_disc(kModel, kStart, options(r.t, 1e-12), last);
    ASSERT_EQ(last.t, r.t) << k;
    worst = std::max(worst, row_diff(r.row, last.row));
  }
  std::cout << s.rows.size() << " samples, " << on_rim << " inside rim passages, " << res.events
            << " rim passages; max difference to the runs stopped at k DT: " << worst << "\n";
  EXPECT_GT(on_rim, 10);
  EXPECT_LT(worst, kStopMatch);
}

TEST(RollDiscSamples, SamplingLeavesTheTrajectoryUnchanged) {
  Sampler s{kDt};
  DiscardSink none;
  const TrajectoryResult a = run_roll4_disc(kModel, kStart, options(kTMax, 1e-12), s);
  const TrajectoryResult b = run_roll4_disc(kModel, kStart, options(kTMax, 1e-12), none);
  EXPECT_EQ(a.events, b.events);
  EXPECT_EQ(a.steps, b.steps);
  EXPECT_EQ(a.t_end, b.t_end);
  EXPECT_EQ(a.z_final, b.z_final);
  EXPECT_EQ(a.z_min, b.z_min);
  EXPECT_EQ(a.energy_error, b.energy_error);
  EXPECT_EQ(a.caustic_gap, b.caustic_gap);
}

TEST(RollDiscSamples, SamplesAreAsAccurateAsTheTrajectory) {
  Sampler s{kDt}, ref{kDt};
  run_roll4_disc(kModel, kStart, options(kTMax, 1e-12), s);
  run_roll4_disc(kModel, kStart, options(kTMax, 1e-15), ref);
  ASSERT_EQ(s.rows.size(), ref.rows.size());
  double worst_rim = 0.0, worst_flat = 0.0;
  for (std::size_t k = 0; k < s.rows.size(); ++k) {
    const double e = row_diff(s.rows[k].row, ref.rows[k].row);
    const bool rim = s.rows[k].row.nu.x != 0.0 || s.rows[k].row.nu.y != 0.0;
    (rim ? worst_rim : worst_flat) = std::max(rim ? worst_rim : worst_flat, e);
  }
  std::cout << "rtol = atol = 1e-12 samples vs 1e-15 over t = " << kTMax << ": max difference " << worst_rim
            << " inside rim passages, " << worst_flat << " on the flat parts\n";
  EXPECT_LT(worst_rim, kSampleAccuracy);
  EXPECT_LT(worst_flat, kSampleAccuracy);
}

}  // namespace
}  // namespace skipstone
