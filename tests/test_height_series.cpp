// The observable height_series (include/skipstone/height_series.hpp, outputs.height_series) end
// to end: each value is the height of a run stopped at that grid time (z_final of the run with
// t_max = t_k: roll4:disc's axial x3, roll3:stadium's centre y under the in-plane gravity,
// roll4:stadium over its breaks, roll3:inside-cylinder's closed form), the first the start's height; after a run's end (max_events)
// the values are NaN; chunks and shards write the same file; with noisy constraints the
// realisations differ and sigma = 0 gives the deterministic series; the config's refusals name
// their key (a system without samples, no t_max, the observable and its grid apart, the
// Lyapunov exponents, whose tangent run takes no samples).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "cli_support.hpp"
#include "npy_values.hpp"

namespace {

using namespace skipstone::testing;

// A grid value against z_final of the run stopped at that time: the sample is that stop (an
// exact flight on a face; on the edge one GBS step from the last accepted state, as the stopped
// run's last step; the inside cylinder's closed form at that time), so the two agree to round-off
// (measured: bit for bit in all four cases).
constexpr double kStopMatch = 1e-12;
// sigma = 0 (noise_dt 1e-4) against the deterministic series: the stochastic scheme's error over
// the passages (tests/test_noisy_tables.cpp bounds z_final the same way; measured 4.1e-7).
constexpr double kSigmaZeroTolerance = 1e-4;
constexpr int kPoints = 9;
constexpr double kTMax = 4.0;

struct Case {
  const char* name;
  std::string body;  // system, parameters, initial, scan
  double z0;         // the start's height
};

const Case kCases[] = {
    {"roll4_disc", R"("system": "roll4:disc", "parameters": {"R": 1.0, "r": 0.1, "eta": 0.5, "g_effective": 1.0},
      "initial": {"start": "plate", "x1": 0.5, "x2": 0.0, "z": 0.2, "v1": -0.8, "v3": 0.3, "S12": 0.61, "S13": 0.0, "S23": -1.0},
      "scan": {"axes": [{"param": "v2", "min": 0.5, "max": 1.5, "n": 3}]})", 0.2},
    {"roll3_stadium", R"("system": "roll3:stadium", "parameters": {"half_length": 1.0, "R": 1.0, "r": 0.1, "gamma": 0.6325, "g": 1.0},
      "initial": {"start": "plate", "x1": 0.5, "x2": 0.3, "v2": 1.4, "S12": -0.6},
      "scan": {"axes": [{"param": "v1", "min": 0.5, "max": 1.5, "n": 3}]})", 0.3},
    {"roll4_stadium", R"("system": "roll4:stadium", "parameters": {"half_length": 1.0, "R": 1.0, "r": 0.1, "eta": 0.5, "g_effective": 1.0},
      "initial": {"start": "plate", "x1": 0.3, "x2": 0.0, "z": -0.4, "v2": 1.0, "v3": 0.2, "S12": 0.3, "S13": 0.1, "S23": -0.2},
      "scan": {"axes": [{"param": "v1", "min": 0.3, "max": 1.2, "n": 3}]})", -0.4},
    {"inside_cylinder", R"("system": "roll3:inside-cylinder", "parameters": {"R": 1.0, "r": 0.2, "gamma": 0.6325, "g": 1.0},
      "initial": {"start": "wall", "angle": 0.3, "z": 0.5, "v2": 0.4, "spin": -0.2},
      "scan": {"axes": [{"param": "v1", "min": 3.2, "max": 4.8, "n": 3}]})", 0.5},
};

const std::string kOptions = R"("options": {"rtol": 1e-12, "atol": 1e-12, "max_steps": 100000000})";

std::string config(const std::string& body, double t_max, const std::string& observables, const std::string& extra = "") {
  char t[64];
  std::snprintf(t, sizeof t, "%.17g", t_max);
  return "{" + body + R"(, "stop": {"t_max": )" + t + extra + R"(}, "observables": )" + observables + ", " + kOptions + "}";
}

std::string with_series(const std::string& body, double t_max, const std::string& stop_extra = "") {
  return config(body, t_max, R"(["status", "events", "t_end", "z_final", "height_series"])", stop_extra)
             .insert(1, R"("outputs": {"height_series": {"points": )" + std::to_string(kPoints) + "}}, ");
}

class HeightSeriesTest : public CliTest {};

TEST_F(HeightSeriesTest, EachValueIsTheHeightOfTheRunStoppedThere) {
  for (const Case& c : kCases) {
    const std::string n = c.name;
    const CliResult r = run(write_config(n + ".json", with_series(c.body, kTMax)), dir_ / n, "--backend cpu");
    ASSERT_EQ(r.rc, 0) << n << describe(r);
    std::vector<std::size_t> shape;
    const std::vector<double> series = npy_values<double>(dir_ / n / "height_series.npy", &shape);
    ASSERT_EQ(shape, (std::vector<std::size_t>{3, kPoints})) << n;
    const json meta = read_json(dir_ / n / "meta.json");
    ASSERT_EQ(meta["observables"]["height_series"]["times"].size(), static_cast<std::size_t>(kPoints)) << n;
    EXPECT_EQ(meta["observables"]["height_series"]["times"].back().get<double>(), kTMax) << n;
    for (int i = 0; i < 3; ++i) EXPECT_EQ(series[i * kPoints], c.z0) << n << " trajectory " << i;
    const std::vector<std::uint64_t> events = npy_values<std::uint64_t>(dir_ / n / "events.npy");
    for (std::uint64_t e : events) EXPECT_GE(e, 2u) << n;  // the series crosses edge passages (turns)
    double worst = 0.0, moved = 0.0;
    for (int k = 1; k < kPoints; ++k) {
      const double t = kTMax * k / (kPoints - 1);
      const std::string stopped = n + "_" + std::to_string(k);
      ASSERT_EQ(run(write_config(stopped + ".json", config(c.body, t, R"(["status", "z_final"])")), dir_ / stopped,
                    "--backend cpu").rc, 0) << stopped;
      const std::vector<double> z = npy_values<double>(dir_ / stopped / "z_final.npy");
      for (int i = 0; i < 3; ++i) {
        worst = std::max(worst, std::fabs(series[i * kPoints + k] - z[i]));
        moved = std::max(moved, std::fabs(series[i * kPoints + k] - c.z0));
      }
    }
    std::printf("%s: largest difference to the stopped runs %.2g\n", c.name, worst);
    EXPECT_LE(worst, kStopMatch) << n;
    EXPECT_GT(moved, 1e-2) << n;  // the height changes along the series
    // the last value is the run's own final height
    const std::vector<double> z_final = npy_values<double>(dir_ / n / "z_final.npy");
    for (int i = 0; i < 3; ++i) EXPECT_EQ(series[i * kPoints + kPoints - 1], z_final[i]) << n;
  }
}

TEST_F(HeightSeriesTest, ValuesAfterTheRunsEndAreNaN) {
  const Case& c = kCases[0];
  ASSERT_EQ(run(write_config("short.json", with_series(c.body, kTMax, R"(, "max_events": 2)")), dir_ / "short",
                "--backend cpu").rc, 0);
  const std::vector<double> series = npy_values<double>(dir_ / "short" / "height_series.npy");
  const std::vector<double> t_end = npy_values<double>(dir_ / "short" / "t_end.npy");
  int after = 0;
  for (int i = 0; i < 3; ++i) {
    ASSERT_LT(t_end[i], kTMax);
    for (int k = 0; k < kPoints; ++k) {
      const double t = kTMax * k / (kPoints - 1);
      if (t <= t_end[i]) EXPECT_TRUE(std::isfinite(series[i * kPoints + k])) << i << " " << k;
      else EXPECT_TRUE(std::isnan(series[i * kPoints + k])) << i << " " << k;
      after += t > t_end[i];
    }
  }
  EXPECT_GT(after, 0);
}

TEST_F(HeightSeriesTest, ChunksAndShardsWriteTheSameSeries) {
  const std::string body = R"("system": "roll4:ellipse", "parameters": {"a": 2.0, "b": 1.0, "r": 0.1, "eta": 0.5, "g_effective": 1.0},
      "initial": {"start": "plate", "x1": 0.3, "x2": 0.0, "z": 0.0, "v1": 0.2, "v3": 0.3, "S13": 0.0, "S23": 0.1},
      "scan": {"axes": [{"param": "S12", "min": -1.0, "max": 1.0, "n": 6}, {"param": "v2", "min": 0.5, "max": 1.0, "n": 5}]})";
  const std::string one = with_series(body, 3.0);
  std::string chunked = one;
  chunked.replace(chunked.find("\"options\": {"), 12, "\"options\": {\"chunk_size\": 7, ");
  expect_same_files_over_chunks_and_shards(write_config("one.json", one), write_config("chunked.json", chunked),
                                           {"height_series.npy", "z_final.npy"});
}

TEST_F(HeightSeriesTest, NoisyRealisationsDifferAndSigmaZeroIsTheDeterministicSeries) {
  const Case& c = kCases[0];
  std::string noisy_body = c.body;
  noisy_body.replace(noisy_body.find("\"g_effective\": 1.0}"), 19,
                     R"("g_effective": 1.0, "noise": 2, "noise_sigma": 0.3, "noise_tau": 0.2, "noise_dt": 1e-4})");
  std::string realisations = noisy_body;
  realisations.replace(realisations.find(R"({"param": "v2", "min": 0.5, "max": 1.5, "n": 3})"), 47,
                       R"({"param": "realisation", "min": 0, "max": 3, "n": 4})");
  realisations.replace(realisations.find(R"("S13": 0.0,)"), 11, R"("S13": 0.0, "v2": 1.0,)");
  ASSERT_EQ(run(write_config("real.json", with_series(realisations, kTMax)), dir_ / "real", "--backend cpu").rc, 0);
  const std::vector<double> s = npy_values<double>(dir_ / "real" / "height_series.npy");
  ASSERT_EQ(s.size(), 4u * kPoints);
  double spread = 0.0;
  for (int k = 0; k < kPoints; ++k) {
    EXPECT_TRUE(std::isfinite(s[k]));
    for (int m = 1; m < 4; ++m) spread = std::max(spread, std::fabs(s[m * kPoints + k] - s[k]));
  }
  EXPECT_EQ(s[0], s[kPoints]);  // the same start
  EXPECT_GT(spread, 1e-3);       // other noise paths, other heights

  std::string zero = noisy_body;
  zero.replace(zero.find("\"noise_sigma\": 0.3"), 18, "\"noise_sigma\": 0.0");
  ASSERT_EQ(run(write_config("zero.json", with_series(zero, kTMax)), dir_ / "zero", "--backend cpu").rc, 0);
  ASSERT_EQ(run(write_config("det.json", with_series(c.body, kTMax)), dir_ / "det", "--backend cpu").rc, 0);
  const std::vector<double> a = npy_values<double>(dir_ / "zero" / "height_series.npy");
  const std::vector<double> b = npy_values<double>(dir_ / "det" / "height_series.npy");
  ASSERT_EQ(a.size(), b.size());
  double worst = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) worst = std::max(worst, std::fabs(a[i] - b[i]));
  std::printf("sigma = 0 against the deterministic series: %.2g\n", worst);
  EXPECT_LE(worst, kSigmaZeroTolerance);
}

TEST_F(HeightSeriesTest, BadConfigsExit2NamingTheKey) {
  const Case& c = kCases[0];
  struct Bad {
    std::string text, key, says;
  };
  std::string no_grid = config(c.body, kTMax, R"(["status", "height_series"])");
  std::string no_observable = with_series(c.body, kTMax);
  no_observable.replace(no_observable.find(R"(, "height_series"])"), 18, "]");
  std::string no_t_max = with_series(c.body, kTMax);
  no_t_max.replace(no_t_max.find(R"("t_max": 4)"), 10, R"("max_events": 5)");
  const std::string strip =
      R"({"outputs": {"height_series": {"points": 5}}, "system": "roll3:strip", "parameters": {"r": 0.1, "gamma": 0.6}, "stop": {"t_max": 1.0}})";
  std::string with_lyapunov = with_series(c.body, kTMax);
  with_lyapunov.replace(with_lyapunov.find(R"(, "height_series"])"), 18, R"(, "height_series", "lyapunov"])");
  std::string one_point = with_series(c.body, kTMax);
  one_point.replace(one_point.find(R"("points": 9)"), 11, R"("points": 1)");
  const Bad bad[] = {
      {no_grid, "observables[1]", "needs its times; give outputs.height_series"},
      {no_observable, "outputs.height_series", "add \"height_series\" to observables"},
      {no_t_max, "outputs.height_series", "give stop.t_max"},
      {strip, "outputs.height_series", "not by system roll3:strip"},
      {with_lyapunov, "outputs.height_series", "not sampled with the Lyapunov exponents"},
      {one_point, "outputs.height_series.points", ""},
  };
  for (const Bad& b : bad) {
    const CliResult r = run(write_config("bad.json", b.text), dir_ / "bad", "--backend cpu");
    EXPECT_EQ(r.rc, 2) << b.key << describe(r);
    EXPECT_NE(r.err.find(b.key), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(b.says), std::string::npos) << r.err;
  }
}

}  // namespace
