// Sampled output of the noisy rolling runs (rolling/noisy_samples.hpp, `skipstone trace --sample
// DT` with `noise`): one row at every multiple of DT, inside the stochastic edge passages too
// (before, a passage had no samples and the next flight emitted the missed ones on its own line
// extended backwards, off the rim); a sample inside a passage lies on the interpolant of the
// steps around it; sampling leaves the trajectory unchanged; at sigma = 0 the samples are the
// deterministic model's (exact stops of its GBS passages) to the scheme's accuracy. roll4:disc
// (slip and roughness), roll4:stadium (slip, over its breaks) and roll3:stadium (roughness under
// in-plane gravity); roll4:disc-transversal's samples (states, not rows) lie on its own steps.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <string>
#include <type_traits>
#include <vector>

#include <nlohmann/json.hpp>

#include "skipstone/simulate.hpp"
#include "skipstone/sinks.hpp"
#include "test_support.hpp"

namespace skipstone {
namespace {

using testing::config_from;

constexpr double kDt = 1.0 / 64.0;  // exact in binary: k DT hits t_max exactly
constexpr double kTMax = 6.0;
// A sample inside a passage against the straight line between the two steps around it
// (noise_dt h = 2.5e-4): they differ by how the path bends over a step. The noise enters the
// rates of the smooth components, whose derivative is then only Hoelder-1/2 continuous, so the
// difference goes like h^1.5 (measured 4e-6 to 9e-6) besides the curvature's h^2 / 8 |y''|; a
// sample off the rim (the flight's line, as before) is off by O(0.1).
constexpr double kInterpolationTolerance = 5e-5;
// sigma = 0 samples (noise_dt 1e-4, Heun and the Hermite interpolant) against the deterministic
// samples (GBS, rtol = atol = 1e-12): the scheme's error over a few passages, ~(noise_dt |v| / r)^2
// per passage (tests/test_noisy_tables.cpp uses the same bound on the run's observables).
constexpr double kSigmaZeroTolerance = 1e-4;

struct Row {
  double t;
  Vec3 x, u, w, nu;
};

double row_diff(const Row& a, const Row& b) {
  const Vec3 d[] = {a.x - b.x, a.u - b.u, a.w - b.w, a.nu - b.nu};
  double e = 0.0;
  for (const Vec3& v : d) e = std::max({e, std::fabs(v.x), std::fabs(v.y), std::fabs(v.z)});
  return e;
}

// A row inside an edge passage: the in-plane part sin(phi) e1 of nu (0 on a face, where roll3's
// nu is the face's normal e3, and at an entry or exit).
bool on_the_edge(const Row& r) { return r.nu.x != 0.0 || r.nu.y != 0.0; }

// Keeps every event (the passages' steps among them); no samples asked for.
struct EventRecorder {
  std::vector<Row> events = {};
  template <class V, class S>
  void on_event(double t, V x, const S& s, V nu) {
    if constexpr (std::is_same_v<V, Vec3> && std::is_same_v<S, State3D>) events.push_back({t, x, s.u, s.w, nu});
  }
  template <class T>
  void on_step(T, const T*) {}
};

// Keeps the samples at k DT too.
struct Recorder : EventRecorder {
  explicit Recorder(double step) : dt(step) {}
  double dt;
  double k = 0.0;
  std::vector<Row> samples = {};
  double next_sample() const { return k * dt; }
  template <class V, class S>
  void on_sample(double t, V x, const S& s, V nu) {  // 3D rows only (the systems tested here)
    if constexpr (std::is_same_v<V, Vec3>) samples.push_back({t, x, s.u, s.w, nu});
    k += 1.0;
  }
};

struct Case {
  const char* name;
  nlohmann::json config;
};

nlohmann::json noisy(nlohmann::json c, int kind, double sigma, double dt) {
  c["parameters"]["noise"] = kind;
  c["parameters"]["noise_sigma"] = sigma;
  c["parameters"]["noise_tau"] = 0.2;
  c["parameters"]["noise_dt"] = dt;
  c["stop"] = {{"t_max", kTMax}};
  c["options"] = {{"max_steps", 100000000}, {"rtol", 1e-12}, {"atol", 1e-12}};
  return c;
}

const nlohmann::json kDisc = nlohmann::json::parse(R"({"system": "roll4:disc",
    "parameters": {"R": 1.0, "r": 0.1, "eta": 0.5, "g_effective": 1.0},
    "initial": {"start": "plate", "x1": 0.5, "x2": 0.0, "z": 0.2, "v1": -0.8, "v2": 1.0, "v3": 0.0,
                "S12": 0.61, "S13": 0.0, "S23": -1.0}})");
const nlohmann::json kStadium4 = nlohmann::json::parse(R"({"system": "roll4:stadium",
    "parameters": {"half_length": 1.0, "R": 1.0, "r": 0.1, "eta": 0.5, "g_effective": 1.0},
    "initial": {"start": "plate", "x1": 0.3, "x2": 0.0, "z": 0.0, "v1": 0.9, "v2": 1.0, "v3": 0.2,
                "S12": 0.3, "S13": 0.1, "S23": -0.2}})");
const nlohmann::json kStadium3 = nlohmann::json::parse(R"({"system": "roll3:stadium",
    "parameters": {"half_length": 1.0, "R": 1.0, "r": 0.1, "gamma": 0.6325, "g": 1.0},
    "initial": {"start": "plate", "x1": 0.5, "x2": 0.3, "v1": 1.0, "v2": 1.4, "S12": -0.6}})");

std::vector<Case> cases(double sigma, double dt) {
  return {{"roll4:disc slip", noisy(kDisc, kNoiseSlip, sigma, dt)},
          {"roll4:disc roughness", noisy(kDisc, kNoiseRoughness, sigma, dt)},
          {"roll4:stadium slip", noisy(kStadium4, kNoiseSlip, sigma, dt)},
          {"roll3:stadium roughness", noisy(kStadium3, kNoiseRoughness, sigma, dt)}};
}

TEST(NoisySamples, EveryMultipleOfDtInsidePassagesOnTheStepsInterpolant) {
  for (const Case& c : cases(0.3, 2.5e-4)) {
    const RunConfig rc = config_from(c.config);
    Recorder rec(kDt);
    const TrajectoryResult res = simulate_trajectory(rc.spec, 0, rec);
    ASSERT_EQ(res.status, Status::finished) << c.name;
    ASSERT_GE(res.events, 3u) << c.name;
    ASSERT_EQ(rec.samples.size(), static_cast<std::size_t>(kTMax / kDt) + 1) << c.name;
    int inside = 0;
    double worst = 0.0;
    std::size_t b = 0;  // the first event at or after the sample
    for (std::size_t k = 0; k < rec.samples.size(); ++k) {
      const Row& s = rec.samples[k];
      ASSERT_EQ(s.t, k * kDt) << c.name;
      while (b < rec.events.size() && rec.events[b].t < s.t) ++b;
      if (b == 0 || b == rec.events.size()) continue;
      const Row &ea = rec.events[b - 1], &eb = rec.events[b];
      if (!on_the_edge(ea) && !on_the_edge(eb)) continue;  // on a face: a closed-form flight
      ++inside;
      EXPECT_TRUE(on_the_edge(s)) << c.name << ": sample " << k << " at t = " << s.t << " is not on the edge";
      const double f = (s.t - ea.t) / (eb.t - ea.t);
      const auto lerp = [f](Vec3 p, Vec3 q) { return p + f * (q - p); };
      const Row line{s.t, lerp(ea.x, eb.x), lerp(ea.u, eb.u), lerp(ea.w, eb.w), lerp(ea.nu, eb.nu)};
      worst = std::max(worst, row_diff(s, line));
    }
    std::printf("%s: %zu samples, %d inside %llu passages; largest distance to the steps' line %.2g\n", c.name,
                rec.samples.size(), inside, static_cast<unsigned long long>(res.events), worst);
    EXPECT_GT(inside, 20) << c.name;
    EXPECT_LE(worst, kInterpolationTolerance) << c.name;

    // sampling leaves the trajectory unchanged
    EventRecorder plain;
    const TrajectoryResult unsampled = simulate_trajectory(rc.spec, 0, plain);
    EXPECT_EQ(res.events, unsampled.events) << c.name;
    EXPECT_EQ(res.steps, unsampled.steps) << c.name;
    EXPECT_EQ(res.z_final, unsampled.z_final) << c.name;
    EXPECT_EQ(res.energy_error, unsampled.energy_error) << c.name;
    ASSERT_EQ(rec.events.size(), plain.events.size()) << c.name;
    for (std::size_t i = 0; i < plain.events.size(); ++i) EXPECT_EQ(row_diff(rec.events[i], plain.events[i]), 0.0) << c.name;
  }
}

TEST(NoisySamples, SigmaZeroSamplesAreTheDeterministicModels) {
  for (const Case& c : cases(0.0, 1e-4)) {
    nlohmann::json plain = c.config;
    plain["parameters"].erase("noise");
    Recorder a(kDt), b(kDt);
    const TrajectoryResult ra = simulate_trajectory(config_from(plain).spec, 0, a);
    const TrajectoryResult rb = simulate_trajectory(config_from(c.config).spec, 0, b);
    ASSERT_EQ(ra.status, rb.status) << c.name;
    ASSERT_EQ(ra.events, rb.events) << c.name;
    ASSERT_EQ(a.samples.size(), b.samples.size()) << c.name;
    double worst = 0.0;
    int inside = 0;
    for (std::size_t k = 0; k < a.samples.size(); ++k) {
      worst = std::max(worst, row_diff(a.samples[k], b.samples[k]));
      inside += on_the_edge(a.samples[k]);
    }
    std::printf("%s at sigma = 0: %d of %zu samples on the edge; largest difference to the deterministic samples %.2g\n",
                c.name, inside, a.samples.size(), worst);
    EXPECT_GT(inside, 20) << c.name;
    EXPECT_LE(worst, kSigmaZeroTolerance) << c.name;
  }
}

// ---- roll4:disc-transversal: one run, its samples on its own steps ----
// The states a state-sample sink (takes_state_samples, as `trace --sample` uses) gets from a
// noisy Figure-18 passage: one at every multiple of DT up to the exit, each on the interpolant of
// the steps around it (the noise components linear in time), the steps the same as without
// samples. A run stopped at the sample time instead ends on a shortened step whose increment
// sqrt(theta h) xi is not the path's theta sqrt(h) xi: its noise differs by about
// sigma sqrt(2 h / tau) (sqrt(theta) - theta) |xi| (~1e-3 here).
struct TransversalRecorder {
  static constexpr int N = NoisyTransversalSystem::N;
  explicit TransversalRecorder(double step) : dt(step) {}
  double dt;
  double k = 0.0;
  std::vector<double> step_t = {}, sample_t = {};
  std::vector<std::array<double, N>> steps = {}, samples = {};
  double next_sample() const { return k * dt; }
  void on_sample(double t, const double* y) {
    sample_t.push_back(t);
    samples.push_back(state(y));
    k += 1.0;
  }
  void on_step(double t, const double* y) {
    step_t.push_back(t);
    steps.push_back(state(y));
  }
  static std::array<double, N> state(const double* y) {
    std::array<double, N> s;
    std::copy(y, y + N, s.begin());
    return s;
  }
};

// The last step of a run: its state.
struct LastStep {
  std::array<double, NoisyTransversalSystem::N> y = {};
  void on_step(double, const double* s) { std::copy(s, s + NoisyTransversalSystem::N, y.begin()); }
};

TEST(NoisySamples, TransversalSamplesLieOnTheRunsOwnSteps) {
  // h = 2.5e-4 and DT = 1/64: most samples fall inside a step
  constexpr int kFirstNoise = NoisyTransversalSystem::kFirstNoise;
  constexpr double kNoiseLinear = 1e-12;          // a linear interpolation's rounding
  constexpr double kStoppedRunNoiseApart = 1e-5;  // far below the expected ~1e-3
  const nlohmann::json cfg = nlohmann::json::parse(R"({"system": "roll4:disc-transversal",
      "parameters": {"R": 1.0, "r": 1.0, "eta": 0.5, "noise": 1, "noise_sigma": 0.3, "noise_tau": 0.5,
                     "noise_dt": 0.00025},
      "initial": {"start": "rim_entry", "speed": 1.0, "v2": 0.3, "S12": 0.3},
      "stop": {"t_max": 40.0}, "options": {"max_steps": 100000000}})");
  const RunConfig rc = config_from(cfg);
  using Transversal = Variant<ModelKind::roll_disc_transversal, TableKind::none, Precision::float64, GravityKind::any>;
  TransversalRecorder rec(kDt);
  const TrajectoryResult res = simulate_variant<Transversal>(rc.spec, 0, rec);
  ASSERT_EQ(res.status, Status::exited);
  ASSERT_EQ(rec.samples.size(), static_cast<std::size_t>(std::floor(res.exit_time / kDt)) + 1);

  // the steps as without samples
  TransversalRecorder plain(INFINITY);
  plain.k = 1.0;  // next_sample() = inf: none due
  const TrajectoryResult unsampled = simulate_variant<Transversal>(rc.spec, 0, plain);
  EXPECT_EQ(unsampled.exit_time, res.exit_time);
  ASSERT_EQ(plain.steps, rec.steps);

  double worst_noise = 0.0, stopped_apart = 0.0;
  int inside = 0;
  std::size_t b = 0;  // the first step at or after the sample
  for (std::size_t k = 0; k < rec.samples.size(); ++k) {
    const double ts = rec.sample_t[k];
    ASSERT_EQ(ts, k * kDt);
    while (b < rec.step_t.size() && rec.step_t[b] < ts) ++b;
    ASSERT_LT(b, rec.step_t.size());
    if (rec.step_t[b] == ts) {
      EXPECT_EQ(rec.samples[k], rec.steps[b]) << "a sample at a step point is that step";
      continue;
    }
    ++inside;
    const double f = (ts - rec.step_t[b - 1]) / (rec.step_t[b] - rec.step_t[b - 1]);
    for (int i = kFirstNoise; i < TransversalRecorder::N; ++i) {
      const double line = rec.steps[b - 1][i] + f * (rec.steps[b][i] - rec.steps[b - 1][i]);
      worst_noise = std::max(worst_noise, std::fabs(rec.samples[k][i] - line));
    }
    if (k % 64 == 1) {  // a run stopped at the sample time: another path's noise there
      RunConfig stopped = rc;
      stopped.spec.t_max = ts;
      LastStep last;
      simulate_variant<Transversal>(stopped.spec, 0, last);
      for (int i = kFirstNoise; i < TransversalRecorder::N; ++i)
        stopped_apart = std::max(stopped_apart, std::fabs(last.y[i] - rec.samples[k][i]));
    }
  }
  std::printf("roll4:disc-transversal slip: %zu samples (%d inside steps) to the exit at %.4g; noise off the steps' line "
              "%.2g; a run stopped at the sample time off by up to %.2g\n",
              rec.samples.size(), inside, res.exit_time, worst_noise, stopped_apart);
  EXPECT_GT(inside, 100);
  EXPECT_LE(worst_noise, kNoiseLinear);
  EXPECT_GT(stopped_apart, kStoppedRunNoiseApart);
}

}  // namespace
}  // namespace skipstone
