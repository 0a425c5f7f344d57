// Throughput scaling of the no-slip disc with ensemble size and CPU threads. Every point (a size
// at all threads; on the CPU, the fixed size at 1, 2, ... threads) is timed side by side with
// the others, round by round (timed_reps_interleaved), so that other jobs coming and going on a
// shared machine slow all points alike instead of whichever was being measured at the time.
#include "bench_scaling.hpp"

#include <cstdio>
#include <deque>
#include <functional>
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

struct Point {
  std::uint64_t trajectories;
  int threads;  // CPU threads; 0 on a device
  bool thread_scan;
  std::string label;
};
}  // namespace

nlohmann::json run_scaling(Backend b, int reps, std::uint64_t max_trajectories, std::uint64_t thread_scan_size) {
  const bool cpu_backend = b == Backend::cpu;
  const int all = cpu_backend ? cpu::max_threads() : 0;
  std::vector<Point> points;
  for (std::uint64_t n = 1000; n <= max_trajectories; n *= 10) points.push_back({n, all, false, "N = " + std::to_string(n)});
  if (cpu_backend) {
    std::vector<int> counts;  // 1, 2, 4, ..., all
    for (int t = 1; t < all; t *= 2) counts.push_back(t);
    counts.push_back(all);
    for (int t : counts) points.push_back({thread_scan_size, t, true, std::to_string(t) + " thread(s)"});
  }

  std::deque<RunConfig> configs;  // the runners hold references to their specs
  std::deque<EnsembleRunner> runners;
  std::vector<EnsembleTotals> totals(points.size());
  std::vector<std::function<void()>> runs;
  for (std::size_t i = 0; i < points.size(); ++i) {
    configs.push_back(parse_config(disc_config(points[i].trajectories, kImpactsPerTrajectory)));
    runners.emplace_back(b, configs.back().spec);
    runs.push_back([&, i] {
      if (cpu_backend) cpu::set_threads(points[i].threads);
      totals[i] = runners[i].run();
    });
  }
  std::printf("scaling: %zu points timed side by side, %d rounds after a warm-up (%s, %llu impacts each)\n",
              points.size(), reps, cpu_backend ? (std::to_string(all) + " threads unless said").c_str() : "CUDA",
              static_cast<unsigned long long>(kImpactsPerTrajectory));
  const std::vector<Timing> timings = timed_reps_interleaved(reps, runs, kMinSampleSeconds);
  if (cpu_backend) cpu::set_threads(all);

  nlohmann::json j;
  j["workload"] = "no-slip disc (as the bench's disc workload), " + std::to_string(kImpactsPerTrajectory) +
                  " impacts per trajectory";
  j["impacts_per_trajectory"] = kImpactsPerTrajectory;
  j["interleaved"] = true;
  j["trajectories"] = nlohmann::json::array();
  for (std::size_t i = 0; i < points.size(); ++i) {
    const Point& p = points[i];
    nlohmann::json m = report(p.label, kImpactRate, p.threads, FlopCount{}, 0.0, timings[i], totals[i]).json;
    m["trajectories"] = p.trajectories;
    j[p.thread_scan ? "threads" : "trajectories"].push_back(m);
  }
  j["loadavg_after"] = loadavg();
  return j;
}

}  // namespace skipstone::bench
