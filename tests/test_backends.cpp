// Backend agreement: the CPU backend (Thrust/OpenMP) gives bit-identical results to a scalar
// loop over simulate_trajectory; results do not depend on the chunk size or the thread count;
// the CUDA backend agrees with the CPU where a GPU is present (and its engine reports progress
// from inside a chunk) and is skipped cleanly where not,
// and on every machine the kernel compiled with FMA contraction (as nvcc compiles it) agrees
// within the same tolerances. The configs include the float kernels (disc, cylinder:disc, the
// Figure-18 system, roll4:disc, roll4:stadium, roll3:ellipse), driven:disk and driven:ball
// (their contact event times; the ball asymmetric and unbalanced).
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "backends.hpp"
#include "chunk_engine.hpp"
#include "fma_contracted_kernel.hpp"
#include "executors.hpp"
#include "scan_runner.hpp"
#include "state_layout.hpp"
#include "skipstone/simulate.hpp"
#include "test_support.hpp"

namespace skipstone {
namespace {

using nlohmann::json;

// What the CUDA backend is compared on (CudaMatchesCpu, and on every machine its stand-in
// FmaContractedKernelMatchesCpu): a device contracts a*b+c into FMAs where the CPU backend does
// not, so results agree to round-off amplified by the dynamics, not bitwise. Each config's
// horizon is short enough that this amplification stays far below the tolerance (the stadium is
// chaotic: 10 impacts; the rectangle with gravity: 20; the rolling stadium and polygon: 6
// passages, where 12 let one slow trajectory in 100 drift by 1e-7; the float rolling stadium: 3,
// where 6 let one in 100 end differently), and it compares only observables that
// are functions of the trajectory, not of where the integrator happened to step (z_min/z_max of
// roll4:disc are sampled at the rim passages' steps; they differ by up to 1.5e-4 between FMA and
// non-FMA builds while the trajectories agree to 1e-12). Differences are relative to 1 + |CPU value|.
constexpr double kCudaAgreement = 1e-8;
// The float no-slip kernels: float round-off (eps 1.2e-7) over 100 impacts; FMA contraction
// alone moved t_end by up to 5e-6 and the caustic radii by 1e-6.
constexpr double kCudaFloatAgreement = 1e-4;
// The float rim integrators (the Figure-18 system, roll4:disc, the rolling tables) work at
// rtol = atol = 1e-5, and the Figure-18 exit times are within 5.8e-4 of double
// (benchmarks/RESULTS.md); FMA contraction alone moved exit_arc by 1.2e-4 and roll4:disc's
// z_final by 1.1e-4 (40 rim passages).
constexpr double kCudaFloatRimAgreement = 2e-3;

struct Observable {
  const char* name;
  double TrajectoryResult::*field;
};
const Observable kTEnd{"t_end", &TrajectoryResult::t_end}, kRhoEven{"rho_even", &TrajectoryResult::rho_even},
    kRhoOdd{"rho_odd", &TrajectoryResult::rho_odd}, kZFinal{"z_final", &TrajectoryResult::z_final},
    kZDrift{"z_drift", &TrajectoryResult::z_drift}, kExitTime{"exit_time", &TrajectoryResult::exit_time},
    kExitArc{"exit_arc", &TrajectoryResult::exit_arc}, kGamma3Mean{"gamma3_mean", &TrajectoryResult::gamma3_mean},
    kDetachTime{"detach_time", &TrajectoryResult::detach_time},
    kSlipTime{"slip_time", &TrajectoryResult::slip_time},
    kEscapeTime{"escape_time", &TrajectoryResult::escape_time}, kHole{"hole", &TrajectoryResult::hole},
    kLyapunov{"lyapunov", &TrajectoryResult::lyapunov};

// A config of the backend tests, and what another backend must reproduce of it (beside status
// and event count) and how closely.
struct BackendCase {
  json config;
  std::vector<Observable> compared;
  double tolerance;
};

std::vector<BackendCase> mixed_cases() {
  const std::vector<std::pair<const char*, std::pair<std::vector<Observable>, double>>> cases = {
      {R"({"system": "disc", "parameters": {"gamma": 0.8}, "initial": {"start": "boundary", "speed": 1.0},
          "scan": {"type": "random", "count": 3000, "seed": 9,
                   "axes": [{"param": "angle", "min": -1.4, "max": 1.4}, {"param": "spin", "min": -1, "max": 1}]},
          "stop": {"max_events": 300}})",
       {{kTEnd, kRhoEven, kRhoOdd, kZFinal}, kCudaAgreement}},
      {R"({"system": "disc", "parameters": {"gamma": 0.8}, "initial": {"start": "boundary", "speed": 1.0},
          "scan": {"type": "random", "count": 3000, "seed": 9,
                   "axes": [{"param": "angle", "min": -1.4, "max": 1.4}, {"param": "spin", "min": -1, "max": 1}]},
          "stop": {"max_events": 100}, "options": {"precision": "float"}})",
       {{kTEnd, kRhoEven, kRhoOdd}, kCudaFloatAgreement}},
      {R"({"system": "cylinder:disc", "parameters": {"gamma": 0.8, "g": 1.0},
          "initial": {"start": "impact", "speed": 1.0, "vz": 0.1},
          "scan": {"type": "grid", "axes": [{"param": "angle", "min": -1.4, "max": 1.4, "n": 40},
                                            {"param": "slip", "min": -0.3, "max": 0.3, "n": 40}]},
          "stop": {"max_events": 100}, "options": {"precision": "float"}})",
       {{kTEnd, kRhoEven, kRhoOdd, kZDrift}, kCudaFloatAgreement}},
      {R"({"system": "cylinder:stadium", "parameters": {"eta": 0.5, "g": 1.0},
          "initial": {"start": "impact", "speed": 1.0, "vz": 0.1},
          "scan": {"type": "grid", "axes": [{"param": "angle", "min": -1.4, "max": 1.4, "n": 60},
                                            {"param": "slip", "min": -0.3, "max": 0.3, "n": 50}]},
          "stop": {"max_events": 10}})",
       {{kTEnd, kZFinal, kZDrift}, kCudaAgreement}},
      {R"({"system": "rectangle", "parameters": {"gamma": 0.5, "g": 0.5}, "initial": {"start": "interior"},
          "scan": {"type": "grid", "axes": [{"param": "angle", "min": 0.0, "max": 6.28, "n": 4500}]},
          "stop": {"max_events": 20}})",
       {{kTEnd, kZFinal, kZDrift}, kCudaAgreement}},
      {R"({"system": "roll3:inside-cylinder", "parameters": {"R": 1.0, "r": 0.2, "eta": 0.5, "g": 9.81},
          "scan": {"type": "random", "count": 2000, "seed": 3,
                   "axes": [{"param": "v1", "min": -2, "max": 2}, {"param": "spin", "min": -1, "max": 1}]},
          "stop": {"max_events": 50, "t_max": 30.0}})",
       {{kTEnd, kZFinal, kZDrift}, kCudaAgreement}},
      {R"({"system": "rubber:sphere", "parameters": {"a": 1.0, "I1": 1.0, "I2": 1.5, "I3": 2.0, "mu": 0.5},
          "scan": {"type": "grid", "axes": [{"param": "b", "min": -2.6, "max": 2.5, "n": 30},
                                            {"param": "theta", "min": 0.1, "max": 3.0, "n": 30}]},
          "stop": {"t_max": 20.0}})",
       {{kTEnd, kGamma3Mean}, kCudaAgreement}},
      {R"({"system": "driven:disk", "parameters": {"gamma": 1.0, "mu_s": 0.3},
          "scan": {"type": "grid", "axes": [{"param": "speed", "min": -2, "max": 2, "n": 12},
                                            {"param": "drive", "min": 20, "max": 40, "n": 10}]},
          "stop": {"t_max": 1.0}})",
       {{kTEnd, kDetachTime, kSlipTime}, kCudaAgreement}},
      {R"({"system": "driven:ball", "parameters": {"gamma": 1.0, "mu_s": 0.3, "d1_ratio": 0.7, "cm3": -0.1},
          "initial": {"wy": 0.5, "lean": 0.2},
          "scan": {"type": "grid", "axes": [{"param": "wz", "min": -2, "max": 2, "n": 12},
                                            {"param": "drive", "min": 20, "max": 40, "n": 10}]},
          "stop": {"t_max": 1.0}})",
       {{kTEnd, kDetachTime, kSlipTime}, kCudaAgreement}},
      {R"({"system": "roll4:disc-transversal", "parameters": {"eta": 0.5, "r": 1.0},
          "scan": {"type": "grid", "axes": [{"param": "v2", "min": -1, "max": 1, "n": 70},
                                            {"param": "S12", "min": -1, "max": 1, "n": 70}]},
          "stop": {"t_max": 50.0}})",
       {{kExitTime, kExitArc}, kCudaAgreement}},
      {R"({"system": "roll4:disc-transversal", "parameters": {"eta": 0.5, "r": 1.0},
          "scan": {"type": "grid", "axes": [{"param": "v2", "min": -1, "max": 1, "n": 50},
                                            {"param": "S12", "min": -1, "max": 1, "n": 50}]},
          "stop": {"t_max": 50.0}, "options": {"precision": "float"}})",
       {{kExitTime, kExitArc}, kCudaFloatRimAgreement}},
      {R"({"system": "roll4:disc", "parameters": {"eta": 0.5, "r": 0.1, "g_effective": 1.0},
          "initial": {"x1": 0.2, "S12": 0.61, "S23": -1.0},
          "scan": {"type": "grid", "axes": [{"param": "v1", "min": -2, "max": 1, "n": 12},
                                            {"param": "v2", "min": -1, "max": 1, "n": 12}]},
          "stop": {"max_events": 40, "t_max": 100.0}})",
       {{kTEnd, kRhoEven, kRhoOdd, kZFinal, kZDrift}, kCudaAgreement}},
      {R"({"system": "roll4:disc", "parameters": {"eta": 0.5, "r": 0.1, "g_effective": 1.0},
          "initial": {"x1": 0.2, "S12": 0.61, "S23": -1.0},
          "scan": {"type": "grid", "axes": [{"param": "v1", "min": -2, "max": 1, "n": 12},
                                            {"param": "v2", "min": -1, "max": 1, "n": 12}]},
          "stop": {"max_events": 40, "t_max": 100.0}, "options": {"precision": "float"}})",
       {{kTEnd, kRhoEven, kRhoOdd, kZFinal, kZDrift}, kCudaFloatRimAgreement}},
      {R"({"system": "roll4:stadium", "parameters": {"eta": 0.5, "r": 0.1, "g_effective": 0.5},
          "initial": {"x2": 0.2, "S12": 0.3, "S23": -0.5, "v3": 0.2},
          "scan": {"type": "grid", "axes": [{"param": "x1", "min": -1.5, "max": 1.5, "n": 10},
                                            {"param": "v2", "min": -1, "max": 1, "n": 10}]},
          "stop": {"max_events": 6, "t_max": 20.0}})",
       {{kTEnd, kZFinal, kZDrift}, kCudaAgreement}},
      {R"({"system": "roll4:stadium", "parameters": {"eta": 0.5, "r": 0.1, "g_effective": 0.5},
          "initial": {"x2": 0.2, "S12": 0.3, "S23": -0.5, "v3": 0.2},
          "scan": {"type": "grid", "axes": [{"param": "x1", "min": -1.5, "max": 1.5, "n": 10},
                                            {"param": "v2", "min": -1, "max": 1, "n": 10}]},
          "stop": {"max_events": 3, "t_max": 20.0}, "options": {"precision": "float"}})",
       {{kTEnd, kZFinal, kZDrift}, kCudaFloatRimAgreement}},
      {R"({"system": "roll3:polygon", "parameters": {"eta": 0.5, "r": 0.1, "g": 0.4,
            "vertices": [[1, 0], [0, 1], [-1, 0], [0, -1]]},
          "initial": {"x1": 0.1, "S12": 0.2},
          "scan": {"type": "grid", "axes": [{"param": "v1", "min": -1, "max": 1, "n": 10},
                                            {"param": "v2", "min": -1, "max": 1, "n": 10}]},
          "stop": {"max_events": 6, "t_max": 20.0}})",
       {{kTEnd, kZFinal, kExitTime, kExitArc}, kCudaAgreement}},
      {R"({"system": "roll3:ellipse", "parameters": {"eta": 0.5, "r": 0.2},
          "initial": {"start": "rim_entry", "speed": 1.0},
          "scan": {"type": "grid", "axes": [{"param": "boundary_s", "min": 0, "max": 1, "n": 8},
                                            {"param": "v2", "min": -0.9, "max": 0.9, "n": 8},
                                            {"param": "S12", "min": -0.9, "max": 0.9, "n": 4}]},
          "stop": {"t_max": 50.0}})",
       {{kExitTime, kExitArc}, kCudaAgreement}},
      {R"({"system": "roll3:ellipse", "parameters": {"eta": 0.5, "r": 0.2},
          "initial": {"start": "rim_entry", "speed": 1.0},
          "scan": {"type": "grid", "axes": [{"param": "boundary_s", "min": 0, "max": 1, "n": 8},
                                            {"param": "v2", "min": -0.9, "max": 0.9, "n": 8},
                                            {"param": "S12", "min": -0.9, "max": 0.9, "n": 4}]},
          "stop": {"t_max": 50.0}, "options": {"precision": "float"}})",
       {{kExitTime, kExitArc}, kCudaFloatRimAgreement}},
      // the newest paths of the rolling tables: holes in the edge, noisy edges (the same noise
      // paths from (seed, trajectory, realisation) on either backend), the tangent dynamics
      // (3 passages of the Sinai table: 6 amplify FMA round-off to 3e-6), and the rubber ball
      // with the contact-force observables (not compared: their extremes are sampled at the
      // integrator's step points, which FMA contraction moves; 4e-3 in normal_force_min)
      {R"({"system": "roll4:stadium", "parameters": {"eta": 0.5, "r": 0.1},
          "initial": {"x1": 0.3, "x2": 0.2, "v2": 1.0},
          "scan": {"type": "grid", "axes": [{"param": "v1", "min": -1.2, "max": 1.2, "n": 10},
                                            {"param": "S12", "min": -0.8, "max": 0.8, "n": 10}]},
          "stop": {"max_events": 6, "t_max": 20.0, "holes": [[0.30, 0.35], [0.8, 0.9]]},
          "observables": ["status", "events", "t_end", "escape_time", "hole"]})",
       {{kTEnd, kEscapeTime, kHole}, kCudaAgreement}},
      {R"({"system": "roll3:stadium", "parameters": {"eta": 0.5, "r": 0.1, "noise": 2, "noise_sigma": 0.3,
            "noise_tau": 0.2, "noise_dt": 0.001},
          "initial": {"x1": 0.3, "x2": 0.2, "v2": 1.0},
          "scan": {"type": "grid", "axes": [{"param": "v1", "min": -1.2, "max": 1.2, "n": 8},
                                            {"param": "realisation", "min": 0, "max": 3, "n": 4}]},
          "stop": {"max_events": 4, "t_max": 20.0},
          "observables": ["status", "events", "t_end", "z_final", "exit_time", "exit_arc"]})",
       {{kTEnd, kExitTime, kExitArc}, kCudaAgreement}},
      {R"({"system": "roll4:disc", "parameters": {"eta": 0.5, "r": 0.3, "g_effective": 1.0, "noise": 1,
            "noise_sigma": 0.3, "noise_tau": 0.2, "noise_dt": 0.001},
          "initial": {"x1": 0.2, "S12": 0.61, "S23": -1.0},
          "scan": {"type": "grid", "axes": [{"param": "v1", "min": -2, "max": 1, "n": 6},
                                            {"param": "realisation", "min": 0, "max": 3, "n": 4}]},
          "stop": {"max_events": 6, "t_max": 20.0}})",
       {{kTEnd, kZFinal}, kCudaAgreement}},
      {R"({"system": "roll3:sinai", "parameters": {"eta": 0.5, "r": 0.1},
          "initial": {"x1": 0.6, "x2": 0.1, "v2": 1.0},
          "scan": {"type": "grid", "axes": [{"param": "v1", "min": -1, "max": 1, "n": 10},
                                            {"param": "S12", "min": -0.5, "max": 0.5, "n": 10}]},
          "stop": {"max_events": 3, "t_max": 20.0}, "observables": ["status", "events", "t_end", "lyapunov"]})",
       {{kTEnd, kLyapunov}, kCudaAgreement}},
      {R"({"system": "roll4:stadium", "parameters": {"eta": 0.5, "r": 0.1, "g_effective": 0.5, "no_twist": 1},
          "initial": {"x2": 0.2, "v3": 0.2},
          "scan": {"type": "grid", "axes": [{"param": "x1", "min": -1.5, "max": 1.5, "n": 10},
                                            {"param": "v2", "min": -1, "max": 1, "n": 10}]},
          "stop": {"max_events": 6, "t_max": 20.0},
          "observables": ["status", "events", "t_end", "z_final", "normal_force_min"]})",
       {{kTEnd, kZFinal}, kCudaAgreement}},
  };
  std::vector<BackendCase> out;
  for (const auto& [text, agreement] : cases) out.push_back({json::parse(text), agreement.first, agreement.second});
  return out;
}

std::vector<json> mixed_configs() {
  std::vector<json> out;
  for (const BackendCase& c : mixed_cases()) out.push_back(c.config);
  return out;
}

// A no-slip scan with g = 0 at every point runs the kernel compiled without gravity; a scan with
// gravity somewhere the other one, which gives its g = 0 points the same results bit for bit.
TEST(Backends, GravityFreeScansRunTheKernelWithoutGravity) {
  const auto gravity_of = [](const json& j) {
    GravityKind g = GravityKind::any;
    visit_variant(testing::config_from(j).spec, [&](auto v) { g = decltype(v)::gravity; });
    return g;
  };
  json flat = json::parse(R"({"system": "stadium", "parameters": {"gamma": 0.7}, "initial": {"start": "boundary"},
      "scan": {"type": "grid", "axes": [{"param": "angle", "min": -1.2, "max": 1.2, "n": 7}]},
      "stop": {"max_events": 300}})");
  json fixed = flat;
  fixed["parameters"]["g"] = 0.5;
  json scanned = flat;
  scanned["scan"]["axes"].push_back({{"param", "g"}, {"min", 0.0}, {"max", 1.0}, {"n", 2}});
  EXPECT_EQ(gravity_of(flat), GravityKind::none);
  EXPECT_EQ(gravity_of(fixed), GravityKind::any);
  EXPECT_EQ(gravity_of(scanned), GravityKind::any);
  const RunConfig a = testing::config_from(flat), b = testing::config_from(scanned);
  std::vector<TrajectoryResult> ra(a.spec.count), rb(b.spec.count);
  cpu::run_chunk(a.spec, 0, a.spec.count, ra.data());
  cpu::run_chunk(b.spec, 0, b.spec.count, rb.data());
  for (std::uint64_t i = 0; i < a.spec.count; ++i)  // the first axis varies fastest: g = 0 first
    EXPECT_EQ(0, std::memcmp(&ra[i], &rb[i], sizeof ra[i])) << "angle index " << i;
}

TEST(Backends, CpuMatchesScalarLoopBitwise) {
  for (const json& j : mixed_configs()) {
    const RunConfig rc = testing::config_from(j);
    std::vector<TrajectoryResult> out(rc.spec.count);
    cpu::run_chunk(rc.spec, 0, rc.spec.count, out.data());
    for (std::uint64_t i = 0; i < rc.spec.count; ++i) {
      DiscardSink sink;
      const TrajectoryResult ref = simulate_trajectory(rc.spec, i, sink);
      ASSERT_EQ(0, std::memcmp(&ref, &out[i], sizeof ref)) << j["system"] << " trajectory " << i;
    }
  }
}

bool same_maps(const ScanResult& a, const ScanResult& b) {
  if (a.maps.size() != b.maps.size() || a.status_counts != b.status_counts) return false;
  for (const auto& [name, v] : a.maps) {
    const auto& w = b.maps.at(name);
    if (v.size() != w.size() || std::memcmp(v.data(), w.data(), v.size() * sizeof(double)) != 0) return false;
  }
  for (const auto& [name, s] : a.stats) {
    const RunningStats& t = b.stats.at(name);
    if (s.count != t.count || std::memcmp(&s.mean, &t.mean, sizeof(double)) || std::memcmp(&s.m2, &t.m2, sizeof(double)))
      return false;
  }
  return true;
}

TEST(Backends, ResultsIndependentOfChunkSizeAndThreads) {
  const BackendChoice cpu_backend{Backend::cpu, "cpu"};
  for (const json& j : mixed_configs()) {
    const RunConfig rc = testing::config_from(j);
    const ScanResult whole = run_scan(rc, cpu_backend, 1u << 20, true);
    const ScanResult small = run_scan(rc, cpu_backend, kStatsBlock, true);
    EXPECT_TRUE(same_maps(whole, small)) << j["system"] << ": chunk size changed the results";
    const int threads = cpu::max_threads();
    cpu::set_threads(1);
    const ScanResult one = run_scan(rc, cpu_backend, 2 * kStatsBlock, true);
    cpu::set_threads(threads);
    EXPECT_TRUE(same_maps(whole, one)) << j["system"] << ": thread count changed the results";
  }
}

// Several workers pulling chunks from one queue (as CUDA devices do with --devices, here two
// CPU workers) deliver chunks out of order; the collector must still give the in-order result.
TEST(Backends, ResultsIndependentOfWorkersSharingTheQueue) {
  const BackendChoice cpu_backend{Backend::cpu, "cpu"};
  for (json j : mixed_configs()) {
    if (j["scan"]["type"] != "random") continue;
    j["scan"]["count"] = 6 * kStatsBlock + 123;  // seven chunks of one block
    const RunConfig rc = testing::config_from(j);
    const ScanResult whole = run_scan(rc, cpu_backend, 1u << 20, true);
    ScanOptions options;
    options.chunk_override = kStatsBlock;
    options.quiet = true;
    options.executors = {Executor{Backend::cpu, -1}, Executor{Backend::cpu, -1}, Executor{Backend::cpu, -1}};
    const ScanResult shared = scan_result(run_scan_range(rc, cpu_backend, options), kStatsBlock, rc);
    EXPECT_TRUE(same_maps(whole, shared)) << j["system"] << ": workers sharing the queue changed the results";
  }
}

TEST(Backends, CudaDevicesSharingTheQueueMatchOneDevice) {
  if (cuda::device_count() < 2) GTEST_SKIP() << "needs two CUDA devices, " << cuda::device_count() << " visible";
  const BackendChoice gpu{Backend::cuda, "cuda"};
  for (const json& j : mixed_configs()) {
    const RunConfig rc = testing::config_from(j);
    ScanOptions options;
    options.chunk_override = kStatsBlock;
    options.quiet = true;
    options.executors = {Executor{Backend::cuda, 0}};
    const ScanResult one = scan_result(run_scan_range(rc, gpu, options), kStatsBlock, rc);
    for (int d = 1; d < cuda::device_count(); ++d) options.executors.push_back(Executor{Backend::cuda, d});
    const ScanResult all = scan_result(run_scan_range(rc, gpu, options), kStatsBlock, rc);
    EXPECT_TRUE(same_maps(one, all)) << j["system"] << ": several devices changed the results";
  }
}

// Another backend's results `b` against the CPU backend's `a` for one case: the same status,
// event count and exit side on all but 0.1 % of the trajectories (corners and exits decided by
// round-off), and on the others every compared observable within the case's tolerance (a value
// defined in one run only is a difference). Prints the largest relative difference of each
// observable: the margin the tolerance leaves.
void expect_agreement(const BackendCase& c, const std::vector<TrajectoryResult>& a, const std::vector<TrajectoryResult>& b,
                      const char* backend) {
  const std::string what = std::string(backend) + " vs CPU, " + c.config["system"].get<std::string>() + " " +
                           c.config.value("options", json::object()).value("precision", "double");
  struct Worst {
    double rel = 0.0;
    std::size_t at = 0, beyond = 0;  // trajectory of the largest; how many beyond the tolerance
  };
  std::vector<Worst> worst(c.compared.size());
  std::uint64_t same_outcome = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].status != b[i].status || a[i].events != b[i].events || a[i].exit_side != b[i].exit_side) continue;
    ++same_outcome;
    for (std::size_t k = 0; k < c.compared.size(); ++k) {
      const double u = a[i].*c.compared[k].field, v = b[i].*c.compared[k].field;
      if (std::isnan(u) && std::isnan(v)) continue;  // not defined for this trajectory in either
      const double d = std::fabs(u - v) / (1.0 + std::fabs(u));
      const double rel = std::isnan(d) ? std::numeric_limits<double>::infinity() : d;
      if (rel > c.tolerance) ++worst[k].beyond;
      if (rel > worst[k].rel) worst[k] = {rel, i, worst[k].beyond};
    }
  }
  EXPECT_GE(same_outcome, a.size() - a.size() / 1000 - 1) << what << ": status, events or exit side differ";
  std::string margins;
  for (std::size_t k = 0; k < c.compared.size(); ++k) {
    const Worst& w = worst[k];
    char text[64];
    std::snprintf(text, sizeof text, " %s %.1e", c.compared[k].name, w.rel);
    margins += text;
    EXPECT_EQ(w.beyond, 0u) << what << ": " << c.compared[k].name << " differs by more than " << c.tolerance
                            << " (relative) on " << w.beyond << " trajectories, the most on trajectory " << w.at << ": "
                            << a[w.at].*c.compared[k].field << " on the CPU, " << b[w.at].*c.compared[k].field;
  }
  std::printf("%s: %llu of %zu end alike; largest relative difference%s (tolerance %.0e)\n", what.c_str(),
              static_cast<unsigned long long>(same_outcome), a.size(), margins.c_str(), c.tolerance);
}

// The stand-in for a GPU on every machine: the kernel's one-trajectory path compiled with FMA
// contraction must agree with the CPU backend as CUDA must. Were a case's horizon too long for
// its tolerance (chaos amplifying the round-off), this fails here, before a GPU run does.
TEST(Backends, FmaContractedKernelMatchesCpu) {
  if (!fma_contracted::contracts()) GTEST_SKIP() << "this build's target has no FMA instructions to contract into";
  bool any_bit_differs = false;
  for (const BackendCase& c : mixed_cases()) {
    const RunConfig rc = testing::config_from(c.config);
    std::vector<TrajectoryResult> a(rc.spec.count), b(rc.spec.count);
    cpu::run_chunk(rc.spec, 0, rc.spec.count, a.data());
    fma_contracted::run_chunk(rc.spec, 0, rc.spec.count, b.data());
    any_bit_differs = any_bit_differs || std::memcmp(a.data(), b.data(), a.size() * sizeof a[0]) != 0;
    expect_agreement(c, a, b, "FMA-contracted kernel");
  }
  EXPECT_TRUE(any_bit_differs) << "contraction changed no result: the stand-in tests nothing";
}

TEST(Backends, CudaMatchesCpu) {
  std::string why;
  if (!cuda::available(&why)) GTEST_SKIP() << "CUDA backend not usable here: " << why;
  for (const BackendCase& c : mixed_cases()) {
    const RunConfig rc = testing::config_from(c.config);
    std::vector<TrajectoryResult> a(rc.spec.count), b(rc.spec.count);
    cpu::run_chunk(rc.spec, 0, rc.spec.count, a.data());
    cuda::run_chunk(rc.spec, 0, rc.spec.count, b.data());
    expect_agreement(c, a, b, "CUDA");
  }
}

// The CUDA engine passes the kernel's count of finished trajectories (advanced block by block)
// on to the progress counter while a chunk runs: sampled from another thread, the counter stands
// strictly between 0 and the chunk's size at least once, and it ends at the size exactly.
TEST(Backends, CudaCountsTrajectoriesInsideAChunk) {
  std::string why;
  if (!cuda::available(&why)) GTEST_SKIP() << "CUDA backend not usable here: " << why;
  // 1500 x 1500 = 2.25e6 trajectories in one chunk: several waves of a large GPU's resident threads
  const RunConfig rc = testing::config_from(json::parse(R"({"system": "roll4:disc",
      "parameters": {"R": 1.0, "r": 0.1, "eta": 0.5, "g_effective": 1.0},
      "initial": {"start": "plate", "x2": 0.0, "z": 0.0, "v1": -2.0, "v2": 1.0, "v3": 0.0, "S13": 0.0, "S23": -1.0},
      "scan": {"type": "grid", "axes": [{"param": "x1", "min": -0.95, "max": 0.95, "n": 1500},
                                        {"param": "S12", "min": -2.0, "max": 2.0, "n": 1500}]},
      "stop": {"t_max": 20.0}, "observables": ["status"]})"));
  const std::unique_ptr<ChunkEngine> engine = cuda::make_engine(rc.spec, column_requests(rc));
  DoneCounter done{0};
  std::atomic<bool> running{true};
  int inside = 0;
  std::thread watcher([&] {
    while (running.load()) {
      const std::uint64_t d = done.load();
      if (d > 0 && d < rc.spec.count) ++inside;
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
  });
  const auto t0 = std::chrono::steady_clock::now();
  engine->submit(0, 0, rc.spec.count, &done);
  const ColumnsView v = engine->wait(0);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  running = false;
  watcher.join();
  EXPECT_EQ(v.n, rc.spec.count);
  EXPECT_EQ(done.load(), rc.spec.count);
  EXPECT_GT(inside, 0) << "the counter only moved when the chunk of " << seconds << " s ended";
  std::printf("CUDA chunk of %llu trajectories: %.3f s, counter seen inside it %d times\n",
              static_cast<unsigned long long>(rc.spec.count), seconds, inside);
}


// A kernel that reads the rows of a file of states from a copy of one chunk's rows
// (ScanSpec::state_first: how the CUDA backend hands them to the device) starts every trajectory
// as the whole file does, bit for bit, on the plain and the collecting path.
TEST(Backends, ChunkRowsOfAStateFileStartLikeTheWholeFile) {
  RunConfig rc = testing::config_from(json::parse(R"({"system": "cylinder:disc", "parameters": {"R": 1.0, "gamma": 0.6325, "g": 0.5},
      "initial": {"start": "interior", "x": 0.2, "y": 0.1, "z": 0.0, "vx": 1.0, "vy": 0.3, "vz": 0.4, "wx": 0.1, "wy": 0.0, "wz": 0.0},
      "stop": {"t_max": 3.0}, "observables": ["status", "events", "z_final"]})"));
  const std::uint64_t n = 40, first = 13, count = 20;
  std::vector<double> file(n * 9);
  for (std::uint64_t i = 0; i < n; ++i) {
    const double a = 0.1 * static_cast<double>(i);
    const double row[9] = {0.5 * std::cos(a), 0.5 * std::sin(a), 0.0, std::cos(3 * a), std::sin(3 * a), 0.2, 0.1 * a, 0.0, -0.3};
    std::copy(row, row + 9, file.begin() + static_cast<std::ptrdiff_t>(9 * i));
  }
  rc.spec.start = StartKind::state;
  rc.spec.count = n;
  rc.spec.state_columns = 9;
  const StateLayout layout = state_layout(*find_system("cylinder:disc"));
  for (int c = 0; c < 9; ++c) rc.spec.state_params[c] = layout.params.at(static_cast<std::size_t>(c));
  rc.spec.state_rows = file.data();
  rc.spec.state_first = 0;
  ScanSpec chunk_rows = rc.spec;
  chunk_rows.state_rows = file.data() + 9 * first;
  chunk_rows.state_first = first;
  std::vector<TrajectoryResult> whole(count), part(count);
  cpu::run_chunk(rc.spec, first, count, whole.data());
  cpu::run_chunk(chunk_rows, first, count, part.data());
  BoundaryCollect a, b;
  a.state_columns = b.state_columns = 9;
  std::vector<TrajectoryResult> whole_c(count), part_c(count);
  cpu::run_chunk_collecting(rc.spec, first, count, whole_c.data(), a);
  cpu::run_chunk_collecting(chunk_rows, first, count, part_c.data(), b);
  for (std::uint64_t i = 0; i < count; ++i) {
    EXPECT_EQ(std::memcmp(&whole[i], &part[i], sizeof(TrajectoryResult)), 0) << "trajectory " << first + i;
    EXPECT_EQ(std::memcmp(&whole_c[i], &part_c[i], sizeof(TrajectoryResult)), 0) << "trajectory " << first + i;
    EXPECT_GT(whole[i].events, 0u) << "trajectory " << first + i << " never reached the wall";
  }
  EXPECT_EQ(a.final_states, b.final_states);
}

// The collecting path on a GPU (collect_trajectory.hpp, every thread counting into one map in
// device memory) against the CPU's: a section map with its rows and final_state on cylinder:disc
// under gravity, a boundary map with its rows, mean_free_time and coverage on the disc and in
// the sphere (the 3D coordinates), and a section
// crossed only inside roll3:ellipse's edge passages with its rows and final_state, over short
// runs on which the two backends' rounding stays far below the tolerances. The counts of a map
// are integers, equal but for points within rounding of a bin edge.
TEST(Backends, CudaCollectsLikeTheCpu) {
  std::string why;
  if (!cuda::available(&why)) GTEST_SKIP() << "CUDA backend not usable here: " << why;
  constexpr double kRowTolerance = 1e-9;  // t and coordinates of a recorded point, final states, mean free time
  constexpr double kCountShare = 1e-3;    // share of the points that may change bin at an edge
  // coverage: one cell may change at an edge. Its 4e6 cells take 32 MB of stamps per GPU thread,
  // so that on a GPU with less than about 250 GB free the launch has fewer threads than the
  // 4096 trajectories and a thread takes several in turn (kernels/cuda/kernel_launch.hpp).
  constexpr double kCoverageCells = 1.0;
  const std::vector<json> configs = {
      json::parse(R"({"system": "cylinder:disc", "parameters": {"R": 1.0, "gamma": 0.6325, "g": 0.5},
        "initial": {"start": "interior", "x": 0.2, "y": 0.1, "vx": 1.0, "vy": 0.3, "vz": 0.4, "wx": 0.1},
        "scan": {"type": "grid", "axes": [{"param": "wz", "min": -1.0, "max": 1.0, "n": 64}, {"param": "z", "min": -0.3, "max": 0.3, "n": 64}]},
        "stop": {"t_max": 6.0}, "observables": ["status", "events", "final_state"],
        "outputs": {"section": {"normal": [0, 0, 1], "offset": -0.5, "direction": "both", "coords": ["x", "y", "uz"]},
                    "section_map": {"bins": [16, 16, 6], "ranges": [[-1, 1], [-1, 1], [-1.5, 1.5]]},
                    "section_events": {"every": 7, "max_events_per_trajectory": 50}}})"),
      json::parse(R"({"system": "disc", "parameters": {"R": 1.0, "gamma": 0.8},
        "initial": {"start": "boundary", "boundary_s": 0.3, "speed": 1.0},
        "scan": {"type": "grid", "axes": [{"param": "angle", "min": -1.4, "max": 1.3, "n": 64}, {"param": "spin", "min": -0.7, "max": 0.9, "n": 64}]},
        "stop": {"max_events": 40}, "observables": ["status", "events", "mean_free_time", "coverage"],
        "outputs": {"boundary_map": {"coords": ["s", "p", "spin"], "bins": [16, 8, 4], "ranges": [[0, 1], [-1, 1], [-2, 2]]},
                    "boundary_events": {"every": 5, "max_events_per_trajectory": 40},
                    "coverage": {"bins": [2000, 2000]}}})"),
      // the 3D boundary coordinates: where and how the sphere's impacts land, with gravity
      json::parse(R"({"system": "sphere", "parameters": {"R": 1.0, "gamma": 0.6325, "g": 1.0},
        "initial": {"start": "interior", "x": 0.3, "y": 0.1, "z": 0.2, "vx": 0.5, "vy": 0.7, "vz": -0.4},
        "scan": {"type": "grid", "axes": [{"param": "wy", "min": -1.0, "max": 1.0, "n": 32}, {"param": "wz", "min": -1.0, "max": 1.0, "n": 32}]},
        "stop": {"max_events": 40}, "observables": ["status", "events", "mean_free_time", "coverage"],
        "outputs": {"boundary_map": {"coords": ["s", "cos_theta", "p_up"], "bins": [16, 8, 4]},
                    "boundary_events": {"every": 5, "max_events_per_trajectory": 40},
                    "coverage": {"coords": ["p", "p_up"], "bins": [2000, 2000]}}})"),
      // crossings inside the edge passages of a rolling table (the plane between its faces)
      json::parse(R"({"system": "roll3:ellipse", "parameters": {"a": 1.5, "b": 1.0, "r": 0.1, "gamma": 0.6325, "g": 1.0},
        "initial": {"start": "plate", "x1": 0.0, "x2": 0.0, "v2": 0.0},
        "scan": {"type": "grid", "axes": [{"param": "v1", "min": -2.0, "max": 2.0, "n": 12}, {"param": "S12", "min": -1.5, "max": 1.5, "n": 8}]},
        "stop": {"t_max": 8.0}, "observables": ["status", "events", "final_state"],
        "options": {"rtol": 1e-10, "atol": 1e-10},
        "outputs": {"section": {"normal": [0, 0, 1], "offset": 0.05, "direction": -1, "coords": ["x1", "x2", "v3"]},
                    "section_map": {"bins": [16, 12, 1], "ranges": [[-1.7, 1.7], [-1.2, 1.2], [-3.0, 0.0]]},
                    "section_events": {"every": 3, "max_events_per_trajectory": 200}}})")};
  for (const json& j : configs) {
    const RunConfig rc = testing::config_from(j);
    const TrajectoryRange all{0, rc.spec.count};
    const std::unique_ptr<ChunkEngine> gpu = make_engine(Executor{Backend::cuda, cuda::current_device()}, rc);
    const std::unique_ptr<ChunkEngine> cpu = make_engine(Executor{Backend::cpu, -1}, rc);
    const RangeResult a = integrate_chunk(*cpu, rc, all), b = integrate_chunk(*gpu, rc, all);
    for (auto member : {&RangeResult::boundary_points, &RangeResult::section_points}) {
      const PointResult &pa = a.*member, &pb = b.*member;
      ASSERT_EQ(pa.counts.size(), pb.counts.size()) << j["system"];
      std::uint64_t total = 0, moved = 0;
      for (std::size_t k = 0; k < pa.counts.size(); ++k) {
        total += pa.counts[k];
        moved += pa.counts[k] > pb.counts[k] ? pa.counts[k] - pb.counts[k] : pb.counts[k] - pa.counts[k];
      }
      EXPECT_LE(static_cast<double>(moved), kCountShare * static_cast<double>(total)) << j["system"] << ": of " << total;
      ASSERT_EQ(pa.events.size(), pb.events.size()) << j["system"];
      for (std::size_t k = 0; k < pa.events.size(); ++k)
        EXPECT_NEAR(pa.events[k], pb.events[k], kRowTolerance * (1.0 + std::abs(pa.events[k]))) << j["system"] << " row value " << k;
    }
    for (const auto& [name, va] : a.values) {
      const std::vector<double>& vb = b.values.at(name);
      ASSERT_EQ(va.size(), vb.size()) << name;
      for (std::size_t k = 0; k < va.size(); ++k) {
        if (std::isnan(va[k]) && std::isnan(vb[k])) continue;
        const double tolerance = name == "coverage" ? kCoverageCells / (2000.0 * 2000.0) : kRowTolerance * (1.0 + std::abs(va[k]));
        EXPECT_NEAR(va[k], vb[k], tolerance) << j["system"] << " " << name << "[" << k << "]";
      }
    }
  }
}

}  // namespace
}  // namespace skipstone
