// Byte counts of outputs and buffers, saturating at UINT64_MAX: a scan of 2^63 trajectories
// needs "more than any disk or memory", not its size modulo 2^64.
#pragma once
#include <cstdint>

namespace skipstone {

inline std::uint64_t bytes_of(std::uint64_t bytes_per_item, std::uint64_t items) {
  if (bytes_per_item != 0 && items > UINT64_MAX / bytes_per_item) return UINT64_MAX;
  return bytes_per_item * items;
}

}  // namespace skipstone
