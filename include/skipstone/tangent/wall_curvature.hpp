// The signed curvature kappa (tables/boundary.hpp) of a 2D table's wall at a point of it, on the
// boundary part a Hit named: the frame of the point's boundary parameter. Every 2D table has both
// maps, so one expression serves them all; the tangent map at an impact needs it
// (tangent/collision.hpp).
#pragma once
#include "skipstone/vec.hpp"

namespace skipstone {

template <class Table>
SKIPSTONE_HD SKIPSTONE_INLINE double wall_curvature(const Table& table, Vec2 x, int part) {
  return table.boundary_frame(table.boundary_parameter(x, part)).kappa;
}

}  // namespace skipstone
