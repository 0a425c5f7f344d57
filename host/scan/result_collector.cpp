// In-order assembly of chunks that arrive out of order.
#include "result_collector.hpp"

#include <stdexcept>

namespace skipstone {

ResultCollector::ResultCollector(const RunConfig& rc, TrajectoryRange range, Checkpoint* checkpoint, bool quiet,
                                 std::uint64_t saved)
    : range_(range), acc_(empty_range_result(rc, range.first)), done_(saved), progress_("run", range.size(), quiet, saved) {
  if (!quiet) monitor_ = std::make_unique<ProgressMonitor>(progress_, done_);
  for (auto& [name, v] : acc_.values) v.reserve(values_per_trajectory(rc, name) * range.size());
  if (checkpoint)
    saver_ = std::make_unique<ChunkSaver>(*checkpoint, [this](RangeResult&& saved) {
      std::lock_guard<std::mutex> lock(mutex_);
      insert(std::move(saved));
    });
}

void ResultCollector::insert(RangeResult&& chunk) {
  const std::uint64_t first = chunk.range.first;
  if (first < acc_.range.end || !waiting_.emplace(first, std::move(chunk)).second)
    throw std::logic_error("ResultCollector: chunk at " + std::to_string(first) + " delivered twice");
  for (auto it = waiting_.begin(); it != waiting_.end() && it->first == acc_.range.end; it = waiting_.erase(it))
    append_range(acc_, std::move(it->second));
}

void ResultCollector::add_saved(RangeResult&& chunk) {
  std::lock_guard<std::mutex> lock(mutex_);
  delivered_ += chunk.range.size();
  insert(std::move(chunk));
}

void ResultCollector::add(RangeResult&& chunk) {
  bool completes;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    delivered_ += chunk.range.size();
    completes = delivered_ == range_.size();
  }
  // The chunk that completes the range is not saved: the final outputs follow at once.
  if (saver_ && !completes) {
    saver_->enqueue(std::move(chunk));  // inserted once saved
    return;
  }
  std::lock_guard<std::mutex> lock(mutex_);
  insert(std::move(chunk));
}

void ResultCollector::add_remote(RangeResult&& chunk) {
  done_.fetch_add(chunk.range.size(), std::memory_order_relaxed);
  add(std::move(chunk));
}

RangeResult ResultCollector::finish() {
  if (saver_) saver_->drain();
  std::lock_guard<std::mutex> lock(mutex_);
  if (acc_.range.end != range_.end || !waiting_.empty())
    throw std::logic_error("ResultCollector: the range is not complete");
  if (monitor_) monitor_->stop();
  progress_.finish();
  return std::move(acc_);
}

}  // namespace skipstone
