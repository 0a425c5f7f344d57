// The accuracy cost of a float kernel, measured by `skipstone bench --precision float`: the same
// scan run in double and in float on one backend (the outcomes kept from each workload's warm-up
// run, so the comparison costs no run of its own), compared trajectory by trajectory: how many
// end differently (status, or exit side for the Figure-18 map, Proposition 12), the largest
// energy error of the float run, and for each of the workload's observables the max and median
// |float - double| over the trajectories that ended the same way with both values finite
// (exit_time for Figure 18; the caustic radii rho_even / rho_odd of the no-slip disc, Figure 5;
// those and the height drift z_drift for cylinder:disc with gravity, Theorem 1).
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "skipstone/result.hpp"

namespace skipstone::bench {

struct ComparedObservable {
  std::string name;
  double TrajectoryResult::*field;
};

// The per-trajectory outcomes of one run that a comparison reads, appended chunk by chunk.
class RunRecord {
 public:
  explicit RunRecord(std::vector<ComparedObservable> fields) : fields_(std::move(fields)), values_(fields_.size()) {}

  void append(const TrajectoryResult* r, std::uint64_t n) {
    for (std::uint64_t i = 0; i < n; ++i) {
      status_.push_back(r[i].status);
      exit_side_.push_back(r[i].exit_side);
      energy_error_.push_back(r[i].energy_error);
      for (std::size_t k = 0; k < fields_.size(); ++k) values_[k].push_back(r[i].*fields_[k].field);
    }
  }
  std::uint64_t size() const { return status_.size(); }
  const std::vector<ComparedObservable>& fields() const { return fields_; }
  Status status(std::uint64_t i) const { return status_[i]; }
  std::int32_t exit_side(std::uint64_t i) const { return exit_side_[i]; }
  double energy_error(std::uint64_t i) const { return energy_error_[i]; }
  double value(std::size_t field, std::uint64_t i) const { return values_[field][i]; }

 private:
  std::vector<ComparedObservable> fields_;
  std::vector<Status> status_;
  std::vector<std::int32_t> exit_side_;
  std::vector<double> energy_error_;
  std::vector<std::vector<double>> values_;  // [field][trajectory]
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

// Compares run a (the reference) with run b (the same scan in another precision or at other
// tolerances) trajectory by trajectory, on a's observables.
inline RunDifference compare_runs(const RunRecord& a, const RunRecord& b) {
  if (a.size() != b.size() || a.fields().size() != b.fields().size())
    throw std::logic_error("compare_runs: the two runs cover different scans or observables");
  const std::size_t nf = a.fields().size();
  RunDifference d;
  std::vector<std::vector<double>> diffs(nf);
  for (std::uint64_t i = 0; i < a.size(); ++i) {
    if (a.status(i) == Status::masked || b.status(i) == Status::masked) continue;
    ++d.compared;
    if (std::isfinite(b.energy_error(i))) d.max_energy_error_b = std::max(d.max_energy_error_b, b.energy_error(i));
    if (a.status(i) != b.status(i) || a.exit_side(i) != b.exit_side(i)) {
      ++d.outcome_differs;
      continue;
    }
    for (std::size_t k = 0; k < nf; ++k) {
      const double u = a.value(k, i), v = b.value(k, i);
      if (std::isfinite(u) && std::isfinite(v)) diffs[k].push_back(std::fabs(v - u));
    }
  }
  for (std::size_t k = 0; k < nf; ++k) {
    std::vector<double>& v = diffs[k];
    ObservableDifference o;
    o.compared = v.size();
    if (!v.empty()) {
      o.max = *std::max_element(v.begin(), v.end());
      std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
      o.median = v[v.size() / 2];
    }
    d.names.push_back(a.fields()[k].name);
    d.observables.push_back(o);
  }
  return d;
}

}  // namespace skipstone::bench
