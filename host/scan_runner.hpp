// Runs a whole scan chunk by chunk on the chosen backend and streams each chunk into the
// output maps (one array per requested observable) and the running statistics. Statistics are
// reduced over fixed blocks of kStatsBlock trajectories and merged in index order, so every
// number is independent of the chunk size, the thread count and the backend's scheduling.
#pragma once
#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "backend.hpp"
#include "config.hpp"
#include "statistics.hpp"

namespace skipstone {

constexpr std::uint64_t kStatsBlock = 4096;

struct ScanResult {
  std::map<std::string, std::vector<double>> maps;  // annulus_axis holds 3 values per trajectory
  std::map<std::string, RunningStats> stats;        // over trajectories whose status is ok
  std::array<std::uint64_t, kStatusCount> status_counts{};
  std::uint64_t total_events = 0;
  std::uint64_t chunk_size = 0;
  double wall_seconds = 0.0;
};

ScanResult run_scan(const RunConfig& rc, const BackendChoice& backend, std::uint64_t chunk_override, bool quiet);

}  // namespace skipstone
