// The linearised free flight of the no-slip ball (2D and 3D). A flight of fixed duration t,
//   x(t) = x + u t + a t^2 / 2,   u(t) = u + a t,   spin(t) = spin
// (a the constant gravity: the same for every state), is affine in (x, u, spin), so its tangent
// map is
//   dx <- dx + t du,   du <- du,   dspin <- dspin,
// with or without gravity. The change of the flight time with the state is the collision's
// part (collision.hpp, collision3d.hpp).
#pragma once
#include "skipstone/tangent/phase_vector.hpp"

namespace skipstone {

SKIPSTONE_HD SKIPSTONE_INLINE PhaseVector2D tangent_flight(const PhaseVector2D& d, double t) {
  return {d.x + t * d.u, d.u, d.s};
}
SKIPSTONE_HD SKIPSTONE_INLINE PhaseVector3D tangent_flight(const PhaseVector3D& d, double t) {
  return {d.x + t * d.u, d.u, d.w};
}

}  // namespace skipstone
