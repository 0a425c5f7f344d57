// `skipstone bench --scaling`: no-slip disc throughput against the number of trajectories
// (1e3, 1e4, ... up to a maximum, 100 impacts each) and, on the CPU backend, against the
// number of threads (1, 2, ..., all) at a fixed size.
#pragma once
#include <cstdint>

#include <nlohmann/json.hpp>

#include "backend.hpp"

namespace skipstone::bench {

nlohmann::json run_scaling(Backend b, int reps, std::uint64_t max_trajectories, std::uint64_t thread_scan_size);

}  // namespace skipstone::bench
