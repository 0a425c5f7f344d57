// Chunk size from a device's memory budget and resident threads.
#include "chunk_sizing.hpp"

#include <algorithm>

namespace skipstone {

std::uint64_t chunk_size_for(const DeviceCapacity& d) {
  std::uint64_t chunk = d.memory_budget / std::max<std::uint64_t>(1, d.bytes_per_trajectory);
  if (d.resident_threads > 0) chunk = std::min(chunk, kWavesPerChunk * d.resident_threads);
  return std::max(kMinChunk, chunk);
}

}  // namespace skipstone
