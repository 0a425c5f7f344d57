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

// One point output kind's part of a result (boundary_outputs.hpp): the counts of every bin of
// the map, then the points outside it (empty without a map); the rows of point_event_columns,
// by trajectory then point; the points beyond max_events_per_trajectory that were not recorded.
struct PointResult {
  std::vector<std::uint64_t> counts;
  std::vector<double> events;
  std::uint64_t dropped = 0;
};

struct RangeResult {
  TrajectoryRange range;
  std::map<std::string, std::vector<double>> values;             // `length` values per trajectory for vectors
  std::map<std::string, std::vector<RunningStats>> block_stats;  // scalar observables, one per block
  std::array<std::uint64_t, kStatusCount> status_counts{};
  std::uint64_t total_events = 0;
  double wall_seconds = 0.0;
  PointResult boundary_points;  // outputs.boundary_map, boundary_events
  PointResult section_points;   // outputs.section_map, section_events
  // outputs.survival: at each time of rc.survival_times, the trajectories with an ok status that
  // had not left through a hole by then (escape_time NaN or > t); empty without
  std::vector<std::uint64_t> survival_counts;
};

// The point output kinds of a run: their file names' prefix, config and part of a result.
struct PointFiles {
  std::string prefix;  // "boundary", "section": <prefix>_map.npy, <prefix>_events.npy
  const BoundaryOutputs& out;
  PointResult RangeResult::*member;
};
inline std::vector<PointFiles> point_files(const RunConfig& rc) {
  return {{"boundary", rc.boundary, &RangeResult::boundary_points}, {"section", rc.section, &RangeResult::section_points}};
}

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

// Adds a chunk's points of the output kind `b` to `out` (of r, whose range is the chunk): the
// map's `counts`, and for the chunk's trajectories at offsets `recorded` their rows
// (b.event_fields each, max_events_per_trajectory per trajectory) and how many points each had.
void add_point_outputs(PointResult& out, const RangeResult& r, const RunConfig& rc, const BoundaryOutputs& b,
                       std::vector<std::uint64_t>&& counts, const std::vector<std::uint64_t>& recorded,
                       const std::vector<double>& rows, const std::vector<std::uint64_t>& points);

// Sets r's values of the collected vector observable `name` (final_state, height_series; r.range
// is the chunk): `rows`, `length` per trajectory, with NaN rows where the status is not ok (as
// every observable).
void add_collected_rows(RangeResult& r, const std::string& name, const TrajectoryResult* results,
                        std::vector<double>&& rows, int length);

// Appends `next`, which must start where `acc` ends (std::logic_error otherwise).
void append_range(RangeResult& acc, RangeResult&& next);

// Folds the block statistics of every scalar observable in block order.
std::map<std::string, RunningStats> merged_stats(const RangeResult& r);

}  // namespace skipstone
