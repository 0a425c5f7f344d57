// Progress from inside chunks: the backends advance a counter of finished trajectories while a
// chunk runs (backends.hpp: DoneCounter); a thread of this monitor polls it at a fixed interval
// and reports it through a Progress line, so that the line moves even while one long chunk runs.
#pragma once
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "backends.hpp"
#include "progress.hpp"

namespace skipstone {

class ProgressMonitor {
 public:
  static constexpr std::chrono::milliseconds kPollInterval{200};

  // Starts polling `done` into `progress`; both must outlive the monitor.
  ProgressMonitor(Progress& progress, const DoneCounter& done);
  ~ProgressMonitor();
  ProgressMonitor(const ProgressMonitor&) = delete;
  ProgressMonitor& operator=(const ProgressMonitor&) = delete;

  // Stops and joins the thread (it reports nothing after this returns); idempotent.
  void stop();

 private:
  void poll();
  Progress& progress_;
  const DoneCounter& done_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;  // last: started once everything above exists
};

}  // namespace skipstone
