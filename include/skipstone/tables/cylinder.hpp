// Table `cylinder:<2D table>`: C x R in R^3 with gravity along the axis -z (Figures 2, 3;
// Theorem 1). The cross-section flight is straight whatever g is, so collision times come from
// the 2D table with no in-plane gravity; the wall normal is horizontal. The scalar type is the
// cross-section's (float for the float kernel of cylinder:disc).
#pragma once
#include <utility>

#include "skipstone/tables/hit.hpp"

namespace skipstone {

template <class Section>
struct CylinderTable {
  using T = scalar_of<decltype(std::declval<const Section&>().boundary_point(0.0).x)>;
  using V2 = Vec2T<T>;
  using V3 = Vec3T<T>;
  Section section;

  SKIPSTONE_HD Hit<V3> next_hit(V3 x, V3 u, T /*g*/, int last, T t_limit) const {
    const Hit<V2> h = section.next_hit(V2{x.x, x.y}, V2{u.x, u.y}, T(0), last, t_limit);
    return {h.kind, h.t, {h.nu.x, h.nu.y, T(0)}, h.part};
  }
  // The cross-section's boundary parameter at the horizontal point p of the wall (holes in the
  // wall are slots over the whole height: holes.hpp).
  SKIPSTONE_HD double boundary_parameter(Vec2 p, int part) const { return section.boundary_parameter(p, part); }
  // The cross-section's settle() acts on the horizontal part of the position.
  template <class S = Section, class = std::enable_if_t<has_settle<S, V2>::value>>
  SKIPSTONE_HD V3 settle(V3 x, int part) const {
    const V2 h = section.settle(V2{x.x, x.y}, part);
    return {h.x, h.y, x.z};
  }
};

}  // namespace skipstone
