// One trajectory of a scan recorded as the rows of `skipstone trace` (trace_recorder.hpp):
// every event, or with a sample step the state at t = 0, DT, 2 DT, ... The CLI
// (trace_command.cpp) writes the rows as CSV; the Python module's trace() returns them as a
// NumPy structured array. Also the choice of the trajectory: by index, or for Python the grid
// point nearest to given parameter values.
#pragma once
#include <cstdint>
#include <map>
#include <string>

#include "config.hpp"
#include "skipstone/simulate.hpp"

namespace skipstone {

// The rows a trace holds in memory: 1e6 rows of the widest CSV are about 300 MB.
constexpr std::uint64_t kDefaultMaxRows = 1000000;
constexpr std::uint64_t kMaxRowsLimit = 1000000000;

struct Trace {
  std::string csv;  // header row and one row per event or sample
  std::uint64_t rows = 0;
  TrajectoryResult result;
};

// Trajectory `index` of the scan, its events (`sample_dt` = 0) or its state every `sample_dt`
// (every system, docs/usage.md "Traces"); more than `max_rows` rows is a UsageError.
Trace record_trace(const RunConfig& rc, std::uint64_t index, double sample_dt, std::uint64_t max_rows);

// A UsageError naming `option` (--index, index) unless `index` is a trajectory of the scan.
void check_trace_index(const RunConfig& rc, std::uint64_t index, const std::string& option);

// The index of the grid point nearest to `coords` (every scanned parameter once, each within
// its axis' range); a UsageError naming `option` for a random scan, a missing or unknown
// parameter or a value outside its axis.
std::uint64_t nearest_grid_index(const RunConfig& rc, const std::map<std::string, double>& coords, const std::string& option);

}  // namespace skipstone
