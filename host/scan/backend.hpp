// Backend choice (--backend auto|cpu|cuda) and chunked execution of a scan on it.
#pragma once
#include <cstdint>
#include <functional>
#include <string>

#include <vector>

#include "backends.hpp"
#include "chunk_engine.hpp"
#include "skipstone/result.hpp"
#include "skipstone/scan_spec.hpp"

namespace skipstone {

enum class Backend { cpu, cuda };

struct BackendChoice {
  Backend backend;
  std::string description;  // e.g. "cpu (OpenMP, 2 threads)" or the GPU's name
};

// auto: CUDA when a device is usable, else CPU. "cuda" without a device throws
// std::runtime_error with the reason. threads > 0 sets the CPU thread count.
BackendChoice choose_backend(const std::string& name, int threads);

// Trajectories per chunk on the current device of the backend when a run keeps the columns
// `requests` (chunk_sizing.hpp: within a memory budget, and a few waves of a GPU).
std::uint64_t default_chunk_size(Backend b, const std::vector<ColumnRequest>& requests);

}  // namespace skipstone
