// Describes the machine a benchmark ran on: CPU model and counts, load averages, the time,
// and for a CUDA device its name, multiprocessors, clock and documented FP64 peak.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include "backends.hpp"

namespace skipstone::bench {

std::string cpu_model();       // "model name" of /proc/cpuinfo
int cpu_cores();               // CPUs this process may run on (affinity mask)
std::string loadavg();         // 1-, 5- and 15-minute load averages: other jobs on the cores
std::string utc_now();         // ISO 8601, UTC

// FP64 flop/s of a GPU from its multiprocessors, peak clock and the FP64 FMA units per SM of its
// architecture (NVIDIA data sheets); 0 for an architecture not in the table.
double gpu_fp64_peak(const cuda::DeviceInfo& d);
nlohmann::json gpu_json(const cuda::DeviceInfo& d);

}  // namespace skipstone::bench
