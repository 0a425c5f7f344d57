// Table `cylinder:<2D table>`: C x R in R^3 with gravity along the axis -z (Figures 2, 3;
// Theorem 1). The cross-section flight is straight whatever g is, so collision times come from
// the 2D table with no in-plane gravity; the wall normal is horizontal.
#pragma once
#include "skipstone/tables/hit.hpp"

namespace skipstone {

template <class Section>
struct CylinderTable {
  Section section;

  SKIPSTONE_HD Hit<Vec3> next_hit(Vec3 x, Vec3 u, double /*g*/, int last, double t_limit) const {
    const Hit<Vec2> h = section.next_hit(Vec2{x.x, x.y}, Vec2{u.x, u.y}, 0.0, last, t_limit);
    return {h.kind, h.t, {h.nu.x, h.nu.y, 0.0}, h.part};
  }
};

}  // namespace skipstone
