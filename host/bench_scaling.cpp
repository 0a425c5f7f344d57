// Throughput scaling of the no-slip disc with ensemble size and CPU threads.
#include "bench_scaling.hpp"

#include <cstdio>
#include <string>
#include <vector>

#include "backends.hpp"
#include "bench_report.hpp"
#include "bench_workloads.hpp"
#include "config.hpp"
#include "machine_info.hpp"

namespace skipstone::bench {

namespace {
constexpr std::uint64_t kImpactsPerTrajectory = 100;
// A scan of 1e3 trajectories takes a fraction of a millisecond: its samples repeat the scan
// until they last this long, so that each point is timed over comparable wall time.
constexpr double kMinSampleSeconds = 0.25;
const std::vector<RateDef> kImpactRate = {{"impacts", "impacts/s", &EnsembleTotals::events}};

nlohmann::json point(Backend b, int reps, std::uint64_t n, int threads, const std::string& label) {
  const RunConfig rc = parse_config(disc_config(n, kImpactsPerTrajectory));
  EnsembleRunner runner(b, rc.spec);
  Measured m = measure(label, kImpactRate, reps, threads, FlopCount{}, 0.0, [&] { return runner.run(); },
                       kMinSampleSeconds);
  m.json["trajectories"] = n;
  m.json["loadavg_after"] = loadavg();
  return m.json;
}
}  // namespace

nlohmann::json run_scaling(Backend b, int reps, std::uint64_t max_trajectories, std::uint64_t thread_scan_size) {
  const bool cpu_backend = b == Backend::cpu;
  const int all = cpu_backend ? cpu::max_threads() : 0;
  nlohmann::json j;
  j["workload"] = "no-slip disc (as the bench's disc workload), " + std::to_string(kImpactsPerTrajectory) +
                  " impacts per trajectory";
  j["impacts_per_trajectory"] = kImpactsPerTrajectory;
  std::printf("scaling with the number of trajectories (%s, %llu impacts each):\n",
              cpu_backend ? (std::to_string(all) + " threads").c_str() : "CUDA",
              static_cast<unsigned long long>(kImpactsPerTrajectory));
  j["trajectories"] = nlohmann::json::array();
  for (std::uint64_t n = 1000; n <= max_trajectories; n *= 10)
    j["trajectories"].push_back(point(b, reps, n, all, "N = " + std::to_string(n)));
  if (cpu_backend) {
    std::printf("scaling with the number of CPU threads (N = %llu):\n",
                static_cast<unsigned long long>(thread_scan_size));
    j["threads"] = nlohmann::json::array();
    std::vector<int> counts;  // 1, 2, 4, ..., all
    for (int t = 1; t < all; t *= 2) counts.push_back(t);
    counts.push_back(all);
    for (int t : counts) {
      cpu::set_threads(t);
      j["threads"].push_back(point(b, reps, thread_scan_size, t, std::to_string(t) + " thread(s)"));
    }
    cpu::set_threads(all);
  }
  return j;
}

}  // namespace skipstone::bench
