// The observables a run can write: for each name, which value of a TrajectoryResult it is
// (observable_value) and how it is stored (.npy dtype; a vector observable has `length` values per trajectory, a
// trailing axis of its .npy). Floating observables of failed or masked trajectories are
// written as NaN and left out of the statistics (docs/config.md, "Observables"); exit_side (-1, 0, +1)
// is floating for that reason, so that NaN (masked or failed) differs from 0 (no exit).
#pragma once
#include <string>

#include "skipstone/observable_columns.hpp"

namespace skipstone {

enum class ObservableType { float64, int8, uint64, vector };

struct ObservableInfo {
  std::string name;
  ObservableType type;
  std::string description;
  ObservableId id;  // its values: observable_value (skipstone/observable_columns.hpp)
  int length = 1;   // values per trajectory (vector: > 1)
};

// Throws std::invalid_argument for an unknown name.
const ObservableInfo& observable_info(const std::string& name);

}  // namespace skipstone
