// How the wall's inward normal turns at an impact point, what the tangent map at an impact needs
// (tangent/collision.hpp, tangent/collision3d.hpp), on the boundary part a Hit named.
//   2D tables: the signed curvature kappa of tables/boundary.hpp (d nu / dl = kappa tangent), from
//     the frame of the point's boundary parameter: every 2D table has both maps, so one
//     expression serves them all.
//   3D walls: the shape operator K (d nu = K dq for a displacement dq along the wall) as
//     WallShape3D. A cylinder C x R turns its normal only across the cross-section:
//     K = kappa t t^T with t the cross-section's unit tangent and kappa its curvature; the
//     sphere of radius R (nu = -x / R) turns it equally in every direction: K = -(1/R) on the
//     tangent plane.
#pragma once
#include "skipstone/tables/boundary.hpp"
#include "skipstone/tables/cylinder.hpp"
#include "skipstone/tables/sphere.hpp"
#include "skipstone/vec.hpp"

namespace skipstone {

template <class Table>
SKIPSTONE_HD SKIPSTONE_INLINE double wall_curvature(const Table& table, Vec2 x, int part) {
  return table.boundary_frame(table.boundary_parameter(x, part)).kappa;
}

// K dq = kappa (t . dq) t + kappa_iso dq, for dq on the tangent plane.
struct WallShape3D {
  Vec3 t;
  double kappa;
  double kappa_iso;
};

SKIPSTONE_HD SKIPSTONE_INLINE Vec3 normal_change(const WallShape3D& K, Vec3 dq) {
  return (K.kappa * dot(K.t, dq)) * K.t + K.kappa_iso * dq;
}

template <class Section>
SKIPSTONE_HD SKIPSTONE_INLINE WallShape3D wall_curvature(const CylinderTable<Section>& table, Vec3 x, int part) {
  const BoundaryFrame f = table.section.boundary_frame(table.section.boundary_parameter(Vec2{x.x, x.y}, part));
  return {{f.tangent.x, f.tangent.y, 0.0}, f.kappa, 0.0};
}

SKIPSTONE_HD SKIPSTONE_INLINE WallShape3D wall_curvature(const SphereTable& table, Vec3, int) {
  return {{0.0, 0.0, 0.0}, 0.0, -table.inv_R};
}

}  // namespace skipstone
