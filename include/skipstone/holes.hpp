// Holes in the wall of a 2D no-slip table (config stop.holes, docs/config.md "Stop rules"):
// arcs [lo, hi) of the table's boundary parameter boundary_s in [0, 1) (docs/models.md, "Boundary
// parametrisation"). A trajectory whose flight ends on the wall inside a hole leaves the table
// there (Status::through_hole) instead of colliding: the open billiard of escape-rate studies.
#pragma once
#include <cstdint>

#include "skipstone/hd.hpp"

namespace skipstone {

constexpr int kMaxHoles = 8;

// Disjoint arcs, ascending: hole k is [lo[k], hi[k]) with 0 <= lo < hi <= 1.
struct HoleSet {
  std::int32_t n;
  double lo[kMaxHoles], hi[kMaxHoles];
};

// The hole that boundary parameter s lies in, or -1.
SKIPSTONE_HD SKIPSTONE_INLINE int hole_at(const HoleSet& h, double s) {
  for (int k = 0; k < h.n; ++k)
    if (s >= h.lo[k] && s < h.hi[k]) return k;
  return -1;
}

}  // namespace skipstone
