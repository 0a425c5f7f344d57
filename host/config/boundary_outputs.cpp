// Which trajectories outputs.boundary_events records.
#include "boundary_outputs.hpp"

#include <algorithm>

namespace skipstone {

std::vector<std::uint64_t> recorded_in(const BoundaryOutputs& b, std::uint64_t first, std::uint64_t end) {
  std::vector<std::uint64_t> out;
  if (!b.events || end <= first) return out;
  if (b.every > 0) {
    for (std::uint64_t i = (first + b.every - 1) / b.every * b.every; i < end; i += b.every) out.push_back(i - first);
    return out;
  }
  for (auto at = std::lower_bound(b.indices.begin(), b.indices.end(), first); at != b.indices.end() && *at < end; ++at)
    out.push_back(*at - first);
  return out;
}

std::uint64_t recorded_count(const BoundaryOutputs& b, std::uint64_t count) {
  if (!b.events) return 0;
  if (b.every > 0) return (count + b.every - 1) / b.every;
  return static_cast<std::uint64_t>(std::lower_bound(b.indices.begin(), b.indices.end(), count) - b.indices.begin());
}

}  // namespace skipstone
