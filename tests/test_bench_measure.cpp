// test_bench_measure.cpp — the measuring pieces of `skipstone bench`: timed samples that repeat a
// short call until they last a minimum time (and report the time per call), several calls timed
// side by side round by round (the scaling study), and the
// float-versus-double comparison of two kept runs (what it counts, skips and summarises).
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "bench_accuracy.hpp"
#include "bench_timing.hpp"

namespace skipstone::bench {
namespace {

// A call that lasts at least this long; a sample of kMinSample holds at most kMinSample / kCall calls.
constexpr double kCallSeconds = 1e-3;
constexpr double kMinSampleSeconds = 0.2;

void sleep_one_call() { std::this_thread::sleep_for(std::chrono::duration<double>(kCallSeconds)); }

TEST(BenchTiming, OneCallPerSampleWithoutAMinimum) {
  int calls = 0;
  const Timing t = timed_reps(3, [&] { ++calls; });
  EXPECT_EQ(t.calls_per_sample, 1);
  EXPECT_EQ(calls, 1 + 3);  // the warm-up and three samples
  EXPECT_EQ(t.wall.size(), 3u);
  EXPECT_EQ(t.cpu.size(), 3u);
}

TEST(BenchTiming, ShortCallsAreRepeatedUntilASampleLastsTheMinimum) {
  using Clock = std::chrono::steady_clock;
  int calls = 0;
  double first_call = 0.0;  // the warm-up as seen from inside the call (the timer's includes it)
  const auto t0 = Clock::now();
  const Timing t = timed_reps(2, [&] {
    const auto c0 = Clock::now();
    ++calls;
    sleep_one_call();
    if (calls == 1) first_call = std::chrono::duration<double>(Clock::now() - c0).count();
  }, kMinSampleSeconds);
  const double total = std::chrono::duration<double>(Clock::now() - t0).count();
  // calls per sample = ceil(min / warm-up): at most what this call's own warm-up time gives.
  // A loaded machine can only stretch the warm-up, which lowers it; below min / 4 the warm-up
  // still leaves at least 2 (no assertion on how fast the machine is).
  EXPECT_GE(t.calls_per_sample, 1);
  EXPECT_LE(t.calls_per_sample, static_cast<int>(std::ceil(kMinSampleSeconds / first_call)));
  if (first_call < kMinSampleSeconds / 4) {
    EXPECT_GE(t.calls_per_sample, 2) << "warm-up " << first_call << " s";
  }
  EXPECT_EQ(calls, 1 + 2 * t.calls_per_sample);
  ASSERT_EQ(t.wall.size(), 2u);
  // per call, not per sample: each at least one call's sleep, and the samples' calls fit in the
  // time the whole measurement took
  double sampled = 0.0;
  for (double w : t.wall) {
    EXPECT_GE(w, kCallSeconds);
    sampled += w * t.calls_per_sample;
  }
  EXPECT_LE(sampled, total);
  // a rate is work per call over the time of one call
  EXPECT_DOUBLE_EQ(t.rate(10.0).samples[0], 10.0 / t.wall[0]);
}

TEST(BenchTiming, CallsLongerThanTheMinimumAreTimedOneByOne) {
  int calls = 0;
  const Timing t = timed_reps(2, [&] {
    ++calls;
    sleep_one_call();
  }, kCallSeconds / 10);
  EXPECT_EQ(t.calls_per_sample, 1);
  EXPECT_EQ(calls, 3);
}

TEST(BenchTiming, InterleavedCallsTakeOneSampleEachPerRound) {
  std::string order;
  const std::vector<Timing> t = timed_reps_interleaved(2, {[&] { order += 'a'; }, [&] { order += 'b'; }}, 0.0);
  EXPECT_EQ(order, "ab" "abab");  // the warm-ups, then two rounds
  ASSERT_EQ(t.size(), 2u);
  EXPECT_EQ(t[0].wall.size(), 2u);
  EXPECT_EQ(t[1].calls_per_sample, 1);
}

TEST(BenchTiming, InterleavedCallsEachGetTheirOwnCallsPerSample) {
  int short_calls = 0, long_calls = 0;
  const std::vector<Timing> t = timed_reps_interleaved(
      1, {[&] { ++short_calls; }, [&] {
            ++long_calls;
            std::this_thread::sleep_for(std::chrono::duration<double>(kMinSampleSeconds));
          }},
      kMinSampleSeconds);
  EXPECT_GT(t[0].calls_per_sample, 1);
  EXPECT_EQ(t[1].calls_per_sample, 1);
  EXPECT_EQ(short_calls, 1 + t[0].calls_per_sample);
  EXPECT_EQ(long_calls, 2);
}

TrajectoryResult outcome(Status s, std::int32_t side, double energy_error, double x, double y) {
  TrajectoryResult r = empty_result();
  r.status = s;
  r.exit_side = side;
  r.energy_error = energy_error;
  r.exit_time = x;
  r.rho_even = y;
  return r;
}

TEST(BenchAccuracy, CompareRunsCountsOutcomesAndSummarisesTheDifferences) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<ComparedObservable> fields = {{"exit_time", &TrajectoryResult::exit_time},
                                                  {"rho_even", &TrajectoryResult::rho_even}};
  const std::vector<TrajectoryResult> a = {
      outcome(Status::exited, 1, 1e-12, 1.0, 0.5),  // same outcome, differences 0.1 and 0.01
      outcome(Status::exited, 1, 1e-12, 2.0, 0.5),  // same outcome, differences 0.3 and 0.02
      outcome(Status::exited, 1, 1e-12, 3.0, 0.5),  // exit side differs: no differences taken
      outcome(Status::masked, 0, nan, nan, nan),     // masked in one run: not compared at all
      outcome(Status::finished, 0, 1e-12, nan, 0.5), // exit_time NaN in both: only rho_even compared
      outcome(Status::exited, 1, 1e-12, 1.0, 0.5),  // status differs
  };
  const std::vector<TrajectoryResult> b = {
      outcome(Status::exited, 1, 2e-6, 1.1, 0.51),
      outcome(Status::exited, 1, 3e-6, 2.3, 0.52),
      outcome(Status::exited, -1, 9e-6, 3.0, 0.5),
      outcome(Status::exited, 1, 5e-1, 1.0, 0.5),
      outcome(Status::finished, 0, nan, nan, 0.54),
      outcome(Status::energy_drift, 0, 7e-6, nan, nan),
  };
  RunRecord ra(fields), rb(fields);
  ra.append(a.data(), 3);  // appended in two chunks, as EnsembleRunner does
  ra.append(a.data() + 3, a.size() - 3);
  rb.append(b.data(), b.size());
  const RunDifference d = compare_runs(ra, rb);
  EXPECT_EQ(d.compared, 5u);
  EXPECT_EQ(d.outcome_differs, 2u);
  EXPECT_DOUBLE_EQ(d.max_energy_error_b, 9e-6);  // of run b, unmasked trajectories, NaN skipped
  ASSERT_EQ(d.names, (std::vector<std::string>{"exit_time", "rho_even"}));
  EXPECT_EQ(d.observables[0].compared, 2u);
  EXPECT_NEAR(d.observables[0].max, 0.3, 1e-12);
  EXPECT_EQ(d.observables[1].compared, 3u);
  EXPECT_NEAR(d.observables[1].max, 0.04, 1e-12);
  EXPECT_NEAR(d.observables[1].median, 0.02, 1e-12);
  const nlohmann::json j = d.json();
  EXPECT_DOUBLE_EQ(j["outcome_differs_fraction"].get<double>(), 0.4);
  EXPECT_EQ(j["observables"]["rho_even"]["compared"].get<std::uint64_t>(), 3u);
}

TEST(BenchAccuracy, RunsOfDifferentScansAreNotCompared) {
  const std::vector<ComparedObservable> fields = {{"exit_time", &TrajectoryResult::exit_time}};
  const TrajectoryResult r = outcome(Status::exited, 1, 0.0, 1.0, 0.0);
  RunRecord one(fields), two(fields);
  one.append(&r, 1);
  two.append(&r, 1);
  two.append(&r, 1);
  EXPECT_THROW(compare_runs(one, two), std::logic_error);
}

}  // namespace
}  // namespace skipstone::bench
