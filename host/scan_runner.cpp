// Chunked execution of a scan and streaming reduction into maps and statistics.
#include "scan_runner.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "observables.hpp"
#include "progress.hpp"

namespace skipstone {

ScanResult run_scan(const RunConfig& rc, const BackendChoice& backend, std::uint64_t chunk_override, bool quiet) {
  const ScanSpec& spec = rc.spec;
  const std::uint64_t total = spec.count;
  ScanResult out;
  std::uint64_t chunk = chunk_override ? chunk_override : (rc.chunk_size ? rc.chunk_size : default_chunk_size(backend.backend));
  chunk = std::max<std::uint64_t>(kStatsBlock, (chunk + kStatsBlock - 1) / kStatsBlock * kStatsBlock);
  chunk = std::min<std::uint64_t>(chunk, (total + kStatsBlock - 1) / kStatsBlock * kStatsBlock);
  out.chunk_size = chunk;

  std::vector<const ObservableInfo*> infos;
  for (const auto& name : rc.observables) {
    const ObservableInfo& info = observable_info(name);
    infos.push_back(&info);
    out.maps[name].assign(info.type == ObservableType::vector3 ? 3 * total : total, NAN);
  }

  std::vector<TrajectoryResult> buf(static_cast<std::size_t>(std::min(chunk, total)));
  Progress progress("run", total, quiet);
  const auto t0 = std::chrono::steady_clock::now();
  for (std::uint64_t first = 0; first < total; first += chunk) {
    const std::uint64_t n = std::min(chunk, total - first);
    run_chunk(backend.backend, spec, first, n, buf.data());
    for (std::uint64_t i = 0; i < n; ++i) {
      out.status_counts[static_cast<int>(buf[i].status)]++;
      out.total_events += buf[i].events;
    }
    for (const ObservableInfo* info : infos) {
      std::vector<double>& map = out.maps[info->name];
      if (info->type == ObservableType::vector3) {
        for (std::uint64_t i = 0; i < n; ++i)
          for (int k = 0; k < 3; ++k)
            map[3 * (first + i) + k] = status_is_ok(buf[i].status) ? buf[i].annulus_axis[k] : NAN;
        continue;
      }
      RunningStats& total_stats = out.stats[info->name];
      for (std::uint64_t b = 0; b < n; b += kStatsBlock) {
        RunningStats block;
        const std::uint64_t e = std::min(n, b + kStatsBlock);
        for (std::uint64_t i = b; i < e; ++i) {
          const double v = info->value(buf[i]);
          map[first + i] = v;
          if (status_is_ok(buf[i].status) && std::isfinite(v)) block.add(v);
        }
        total_stats.merge(block);
      }
    }
    progress.update(first + n);
  }
  progress.finish();
  out.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return out;
}

}  // namespace skipstone
