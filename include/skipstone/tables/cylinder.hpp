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
  // The cross-section's settle() acts on the horizontal part of the position.
  template <class S = Section, class = std::enable_if_t<has_settle<S, Vec2>::value>>
  SKIPSTONE_HD Vec3 settle(Vec3 x, int part) const {
    const Vec2 h = section.settle(Vec2{x.x, x.y}, part);
    return {h.x, h.y, x.z};
  }
};

}  // namespace skipstone
