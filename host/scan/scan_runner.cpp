// Chunked execution of a scan or a range of it on the workers of this process, with optional
// checkpointing.
#include "scan_runner.hpp"

#include <algorithm>
#include <iostream>
#include <stdexcept>

#include "checkpoint.hpp"

namespace skipstone {

namespace {

TrajectoryRange range_of(const RunConfig& rc, const ScanOptions& options) {
  const TrajectoryRange range = options.range.value_or(TrajectoryRange{0, rc.spec.count});
  if (range.first % kStatsBlock != 0 || range.end > rc.spec.count || range.first > range.end)
    throw std::logic_error("run_scan_range: range is not a run of whole statistics blocks of the scan");
  return range;
}

std::uint64_t trajectories_in(const std::vector<RangeResult>& results) {
  std::uint64_t n = 0;
  for (const RangeResult& r : results) n += r.range.size();
  return n;
}

std::vector<RangeResult> load_saved(const ScanOptions& options) {
  std::vector<RangeResult> saved;
  if (options.checkpoint) saved = options.checkpoint->load_finished();
  if (!saved.empty() && !options.quiet) {
    std::cerr << "resuming: " << saved.size() << " chunks (" << trajectories_in(saved) << " trajectories) loaded from "
              << options.checkpoint->dir().string() << "\n";
  }
  return saved;
}

std::vector<TrajectoryRange> ranges_of(const std::vector<RangeResult>& results) {
  std::vector<TrajectoryRange> out;
  for (const RangeResult& r : results) out.push_back(r.range);
  return out;
}

}  // namespace

std::uint64_t scan_chunk_size(const RunConfig& rc, const BackendChoice& backend, const ScanOptions& options) {
  const std::uint64_t o = options.chunk_override;
  std::uint64_t chunk = o ? o : (rc.chunk_size ? rc.chunk_size : default_chunk_size(backend.backend, column_requests(rc)));
  chunk = std::max<std::uint64_t>(kStatsBlock, (chunk + kStatsBlock - 1) / kStatsBlock * kStatsBlock);
  chunk = std::min<std::uint64_t>(chunk, (rc.spec.count + kStatsBlock - 1) / kStatsBlock * kStatsBlock);
  if (o || rc.chunk_size) return chunk;
  const std::uint64_t workers = options.workers ? options.workers : std::max<std::size_t>(1, options.executors.size());
  return balanced_chunk_size(chunk, range_of(rc, options).size(), workers);
}

RangeRun::RangeRun(const RunConfig& rc, const BackendChoice& backend, const ScanOptions& options)
    : range_(range_of(rc, options)),
      saved_(load_saved(options)),
      queue_(range_, scan_chunk_size(rc, backend, options), ranges_of(saved_)),
      collector_(rc, range_, options.checkpoint, options.quiet, trajectories_in(saved_)),
      start_(std::chrono::steady_clock::now()) {
  for (RangeResult& r : saved_) {
    saved_wall_ += r.wall_seconds;
    collector_.add_saved(std::move(r));
  }
  saved_.clear();
}

RangeResult RangeRun::finish() {
  RangeResult whole = collector_.finish();
  whole.wall_seconds = saved_wall_ + std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  return whole;
}

RangeResult run_scan_range(const RunConfig& rc, const BackendChoice& backend, const ScanOptions& options) {
  RangeRun run(rc, backend, options);
  const std::vector<Executor> executors = options.executors.empty() ? executors_for(backend, {}) : options.executors;
  run_queue(executors, rc, run.queue(), run.collector(), options.between_chunks);
  return run.finish();
}

ScanResult scan_result(RangeResult&& whole, std::uint64_t chunk_size, const RunConfig& rc) {
  ScanResult out;
  out.stats = merged_stats(whole);
  out.histograms = histograms_of(rc.histograms, whole.values);
  out.maps = std::move(whole.values);
  out.status_counts = whole.status_counts;
  out.total_events = whole.total_events;
  out.chunk_size = chunk_size;
  out.wall_seconds = whole.wall_seconds;
  out.boundary_points = std::move(whole.boundary_points);
  out.section_points = std::move(whole.section_points);
  out.survival_counts = std::move(whole.survival_counts);
  return out;
}

ScanResult run_scan(const RunConfig& rc, const BackendChoice& backend, std::uint64_t chunk_override, bool quiet) {
  ScanOptions options;
  options.chunk_override = chunk_override;
  options.quiet = quiet;
  return scan_result(run_scan_range(rc, backend, options), scan_chunk_size(rc, backend, options), rc);
}

}  // namespace skipstone
