// Progress of long work on stderr: fraction done, rate and time left. On a terminal the line
// is redrawn in place; otherwise a line is printed at most once a second. Silent when quiet.
// Not thread-safe: one thread at a time updates it (progress_monitor.hpp polls from its own).
#pragma once
#include <chrono>
#include <cstdint>
#include <string>

namespace skipstone {

class Progress {
 public:
  // `skipped` of the `total` were done before this run (loaded from a checkpoint): they count
  // as done but not towards the rate and the time left.
  Progress(std::string what, std::uint64_t total, bool quiet, std::uint64_t skipped = 0);
  void update(std::uint64_t done);
  void finish();

 private:
  std::string what_;
  std::uint64_t total_, skipped_;
  bool quiet_, tty_;
  std::chrono::steady_clock::time_point start_, last_;
  bool printed_ = false;
  std::uint64_t shown_ = 0;  // the `done` of the last line printed (valid when printed_)
};

}  // namespace skipstone
