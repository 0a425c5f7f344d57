// A tangent vector of the 2D no-slip phase space (x, y, u, v, s): position, centre velocity
// and spin (collision.hpp, S = s J), 5 components. The tangent dynamics (flight.hpp,
// collision.hpp) act on it; the Lyapunov exponents (lyapunov_frame.hpp) measure its growth in
// the Euclidean norm of these 5 components.
#pragma once
#include "skipstone/vec.hpp"

namespace skipstone {

constexpr int kPhaseDim2D = 5;

struct PhaseVector2D {
  Vec2 x;    // delta position
  Vec2 u;    // delta velocity
  double s;  // delta spin
};

SKIPSTONE_HD SKIPSTONE_INLINE double dot(const PhaseVector2D& a, const PhaseVector2D& b) {
  return dot(a.x, b.x) + dot(a.u, b.u) + a.s * b.s;
}
// a + f b
SKIPSTONE_HD SKIPSTONE_INLINE PhaseVector2D add_scaled(const PhaseVector2D& a, double f, const PhaseVector2D& b) {
  return {a.x + f * b.x, a.u + f * b.u, a.s + f * b.s};
}
SKIPSTONE_HD SKIPSTONE_INLINE PhaseVector2D scaled(double f, const PhaseVector2D& a) {
  return {f * a.x, f * a.u, f * a.s};
}
// Component i (0 .. 4: x, y, u, v, s).
SKIPSTONE_HD SKIPSTONE_INLINE double component(const PhaseVector2D& a, int i) {
  return i == 0 ? a.x.x : i == 1 ? a.x.y : i == 2 ? a.u.x : i == 3 ? a.u.y : a.s;
}
SKIPSTONE_HD SKIPSTONE_INLINE PhaseVector2D from_components(const double* c) {
  return {{c[0], c[1]}, {c[2], c[3]}, c[4]};
}

}  // namespace skipstone
