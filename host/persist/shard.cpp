// Shard parsing and the block ranges of shards.
#include "shard.hpp"

#include <algorithm>
#include <cctype>

#include "config_error.hpp"

namespace skipstone {
namespace {

bool parse_count(const std::string& s, std::uint64_t& v) {
  if (s.empty() || s.size() > 9 || !std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c); }))
    return false;
  v = std::stoull(s);
  return true;
}

}  // namespace

Shard parse_shard(const std::string& text) {
  const std::size_t slash = text.find('/');
  Shard s;
  if (slash == std::string::npos || !parse_count(text.substr(0, slash), s.index) ||
      !parse_count(text.substr(slash + 1), s.count) || s.count == 0 || s.index >= s.count)
    throw UsageError("--shard " + text + ": expected I/N with 0 <= I < N (e.g. --shard 0/4)");
  return s;
}

TrajectoryRange shard_range(std::uint64_t total, const Shard& s) {
  const std::uint64_t blocks = (total + kStatsBlock - 1) / kStatsBlock;
  const auto boundary = [&](std::uint64_t i) {
    const unsigned __int128 b = static_cast<unsigned __int128>(i) * blocks / s.count;
    return std::min<std::uint64_t>(total, static_cast<std::uint64_t>(b) * kStatsBlock);
  };
  return {boundary(s.index), boundary(s.index + 1)};
}

}  // namespace skipstone
