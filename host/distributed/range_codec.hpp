// Exact, self-describing byte encoding of a RangeResult (range_result.hpp) for sending the
// finished chunks of a distributed run between MPI ranks: every double and every block
// statistic travels bit for bit, so the merged outputs equal those of a single process.
#pragma once
#include <vector>

#include "range_result.hpp"

namespace skipstone {

std::vector<char> encode_range(const RangeResult& r);

// Inverse of encode_range; throws std::runtime_error on a truncated or malformed buffer.
RangeResult decode_range(const std::vector<char>& bytes);

}  // namespace skipstone
