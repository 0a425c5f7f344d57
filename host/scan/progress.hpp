// Progress of long work on stderr: fraction done, rate and time left. On a terminal the line
// is redrawn in place; otherwise a line is printed at most every few seconds. Silent when quiet.
#pragma once
#include <chrono>
#include <cstdint>
#include <string>

namespace skipstone {

class Progress {
 public:
  Progress(std::string what, std::uint64_t total, bool quiet);
  void update(std::uint64_t done);
  void finish();

 private:
  std::string what_;
  std::uint64_t total_;
  bool quiet_, tty_;
  std::chrono::steady_clock::time_point start_, last_;
  bool printed_ = false;
  std::uint64_t shown_ = 0;  // the `done` of the last line printed (valid when printed_)
};

}  // namespace skipstone
