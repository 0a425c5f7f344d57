// Progress reporting on stderr.
#include "progress.hpp"

#include <unistd.h>

#include <cstdio>

namespace skipstone {

Progress::Progress(std::string what, std::uint64_t total, bool quiet, std::uint64_t skipped)
    : what_(std::move(what)), total_(total), skipped_(skipped), quiet_(quiet), tty_(isatty(STDERR_FILENO) != 0) {
  start_ = last_ = std::chrono::steady_clock::now();
}

void Progress::update(std::uint64_t done) {
  if (quiet_ || (printed_ && done == shown_ && done == total_)) return;  // finish() after a final update: one 100% line
  const auto now = std::chrono::steady_clock::now();
  const double since_last = std::chrono::duration<double>(now - last_).count();
  if (done < total_ && since_last < (tty_ ? 0.2 : 1.0)) return;
  last_ = now;
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  const std::uint64_t worked = done > skipped_ ? done - skipped_ : 0;
  const double rate = elapsed > 0.0 ? static_cast<double>(worked) / elapsed : 0.0;
  const double frac = total_ > 0 ? 100.0 * static_cast<double>(done) / static_cast<double>(total_) : 100.0;
  char left[32] = "?";  // before the first trajectory finishes
  if (rate > 0.0 || done >= total_)
    std::snprintf(left, sizeof left, "%.1f", rate > 0.0 ? static_cast<double>(total_ - done) / rate : 0.0);
  std::fprintf(stderr, "%s%s: %5.1f%%  %llu/%llu  %.3g traj/s  %s s left%s", tty_ ? "\r" : "", what_.c_str(), frac,
               static_cast<unsigned long long>(done), static_cast<unsigned long long>(total_), rate, left,
               tty_ ? "   " : "\n");
  std::fflush(stderr);
  printed_ = true;
  shown_ = done;
}

void Progress::finish() {
  if (quiet_) return;
  update(total_);
  if (tty_ && printed_) std::fputc('\n', stderr);
}

}  // namespace skipstone
