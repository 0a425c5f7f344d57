// Timing for the benchmarks (skipstone bench, benchmarks/figure18_points.cpp): one warm-up
// call and then repeated timed calls, with wall time and process CPU time per call, and the
// median and min/max spread of the rates derived from them.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace skipstone::bench {

struct Spread {
  double median = 0, min = 0, max = 0;
  std::vector<double> samples;
};

Spread spread_of(const std::vector<double>& v);
nlohmann::json spread_json(const Spread& s, const std::string& unit);

struct Timing {
  std::vector<double> wall;  // seconds per timed call
  std::vector<double> cpu;   // process CPU seconds per timed call (all threads)
  // Median of cpu / (wall x threads): near 1 when every thread had a core to itself, lower
  // when other jobs shared the cores (or threads waited for each other).
  double utilisation(int threads) const;
  // work / wall of each call
  Spread rate(double work) const;
};

// One warm-up call of `run`, then `reps` timed calls.
Timing timed_reps(int reps, const std::function<void()>& run);

}  // namespace skipstone::bench
