// Measurement and reporting for `skipstone bench`: a workload's rates (work counted from the
// run's totals, per second of wall time) with median, spread and CPU utilisation, as JSON and
// as one printed line per rate.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench_ensemble.hpp"
#include "bench_timing.hpp"

namespace skipstone::bench {

struct RateDef {
  const char* name;  // JSON key, e.g. "impacts"
  const char* unit;  // e.g. "impacts/s"
  std::uint64_t EnsembleTotals::*work;
};

// Double-precision operations per unit of one of the totals (0: not counted).
struct FlopCount {
  double per_unit = 0.0;
  std::uint64_t EnsembleTotals::*work = nullptr;
};

struct Measured {
  nlohmann::json json;
  EnsembleTotals totals;
  double first_rate;  // median of the first rate
};

// The rates of a timed run whose totals are `totals`, as JSON and printed lines. threads > 0:
// CPU threads (utilisation recorded); 0: a device. peak_flops > 0 and a flop count add the
// achieved fraction of peak.
Measured report(const std::string& label, const std::vector<RateDef>& rates, int threads, const FlopCount& flops,
                double peak_flops, const Timing& t, const EnsembleTotals& totals);

// 1 warm-up + reps timed samples of run (timed_reps), reported.
Measured measure(const std::string& label, const std::vector<RateDef>& rates, int reps, int threads,
                 const FlopCount& flops, double peak_flops, const std::function<EnsembleTotals()>& run);

void print_rate(const std::string& what, const Spread& s, const std::string& unit, double utilisation);

}  // namespace skipstone::bench
