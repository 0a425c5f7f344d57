// The checkpoint saving thread (chunk_saver.hpp).
#include "chunk_saver.hpp"

#include <utility>

namespace skipstone {

ChunkSaver::ChunkSaver(Checkpoint& checkpoint, std::function<void(RangeResult&&)> then, std::size_t max_pending)
    : checkpoint_(checkpoint), then_(std::move(then)), max_pending_(max_pending), thread_([this] { loop(); }) {}

ChunkSaver::~ChunkSaver() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  thread_.join();
}

void ChunkSaver::rethrow_locked() {
  if (error_) std::rethrow_exception(error_);
}

void ChunkSaver::enqueue(RangeResult&& chunk) {
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [&] { return pending_.size() < max_pending_ || error_; });
  rethrow_locked();
  pending_.push_back(std::move(chunk));
  changed_.notify_all();
}

void ChunkSaver::drain() {
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [&] { return (pending_.empty() && !busy_) || error_; });
  rethrow_locked();
}

void ChunkSaver::loop() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    changed_.wait(lock, [&] { return !pending_.empty() || stopping_; });
    if (stopping_ || error_) return;  // the run is over (finish() drained the queue) or failed
    RangeResult chunk = std::move(pending_.front());
    pending_.pop_front();
    busy_ = true;
    lock.unlock();
    std::exception_ptr failed;
    try {
      checkpoint_.save(chunk);
      then_(std::move(chunk));
    } catch (...) {
      failed = std::current_exception();
    }
    lock.lock();
    busy_ = false;
    if (failed) error_ = failed;
    changed_.notify_all();
  }
}

}  // namespace skipstone
