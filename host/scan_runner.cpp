// Chunked execution of a scan or a range of it, with optional checkpointing.
#include "scan_runner.hpp"

#include <algorithm>
#include <chrono>
#include <iostream>
#include <stdexcept>

#include "checkpoint.hpp"
#include "progress.hpp"

namespace skipstone {

std::uint64_t scan_chunk_size(const RunConfig& rc, const BackendChoice& backend, std::uint64_t chunk_override) {
  std::uint64_t chunk = chunk_override ? chunk_override : (rc.chunk_size ? rc.chunk_size : default_chunk_size(backend.backend));
  chunk = std::max<std::uint64_t>(kStatsBlock, (chunk + kStatsBlock - 1) / kStatsBlock * kStatsBlock);
  return std::min<std::uint64_t>(chunk, (rc.spec.count + kStatsBlock - 1) / kStatsBlock * kStatsBlock);
}

RangeResult run_scan_range(const RunConfig& rc, const BackendChoice& backend, const ScanOptions& options) {
  const TrajectoryRange range = options.range.value_or(TrajectoryRange{0, rc.spec.count});
  if (range.first % kStatsBlock != 0 || range.end > rc.spec.count || range.first > range.end)
    throw std::logic_error("run_scan_range: range is not a run of whole statistics blocks of the scan");
  const std::uint64_t chunk = scan_chunk_size(rc, backend, options.chunk_override);

  std::vector<RangeResult> finished;
  if (options.checkpoint) finished = options.checkpoint->load_finished();
  if (!finished.empty() && !options.quiet) {
    std::uint64_t saved = 0;
    for (const RangeResult& f : finished) saved += f.range.size();
    std::cerr << "resuming: " << finished.size() << " chunks (" << saved << " trajectories) loaded from "
              << options.checkpoint->dir().string() << "\n";
  }
  RangeResult acc = empty_range_result(rc, range.first);
  for (auto& [name, v] : acc.values) v.reserve(values_per_trajectory(name) * range.size());

  std::vector<TrajectoryResult> buf(static_cast<std::size_t>(std::min(chunk, range.size())));
  Progress progress("run", range.size(), options.quiet);
  std::size_t next_finished = 0;
  while (acc.range.end < range.end) {
    const std::uint64_t first = acc.range.end;
    if (next_finished < finished.size() && finished[next_finished].range.first == first) {
      append_range(acc, std::move(finished[next_finished++]));
    } else {
      const std::uint64_t stop = next_finished < finished.size() ? finished[next_finished].range.first : range.end;
      const std::uint64_t n = std::min(chunk, stop - first);
      const auto t0 = std::chrono::steady_clock::now();
      run_chunk(backend.backend, rc.spec, first, n, buf.data());
      RangeResult part = reduce_chunk(rc, first, buf.data(), n);
      part.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      // The chunk that completes the range is not saved: the final outputs follow at once.
      if (options.checkpoint && first + n < range.end) options.checkpoint->save(part);
      append_range(acc, std::move(part));
    }
    progress.update(acc.range.end - range.first);
  }
  progress.finish();
  return acc;
}

ScanResult scan_result(RangeResult&& whole, std::uint64_t chunk_size) {
  ScanResult out;
  out.stats = merged_stats(whole);
  out.maps = std::move(whole.values);
  out.status_counts = whole.status_counts;
  out.total_events = whole.total_events;
  out.chunk_size = chunk_size;
  out.wall_seconds = whole.wall_seconds;
  return out;
}

ScanResult run_scan(const RunConfig& rc, const BackendChoice& backend, std::uint64_t chunk_override, bool quiet) {
  ScanOptions options;
  options.chunk_override = chunk_override;
  options.quiet = quiet;
  return scan_result(run_scan_range(rc, backend, options), scan_chunk_size(rc, backend, chunk_override));
}

}  // namespace skipstone
