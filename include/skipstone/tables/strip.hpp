// Table `strip`: domain of centres |x| <= L/2 between two vertical walls, gravity along -y
// (Figure 1). Walls are vertical, so the collision time is linear whatever g is.
#pragma once
#include "skipstone/tables/hit.hpp"

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

  // s in [0, 0.5): left wall at height y0; s in [0.5, 1): right wall. Height comes from y0.
  SKIPSTONE_HD BoundaryPoint<Vec2> boundary_point(double s) const {
    if (s < 0.5) return {{-0.5 * L, 0.0}, {1.0, 0.0}, 0};
    return {{0.5 * L, 0.0}, {-1.0, 0.0}, 1};
  }
  SKIPSTONE_HD bool inside(Vec2 x) const { return fabs(x.x) <= 0.5 * L; }
};

}  // namespace skipstone
