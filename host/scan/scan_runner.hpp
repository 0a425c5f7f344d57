// Runs a scan, or one range of it (a shard), chunk by chunk on the chosen backend (or on
// several CUDA devices, or shared with other MPI ranks: mpi_scan.hpp) and streams each chunk
// into the per-trajectory values and the block statistics (range_result.hpp). With a
// checkpoint, finished chunks are saved as they complete and those saved by an earlier,
// interrupted run are loaded instead of recomputed. Every number is independent of the chunk
// size, the thread count, the number of devices or ranks, sharding and resuming.
#pragma once
#include <array>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "backend.hpp"
#include "chunk_queue.hpp"
#include "config.hpp"
#include "executors.hpp"
#include "range_result.hpp"
#include "result_collector.hpp"
#include "statistics.hpp"

namespace skipstone {

class Checkpoint;

// A whole scan, ready for the writers.
struct ScanResult {
  std::map<std::string, std::vector<double>> maps;  // annulus_axis holds 3 values per trajectory
  std::map<std::string, RunningStats> stats;        // over trajectories whose status is ok
  std::map<std::string, Histogram> histograms;      // the config's declared ones
  std::array<std::uint64_t, kStatusCount> status_counts{};
  std::uint64_t total_events = 0;
  std::uint64_t chunk_size = 0;
  double wall_seconds = 0.0;
  PointResult boundary_points;                 // outputs.boundary_map, boundary_events (RangeResult)
  PointResult section_points;                  // outputs.section_map, section_events
  std::vector<std::uint64_t> survival_counts;  // outputs.survival (RangeResult)
};

struct ScanOptions {
  std::uint64_t chunk_override = 0;   // 0: options.chunk_size, else default_chunk_size
  bool quiet = false;
  std::optional<TrajectoryRange> range;  // a run of whole blocks; absent: the whole scan
  Checkpoint* checkpoint = nullptr;       // optional: load saved chunks, save finished ones
  std::vector<Executor> executors;        // empty: one for the backend (its current device)
  std::uint64_t workers = 0;              // workers sharing the range over all ranks; 0: executors
  std::function<void()> between_chunks;   // optional: called before each chunk; throws to stop the run
};

// The chunk size a run uses: a whole number of statistics blocks, at most the scan rounded up;
// without --chunk, small enough to spread the range over several workers (balanced_chunk_size).
std::uint64_t scan_chunk_size(const RunConfig& rc, const BackendChoice& backend, const ScanOptions& options);

// One run of a range: the work queue of the chunks still to integrate and the collector of the
// finished ones, pre-filled with those loaded from the checkpoint.
class RangeRun {
 public:
  RangeRun(const RunConfig& rc, const BackendChoice& backend, const ScanOptions& options);
  ChunkQueue& queue() { return queue_; }
  ResultCollector& collector() { return collector_; }
  // The whole range, its wall time that of the saved chunks plus this run's.
  RangeResult finish();

 private:
  TrajectoryRange range_;
  std::vector<RangeResult> saved_;
  double saved_wall_ = 0.0;
  ChunkQueue queue_;
  ResultCollector collector_;
  std::chrono::steady_clock::time_point start_;
};

RangeResult run_scan_range(const RunConfig& rc, const BackendChoice& backend, const ScanOptions& options);

// The whole scan as one range result (first 0, end count) turned into maps and merged statistics.
ScanResult scan_result(RangeResult&& whole, std::uint64_t chunk_size, const RunConfig& rc);

ScanResult run_scan(const RunConfig& rc, const BackendChoice& backend, std::uint64_t chunk_override, bool quiet);

}  // namespace skipstone
