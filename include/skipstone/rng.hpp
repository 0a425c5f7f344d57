// Counter-based random numbers: a value depends only on (seed, trajectory index, stream), never
// on the backend, the thread or the chunk, so chunked, resumed and sharded scans agree bit for
// bit. The mixer is the SplitMix64 finaliser applied to a Weyl sequence of the counter.
// The noise of a trajectory is a long sequence of standard normal numbers, number k of the
// sequence keyed by (seed, trajectory index, realisation): noise_key, then normal_of(key, k).
#pragma once
#include <cmath>
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

// The key of the noise sequence of one trajectory in one realisation.
SKIPSTONE_HD SKIPSTONE_INLINE std::uint64_t noise_key(std::uint64_t seed, std::uint64_t index,
                                                      std::uint64_t realisation) {
  const std::uint64_t k = mix64(seed ^ 0x5851f42d4c957f2dULL) ^ mix64(realisation + 0xd1b54a32d192ed03ULL);
  return mix64(k ^ mix64(index + 0x632be59bd9b4e019ULL));
}

// Standard normal number k of the sequence `key`: Box-Muller on two 53-bit uniforms, the first
// in (0, 1] so that its logarithm is finite.
SKIPSTONE_HD SKIPSTONE_INLINE double normal_of(std::uint64_t key, std::uint64_t k) {
  const std::uint64_t a = mix64(key + 0x9e3779b97f4a7c15ULL * (2 * k + 1));
  const std::uint64_t b = mix64(key + 0x9e3779b97f4a7c15ULL * (2 * k + 2));
  const double u1 = static_cast<double>((a >> 11) + 1) * (1.0 / 9007199254740992.0);
  const double u2 = static_cast<double>(b >> 11) * (1.0 / 9007199254740992.0);
  return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}

}  // namespace skipstone
