// The state of a system as rows of numbers (docs/config.md, "Observables" final_state and "Start
// from a file of states"): the columns of the final_state observable, and the parameters a row
// of a state file sets for the start "state_file" (the same columns, so that the final states
// of one run start the next). Systems without a layout have neither.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "skipstone/scan_spec.hpp"
#include "skipstone/system_traits.hpp"

namespace skipstone {

struct StateLayout {
  std::vector<std::string> columns;  // empty: the system has no final_state
  std::vector<Param> params;         // column c sets params[c]; empty: no start "state_file"
};

// The columns after a state's in the final_state of a scan with noisy constraints (the noise
// process where the run left it: docs/config.md "Start from a file of states"), which a state
// file may have too (NaN: none), and the parameters they set.
inline const StateLayout kNoiseLayout = {{kParamNames[P_NOISE_N1], kParamNames[P_NOISE_N2]}, {P_NOISE_N1, P_NOISE_N2}};

// The rows of a state file, shared by the copies of a RunConfig (ScanSpec::state_rows points in).
using StateRows = std::shared_ptr<const std::vector<double>>;

StateLayout state_layout(const SystemTraits& system);

// The systems with a start "state_file", for messages.
std::string systems_with_state_start();

}  // namespace skipstone
