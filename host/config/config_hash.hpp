// Identity of a resolved config for shards and checkpoints: FNV-1a (64 bit) of its compact
// JSON text, as "fnv1a64:<16 hex digits>". Two results may only be combined when their
// hashes (and the configs themselves) agree.
#pragma once
#include <cstdint>
#include <cstdio>
#include <string>

#include <nlohmann/json.hpp>

namespace skipstone {

inline std::string config_hash(const nlohmann::json& resolved) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : resolved.dump()) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "fnv1a64:%016llx", static_cast<unsigned long long>(h));
  return buf;
}

}  // namespace skipstone
