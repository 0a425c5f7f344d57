// The observables a run can write: for each name, how to read it from a TrajectoryResult and
// how it is stored (.npy dtype; a vector observable has `length` values per trajectory, a
// trailing axis of its .npy). Floating observables of failed or masked trajectories are
// written as NaN and left out of the statistics (docs/config.md, "Observables"); exit_side (-1, 0, +1)
// is floating for that reason, so that NaN (masked or failed) differs from 0 (no exit).
#pragma once
#include <string>

#include "skipstone/result.hpp"

namespace skipstone {

enum class ObservableType { float64, int8, uint64, vector };

struct ObservableInfo {
  std::string name;
  ObservableType type;
  std::string description;
  double (*value)(const TrajectoryResult&);  // scalar value; NaN where the status is not ok
  int length = 1;                                            // values per trajectory (vector: > 1)
  double (*component)(const TrajectoryResult&, int) = nullptr;  // vector: value k, whatever the status
};

// Throws std::invalid_argument for an unknown name.
const ObservableInfo& observable_info(const std::string& name);

}  // namespace skipstone
