// Table `strip`: domain of centres |x| <= L/2 between two vertical walls, gravity along -y
// (Figure 1). Walls are vertical, so the collision time is linear whatever g is.
#pragma once
#include "skipstone/tables/boundary.hpp"

namespace skipstone {

struct StripTable {
  double L;

  SKIPSTONE_HD Hit<Vec2> next_hit(Vec2 x, Vec2 u, double /*g*/, int /*last*/, double t_limit) const {
    if (u.x == 0.0) return {HitKind::none, t_limit, {0.0, 0.0}, -1};
    const double half = 0.5 * L;
    const int part = u.x > 0.0 ? 1 : 0;  // 0: left wall x = -L/2, 1: right wall x = +L/2
    const double t = ((u.x > 0.0 ? half : -half) - x.x) / u.x;
    if (t > t_limit) return {HitKind::none, t_limit, {0.0, 0.0}, -1};
    return {HitKind::wall, t > 0.0 ? t : 0.0, {part == 1 ? -1.0 : 1.0, 0.0}, part};
  }

  // The walls as curves (boundary.hpp). s only picks the wall: s in [0, 0.5) the left wall
  // (part 0), s in [0.5, 1) the right wall (part 1); the frame is the one at height 0, and the
  // height y is a coordinate of its own (the config key `y`). Arc length along a wall is -y on
  // the left wall (run downwards) and y on the right one (run upwards); kappa = 0, no breaks,
  // no finite length.
  SKIPSTONE_HD BoundaryFrame boundary_frame(double s) const {
    if (s < 0.5) return frame_from_normal({-0.5 * L, 0.0}, {1.0, 0.0}, 0.0, 0);
    return frame_from_normal({0.5 * L, 0.0}, {-1.0, 0.0}, 0.0, 1);
  }
  SKIPSTONE_HD double boundary_length() const { return INFINITY; }
  // The s of the wall a point is on (its height is p.y): 0 on the left wall, 0.5 on the right.
  SKIPSTONE_HD double boundary_parameter(Vec2 /*p*/, int part) const { return part == 1 ? 0.5 : 0.0; }
  SKIPSTONE_HD int boundary_breaks(BoundaryBreak* /*out*/) const { return 0; }

  SKIPSTONE_HD BoundaryPoint<Vec2> boundary_point(double s) const {
    const BoundaryFrame f = boundary_frame(s);
    return {f.x, f.nu, f.part};
  }
  SKIPSTONE_HD bool inside(Vec2 x) const { return fabs(x.x) <= 0.5 * L; }
  // The distance from x to the wall (<= 0 outside).
  SKIPSTONE_HD double clearance(Vec2 x) const { return 0.5 * L - fabs(x.x); }
};

}  // namespace skipstone
