// The results of one contiguous range of trajectories [first, end) of a scan, in mergeable
// form: the per-trajectory values of every observable, the statistics of every
// kStatsBlock-block (not yet merged), the status counts and the event total. Chunks,
// checkpoints and shards are all range results; appending them in index order and folding
// the blocks gives bit for bit the numbers of a single uninterrupted run.
#pragma once
#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "config.hpp"
#include "skipstone/observable_columns.hpp"
#include "skipstone/result.hpp"
#include "statistics.hpp"

namespace skipstone {

struct TrajectoryRange {
  std::uint64_t first = 0, end = 0;
  std::uint64_t size() const { return end - first; }
};

struct RangeResult {
  TrajectoryRange range;
  std::map<std::string, std::vector<double>> values;             // `length` values per trajectory for vectors
  std::map<std::string, std::vector<RunningStats>> block_stats;  // scalar observables, one per block
  std::array<std::uint64_t, kStatusCount> status_counts{};
  std::uint64_t total_events = 0;
  double wall_seconds = 0.0;
  // outputs.boundary_map: the counts of every bin, then the impacts outside the map (empty without)
  std::vector<std::uint64_t> boundary_counts;
  // outputs.boundary_events: rows of boundary_event_columns(rc), by trajectory then impact, and
  // the impacts beyond max_events_per_trajectory that were not recorded
  std::vector<double> boundary_events;
  std::uint64_t boundary_events_dropped = 0;
  // outputs.survival: at each time of rc.survival_times, the trajectories with an ok status that
  // had not left through a hole by then (escape_time NaN or > t); empty without
  std::vector<std::uint64_t> survival_counts;
};

// Values of one trajectory of an observable: its length for vector observables (final_state:
// the system's state columns), else 1.
int values_per_trajectory(const RunConfig& rc, const std::string& observable);

// An empty result at `first` with an entry for every observable of rc.
RangeResult empty_range_result(const RunConfig& rc, std::uint64_t first);

// The columns a run of rc keeps: one per observable of rc, in rc's order.
std::vector<ColumnRequest> column_requests(const RunConfig& rc);

// Reduces the columns (column_requests(rc)) of trajectories [first, first + columns.n) (first a
// multiple of kStatsBlock) into a result.
RangeResult reduce_columns(const RunConfig& rc, std::uint64_t first, const ColumnsView& columns);

// The same from whole trajectory results (packed into columns first).
RangeResult reduce_chunk(const RunConfig& rc, std::uint64_t first, const TrajectoryResult* results, std::uint64_t n);

// Adds a chunk's impacts to r (r.range is the chunk): `counts` of the map, and for the chunk's
// trajectories at offsets `recorded` their rows (kBoundaryEventFields each, max_events_per_trajectory
// per trajectory) and how many impacts each had.
void add_boundary_outputs(RangeResult& r, const RunConfig& rc, std::vector<std::uint64_t>&& counts,
                          const std::vector<std::uint64_t>& recorded, const std::vector<double>& rows,
                          const std::vector<std::uint64_t>& impacts);

// Sets r's final_state values (r.range is the chunk): `states`, `columns` per trajectory, with
// NaN rows where the status is not ok (as every observable).
void add_final_states(RangeResult& r, const TrajectoryResult* results, std::vector<double>&& states, int columns);

// Appends `next`, which must start where `acc` ends (std::logic_error otherwise).
void append_range(RangeResult& acc, RangeResult&& next);

// Folds the block statistics of every scalar observable in block order.
std::map<std::string, RunningStats> merged_stats(const RangeResult& r);

}  // namespace skipstone
