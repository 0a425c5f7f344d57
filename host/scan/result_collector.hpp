// Collects the finished chunks of a scan range, which workers deliver in any order, into one
// range result in index order: a chunk waits until every chunk before it has arrived, then is
// appended (append_range), so the values and the block statistics are those of a single
// in-order run, bit for bit. Chunks are saved to the checkpoint as they arrive (all but the
// one that completes the range), on the saver's thread (chunk_saver.hpp), so add() returns
// without waiting for the disk; progress is reported on stderr.
#pragma once
#include <map>
#include <memory>
#include <mutex>

#include "checkpoint.hpp"
#include "chunk_saver.hpp"
#include "config.hpp"
#include "progress.hpp"
#include "range_result.hpp"

namespace skipstone {

class ResultCollector {
 public:
  ResultCollector(const RunConfig& rc, TrajectoryRange range, Checkpoint* checkpoint, bool quiet);

  // A chunk loaded from the checkpoint: kept, not saved again.
  void add_saved(RangeResult&& chunk);
  // A freshly integrated chunk. Safe to call from several threads.
  void add(RangeResult&& chunk);

  // The whole range; std::logic_error when a chunk is missing.
  RangeResult finish();

 private:
  void insert(RangeResult&& chunk);  // with mutex_ held
  TrajectoryRange range_;
  std::mutex mutex_;
  RangeResult acc_;
  std::map<std::uint64_t, RangeResult> waiting_;  // arrived ahead of a missing chunk, by first
  std::uint64_t arrived_ = 0;                      // trajectories inserted so far
  std::uint64_t delivered_ = 0;                    // trajectories given to add() or add_saved()
  Progress progress_;
  std::unique_ptr<ChunkSaver> saver_;              // with a checkpoint; last: stopped first
};

}  // namespace skipstone
