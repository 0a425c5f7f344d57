// Holes in the wall of a table (config stop.holes, docs/config.md "Stop rules"): arcs [lo, hi)
// of the table's boundary parameter boundary_s in [0, 1) (docs/models.md, "Boundary
// parametrisation"). A trajectory whose flight ends on the wall inside a hole leaves the table
// there (Status::through_hole) instead of colliding: the open billiard of escape-rate studies.
// The 2D no-slip tables and cylinder:<table> (a slot over the whole height: the parameter of the
// impact's cross-section point) test the landing point of a flight (noslip_trajectory.hpp); the
// rolling tables the wall point where the centre reaches the plate's edge, at the start of an
// edge passage (rolling/table_roll.hpp).
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
