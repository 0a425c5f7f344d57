// Mergeable summary statistics of one observable over the trajectories of a scan: count,
// mean and variance (Chan et al. pairwise update), min and max. Every block of kStatsBlock
// trajectories is reduced separately and the blocks are merged in index order, so results do
// not depend on the chunking, the sharding or a resume.
#pragma once
#include <cmath>
#include <cstdint>
#include <limits>

#include <nlohmann/json.hpp>

namespace skipstone {

// Trajectories per statistics block; chunks, shards and checkpoints are whole blocks.
constexpr std::uint64_t kStatsBlock = 4096;

struct RunningStats {
  std::uint64_t count = 0;
  double mean = 0.0;
  double m2 = 0.0;
  double min = std::numeric_limits<double>::infinity();
  double max = -std::numeric_limits<double>::infinity();

  void add(double x) {
    ++count;
    const double d = x - mean;
    mean += d / static_cast<double>(count);
    m2 += d * (x - mean);
    min = x < min ? x : min;
    max = x > max ? x : max;
  }

  void merge(const RunningStats& o) {
    if (o.count == 0) return;
    if (count == 0) {
      *this = o;
      return;
    }
    const double n = static_cast<double>(count + o.count);
    const double d = o.mean - mean;
    mean += d * static_cast<double>(o.count) / n;
    m2 += o.m2 + d * d * static_cast<double>(count) * static_cast<double>(o.count) / n;
    count += o.count;
    min = o.min < min ? o.min : min;
    max = o.max > max ? o.max : max;
  }

  double variance() const { return count > 1 ? m2 / static_cast<double>(count - 1) : 0.0; }

  nlohmann::json to_json() const {
    if (count == 0) return {{"count", 0}};
    return {{"count", count}, {"mean", mean}, {"std", std::sqrt(variance())}, {"min", min}, {"max", max}};
  }
};

}  // namespace skipstone
