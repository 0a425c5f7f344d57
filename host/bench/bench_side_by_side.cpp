// Bench workloads timed side by side on one CPU thread.
#include "bench_side_by_side.hpp"

#include <cstdio>
#include <deque>
#include <functional>

#include "backends.hpp"
#include "config.hpp"

namespace skipstone::bench {

std::string side_by_side_key(const SideBySideRun& r) { return r.scalar_loop ? r.key + " scalar_loop" : r.key; }

nlohmann::json time_side_by_side(const std::vector<SideBySideRun>& runs, int reps, double min_sample_seconds) {
  std::deque<RunConfig> configs;  // the runners hold references to their specs
  std::deque<EnsembleRunner> runners;
  std::vector<EnsembleTotals> totals(runs.size());
  std::vector<std::function<void()>> calls;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    configs.push_back(parse_config(runs[i].config));
    runners.emplace_back(Backend::cpu, configs.back().spec);
    calls.push_back([&, i] { totals[i] = runs[i].scalar_loop ? runners[i].scalar_loop() : runners[i].run(); });
  }
  std::printf("side by side on 1 thread: %zu runs, %d rounds after a warm-up, samples of at least %.2g s\n", runs.size(),
              reps, min_sample_seconds);
  const int threads = cpu::max_threads();
  cpu::set_threads(1);
  const std::vector<Timing> timings = timed_reps_interleaved(reps, calls, min_sample_seconds);
  cpu::set_threads(threads);
  nlohmann::json j = nlohmann::json::object();
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const std::string key = side_by_side_key(runs[i]);
    j[key] = report(key, runs[i].rates, 1, FlopCount{}, 0.0, timings[i], totals[i]).json;
  }
  return j;
}

}  // namespace skipstone::bench
