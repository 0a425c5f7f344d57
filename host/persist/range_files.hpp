// The on-disk form of a RangeResult (docs/hpc.md, "Shards and merge"), used by shard outputs and
// checkpoint chunks. A folder holds:
//   range.json                     {"format": "skipstone-range-1", "skipstone_version",
//                                  "config_hash", "first", "end", "status_counts", "total_events",
//                                  "wall_time_s", "boundary_events_dropped",
//                                  "section_events_dropped"} (written last)
//   <observable>.values.npy        float64, shape (end - first) or (end - first, 3): the values
//                                  exactly as held in memory (NaN where the status is not ok)
//   boundary_map.counts.npy        uint64: outputs.boundary_map's counts, then the impacts outside it
//   boundary_events.rows.npy       float64, shape (rows, columns): outputs.boundary_events' rows
//   section_map.counts.npy,        the same for outputs.section_map and section_events
//   section_events.rows.npy
//   survival.counts.npy            uint64: outputs.survival's trajectories inside at each grid time
//   <observable>.block_stats.npy   float64, shape (blocks, 5): count, mean, m2, min, max of every
//                                  kStatsBlock block from `first`, in block order (scalar observables)
#pragma once
#include <filesystem>

#include "config.hpp"
#include "range_result.hpp"

namespace skipstone {

void write_range_files(const std::filesystem::path& dir, const RunConfig& rc, const RangeResult& r);

// Reads a folder written by write_range_files for the same config and skipstone version;
// throws std::runtime_error naming the file when it is missing, malformed or from another config.
RangeResult read_range_files(const std::filesystem::path& dir, const RunConfig& rc);

}  // namespace skipstone
