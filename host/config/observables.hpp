// The observables a run can write: for each name, how to read it from a TrajectoryResult and
// how it is stored (.npy dtype). Floating observables of failed or masked trajectories are
// written as NaN and left out of the statistics (MODELS.md section 4); exit_side (-1, 0, +1)
// is floating for that reason, so that NaN (masked or failed) differs from 0 (no exit).
#pragma once
#include <string>

#include "skipstone/result.hpp"

namespace skipstone {

enum class ObservableType { float64, int8, uint64, vector3 };

struct ObservableInfo {
  std::string name;
  ObservableType type;
  std::string description;
  double (*value)(const TrajectoryResult&);  // scalar value; NaN where the status is not ok
};

// Throws std::invalid_argument for an unknown name.
const ObservableInfo& observable_info(const std::string& name);

}  // namespace skipstone
