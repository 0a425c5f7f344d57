// How many trajectories a chunk holds, from what the device offers: small enough that the
// chunk buffers of one worker stay within a memory budget, and on a GPU a few waves of its
// resident threads, so that a scan is many chunks on every backend (progress, checkpoints and
// --resume work the same everywhere) while each launch stays long next to its tail.
// A pure function, so that it can be checked with any device's figures.
#pragma once
#include <cstdint>

namespace skipstone {

// Waves of a GPU's resident threads per chunk.
constexpr std::uint64_t kWavesPerChunk = 8;
// The smallest chunk: one statistics block (statistics.hpp: kStatsBlock).
constexpr std::uint64_t kMinChunk = 4096;

struct DeviceCapacity {
  std::uint64_t memory_budget = 0;         // bytes the chunk buffers of one worker may take
  std::uint64_t bytes_per_trajectory = 0;  // what one trajectory of a chunk takes there, all slots
  std::uint64_t resident_threads = 0;      // threads the device runs at once; 0: no wave bound (CPU)
};

// At least kMinChunk; else at most memory_budget / bytes_per_trajectory and, with resident
// threads, at most kWavesPerChunk waves of them.
std::uint64_t chunk_size_for(const DeviceCapacity& device);

}  // namespace skipstone
