// Counter-based random numbers: a value depends only on (seed, trajectory index, stream), never
// on the backend, the thread or the chunk, so chunked, resumed and sharded scans agree bit for
// bit. The mixer is the SplitMix64 finaliser applied to a Weyl sequence of the counter.
#pragma once
#include <cstdint>

#include "skipstone/hd.hpp"

namespace skipstone {

SKIPSTONE_HD SKIPSTONE_INLINE std::uint64_t mix64(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// Uniform double in [0, 1) with 53 random bits.
SKIPSTONE_HD SKIPSTONE_INLINE double uniform01(std::uint64_t seed, std::uint64_t index, std::uint32_t stream) {
  const std::uint64_t key = mix64(seed + 0x9e3779b97f4a7c15ULL * (static_cast<std::uint64_t>(stream) + 1));
  const std::uint64_t bits = mix64(key ^ mix64(index + 0x632be59bd9b4e019ULL));
  return static_cast<double>(bits >> 11) * (1.0 / 9007199254740992.0);
}

}  // namespace skipstone
