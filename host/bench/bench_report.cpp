// Measurement and printing of benchmark rates.
#include "bench_report.hpp"

#include <cstdio>

namespace skipstone::bench {

void print_rate(const std::string& what, const Spread& s, const std::string& unit, double utilisation) {
  std::printf("  %-56s median %.3e %s  (min %.3e, max %.3e)", what.c_str(), s.median, unit.c_str(), s.min, s.max);
  if (utilisation >= 0) std::printf("  cpu use %.0f%%", 100.0 * utilisation);
  std::printf("\n");
  std::fflush(stdout);
}

Measured report(const std::string& label, const std::vector<RateDef>& rates, int threads, const FlopCount& flops,
                double peak_flops, const Timing& t, const EnsembleTotals& totals) {
  Measured m;
  m.totals = totals;
  const double util = threads > 0 ? t.utilisation(threads) : -1.0;
  if (threads > 0) {
    m.json["threads"] = threads;
    m.json["cpu_utilisation"] = util;
  }
  m.json["wall_seconds"] = spread_json(spread_of(t.wall), "s");  // per call
  m.json["calls_per_sample"] = t.calls_per_sample;
  for (std::size_t i = 0; i < rates.size(); ++i) {
    const Spread s = t.rate(static_cast<double>(m.totals.*rates[i].work));
    if (i == 0) m.first_rate = s.median;
    m.json[rates[i].name] = spread_json(s, rates[i].unit);
    print_rate(label + ", " + rates[i].name, s, rates[i].unit, util);
  }
  if (flops.per_unit > 0 && peak_flops > 0) {
    const double rate = t.rate(static_cast<double>(m.totals.*flops.work)).median * flops.per_unit;
    m.json["fp64_flops"] = rate;
    m.json["fraction_of_fp64_peak"] = rate / peak_flops;
    std::printf("  %-56s %.3e flop/s = %.2f%% of the FP64 peak %.3e\n", (label + ", achieved").c_str(), rate,
                100.0 * rate / peak_flops, peak_flops);
  }
  return m;
}

Measured measure(const std::string& label, const std::vector<RateDef>& rates, int reps, int threads,
                 const FlopCount& flops, double peak_flops, const std::function<EnsembleTotals()>& run) {
  EnsembleTotals totals;
  const Timing t = timed_reps(reps, [&] { totals = run(); });
  return report(label, rates, threads, flops, peak_flops, t, totals);
}

}  // namespace skipstone::bench
