// test_escape.cpp — holes in the wall (stop.holes), the survival probability (outputs.survival)
// and the observables escape_time, hole, mean_free_time and coverage, end to end through the
// CLI: the specular disc, where every chord has the same length and the boundary parameter
// advances by a fixed step, so the escape bounce is known exactly; P(t) against the escape
// times and across chunks and shards; the stadium's escape rate and Santaló's mean free path;
// coverage of a periodic orbit; bad input exits 2 naming the key.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#include "cli_support.hpp"
#include "npy_values.hpp"

namespace {

using namespace skipstone::testing;

class EscapeTest : public CliTest {};

constexpr double kS0 = 0.05;  // start of the disc trajectories
constexpr double kHoleLo = 0.62, kHoleHi = 0.66;
constexpr int kAngles = 9;
constexpr double kAngleMin = -1.2, kAngleMax = 1.2;
constexpr double kDiscTMax = 400.0;

// Specular (gamma = 0) disc of radius 1 from the wall at kS0, over the launch angle, with one hole.
std::string disc_config(const std::string& observables, const std::string& extra_outputs = "") {
  return R"({"system": "disc", "parameters": {"R": 1.0, "gamma": 0.0},
  "initial": {"start": "boundary", "boundary_s": )" + std::to_string(kS0) + R"(, "speed": 1.0},
  "scan": {"type": "grid", "axes": [{"param": "angle", "min": )" + std::to_string(kAngleMin) + R"(, "max": )" +
         std::to_string(kAngleMax) + R"(, "n": )" + std::to_string(kAngles) + R"(}]},
  "stop": {"t_max": )" + std::to_string(kDiscTMax) + R"(, "holes": [[0.2, 0.21], [)" + std::to_string(kHoleLo) + ", " +
         std::to_string(kHoleHi) + R"(]]},
  "observables": )" + observables + R"(, "outputs": {)" + extra_outputs + "}}";
}

// The specular disc: from the wall point at angle 2 pi s0 the ball leaves at `angle` from the
// inward normal nu (towards J nu for angle > 0), and every chord turns the boundary parameter by
// the same step. Where the n-th wall hit lies, and the chord length.
struct DiscOrbit {
  double step, chord;
  explicit DiscOrbit(double angle) {
    const double th = 2.0 * M_PI * kS0, px = std::cos(th), py = std::sin(th);
    const double nx = -px, ny = -py;
    const double dx = std::cos(angle) * nx - std::sin(angle) * ny, dy = std::cos(angle) * ny + std::sin(angle) * nx;
    chord = -2.0 * (px * dx + py * dy);
    double s1 = std::atan2(py + chord * dy, px + chord * dx) / (2.0 * M_PI);
    step = s1 - kS0 - std::floor(s1 - kS0);
  }
  double s(int n) const {
    const double v = kS0 + n * step;
    return v - std::floor(v);
  }
};

// The exact escape: the first wall hit inside a hole ends the trajectory at n chords; the
// escape bounce, the hole and the escape time follow from the fixed step alone.
TEST_F(EscapeTest, SpecularDiscEscapesAtTheBounceThatTheFixedStepPredicts) {
  constexpr double kEscapeTime = 1e-10;  // relative: n chords of rounding in the flights
  constexpr double kHoleEdgeMargin = 1e-6;  // the predicted hits keep this far from the hole edges
  const fs::path cfg = write_config("disc.json", disc_config(R"(["status", "events", "escape_time", "hole"])"));
  const CliResult r = run(cfg, dir_ / "out", "--backend cpu");
  ASSERT_EQ(r.rc, 0) << describe(r);
  const std::vector<std::int8_t> status = npy_values<std::int8_t>(dir_ / "out" / "status.npy");
  const std::vector<std::uint64_t> events = npy_values<std::uint64_t>(dir_ / "out" / "events.npy");
  const std::vector<double> te = npy_values<double>(dir_ / "out" / "escape_time.npy");
  const std::vector<double> hole = npy_values<double>(dir_ / "out" / "hole.npy");
  ASSERT_EQ(status.size(), static_cast<std::size_t>(kAngles));
  int escaped = 0, survived = 0;
  const double lo[2] = {0.2, kHoleLo}, hi[2] = {0.21, kHoleHi};
  for (int i = 0; i < kAngles; ++i) {
    const double angle = kAngleMin + (kAngleMax - kAngleMin) * i / (kAngles - 1);
    const DiscOrbit orbit(angle);
    int n = 1, which = -1;
    for (; n * orbit.chord <= kDiscTMax; ++n) {
      const double s = orbit.s(n);
      for (int k = 0; k < 2; ++k) {
        ASSERT_GT(std::fabs(s - lo[k]), kHoleEdgeMargin) << "angle " << angle << ": choose other holes";
        ASSERT_GT(std::fabs(s - hi[k]), kHoleEdgeMargin) << "angle " << angle << ": choose other holes";
        if (s >= lo[k] && s < hi[k]) which = k;
      }
      if (which >= 0) break;
    }
    if (which < 0) {
      ++survived;
      EXPECT_EQ(status[i], 0) << angle;
      EXPECT_TRUE(std::isnan(te[i])) << angle;
      EXPECT_EQ(hole[i], -1.0) << angle;
      continue;
    }
    ++escaped;
    EXPECT_EQ(status[i], 8) << angle;  // through_hole
    EXPECT_EQ(events[i], static_cast<std::uint64_t>(n - 1)) << angle;  // the hit in the hole is no impact
    EXPECT_NEAR(te[i], n * orbit.chord, kEscapeTime * n * orbit.chord) << angle;
    EXPECT_EQ(hole[i], static_cast<double>(which)) << angle;
  }
  EXPECT_GT(escaped, 2);
  EXPECT_GT(survived, 0);  // angle 0: the diameter, s0 and s0 + 1/2 only
  // the trace of an escaping trajectory ends at the escape point, on the wall, at escape_time
  const int i = status[0] == 8 ? 0 : kAngles - 1;
  ASSERT_EQ(status[i], 8);
  const fs::path csv = dir_ / "trace.csv";
  const CliResult t = skipstone("trace " + shell_quote(cfg.string()) + " --index " + std::to_string(i) + " --out " +
                                shell_quote(csv.string()));
  ASSERT_EQ(t.rc, 0) << describe(t);
  const std::string text = read_text(csv);
  const std::string last = text.substr(text.rfind('\n', text.size() - 2) + 1);
  double event = 0, time = 0, x = 0, y = 0;
  ASSERT_EQ(std::sscanf(last.c_str(), "%lf,%lf,%lf,%lf", &event, &time, &x, &y), 4) << last;
  EXPECT_EQ(time, te[i]);
  EXPECT_NEAR(std::hypot(x, y), 1.0, kEscapeTime);
  // an escape is not a failure: the run's summary counts it apart and averages its observables
  const json meta = read_json(dir_ / "out" / "meta.json");
  EXPECT_EQ(meta.at("status_counts").at("through_hole"), escaped);
  EXPECT_EQ(meta.at("escape").at("escaped"), escaped);
  EXPECT_EQ(meta.at("escape").at("trajectories"), kAngles);
  EXPECT_EQ(meta.at("observables").at("escape_time").at("stats").at("count"), escaped);
}

// Every chord of a specular disc trajectory has the length 2 R cos(angle): the mean free time
// is the chord over the speed, up to the rounding of the clock.
TEST_F(EscapeTest, MeanFreeTimeInTheSpecularDiscIsTheChordOverTheSpeed) {
  constexpr double kMeanFreeTime = 1e-12;  // relative
  const fs::path cfg = write_config("disc.json", disc_config(R"(["status", "events", "mean_free_time"])"));
  const CliResult r = run(cfg, dir_ / "out", "--backend cpu");
  ASSERT_EQ(r.rc, 0) << describe(r);
  const std::vector<std::uint64_t> events = npy_values<std::uint64_t>(dir_ / "out" / "events.npy");
  const std::vector<double> mft = npy_values<double>(dir_ / "out" / "mean_free_time.npy");
  for (int i = 0; i < kAngles; ++i) {
    const double angle = kAngleMin + (kAngleMax - kAngleMin) * i / (kAngles - 1);
    const double chord = 2.0 * std::cos(angle);
    if (events[i] < 2) {
      EXPECT_TRUE(std::isnan(mft[i])) << angle;
      continue;
    }
    EXPECT_NEAR(mft[i], chord, kMeanFreeTime * chord) << angle;
  }
}

// A uniform (Liouville) sample of the specular stadium (half_length 1, R 1): positions over the
// bounding box (those outside are masked), directions over the circle.
std::string stadium_config(int count, double t_max, const std::string& stop_extra, const std::string& observables,
                           const std::string& outputs, const std::string& options = "{}") {
  return R"({"system": "stadium", "parameters": {"half_length": 1.0, "R": 1.0, "gamma": 0.0},
  "initial": {"start": "interior", "speed": 1.0},
  "scan": {"type": "random", "count": )" + std::to_string(count) + R"(, "seed": 7, "axes": [
    {"param": "x", "min": -2.0, "max": 2.0}, {"param": "y", "min": -1.0, "max": 1.0},
    {"param": "angle", "min": 0.0, "max": 6.283185307179586}]},
  "stop": {"t_max": )" + std::to_string(t_max) + stop_extra + R"(},
  "observables": )" + observables + R"(, "outputs": )" + outputs + R"(, "options": )" + options + "}";
}

const char* const kStadiumHole = R"(, "holes": [[0.30, 0.35]])";  // on the left... a cap: s in [0.19, 0.5)

// P(t) counts the trajectories inside at each grid time: it never grows, it equals the number
// of ok trajectories whose escape_time is NaN or > t, and chunks, shards + merge give the same
// bytes.
TEST_F(EscapeTest, SurvivalCountsAreTheEscapeTimesAndDoNotDependOnChunksOrShards) {
  const std::string obs = R"(["status", "escape_time", "hole"])", out = R"({"survival": {"points": 41}})";
  const fs::path one = write_config("one.json", stadium_config(600, 100.0, kStadiumHole, obs, out));
  const fs::path chunked =
      write_config("chunked.json", stadium_config(600, 100.0, kStadiumHole, obs, out, R"({"chunk_size": 64})"));
  expect_same_files_over_chunks_and_shards(one, chunked, {"survival.npy", "survival_times.npy", "escape_time.npy"});
  if (HasFatalFailure()) return;
  const std::vector<std::uint64_t> counts = npy_values<std::uint64_t>(dir_ / "one" / "survival.npy");
  const std::vector<double> times = npy_values<double>(dir_ / "one" / "survival_times.npy");
  const std::vector<std::int8_t> status = npy_values<std::int8_t>(dir_ / "one" / "status.npy");
  const std::vector<double> te = npy_values<double>(dir_ / "one" / "escape_time.npy");
  ASSERT_EQ(counts.size(), 41u);
  ASSERT_EQ(times.size(), 41u);
  EXPECT_EQ(times.front(), 0.0);
  EXPECT_EQ(times.back(), 100.0);
  for (std::size_t k = 0; k < counts.size(); ++k) {
    std::uint64_t inside = 0;
    for (std::size_t i = 0; i < status.size(); ++i)
      if ((status[i] == 0 || status[i] == 8) && !(te[i] <= times[k])) ++inside;
    EXPECT_EQ(counts[k], inside) << "t = " << times[k];
    if (k > 0) {
      EXPECT_LE(counts[k], counts[k - 1]) << "t = " << times[k];
    }
  }
  EXPECT_LT(counts.back(), counts.front());  // some escaped
  const json meta = read_json(dir_ / "one" / "meta.json");
  EXPECT_EQ(meta.at("escape").at("trajectories"), counts.front());
  EXPECT_EQ(meta.at("escape").at("escaped").get<std::uint64_t>(), counts.front() - counts.back());
}

// A hole in an ergodic table: the flux of the uniform ensemble through it gives the escape rate
// kappa = |u| (hole length) / (pi Area), the hole's share of the wall per mean free path
// (pi A / P). The decay is exponential only roughly: the stadium's slowly mixing orbits (the
// bouncing ball between the flat walls, the whispering gallery along the caps) escape later, and
// over t in [20, 150] the fitted rate is about 0.7 kappa (4000 trajectories); a sanity check
// with a loose tolerance, failing for a hole of the wrong size or none.
TEST_F(EscapeTest, StadiumSurvivalDecaysAtAboutTheFluxRateOfTheHole) {
  constexpr double kRate = 0.4;  // relative
  const double perimeter = 4.0 + 2.0 * M_PI, area = 4.0 + M_PI;
  const double rate = 0.05 * perimeter / (M_PI * area);
  const fs::path cfg = write_config(
      "stadium.json", stadium_config(4000, 150.0, kStadiumHole, R"(["status", "escape_time"])", R"({"survival": {"points": 16}})"));
  const CliResult r = run(cfg, dir_ / "out", "--backend cpu");
  ASSERT_EQ(r.rc, 0) << describe(r);
  const std::vector<std::uint64_t> counts = npy_values<std::uint64_t>(dir_ / "out" / "survival.npy");
  const std::vector<double> times = npy_values<double>(dir_ / "out" / "survival_times.npy");
  // least-squares slope of log P over t >= 20 (past the transient of the first flights)
  double n = 0, st = 0, sy = 0, stt = 0, sty = 0;
  for (std::size_t k = 0; k < counts.size(); ++k) {
    if (times[k] < 20.0) continue;
    ASSERT_GT(counts[k], 20u) << "too few survivors at t = " << times[k];
    const double y = std::log(static_cast<double>(counts[k]) / static_cast<double>(counts[0]));
    n += 1, st += times[k], sy += y, stt += times[k] * times[k], sty += times[k] * y;
  }
  const double slope = (n * sty - st * sy) / (n * stt - st * st);
  EXPECT_NEAR(-slope, rate, kRate * rate);
}

// Santaló's formula: the mean free path of a 2D billiard under its Liouville measure is
// pi Area / Perimeter. The stadium is ergodic: each trajectory's mean flight time converges to
// it (speed 1); the sample's mean is checked.
TEST_F(EscapeTest, StadiumMeanFreePathIsSantalosPiAreaOverPerimeter) {
  constexpr double kMeanFreePath = 0.02;  // relative: about 230 trajectories x 900 impacts
  const double expected = M_PI * (4.0 + M_PI) / (4.0 + 2.0 * M_PI);
  const fs::path cfg = write_config("stadium.json", stadium_config(256, 2000.0, "", R"(["status", "mean_free_time"])", "{}"));
  const CliResult r = run(cfg, dir_ / "out", "--backend cpu");
  ASSERT_EQ(r.rc, 0) << describe(r);
  const json stats = read_json(dir_ / "out" / "meta.json").at("observables").at("mean_free_time").at("stats");
  EXPECT_GT(stats.at("count").get<int>(), 150);
  EXPECT_NEAR(stats.at("mean").get<double>(), expected, kMeanFreePath * expected);
}

// The diameter of the disc (angle 0) hits s0 and s0 + 1/2 with p = 0: one cell of a grid with one
// s bin, coverage 1 / cells; every coverage is a fraction in [0, 1], and in the ergodic stadium
// a long trajectory visits nearly every cell of a coarse grid.
TEST_F(EscapeTest, CoverageIsAFractionAndOneCellForThePeriodicDiameter) {
  constexpr double kErgodicCoverage = 0.9;  // of 10 x 10 cells after about 1400 impacts
  const fs::path cfg = write_config(
      "disc.json", disc_config(R"(["status", "coverage"])", R"("coverage": {"bins": [1, 5]})"));
  CliResult r = run(cfg, dir_ / "disc", "--backend cpu");
  ASSERT_EQ(r.rc, 0) << describe(r);
  const std::vector<double> cov = npy_values<double>(dir_ / "disc" / "coverage.npy");
  ASSERT_EQ(cov.size(), static_cast<std::size_t>(kAngles));
  EXPECT_EQ(cov[kAngles / 2], 1.0 / 5.0);  // angle 0
  for (double c : cov) {
    EXPECT_GE(c, 0.0);
    EXPECT_LE(c, 1.0);
  }
  const fs::path st = write_config("stadium.json", stadium_config(32, 3000.0, "", R"(["status", "coverage"])",
                                                                  R"({"coverage": {"bins": [10, 10]}})"));
  r = run(st, dir_ / "stadium", "--backend cpu");
  ASSERT_EQ(r.rc, 0) << describe(r);
  const std::vector<std::int8_t> status = npy_values<std::int8_t>(dir_ / "stadium" / "status.npy");
  const std::vector<double> sc = npy_values<double>(dir_ / "stadium" / "coverage.npy");
  for (std::size_t i = 0; i < sc.size(); ++i) {
    if (status[i] != 0) continue;
    EXPECT_GT(sc[i], kErgodicCoverage) << i;
    EXPECT_LE(sc[i], 1.0) << i;
  }
}

TEST_F(EscapeTest, BadInputExitsTwoNamingTheKey) {
  const auto disc = [](const std::string& stop, const std::string& observables, const std::string& outputs) {
    return R"({"system": "disc", "parameters": {"gamma": 0.5}, "initial": {"start": "interior", "x": 0.1, "y": 0.2},
      "scan": {"type": "random", "count": 4, "axes": [{"param": "angle", "min": 0, "max": 1}]},
      "stop": )" + stop + R"(, "observables": )" + observables + R"(, "outputs": )" + outputs + "}";
  };
  // a system without holes, scanned over one of its start keys
  const auto other = [](const std::string& system, const std::string& parameters, const std::string& axis) {
    return R"({"system": ")" + system + R"(", "parameters": )" + parameters +
           R"(, "scan": {"type": "grid", "axes": [{"param": ")" + axis + R"(", "min": 0, "max": 0.1, "n": 2}]},
      "stop": {"t_max": 10, "holes": [[0.1, 0.3]]}})";
  };
  const std::string obs = R"(["status", "escape_time"])";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {disc(R"({"t_max": 10, "holes": [[0.5, 1.2]]})", obs, "{}"), "stop.holes[0]"},
      {disc(R"({"t_max": 10, "holes": [[-0.1, 0.2]]})", obs, "{}"), "stop.holes[0]"},
      {disc(R"({"t_max": 10, "holes": [[0.3, 0.2]]})", obs, "{}"), "stop.holes[0]"},
      {disc(R"({"t_max": 10, "holes": [[0.1, 0.3], [0.2, 0.4]]})", obs, "{}"), "stop.holes[1]"},
      {disc(R"({"t_max": 10, "holes": [0.1, 0.3]})", obs, "{}"), "stop.holes[0]"},
      {disc(R"({"t_max": 10, "holes": []})", obs, "{}"), "stop.holes"},
      {disc(R"({"t_max": 10})", obs, "{}"), "observables[1]"},
      {disc(R"({"t_max": 10})", R"(["status", "coverage"])", "{}"), "observables[1]"},
      {disc(R"({"t_max": 10, "holes": [[0.1, 0.3]]})", R"(["status"])", R"({"survival": {"points": 10}})"),
       "outputs.survival"},
      {disc(R"({"t_max": 10, "max_events": 5, "holes": [[0.1, 0.3]]})", obs, R"({"survival": {"points": 10}})"),
       "outputs.survival"},
      {disc(R"({"t_max": 10, "holes": [[0.1, 0.3]]})", obs, R"({"survival": {"points": 1}})"), "outputs.survival.points"},
      {disc(R"({"t_max": 10})", R"(["status", "coverage"])", R"({"coverage": {"bins": [4]}})"), "outputs.coverage.bins"},
      {other("sphere", R"({"gamma": 0.5})", "x"), "stop.holes"},
      {other("roll3:strip", R"({"r": 0.1, "eta": 0.5})", "x1"), "stop.holes"},
      {other("roll4:planes", R"({"r": 0.1, "eta": 0.5})", "x1"), "stop.holes"},
  };
  for (const auto& [config, key] : cases) {
    const fs::path cfg = write_config("bad.json", config);
    const CliResult r = run(cfg, dir_ / "bad");
    EXPECT_EQ(r.rc, 2) << config << "\n" << describe(r);
    EXPECT_NE(r.err.find(key), std::string::npos) << key << "\n" << describe(r);
    EXPECT_FALSE(fs::exists(dir_ / "bad")) << config;
  }
}

}  // namespace
