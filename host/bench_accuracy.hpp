// The accuracy cost of a float kernel, measured by `skipstone bench --precision float`: the same
// scan run in double and in float on one backend, compared trajectory by trajectory: how many
// end differently (status, or exit side for the Figure-18 map, Proposition 12), the largest
// energy error of the float run, and for each of the workload's observables the max and median
// |float - double| over the trajectories that ended the same way with both values finite
// (exit_time for Figure 18; the caustic radii rho_even / rho_odd of the no-slip disc, Figure 5;
// those and the height drift z_drift for cylinder:disc with gravity, Theorem 1).
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "backend.hpp"
#include "skipstone/result.hpp"
#include "skipstone/scan_spec.hpp"

namespace skipstone::bench {

struct ComparedObservable {
  std::string name;
  double TrajectoryResult::*field;
};

struct ObservableDifference {
  std::uint64_t compared = 0;        // trajectories where both runs have a finite value
  double max = 0, median = 0;        // of |float - double|
};

struct RunDifference {
  std::uint64_t compared = 0;        // trajectories unmasked in both runs
  std::uint64_t outcome_differs = 0; // status or exit side differ
  double max_energy_error_b = 0;     // of run b (the float run)
  std::vector<std::string> names;
  std::vector<ObservableDifference> observables;

  nlohmann::json json() const {
    nlohmann::json obs = nlohmann::json::object();
    for (std::size_t k = 0; k < names.size(); ++k)
      obs[names[k]] = {{"compared", observables[k].compared},
                       {"abs_diff_max", observables[k].max},
                       {"abs_diff_median", observables[k].median}};
    return {{"trajectories_compared", compared},
            {"outcome_differs", outcome_differs},
            {"outcome_differs_fraction", compared ? static_cast<double>(outcome_differs) / compared : 0.0},
            {"energy_error_max_float", max_energy_error_b},
            {"observables", obs}};
  }
};

// Runs scans a (reference) and b (same points, other precision or tolerances) on backend `be`
// in chunks of at most 2^20 trajectories and compares them trajectory by trajectory.
inline RunDifference compare_runs(Backend be, const ScanSpec& a, const ScanSpec& b,
                                  const std::vector<ComparedObservable>& fields) {
  constexpr std::uint64_t kChunk = std::uint64_t{1} << 20;
  RunDifference d;
  std::vector<std::vector<double>> diffs(fields.size());
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
        ++d.outcome_differs;
        continue;
      }
      for (std::size_t k = 0; k < fields.size(); ++k) {
        const double u = x.*fields[k].field, v = y.*fields[k].field;
        if (std::isfinite(u) && std::isfinite(v)) diffs[k].push_back(std::fabs(v - u));
      }
    }
  }
  for (std::size_t k = 0; k < fields.size(); ++k) {
    std::vector<double>& v = diffs[k];
    ObservableDifference o;
    o.compared = v.size();
    if (!v.empty()) {
      o.max = *std::max_element(v.begin(), v.end());
      std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
      o.median = v[v.size() / 2];
    }
    d.names.push_back(fields[k].name);
    d.observables.push_back(o);
  }
  return d;
}

}  // namespace skipstone::bench
