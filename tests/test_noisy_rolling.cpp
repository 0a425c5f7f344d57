// Noisy constraints on the Figure-18 system (include/skipstone/rolling/noisy_transversal.hpp):
// sigma = 0 gives the deterministic passage; roughness (type 2) conserves E1 on every noise path
// to the integrator's accuracy while slip (type 1) changes it; the stochastic Heun scheme's
// observed strong order (against a run at 1/16 of the finest step on the same Brownian path, and
// on a linear system against its exact solution on the same path) and weak order (on that
// linear system, whose moments are known in closed form) against the design orders 1 and 2; the counter-based noise: standard normal, reproducible from (seed, index,
// realisation), different between realisations, independent of how a scan is cut into chunks;
// and the config's refusals (float, systems without noise, non-integer noise and realisation);
// on roll4:disc: sigma = 0 gives the deterministic model, roughness keeps both energies, slip
// does not, realisations differ and the results do not depend on the chunking.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "backends.hpp"
#include "config_error.hpp"
#include "skipstone/rolling/noisy_transversal.hpp"
#include "skipstone/simulate.hpp"
#include "strong_order.hpp"
#include "test_support.hpp"

namespace skipstone {
namespace {

using testing::config_from;

constexpr double kDesignWeakOrder = 2.0;  // stochastic Heun, additive noise
// sigma = 0: Heun's global error at noise_dt = 1e-3 over a passage, O(dt^2)
constexpr double kSigmaZeroTolerance = 1e-5;
// roughness: E1 defect of a passage at noise_dt = 1e-3 (Heun's O(dt^2) energy error)
constexpr double kRoughEnergyTolerance = 1e-6;

const DiscTransversalSystem kDisc{-1.0, 0.5, 0.6};  // kappa = -1/R with R = 1, r = 0.5, eta = 0.6

NoisyTransversalSystem noisy(int kind, double sigma, double tau) {
  return {kDisc.kappa, kDisc.r, kDisc.eta, {sigma, tau, kind}};
}

struct Entry {
  double v2, S12;
  double v1() const { return std::sqrt(1.0 - v2 * v2 - S12 * S12); }
};
const Entry kEntries[] = {{0.3, 0.2}, {-0.5, 0.6}, {0.7, -0.4}, {0.1, 0.9}, {-0.2, -0.3}};

struct NoisyPassage {
  Status status;
  int side;
  double t, arc, energy_change;  // |E1(end) - E1(0)| / E1(0)
  double y[NoisyTransversalSystem::N];
};

NoisyPassage noisy_passage(const NoisyTransversalSystem& sys, const Entry& e, double h, double t_max,
                           const CounterNoise& noise) {
  DiscardSink sink;
  const double y0[6] = {e.v1(), e.v2, e.S12, 1.0, 0.0, 0.0};
  const RimRun<8, double> run = integrate_noisy_passage(sys, y0, h, t_max, 10000000, noise, sink);
  const double e1 = run.y[0] * run.y[0] + run.y[1] * run.y[1] + run.y[2] * run.y[2];
  NoisyPassage p{run.status, run.side, run.t, run.y[5], std::fabs(e1 - 1.0), {}};
  for (int k = 0; k < 8; ++k) p.y[k] = run.y[k];
  return p;
}

TEST(NoisyRolling, SigmaZeroGivesTheDeterministicPassage) {
  for (int kind : {kNoiseSlip, kNoiseRoughness}) {
    for (const Entry& e : kEntries) {
      DiscardSink sink;
      const RimPassage ref = integrate_rim_passage<kRimExtrapolationDepth>(kDisc, e.v1(), e.v2, e.S12, 100.0, 1e-12,
                                                                            1e-12, 1000000, sink);
      const NoisyPassage p = noisy_passage(noisy(kind, 0.0, 1.0), e, 1e-3, 100.0, CounterNoise{noise_key(1, 2, 3)});
      ASSERT_EQ(ref.status, Status::exited);
      ASSERT_EQ(p.status, Status::exited) << "kind " << kind;
      EXPECT_EQ(p.side, ref.side) << "kind " << kind << " v2 " << e.v2 << " S12 " << e.S12;
      EXPECT_NEAR(p.t, ref.t, kSigmaZeroTolerance) << "kind " << kind << " v2 " << e.v2 << " S12 " << e.S12;
      EXPECT_NEAR(p.arc, ref.arc, kSigmaZeroTolerance) << "kind " << kind << " v2 " << e.v2 << " S12 " << e.S12;
    }
  }
}

// Noise switched on in a config with noise_sigma = 0: the deterministic kernel's exit times.
TEST(NoisyRolling, SigmaZeroThroughTheConfig) {
  nlohmann::json c = nlohmann::json::parse(R"({"system": "roll4:disc-transversal",
      "parameters": {"R": 1.0, "r": 0.5, "eta": 0.6, "noise": 2, "noise_sigma": 0.0},
      "initial": {"start": "rim_entry", "S12": 0.2},
      "scan": {"type": "grid", "axes": [{"param": "v2", "min": -0.8, "max": 0.8, "n": 9}]},
      "stop": {"t_max": 100.0}})");
  const RunConfig noisy_rc = config_from(c);
  c["parameters"]["noise"] = 0;
  const RunConfig plain_rc = config_from(c);
  for (std::uint64_t i = 0; i < noisy_rc.spec.count; ++i) {
    DiscardSink sink;
    const TrajectoryResult a = simulate_trajectory(noisy_rc.spec, i, sink);
    const TrajectoryResult b = simulate_trajectory(plain_rc.spec, i, sink);
    ASSERT_EQ(a.status, b.status) << i;
    EXPECT_EQ(a.exit_side, b.exit_side) << i;
    EXPECT_NEAR(a.exit_time, b.exit_time, kSigmaZeroTolerance) << i;
  }
}

TEST(NoisyRolling, RoughnessConservesEnergyOnEveryPathSlipDoesNot) {
  double rough_max = 0.0, slip_min = 1.0;
  for (std::uint64_t path = 0; path < 8; ++path) {
    const Entry& e = kEntries[path % 5];
    // the same Brownian path at two steps: the coarse run sums the fine run's increments in pairs
    const CounterNoise noise{noise_key(7, path, 0), 2}, fine{noise_key(7, path, 0), 1};
    const NoisyPassage rough = noisy_passage(noisy(kNoiseRoughness, 0.5, 0.3), e, 1e-3, 100.0, noise);
    const NoisyPassage rough_fine = noisy_passage(noisy(kNoiseRoughness, 0.5, 0.3), e, 5e-4, 100.0, fine);
    const NoisyPassage slip = noisy_passage(noisy(kNoiseSlip, 0.5, 0.3), e, 1e-3, 100.0, noise);
    const NoisyPassage slip_fine = noisy_passage(noisy(kNoiseSlip, 0.5, 0.3), e, 5e-4, 100.0, fine);
    EXPECT_LT(rough.energy_change, kRoughEnergyTolerance) << "path " << path;
    // the defect is the integrator's: it shrinks with the step (Heun: by ~4 per halving)
    EXPECT_LT(rough_fine.energy_change, 0.5 * rough.energy_change) << "path " << path;
    // slip exchanges energy with the contact: a change of the order of sigma, whatever the step
    EXPECT_GT(slip.energy_change, 1e3 * kRoughEnergyTolerance) << "path " << path;
    EXPECT_NEAR(slip_fine.energy_change, slip.energy_change, 0.2 * slip.energy_change) << "path " << path;
    rough_max = std::max(rough_max, rough.energy_change);
    slip_min = std::min(slip_min, slip.energy_change);
  }
  std::printf("|dE1|/E1 per passage at noise_dt 1e-3: roughness at most %.2e, slip at least %.2e\n", rough_max, slip_min);
}

// The RMS over paths of the error at t_max of runs with step h against the run with step
// h_ref on the same Brownian path (the reference's increments summed).
double strong_error(int kind, double h, double h_ref, double t_max, int paths) {
  const NoisyTransversalSystem sys = noisy(kind, 0.5, 0.2);
  const Entry e{0.3, 0.3};  // over the rim towards phi = pi: still on it at t_max
  const auto m = static_cast<std::uint32_t>(std::lround(h / h_ref));
  double sum = 0.0;
  for (int path = 0; path < paths; ++path) {
    const std::uint64_t key = noise_key(11, static_cast<std::uint64_t>(path), 0);
    const NoisyPassage a = noisy_passage(sys, e, h, t_max, CounterNoise{key, m});
    const NoisyPassage ref = noisy_passage(sys, e, h_ref, t_max, CounterNoise{key, 1});
    EXPECT_EQ(a.status, Status::finished);
    EXPECT_EQ(ref.status, Status::finished);
    for (int k : {0, 1, 2, 6, 7}) sum += (a.y[k] - ref.y[k]) * (a.y[k] - ref.y[k]);
  }
  return std::sqrt(sum / paths);
}

TEST(NoisyRolling, ObservedStrongOrderIsTheDesignOrder) {
  const double t_max = 0.5, h_finest = 1.0 / 320;
  for (int kind : {kNoiseSlip, kNoiseRoughness}) {
    const std::string label = "kind " + std::to_string(kind);
    const double order = testing::observed_strong_order(
        1.0 / 40, h_finest, label.c_str(), [&](double h) { return strong_error(kind, h, h_finest / 16, t_max, 64); });
    EXPECT_NEAR(order, testing::kDesignStrongOrder, testing::kOrderSlack) << label;
  }
}

// x' = n, dn = -n/tau dt + sigma sqrt(2/tau) dW, x(0) = 0, n(0) = n0: x(T) is Gaussian with
// mean n0 tau (1 - e^{-T/tau}) and variance sigma^2 (2 tau T - 2 tau^2 a - tau^2 a^2), a = 1 - e^{-T/tau}.
struct LinearOu {
  double sigma, tau;
  static constexpr int N = 2;
  static constexpr int kFirstNoise = 1;
  int noises() const { return 1; }
  double diffusion() const { return sigma * std::sqrt(2.0 / tau); }
  void drift(const double* y, double* f) const {
    f[0] = y[1];
    f[1] = -y[1] / tau;
  }
};

// E[x(T)^2] of the Heun scheme with step T/steps, exactly: the scheme is linear, so x(T) is its
// run without noise plus sum_j c_j dW_j, c_j its response to a unit increment at step j.
double heun_second_moment(const LinearOu& sys, double n0, double T, int steps) {
  const double h = T / steps;
  const auto run = [&](double y1, int kick) {
    double y[2] = {0.0, y1}, f[2], y_new[2];
    for (int j = 0; j < steps; ++j) {
      const double dW = j == kick ? 1.0 : 0.0;
      sys.drift(y, f);
      heun_step(sys, y, f, h, &dW, y_new);
      y[0] = y_new[0];
      y[1] = y_new[1];
    }
    return y[0];
  };
  const double mean = run(n0, -1);
  double var = 0.0;
  for (int j = 0; j < steps; ++j) var += run(0.0, j) * run(0.0, j) * h;
  return mean * mean + var;
}

TEST(NoisyRolling, ObservedWeakOrderIsTheDesignOrder) {
  const LinearOu sys{0.7, 0.5};
  const double n0 = 0.4, T = 2.0;
  const double a = 1.0 - std::exp(-T / sys.tau);
  const double mean = n0 * sys.tau * a;
  const double var = sys.sigma * sys.sigma * (2 * sys.tau * T - 2 * sys.tau * sys.tau * a - sys.tau * sys.tau * a * a);
  std::vector<double> err;
  for (int steps = 20; steps <= 320; steps *= 2)
    err.push_back(std::fabs(heun_second_moment(sys, n0, T, steps) - (mean * mean + var)));
  const double order = std::log2(err.front() / err.back()) / static_cast<double>(err.size() - 1);
  std::printf("weak errors of E[x(T)^2]:");
  for (double x : err) std::printf(" %.3e", x);
  std::printf("  observed weak order %.3f\n", order);
  EXPECT_NEAR(order, kDesignWeakOrder, testing::kOrderSlack);
}

// The strong order against a known solution: the same linear system, whose exact transition
// over a step d is n -> e n + s I, x -> x + tau (1 - e) n + s tau (dW - I) (e = exp(-d/tau), s the
// diffusion, I = int_0^d exp(-(d - u)/tau) dW(u)); (dW, I) is Gaussian with variances d and
// tau (1 - e^2) / 2 and covariance tau (1 - e). Sampled exactly over steps d = the finest step,
// it gives x(T), n(T) on the same Brownian path as the scheme at every coarser step (the sums of
// the dW), without a reference run.
double strong_error_against_exact(const LinearOu& sys, double n0, double T, double h, double d, int paths) {
  const double e = std::exp(-d / sys.tau), s = sys.diffusion();
  const double c = sys.tau * (1.0 - e) / std::sqrt(d);  // Cholesky of the (dW, I) covariance
  const double rest = std::sqrt(sys.tau * (1.0 - e * e) / 2.0 - c * c);
  const int fine = static_cast<int>(std::lround(T / d)), per = static_cast<int>(std::lround(h / d));
  double sum = 0.0;
  for (int p = 0; p < paths; ++p) {
    double exact[2] = {0.0, n0}, y[2] = {0.0, n0}, f[2], y_new[2], dW = 0.0;
    const std::uint64_t key = noise_key(2026, static_cast<std::uint64_t>(p), 0);
    for (int k = 0; k < fine; ++k) {
      const double z1 = normal_of(key, 2 * static_cast<std::uint64_t>(k)), z2 = normal_of(key, 2 * static_cast<std::uint64_t>(k) + 1);
      const double dw = std::sqrt(d) * z1, I = c * z1 + rest * z2;
      exact[0] += sys.tau * (1.0 - e) * exact[1] + s * sys.tau * (dw - I);
      exact[1] = e * exact[1] + s * I;
      dW += dw;
      if ((k + 1) % per == 0) {
        sys.drift(y, f);
        heun_step(sys, y, f, h, &dW, y_new);
        y[0] = y_new[0], y[1] = y_new[1], dW = 0.0;
      }
    }
    sum += (y[0] - exact[0]) * (y[0] - exact[0]) + (y[1] - exact[1]) * (y[1] - exact[1]);
  }
  return std::sqrt(sum / paths);
}

TEST(NoisyRolling, ObservedStrongOrderAgainstAKnownSolution) {
  const LinearOu sys{0.7, 0.5};
  const double n0 = 0.4, T = 2.0, h_finest = T / 320;
  const double order = testing::observed_strong_order(T / 20, h_finest, "x' = n, n Ornstein-Uhlenbeck, exact solution", [&](double h) {
    return strong_error_against_exact(sys, n0, T, h, h_finest, 200);
  });
  EXPECT_NEAR(order, testing::kDesignStrongOrder, testing::kOrderSlack);
}

TEST(NoisyRolling, CounterNoiseIsStandardNormal) {
  const int n = 200000;
  double s1 = 0.0, s2 = 0.0, s4 = 0.0;
  const std::uint64_t key = noise_key(3, 5, 7);
  for (int k = 0; k < n; ++k) {
    const double z = normal_of(key, static_cast<std::uint64_t>(k));
    s1 += z;
    s2 += z * z;
    s4 += z * z * z * z;
  }
  // five standard errors of the sample mean, variance and fourth moment (3, variance 96)
  EXPECT_NEAR(s1 / n, 0.0, 5.0 / std::sqrt(n));
  EXPECT_NEAR(s2 / n, 1.0, 5.0 * std::sqrt(2.0 / n));
  EXPECT_NEAR(s4 / n, 3.0, 5.0 * std::sqrt(96.0 / n));
}

const char* kRealisationScan = R"({"system": "roll4:disc-transversal",
    "parameters": {"R": 1.0, "r": 0.5, "eta": 0.6, "noise": 2, "noise_sigma": 0.3, "noise_tau": 0.2},
    "initial": {"start": "rim_entry", "S12": 0.3},
    "scan": {"type": "grid", "axes": [{"param": "v2", "min": -0.6, "max": 0.6, "n": 5},
                                      {"param": "realisation", "min": 0, "max": 6, "n": 7}]},
    "stop": {"t_max": 100.0}})";

TEST(NoisyRolling, RealisationsAreReproducibleAndDiffer) {
  const RunConfig rc = config_from(nlohmann::json::parse(kRealisationScan));
  const ScanSpec& spec = rc.spec;
  ASSERT_EQ(spec.count, 35u);
  for (std::uint64_t i = 0; i < spec.count; ++i) {
    DiscardSink sink;
    const TrajectoryResult a = simulate_trajectory(spec, i, sink);
    const TrajectoryResult b = simulate_trajectory(spec, i, sink);
    ASSERT_EQ(0, std::memcmp(&a, &b, sizeof a)) << "trajectory " << i;
    ASSERT_EQ(a.status, Status::exited) << i;
    if (i >= 5) {  // the same entry (v2 index i % 5) in the previous realisation
      const TrajectoryResult prev = simulate_trajectory(spec, i - 5, sink);
      EXPECT_NE(a.exit_time, prev.exit_time) << "trajectory " << i;
    }
  }
  // a realisation given as a value (not a scan axis) is that realisation's noise path
  nlohmann::json one = nlohmann::json::parse(kRealisationScan);
  one["scan"]["axes"] = nlohmann::json::parse(R"([{"param": "v2", "min": -0.6, "max": 0.6, "n": 5}])");
  one["parameters"]["realisation"] = 4;
  const RunConfig rc4 = config_from(one);
  one["parameters"]["realisation"] = 3;
  const RunConfig rc3 = config_from(one);
  for (std::uint64_t i = 0; i < 5; ++i) {
    DiscardSink sink;
    EXPECT_NE(simulate_trajectory(rc4.spec, i, sink).exit_time, simulate_trajectory(rc3.spec, i, sink).exit_time);
  }
}

TEST(NoisyRolling, ResultsDoNotDependOnChunking) {
  const RunConfig rc = config_from(nlohmann::json::parse(kRealisationScan));
  const ScanSpec& spec = rc.spec;
  std::vector<TrajectoryResult> whole(spec.count), pieces(spec.count);
  cpu::run_chunk(spec, 0, spec.count, whole.data());
  for (std::uint64_t first = 0; first < spec.count; first += 4) {
    const std::uint64_t n = std::min<std::uint64_t>(4, spec.count - first);
    cpu::run_chunk(spec, first, n, pieces.data() + first);
  }
  for (std::uint64_t i = 0; i < spec.count; ++i) {
    DiscardSink sink;
    const TrajectoryResult ref = simulate_trajectory(spec, i, sink);
    EXPECT_EQ(0, std::memcmp(&ref, &whole[i], sizeof ref)) << "trajectory " << i << " (one chunk)";
    EXPECT_EQ(0, std::memcmp(&ref, &pieces[i], sizeof ref)) << "trajectory " << i << " (chunks of 4)";
  }
}

// roll4:disc under gravity (the Figure-20 setting), roughness, over entries and realisations.
const char* kDiscScan = R"({"system": "roll4:disc",
    "parameters": {"R": 1.0, "r": 0.1, "eta": 0.5, "g_effective": 1.0, "noise": 2, "noise_sigma": 0.3,
                   "noise_tau": 0.2},
    "initial": {"start": "plate", "x1": -0.715, "x2": 0.0, "z": 0.0, "v2": 0.0, "S12": 0.6},
    "scan": {"type": "grid", "axes": [{"param": "v1", "min": -1.5, "max": -0.5, "n": 3},
                                      {"param": "realisation", "min": 0, "max": 2, "n": 3}]},
    "stop": {"t_max": 15.0}})";

// sigma = 0: the deterministic roll4:disc (GBS, projected) to Heun's accuracy over ~10 passages
constexpr double kDiscSigmaZeroTolerance = 1e-4;

TEST(NoisyRolling, Roll4DiscSigmaZeroIsTheDeterministicModel) {
  nlohmann::json c = nlohmann::json::parse(kDiscScan);
  c["parameters"]["noise_sigma"] = 0.0;
  // Heun's error per passage is ~(noise_dt |v| / r)^2: with r = 0.1 a step of 1e-4 resolves it
  c["parameters"]["noise_dt"] = 1e-4;
  // z_final, not z_min or z_max: those are sampled at the integrator's step points, which differ
  c["observables"] = {"status", "events", "z_final", "rho_even", "rho_odd"};
  for (int kind : {kNoiseSlip, kNoiseRoughness}) {
    c["parameters"]["noise"] = kind;
    const RunConfig noisy_rc = config_from(c);
    nlohmann::json plain = c;
    plain["parameters"]["noise"] = 0;
    const RunConfig plain_rc = config_from(plain);
    for (std::uint64_t i = 0; i < noisy_rc.spec.count; ++i) {
      DiscardSink sink;
      const TrajectoryResult a = simulate_trajectory(noisy_rc.spec, i, sink);
      const TrajectoryResult b = simulate_trajectory(plain_rc.spec, i, sink);
      ASSERT_EQ(a.status, b.status) << "kind " << kind << " trajectory " << i;
      EXPECT_GT(a.events, 3u) << i;
      EXPECT_EQ(a.events, b.events) << "kind " << kind << " trajectory " << i;
      EXPECT_NEAR(a.z_final, b.z_final, kDiscSigmaZeroTolerance) << "kind " << kind << " trajectory " << i;
      EXPECT_NEAR(a.rho_even, b.rho_even, kDiscSigmaZeroTolerance) << "kind " << kind << " trajectory " << i;
      EXPECT_NEAR(a.rho_odd, b.rho_odd, kDiscSigmaZeroTolerance) << "kind " << kind << " trajectory " << i;
    }
  }
}

// Roughness holds E1 and E2 + G x3 on every path (projected onto them as the deterministic
// passages are: no energy drift); slip changes them.
TEST(NoisyRolling, Roll4DiscRoughnessKeepsTheEnergiesSlipDoesNot) {
  nlohmann::json c = nlohmann::json::parse(kDiscScan);
  const RunConfig rough = config_from(c);
  c["parameters"]["noise"] = kNoiseSlip;
  const RunConfig slip = config_from(c);
  for (std::uint64_t i = 0; i < rough.spec.count; ++i) {
    DiscardSink sink;
    const TrajectoryResult a = simulate_trajectory(rough.spec, i, sink);
    const TrajectoryResult b = simulate_trajectory(slip.spec, i, sink);
    EXPECT_EQ(a.status, Status::finished) << i;
    EXPECT_LT(a.energy_error, 1e-12) << i;
    EXPECT_EQ(b.status, Status::finished) << i;
    EXPECT_GT(b.energy_error, 1e-3) << i;
  }
}

TEST(NoisyRolling, Roll4DiscRealisationsDifferAndDoNotDependOnChunking) {
  const RunConfig rc = config_from(nlohmann::json::parse(kDiscScan));
  const ScanSpec& spec = rc.spec;
  std::vector<TrajectoryResult> whole(spec.count), pieces(spec.count);
  cpu::run_chunk(spec, 0, spec.count, whole.data());
  for (std::uint64_t first = 0; first < spec.count; first += 2)
    cpu::run_chunk(spec, first, std::min<std::uint64_t>(2, spec.count - first), pieces.data() + first);
  for (std::uint64_t i = 0; i < spec.count; ++i) {
    DiscardSink sink;
    const TrajectoryResult ref = simulate_trajectory(spec, i, sink);
    EXPECT_EQ(0, std::memcmp(&ref, &whole[i], sizeof ref)) << "trajectory " << i << " (one chunk)";
    EXPECT_EQ(0, std::memcmp(&ref, &pieces[i], sizeof ref)) << "trajectory " << i << " (chunks of 2)";
    if (i >= 3) {
      EXPECT_NE(ref.z_final, whole[i - 3].z_final) << "trajectory " << i << ": the previous realisation's";
    }
  }
}

std::string refusal(const std::string& config) {
  try {
    config_from(nlohmann::json::parse(config));
  } catch (const ConfigError& e) {
    return e.key();
  }
  return "accepted";
}

TEST(NoisyRolling, BadInputIsRefusedNamingTheKey) {
  const std::string base = R"({"system": "roll4:disc-transversal", "initial": {"start": "rim_entry"},
                               "scan": {"type": "grid", "axes": [{"param": "v2", "min": -0.5, "max": 0.5, "n": 3}]},
                               "stop": {"t_max": 10},)";
  EXPECT_EQ(refusal(base + R"("parameters": {"r": 0.5, "eta": 0.6, "noise": 1},
                                "options": {"precision": "float"}})"),
            "parameters.noise");
  EXPECT_EQ(refusal(base + R"("parameters": {"r": 0.5, "eta": 0.6, "noise": 3}})"), "parameters.noise");
  EXPECT_EQ(refusal(base + R"("parameters": {"r": 0.5, "eta": 0.6, "noise": 1, "noise_tau": 0}})"),
            "parameters.noise_tau");
  EXPECT_EQ(refusal(base + R"("parameters": {"r": 0.5, "eta": 0.6, "realisation": 1.5}})"),
            "parameters.realisation");
  EXPECT_EQ(refusal(R"({"system": "rubber:sphere", "parameters": {"noise": 1}, "initial": {"start": "body"}})"),
            "parameters.noise");  // a system without noisy constraints
  EXPECT_EQ(refusal(std::string(kDiscScan).replace(std::string(kDiscScan).find("\"stop\""), 0,
                                                   R"("observables": ["status", "slip_time"], )")),
            "observables[1]");
  EXPECT_EQ(refusal(R"({"system": "roll4:disc-transversal", "parameters": {"r": 0.5, "eta": 0.6, "noise": 2},
                        "initial": {"start": "rim_entry"},
                        "scan": {"type": "grid", "axes": [{"param": "realisation", "min": 0, "max": 4, "n": 4}]},
                        "stop": {"t_max": 10}})"),
            "scan.axes[0].n");
  EXPECT_EQ(refusal(R"({"system": "roll4:disc-transversal", "parameters": {"r": 0.5, "eta": 0.6, "noise": 2},
                        "initial": {"start": "rim_entry"},
                        "scan": {"type": "random", "count": 4, "axes": [{"param": "realisation", "min": 0, "max": 4}]},
                        "stop": {"t_max": 10}})"),
            "scan.axes[0].param");
  EXPECT_EQ(refusal(base + R"("parameters": {"r": 0.5, "eta": 0.6, "noise": 2, "noise_sigma": 0.1}})"), "accepted");
}

}  // namespace
}  // namespace skipstone
