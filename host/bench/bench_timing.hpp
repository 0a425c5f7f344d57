// Timing for the benchmarks (skipstone bench, benchmarks/figure18_points.cpp): one warm-up
// call and then repeated timed samples, with wall time and process CPU time per call, and the
// median and min/max spread of the rates derived from them. A sample is one call, or as many
// calls as make it last a given minimum time, so that calls of a fraction of a millisecond
// (a scaling point of 1e3 trajectories) are not timed one by one against the clock's and the
// thread team's fixed costs.
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
  std::vector<double> wall;  // seconds per call, one entry per sample (its mean over its calls)
  std::vector<double> cpu;   // process CPU seconds per call (all threads), one entry per sample
  int calls_per_sample = 1;
  // Median of cpu / (wall x threads): near 1 when every thread had a core to itself, lower
  // when other jobs shared the cores (or threads waited for each other).
  double utilisation(int threads) const;
  // work / wall of each call
  Spread rate(double work) const;
};

// One warm-up call of `run`, then `reps` timed samples of calls_per_sample calls each: 1, or
// as many as the warm-up call's duration says make a sample last min_sample_seconds.
Timing timed_reps(int reps, const std::function<void()>& run, double min_sample_seconds = 0.0);

// The same for several calls side by side: each warmed up and given its calls per sample, then
// `reps` rounds in which every call takes one sample in turn, so that a load that comes and goes
// during the measurement (other jobs on a shared machine) falls on all of them alike and their
// rates can be compared (the scaling study).
std::vector<Timing> timed_reps_interleaved(int reps, const std::vector<std::function<void()>>& runs,
                                           double min_sample_seconds);

}  // namespace skipstone::bench
