// Tangent vectors of the no-slip phase spaces: 2D (x, y, u, v, s), position, centre velocity
// and spin (collision.hpp, S = s J), 5 components; 3D (x, u, w), position, centre velocity and
// spin vector (S x = w x x), 9 components. The tangent dynamics (flight.hpp, collision.hpp,
// collision3d.hpp) act on them; the Lyapunov exponents (lyapunov_frame.hpp) measure their growth
// in the Euclidean norm of these components. energy_gradient gives grad E of
// E = (|u|^2 + |spin|^2) / 2 + g height, the direction the first Lyapunov vector is kept off.
#pragma once
#include "skipstone/collision.hpp"
#include "skipstone/vec.hpp"

namespace skipstone {

struct PhaseVector2D {
  static constexpr int kDim = 5;
  Vec2 x;    // delta position
  Vec2 u;    // delta velocity
  double s;  // delta spin
  // The vector of components c[0 .. kDim) (component()).
  SKIPSTONE_HD static PhaseVector2D from_components(const double* c) { return {{c[0], c[1]}, {c[2], c[3]}, c[4]}; }
};
constexpr int kPhaseDim2D = PhaseVector2D::kDim;

struct PhaseVector3D {
  static constexpr int kDim = 9;
  Vec3 x;  // delta position
  Vec3 u;  // delta velocity
  Vec3 w;  // delta spin vector
  SKIPSTONE_HD static PhaseVector3D from_components(const double* c) {
    return {{c[0], c[1], c[2]}, {c[3], c[4], c[5]}, {c[6], c[7], c[8]}};
  }
};
constexpr int kPhaseDim3D = PhaseVector3D::kDim;

SKIPSTONE_HD SKIPSTONE_INLINE double dot(const PhaseVector2D& a, const PhaseVector2D& b) {
  return dot(a.x, b.x) + dot(a.u, b.u) + a.s * b.s;
}
SKIPSTONE_HD SKIPSTONE_INLINE double dot(const PhaseVector3D& a, const PhaseVector3D& b) {
  return dot(a.x, b.x) + dot(a.u, b.u) + dot(a.w, b.w);
}
// a + f b
SKIPSTONE_HD SKIPSTONE_INLINE PhaseVector2D add_scaled(const PhaseVector2D& a, double f, const PhaseVector2D& b) {
  return {a.x + f * b.x, a.u + f * b.u, a.s + f * b.s};
}
SKIPSTONE_HD SKIPSTONE_INLINE PhaseVector3D add_scaled(const PhaseVector3D& a, double f, const PhaseVector3D& b) {
  return {a.x + f * b.x, a.u + f * b.u, a.w + f * b.w};
}
SKIPSTONE_HD SKIPSTONE_INLINE PhaseVector2D scaled(double f, const PhaseVector2D& a) {
  return {f * a.x, f * a.u, f * a.s};
}
SKIPSTONE_HD SKIPSTONE_INLINE PhaseVector3D scaled(double f, const PhaseVector3D& a) {
  return {f * a.x, f * a.u, f * a.w};
}
// Component i (2D: 0 .. 4, x, y, u, v, s; 3D: 0 .. 8, x, y, z, u_x, u_y, u_z, w_x, w_y, w_z).
SKIPSTONE_HD SKIPSTONE_INLINE double component(const PhaseVector2D& a, int i) {
  return i == 0 ? a.x.x : i == 1 ? a.x.y : i == 2 ? a.u.x : i == 3 ? a.u.y : a.s;
}
SKIPSTONE_HD SKIPSTONE_INLINE double component(const Vec3& a, int i) { return i == 0 ? a.x : i == 1 ? a.y : a.z; }
SKIPSTONE_HD SKIPSTONE_INLINE double component(const PhaseVector3D& a, int i) {
  return i < 3 ? component(a.x, i) : i < 6 ? component(a.u, i - 3) : component(a.w, i - 6);
}
// grad E at state st under gravity g along -y (2D) or -z (3D).
SKIPSTONE_HD SKIPSTONE_INLINE PhaseVector2D energy_gradient(const State2D& st, double g) {
  return {{0.0, g}, st.u, st.s};
}
SKIPSTONE_HD SKIPSTONE_INLINE PhaseVector3D energy_gradient(const State3D& st, double g) {
  return {{0.0, 0.0, g}, st.u, st.w};
}

}  // namespace skipstone
