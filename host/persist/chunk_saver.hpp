// Saves finished chunks to the checkpoint on a thread of its own, so that the threads that
// deliver chunks (the workers, and under MPI the coordinator that also hands out work) do not
// wait for the disk: a save costs one fsync'd write per file, about 0.3 s per chunk here.
// After its save a chunk is passed on (`then`, in save order). At most `max_pending` chunks
// wait; a further enqueue blocks until one is saved, so memory stays bounded when the disk is
// slower than the integration. A failed save is rethrown by the next enqueue or by drain().
// Destroying the saver without drain() (a failed run) drops the chunks not yet started.
#pragma once
#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>

#include "checkpoint.hpp"
#include "range_result.hpp"

namespace skipstone {

class ChunkSaver {
 public:
  ChunkSaver(Checkpoint& checkpoint, std::function<void(RangeResult&&)> then, std::size_t max_pending = 2);
  ~ChunkSaver();
  ChunkSaver(const ChunkSaver&) = delete;
  ChunkSaver& operator=(const ChunkSaver&) = delete;

  void enqueue(RangeResult&& chunk);
  // Waits until every enqueued chunk is saved and passed on; rethrows a failed save.
  void drain();

 private:
  void loop();
  void rethrow_locked();
  Checkpoint& checkpoint_;
  std::function<void(RangeResult&&)> then_;
  std::size_t max_pending_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<RangeResult> pending_;
  bool busy_ = false, stopping_ = false;
  std::exception_ptr error_;
  std::thread thread_;
};

}  // namespace skipstone
