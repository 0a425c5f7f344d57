// Shards of a scan for job arrays without MPI (`skipstone run ... --shard I/N`): shard I of N
// is a contiguous run of whole statistics blocks, so that merging the shards in block order
// reproduces the single-process statistics exactly.
#pragma once
#include <cstdint>
#include <string>

#include "range_result.hpp"

namespace skipstone {

struct Shard {
  std::uint64_t index = 0, count = 1;  // shard `index` of `count`, 0 <= index < count
};

// Parses "I/N"; throws UsageError naming --shard and the value otherwise.
Shard parse_shard(const std::string& text);

// Trajectories of shard s of a scan of `total`: blocks [floor(I B / N), floor((I+1) B / N)) of
// the B = ceil(total / kStatsBlock) blocks. Shards beyond the block count are empty.
TrajectoryRange shard_range(std::uint64_t total, const Shard& s);

}  // namespace skipstone
