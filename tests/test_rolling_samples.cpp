// Sampled output of the rolling tables (disc_output.hpp, `skipstone trace --sample DT`): one row
// at every multiple of DT, flat parts and edge passages alike; each row equals the final state of
// the same trajectory stopped at t_max = k DT (the method is that exact stop); sampling leaves
// the trajectory unchanged; and the samples agree with a far tighter integration to the
// accuracy of the trajectory itself (figures printed). For roll4:disc (its closed-form wall) and
// for walls with breaks and in-plane gravity (roll3:stadium), a smooth wall with varying
// curvature (roll4:ellipse) and vertices (roll3:polygon).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <type_traits>
#include <vector>

#include "skipstone/rolling/roll4_disc.hpp"
#include "skipstone/rolling/table_wall.hpp"
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
  template <class V, class S>
  void on_sample(double t, V x, const S& s, V nu) {  // 3D rows only (the systems tested here)
    if constexpr (std::is_same_v<V, Vec3>) rows.push_back({t, {x, s, nu}});
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

// One trajectory of each kind, run with given options into a sink.
struct DiscCase {
  const char* name = "roll4:disc";
  // the Figure-20 spin with a start that reaches the rim quickly
  DiscRollModel model{1.0, 0.1, 0.5, 1.0, 1.0 / 0.75};
  PlateState start = {1, {0.5, 0.0}, {-0.8, 1.0}, 0.2, 0.0, 0.61, 0.0, -1.0};
  template <class Sink>
  TrajectoryResult operator()(const RollOptions& opt, Sink& sink) const {
    return run_roll4_disc(model, start, opt, sink);
  }
};

template <int N, class Table>
struct TableCase {
  const char* name;
  Table table;
  RollModel model;
  PlateState start;
  template <class Sink>
  TrajectoryResult operator()(const RollOptions& opt, Sink& sink) const {
    return run_table_roll(table_wall<N>(table), model, start, opt, sink);
  }
};

const TableCase<6, StadiumTable> kStadiumCase{
    "roll3:stadium", StadiumTable{1.0, 1.0}, {0.1, 0.5, 0.5, 0.5 / 0.75}, {1, {0.5, 0.3}, {1.0, 1.4}, 0.0, 0.0, -0.6, 0.0, 0.0}};
const TableCase<10, EllipseTable> kEllipseCase{
    "roll4:ellipse", EllipseTable{2.0, 1.0}, {0.1, 0.5, 1.0, 1.0 / 0.75}, {1, {0.5, 0.1}, {-0.8, 1.0}, 0.2, 0.0, 0.61, 0.0, -1.0}};

RollOptions options(double t_max, double tol) { return {t_max, UINT64_MAX, 1e-9, 1.0, tol, tol, 1000000}; }

bool inside_passage(const DiscRow& r) { return r.nu.x != 0.0 || r.nu.y != 0.0; }

template <class Case>
void check_rows_equal_stopped_runs(const Case& c) {
  Sampler s{kDt};
  const TrajectoryResult res = c(options(kTMax, 1e-12), s);
  ASSERT_EQ(res.status, Status::finished) << c.name;
  ASSERT_GE(res.events, 3u) << c.name;
  ASSERT_EQ(s.rows.size(), static_cast<std::size_t>(kTMax / kDt) + 1) << c.name;
  int on_edge = 0;
  double worst = 0.0;
  for (std::size_t k = 0; k < s.rows.size(); ++k) {
    const Row& r = s.rows[k];
    EXPECT_EQ(r.t, k * kDt);
    if (inside_passage(r.row)) ++on_edge;
    LastEvent last;
    c(options(r.t, 1e-12), last);
    ASSERT_EQ(last.t, r.t) << c.name << " " << k;
    worst = std::max(worst, row_diff(r.row, last.row));
  }
  std::cout << c.name << ": " << s.rows.size() << " samples, " << on_edge << " inside edge passages, " << res.events
            << " passages; max difference to the runs stopped at k DT: " << worst << "\n";
  EXPECT_GT(on_edge, 10) << c.name;
  EXPECT_LT(worst, kStopMatch) << c.name;
}

template <class Case>
void check_sampling_leaves_the_trajectory(const Case& c) {
  Sampler s{kDt};
  DiscardSink none;
  const TrajectoryResult a = c(options(kTMax, 1e-12), s);
  const TrajectoryResult b = c(options(kTMax, 1e-12), none);
  EXPECT_EQ(a.events, b.events) << c.name;
  EXPECT_EQ(a.steps, b.steps) << c.name;
  EXPECT_EQ(a.t_end, b.t_end) << c.name;
  EXPECT_EQ(a.z_final, b.z_final) << c.name;
  EXPECT_EQ(a.z_min, b.z_min) << c.name;
  EXPECT_EQ(a.energy_error, b.energy_error) << c.name;
  EXPECT_EQ(a.exit_arc, b.exit_arc) << c.name;
}

template <class Case>
void check_samples_as_accurate_as_the_trajectory(const Case& c) {
  Sampler s{kDt}, ref{kDt};
  c(options(kTMax, 1e-12), s);
  c(options(kTMax, 1e-15), ref);
  ASSERT_EQ(s.rows.size(), ref.rows.size()) << c.name;
  double worst_edge = 0.0, worst_flat = 0.0;
  for (std::size_t k = 0; k < s.rows.size(); ++k) {
    const double e = row_diff(s.rows[k].row, ref.rows[k].row);
    double& worst = inside_passage(s.rows[k].row) ? worst_edge : worst_flat;
    worst = std::max(worst, e);
  }
  std::cout << c.name << ": rtol = atol = 1e-12 samples vs 1e-15 over t = " << kTMax << ": max difference "
            << worst_edge << " inside edge passages, " << worst_flat << " on the flat parts\n";
  EXPECT_LT(worst_edge, kSampleAccuracy) << c.name;
  EXPECT_LT(worst_flat, kSampleAccuracy) << c.name;
}

TEST(RollSamples, OneRowPerMultipleOfDtEqualToTheStoppedRun) {
  check_rows_equal_stopped_runs(DiscCase{});
  check_rows_equal_stopped_runs(kStadiumCase);
  check_rows_equal_stopped_runs(kEllipseCase);
}

TEST(RollSamples, SamplingLeavesTheTrajectoryUnchanged) {
  check_sampling_leaves_the_trajectory(DiscCase{});
  check_sampling_leaves_the_trajectory(kStadiumCase);
  check_sampling_leaves_the_trajectory(kEllipseCase);
}

TEST(RollSamples, SamplesAreAsAccurateAsTheTrajectory) {
  check_samples_as_accurate_as_the_trajectory(DiscCase{});
  check_samples_as_accurate_as_the_trajectory(kStadiumCase);
  check_samples_as_accurate_as_the_trajectory(kEllipseCase);
}

}  // namespace
}  // namespace skipstone
