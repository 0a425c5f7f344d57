// The linearised free flight of the 2D no-slip ball. A flight of fixed duration t,
//   x(t) = x + u t + a t^2 / 2,   u(t) = u + a t,   s(t) = s
// (a = (0, -g): the same for every state), is affine in (x, u, s), so its tangent map is
//   dx <- dx + t du,   du <- du,   ds <- ds,
// with or without gravity. The change of the flight time with the state is the collision's
// part (collision.hpp).
#pragma once
#include "skipstone/tangent/phase_vector.hpp"

namespace skipstone {

SKIPSTONE_HD SKIPSTONE_INLINE PhaseVector2D tangent_flight(const PhaseVector2D& d, double t) {
  return {d.x + t * d.u, d.u, d.s};
}

}  // namespace skipstone
