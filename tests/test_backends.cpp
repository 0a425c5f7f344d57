// Backend agreement: the CPU backend (Thrust/OpenMP) gives bit-identical results to a scalar
// loop over simulate_trajectory; results do not depend on the chunk size or the thread count;
// the CUDA backend agrees with the CPU where a GPU is present and is skipped cleanly where not.
// The configs include the float kernels (disc, cylinder:disc, the Figure-18 system).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "backends.hpp"
#include "scan_runner.hpp"
#include "skipstone/simulate.hpp"
#include "test_support.hpp"

namespace skipstone {
namespace {

using nlohmann::json;

// Relative agreement of CUDA with the CPU: the device contracts a*b+c into FMAs differently,
// so short runs agree to round-off amplified by the dynamics, not bitwise.
constexpr double kCudaAgreement = 1e-8;
// The same for the float kernels: float round-off (eps 1.2e-7) over a few hundred impacts or steps.
constexpr double kCudaFloatAgreement = 1e-4;

std::vector<json> mixed_configs() {
  const char* texts[] = {
      R"({"system": "disc", "parameters": {"gamma": 0.8}, "initial": {"start": "boundary", "speed": 1.0},
          "scan": {"type": "random", "count": 3000, "seed": 9,
                   "axes": [{"param": "angle", "min": -1.4, "max": 1.4}, {"param": "spin", "min": -1, "max": 1}]},
          "stop": {"max_events": 300}})",
      R"({"system": "disc", "parameters": {"gamma": 0.8}, "initial": {"start": "boundary", "speed": 1.0},
          "scan": {"type": "random", "count": 3000, "seed": 9,
                   "axes": [{"param": "angle", "min": -1.4, "max": 1.4}, {"param": "spin", "min": -1, "max": 1}]},
          "stop": {"max_events": 300}, "options": {"precision": "float"}})",
      R"({"system": "cylinder:disc", "parameters": {"gamma": 0.8, "g": 1.0},
          "initial": {"start": "impact", "speed": 1.0, "vz": 0.1},
          "scan": {"type": "grid", "axes": [{"param": "angle", "min": -1.4, "max": 1.4, "n": 40},
                                            {"param": "slip", "min": -0.3, "max": 0.3, "n": 40}]},
          "stop": {"max_events": 200, "t_max": 50.0}, "options": {"precision": "float"}})",
      R"({"system": "cylinder:stadium", "parameters": {"eta": 0.5, "g": 1.0},
          "initial": {"start": "impact", "speed": 1.0, "vz": 0.1},
          "scan": {"type": "grid", "axes": [{"param": "angle", "min": -1.4, "max": 1.4, "n": 60},
                                            {"param": "slip", "min": -0.3, "max": 0.3, "n": 50}]},
          "stop": {"max_events": 200, "t_max": 50.0}})",
      R"({"system": "rectangle", "parameters": {"gamma": 0.5, "g": 0.5}, "initial": {"start": "interior"},
          "scan": {"type": "grid", "axes": [{"param": "angle", "min": 0.0, "max": 6.28, "n": 4500}]},
          "stop": {"max_events": 100}})",
      R"({"system": "roll3:inside-cylinder", "parameters": {"R": 1.0, "r": 0.2, "eta": 0.5, "g": 9.81},
          "scan": {"type": "random", "count": 2000, "seed": 3,
                   "axes": [{"param": "v1", "min": -2, "max": 2}, {"param": "spin", "min": -1, "max": 1}]},
          "stop": {"max_events": 50, "t_max": 30.0}})",
      R"({"system": "roll4:disc-transversal", "parameters": {"eta": 0.5, "r": 1.0},
          "scan": {"type": "grid", "axes": [{"param": "v2", "min": -1, "max": 1, "n": 70},
                                            {"param": "S12", "min": -1, "max": 1, "n": 70}]},
          "stop": {"t_max": 50.0}})",
      R"({"system": "roll4:disc-transversal", "parameters": {"eta": 0.5, "r": 1.0},
          "scan": {"type": "grid", "axes": [{"param": "v2", "min": -1, "max": 1, "n": 50},
                                            {"param": "S12", "min": -1, "max": 1, "n": 50}]},
          "stop": {"t_max": 50.0}, "options": {"precision": "float"}})",
      R"({"system": "roll4:disc", "parameters": {"eta": 0.5, "r": 0.1, "g_effective": 1.0},
          "initial": {"x1": 0.2, "S12": 0.61, "S23": -1.0},
          "scan": {"type": "grid", "axes": [{"param": "v1", "min": -2, "max": 1, "n": 12},
                                            {"param": "v2", "min": -1, "max": 1, "n": 12}]},
          "stop": {"max_events": 40, "t_max": 100.0}})",
  };
  std::vector<json> out;
  for (const char* t : texts) out.push_back(json::parse(t));
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

TEST(Backends, CudaMatchesCpu) {
  std::string why;
  if (!cuda::available(&why)) GTEST_SKIP() << "CUDA backend not usable here: " << why;
  for (const json& j : mixed_configs()) {
    const RunConfig rc = testing::config_from(j);
    std::vector<TrajectoryResult> a(rc.spec.count), b(rc.spec.count);
    cpu::run_chunk(rc.spec, 0, rc.spec.count, a.data());
    cuda::run_chunk(rc.spec, 0, rc.spec.count, b.data());
    const double agreement = rc.spec.precision == Precision::float32 ? kCudaFloatAgreement : kCudaAgreement;
    std::uint64_t same_status = 0;
    for (std::uint64_t i = 0; i < rc.spec.count; ++i) {
      if (a[i].status != b[i].status || a[i].events != b[i].events) continue;
      ++same_status;
      const double scale = 1.0 + std::fabs(a[i].t_end);
      EXPECT_LE(std::fabs(a[i].t_end - b[i].t_end), agreement * scale) << j["system"] << " " << i;
    }
    // corners and exits decided by round-off may differ on a handful of trajectories, no more
    EXPECT_GE(same_status, rc.spec.count - rc.spec.count / 1000 - 1) << j["system"];
  }
}

}  // namespace
}  // namespace skipstone
