// Collects the finished chunks of a scan range, which workers deliver in any order, into one
// range result in index order: a chunk waits until every chunk before it has arrived, then is
// appended (append_range), so the values and the block statistics are those of a single
// in-order run, bit for bit. Chunks are saved to the checkpoint as they arrive (all but the
// one that completes the range), on the saver's thread (chunk_saver.hpp), so add() returns
// without waiting for the disk. Progress is reported on stderr from the counter of finished
// trajectories that the workers' kernels advance while chunks run (progress_monitor.hpp).
#pragma once
#include <map>
#include <memory>
#include <mutex>

#include "checkpoint.hpp"
#include "chunk_saver.hpp"
#include "config.hpp"
#include "progress.hpp"
#include "progress_monitor.hpp"
#include "range_result.hpp"

namespace skipstone {

class ResultCollector {
 public:
  // `saved`: the trajectories of the chunks that add_saved() will bring (done before this run).
  ResultCollector(const RunConfig& rc, TrajectoryRange range, Checkpoint* checkpoint, bool quiet,
                  std::uint64_t saved = 0);

  // The counter of finished trajectories that the kernels of this process advance
  // (through their chunk engines): the progress line reports it.
  DoneCounter& done() { return done_; }

  // A chunk loaded from the checkpoint: kept, not saved again.
  void add_saved(RangeResult&& chunk);
  // A chunk integrated in this process, its trajectories already counted in done(). Safe to
  // call from several threads.
  void add(RangeResult&& chunk);
  // A chunk integrated by another process (an MPI rank): counted as done as it arrives.
  void add_remote(RangeResult&& chunk);

  // The whole range; std::logic_error when a chunk is missing.
  RangeResult finish();

 private:
  void insert(RangeResult&& chunk);  // with mutex_ held
  TrajectoryRange range_;
  std::mutex mutex_;
  RangeResult acc_;
  std::map<std::uint64_t, RangeResult> waiting_;  // arrived ahead of a missing chunk, by first
  std::uint64_t delivered_ = 0;                    // trajectories given to add() or add_saved()
  DoneCounter done_;
  Progress progress_;
  std::unique_ptr<ProgressMonitor> monitor_;       // unless quiet
  std::unique_ptr<ChunkSaver> saver_;              // with a checkpoint; last: stopped first
};

}  // namespace skipstone
