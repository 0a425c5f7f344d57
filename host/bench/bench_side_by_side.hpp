// Several bench workloads timed side by side on one CPU thread, round by round
// (timed_reps_interleaved), so that other jobs coming and going on a shared machine slow them
// alike and the ratios of their rates (a rolling table's over the dedicated disc kernel's) hold
// even when each workload's own figures do not. A workload can also be timed as the scalar loop
// (one trajectory after another, simulate_variant).
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench_report.hpp"

namespace skipstone::bench {

struct SideBySideRun {
  std::string key;  // the workload's key; its scalar loop is reported as key + " scalar_loop"
  nlohmann::json config;
  std::vector<RateDef> rates;
  bool scalar_loop;  // timed as the scalar loop instead of on the backend
};

// The rates of every run (as report() gives them), keyed by run: reps rounds after one warm-up
// each, a sample repeating a run until it lasts min_sample_seconds. CPU backend, 1 thread; the
// thread count is restored after.
nlohmann::json time_side_by_side(const std::vector<SideBySideRun>& runs, int reps, double min_sample_seconds);

// The key of a run in time_side_by_side's result.
std::string side_by_side_key(const SideBySideRun& r);

}  // namespace skipstone::bench
