// The polling thread behind the progress line of a scan.
#include "progress_monitor.hpp"

namespace skipstone {

ProgressMonitor::ProgressMonitor(Progress& progress, const DoneCounter& done)
    : progress_(progress), done_(done), thread_([this] { poll(); }) {}

ProgressMonitor::~ProgressMonitor() { stop(); }

void ProgressMonitor::stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void ProgressMonitor::poll() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!wake_.wait_for(lock, kPollInterval, [this] { return stopping_; }))
    progress_.update(done_.load(std::memory_order_relaxed));
}

}  // namespace skipstone
