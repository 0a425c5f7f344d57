// Backend selection and the default chunk size of each backend.
#include "backend.hpp"

#include <unistd.h>

#include <algorithm>
#include <stdexcept>

#include "backends.hpp"
#include "chunk_sizing.hpp"

namespace skipstone {

BackendChoice choose_backend(const std::string& name, int threads) {
  if (name != "auto" && name != "cpu" && name != "cuda")
    throw std::invalid_argument("--backend " + name + ": allowed values are auto, cpu, cuda");
  if (threads > 0) cpu::set_threads(threads);
  std::string why;
  if (name == "cuda" || name == "auto") {
    if (cuda::available(&why)) return {Backend::cuda, "cuda: " + cuda::device_description()};
    if (name == "cuda") throw std::runtime_error("--backend cuda: " + why);
  }
  return {Backend::cpu, "cpu: Thrust OpenMP, " + std::to_string(cpu::max_threads()) + " threads"};
}

std::uint64_t default_chunk_size(Backend b, const std::vector<ColumnRequest>& requests) {
  DeviceCapacity d;
  if (b == Backend::cuda) {
    // the device holds the columns of both slots (chunk_engine.hpp)
    d.memory_budget = cuda::free_device_memory() / 4;
    d.bytes_per_trajectory = ChunkEngine::kSlots * column_bytes_per_trajectory(requests);
    d.resident_threads = cuda::resident_threads();
  } else {
    // the CPU engine holds one chunk of whole results and the columns of both slots
    const long pages = sysconf(_SC_AVPHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    const std::uint64_t avail = pages > 0 && page > 0 ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page) / 16 : (1u << 28);
    d.memory_budget = std::min<std::uint64_t>(avail, std::uint64_t{1} << 28);
    d.bytes_per_trajectory = sizeof(TrajectoryResult) + ChunkEngine::kSlots * column_bytes_per_trajectory(requests);
  }
  return chunk_size_for(d);
}

}  // namespace skipstone
