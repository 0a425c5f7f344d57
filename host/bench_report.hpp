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

struct Measured {
  nlohmann::json json;
  EnsembleTotals totals;
  double first_rate;  // median of the first rate
};

// 1 warm-up + reps timed calls of run. threads > 0: CPU threads (utilisation recorded);
// 0: a device. peak_flops > 0 and flops_per_event > 0 add the achieved fraction of peak.
Measured measure(const std::string& label, const std::vector<RateDef>& rates, int reps, int threads,
                 double flops_per_event, double peak_flops, const std::function<EnsembleTotals()>& run);

void print_rate(const std::string& what, const Spread& s, const std::string& unit, double utilisation);

}  // namespace skipstone::bench
