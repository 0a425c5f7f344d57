// The chunks of a scan range still to be integrated, handed out in index order to any number
// of workers (threads driving CUDA devices, MPI ranks): a work queue, so that a worker that
// drew cheap trajectories simply takes more chunks. Chunks already saved by a checkpoint are
// skipped. Which worker runs a chunk never changes its numbers (trajectories are independent
// and seeded by index), only the order in which results arrive (see result_collector.hpp).
#pragma once
#include <cstdint>
#include <mutex>
#include <optional>
#include <vector>

#include "range_result.hpp"

namespace skipstone {

class ChunkQueue {
 public:
  // Splits `range` minus the ranges in `done` (sorted, disjoint) into chunks of at most `chunk`.
  ChunkQueue(TrajectoryRange range, std::uint64_t chunk, const std::vector<TrajectoryRange>& done);

  // The next chunk, or nothing when every chunk is handed out or the queue was cancelled.
  // Safe to call from several threads.
  std::optional<TrajectoryRange> next();

  // After a failure: hand out nothing more.
  void cancel();

 private:
  std::mutex mutex_;
  std::vector<TrajectoryRange> chunks_;
  std::size_t next_ = 0;
};

// Chunk size for `workers` workers sharing a range: at most `base`, and small enough that
// each worker gets about eight chunks, so that uneven trajectory costs even out; always a
// whole number of statistics blocks.
std::uint64_t balanced_chunk_size(std::uint64_t base, std::uint64_t range_size, std::uint64_t workers);

}  // namespace skipstone
