// The accuracy cost of a float kernel, measured by `skipstone bench --precision float`: the same
// Figure-18 scan (roll4:disc-transversal, Proposition 12) run in double and in float on one
// backend, compared pixel by pixel: |exit_time_float - exit_time_double| (max, median) over the
// pixels that both leave the rim on the same side, the fraction of pixels whose exit side (or
// status) differs, and the largest energy error of the float run.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include <nlohmann/json.hpp>

#include "backend.hpp"
#include "skipstone/result.hpp"
#include "skipstone/scan_spec.hpp"

namespace skipstone::bench {

struct ExitMapDifference {
  std::uint64_t compared = 0;        // pixels unmasked in both runs
  std::uint64_t side_differs = 0;    // exit_side or status differ
  std::uint64_t same_side_exits = 0; // both exited on the same side
  double max_dt = 0, median_dt = 0;  // |exit_time difference| over same_side_exits
  double max_energy_error_b = 0;     // of run b (the float run)

  nlohmann::json json() const {
    return {{"pixels_compared", compared},
            {"exit_side_differs", side_differs},
            {"exit_side_differs_fraction", compared ? static_cast<double>(side_differs) / compared : 0.0},
            {"same_side_exits", same_side_exits},
            {"exit_time_abs_diff_max", max_dt},
            {"exit_time_abs_diff_median", median_dt},
            {"energy_error_max_float", max_energy_error_b}};
  }
};

// Runs scans a (reference) and b (same points, other precision or tolerances) on backend `be`
// in chunks of at most 2^20 trajectories and compares them pixel by pixel.
inline ExitMapDifference compare_exit_maps(Backend be, const ScanSpec& a, const ScanSpec& b) {
  constexpr std::uint64_t kChunk = std::uint64_t{1} << 20;
  ExitMapDifference d;
  std::vector<double> dts;
  std::vector<TrajectoryResult> ra(std::min(a.count, kChunk)), rb(ra.size());
  for (std::uint64_t first = 0; first < a.count; first += kChunk) {
    const std::uint64_t n = std::min(kChunk, a.count - first);
    run_chunk(be, a, first, n, ra.data());
    run_chunk(be, b, first, n, rb.data());
    for (std::uint64_t i = 0; i < n; ++i) {
      const TrajectoryResult &x = ra[i], &y = rb[i];
      if (x.status == Status::masked || y.status == Status::masked) continue;
      ++d.compared;
      if (std::isfinite(y.energy_error)) d.max_energy_error_b = std::max(d.max_energy_error_b, y.energy_error);
      if (x.status != y.status || x.exit_side != y.exit_side) {
        ++d.side_differs;
        continue;
      }
      if (x.status != Status::exited) continue;
      ++d.same_side_exits;
      dts.push_back(std::fabs(y.exit_time - x.exit_time));
    }
  }
  if (!dts.empty()) {
    d.max_dt = *std::max_element(dts.begin(), dts.end());
    std::nth_element(dts.begin(), dts.begin() + dts.size() / 2, dts.end());
    d.median_dt = dts[dts.size() / 2];
  }
  return d;
}

}  // namespace skipstone::bench
