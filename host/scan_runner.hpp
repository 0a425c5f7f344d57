// Runs a scan, or one range of it (a shard), chunk by chunk on the chosen backend and streams
// each chunk into the per-trajectory values and the block statistics (range_result.hpp). With
// a checkpoint, finished chunks are saved as they complete and those saved by an earlier,
// interrupted run are loaded instead of recomputed. Every number is independent of the chunk
// size, the thread count, the backend's scheduling, sharding and resuming.
#pragma once
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "backend.hpp"
#include "config.hpp"
#include "range_result.hpp"
#include "statistics.hpp"

namespace skipstone {

class Checkpoint;

// A whole scan, ready for the writers.
struct ScanResult {
  std::map<std::string, std::vector<double>> maps;  // annulus_axis holds 3 values per trajectory
  std::map<std::string, RunningStats> stats;        // over trajectories whose status is ok
  std::array<std::uint64_t, kStatusCount> status_counts{};
  std::uint64_t total_events = 0;
  std::uint64_t chunk_size = 0;
  double wall_seconds = 0.0;
};

struct ScanOptions {
  std::uint64_t chunk_override = 0;   // 0: options.chunk_size, else from free device memory
  bool quiet = false;
  std::optional<TrajectoryRange> range;  // a run of whole blocks; absent: the whole scan
  Checkpoint* checkpoint = nullptr;       // optional: load saved chunks, save finished ones
};

// The chunk size a run uses: a whole number of statistics blocks, at most the scan rounded up.
std::uint64_t scan_chunk_size(const RunConfig& rc, const BackendChoice& backend, std::uint64_t chunk_override);

RangeResult run_scan_range(const RunConfig& rc, const BackendChoice& backend, const ScanOptions& options);

// The whole scan as one range result (first 0, end count) turned into maps and merged statistics.
ScanResult scan_result(RangeResult&& whole, std::uint64_t chunk_size);

ScanResult run_scan(const RunConfig& rc, const BackendChoice& backend, std::uint64_t chunk_override, bool quiet);

}  // namespace skipstone
