// roll4:disc, the flat parts and the junction maps (paper Sections 5.1-5.3). P = C x R with C
// the disc |x| <= R of the (x1, x2) plane; N^+- are the two faces x4 = +-r over C, where the
// centre flies freely (free fall along e3 under the effective gravity, Eq. (11)) with S
// constant; N^c is the half-torus-times-R around the rim.
//
// Ambient state on a flat part (PlateState): sheet sigma = +1 (N^+) or -1 (N^-), planar centre
// p and velocity u, vertical velocity u3 and height z, and the spin S as one 3 x 3 skew matrix
// on span(e1, e2, e3) = T N^+- (both sheets), A_ij = e_i . S e_j (i < j).
//
// Frame state on N^c (Proposition 12): X1 = tau, X2 = e2, X3 = e3, v_i = X_i . v,
// S_ij = X_i . S X_j, and y = (v1, v2, S12, cos phi, sin phi, s, v3, S13, S23, x3) with s the arc
// length along the rim from the entry point (theta = theta_entry + s / R).
//
// Junction maps. At the rim point R n(theta), n = (cos theta, sin theta) (the paper's e1: outward
// normal of C), t = J n = (-sin theta, cos theta) (the paper's e2 = gamma'(s), counterclockwise,
// so that kappa = -1/R), tau = cos(phi) n - sin(phi) e4 gives at phi = 0 the frame (n, t, e3)
// and at phi = pi the frame (-n, t, e3). With sigma = +1 at phi = 0 (N^+) and -1 at phi = pi
// (N^-), Q = [sigma n, t, e3] and v = Q^T u, S_f = Q^T S Q read
//     v1 = sigma u.n,   v2 = u.t,   v3 = u3,
//     S12 = sigma A12,  S13 = sigma a.n,   S23 = a.t,     a = (A13, A23),
// (S12 = (sigma n) . S t = sigma (n1 t2 - n2 t1) A12 = sigma A12), and back
//     u = sigma v1 n + v2 t,  A12 = sigma S12,  a = sigma S13 n + S23 t,  p = R n.
// The map is orthogonal, so E1 = (|u|^2 + A12^2)/2 = (v1^2 + v2^2 + S12^2)/2 and
// E2 = (u3^2 + A13^2 + A23^2)/2 = (v3^2 + S13^2 + S23^2)/2 carry over exactly; on N^c the ball
// enters with phi increasing from 0 (v1 > 0) or decreasing from pi (v1 < 0), i.e. u.n > 0, and
// leaves with u.n < 0 on either sheet.
// Templated on the scalar type T (double; float for the float roll4:disc kernel); PlateState is
// the double version.
#pragma once
#include <cstdint>

#include "skipstone/precision.hpp"
#include "skipstone/vec.hpp"

namespace skipstone {

template <class T>
struct PlateStateT {
  int sheet;  // +1: N^+ (x4 = +r), -1: N^- (x4 = -r)
  Vec2T<T> p, u;
  T u3, z;
  T A12, A13, A23;
};
using PlateState = PlateStateT<double>;

// A flat-part state in scalar type T (a float kernel's start, set up in double and rounded once).
template <class T, class U>
SKIPSTONE_HD SKIPSTONE_INLINE PlateStateT<T> plate_state_as(const PlateStateT<U>& s) {
  return {s.sheet, vec_as<T>(s.p), vec_as<T>(s.u), T(s.u3), T(s.z), T(s.A12), T(s.A13), T(s.A23)};
}

template <class T>
SKIPSTONE_HD SKIPSTONE_INLINE Vec2T<T> rim_normal(T theta) {
  return {cos(theta), sin(theta)};
}

// Enter N^c at a wall point with outward normal e1 and tangent e2 (the paper's frame, e2 = J e1),
// coordinate q along the wall: writes the N-component frame state (N = 6: the transversal block
// only, the 3D ball of roll3; N = 10: both blocks).
template <int N, class T>
SKIPSTONE_HD SKIPSTONE_INLINE void plate_to_edge(const PlateStateT<T>& s, Vec2T<T> e1, Vec2T<T> e2, same_t<T> q, T* y) {
  const T sg = s.sheet > 0 ? T(1) : T(-1);
  y[0] = sg * dot(s.u, e1);
  y[1] = dot(s.u, e2);
  y[2] = sg * s.A12;
  y[3] = sg;
  y[4] = T(0);
  y[5] = q;
  if constexpr (N == 10) {
    const Vec2T<T> a = {s.A13, s.A23};
    y[6] = s.u3;
    y[7] = sg * dot(a, e1);
    y[8] = dot(a, e2);
    y[9] = s.z;
  }
}

// Leave N^c at the wall point b with frame (e1, e2) (phi = 0 or pi: the sign of cos phi = y[3]
// picks the sheet).
template <int N, class T>
SKIPSTONE_HD SKIPSTONE_INLINE PlateStateT<T> edge_to_plate(const T* y, Vec2T<T> b, Vec2T<T> e1, Vec2T<T> e2) {
  const T sg = y[3] > T(0) ? T(1) : T(-1);
  PlateStateT<T> s{};
  s.sheet = y[3] > T(0) ? 1 : -1;
  s.p = b;
  s.u = sg * y[0] * e1 + y[1] * e2;
  s.A12 = sg * y[2];
  if constexpr (N == 10) {
    s.u3 = y[6];
    s.z = y[9];
    const Vec2T<T> a = sg * y[7] * e1 + y[8] * e2;
    s.A13 = a.x;
    s.A23 = a.y;
  }
  return s;
}

// Enter N^c at the rim angle theta from the plate (writes the 10-component frame state).
template <class T>
SKIPSTONE_HD SKIPSTONE_INLINE void plate_to_rim(const PlateStateT<T>& s, same_t<T> theta, T* y) {
  const Vec2T<T> n = rim_normal(theta);
  plate_to_edge<10>(s, n, rot90(n), T(0), y);
}

// Leave N^c at the rim angle theta (phi = 0 or pi: the sign of cos phi = y[3] picks the sheet).
template <class T>
SKIPSTONE_HD SKIPSTONE_INLINE PlateStateT<T> rim_to_plate(const T* y, same_t<T> theta, same_t<T> R) {
  const Vec2T<T> n = rim_normal(theta);
  return edge_to_plate<10>(y, R * n, n, rot90(n));
}

// Time until the straight flight p + t u (|p| <= R) reaches the circle |x| = R, in closed form
// (the larger root of |p + t u|^2 = R^2, written without cancellation); INFINITY for u = 0.
// on_rim: p is a rim point (|p| = R up to round-off), where the roots are 0 and -2 p.u / |u|^2.
template <class T>
SKIPSTONE_HD SKIPSTONE_INLINE T time_to_rim(Vec2T<T> p, Vec2T<T> u, same_t<T> R, bool on_rim) {
  const T uu = dot(u, u);
  if (!(uu > T(0))) return T(INFINITY);
  const T b = dot(p, u);
  if (on_rim) return b >= T(0) ? T(0) : T(-2) * b / uu;
  T c = R * R - dot(p, p);
  c = c > T(0) ? c : T(0);
  const T q = sqrt(b * b + uu * c);
  return b > T(0) ? c / (b + q) : (q - b) / uu;
}

// The caustic observables of the rolling balls on the disc (Figures 19-20): the mean distance
// from the axis of the flat-part chords (the line p + t u: |p x u| / |u|), even and odd ones
// in order; the sums are kept in double whatever the kernel's scalar type.
struct ChordDistances {
  double sum[2], n[2];
  std::uint64_t count;

  SKIPSTONE_HD void reset() {
    sum[0] = sum[1] = n[0] = n[1] = 0.0;
    count = 0;
  }
  template <class T>
  SKIPSTONE_HD void add(Vec2T<T> p, Vec2T<T> u) {
    const int parity = static_cast<int>(count & 1u);
    sum[parity] += fabs(cross(p, u)) / norm(u);
    n[parity] += 1.0;
    ++count;
  }
  // rho_even, rho_odd (NaN without chords of that parity) and caustic_gap into res.
  template <class Result>
  SKIPSTONE_HD void write(Result& res) const {
    res.rho_even = n[0] > 0.0 ? sum[0] / n[0] : NAN;
    res.rho_odd = n[1] > 0.0 ? sum[1] / n[1] : NAN;
    res.caustic_gap = fabs(res.rho_even - res.rho_odd);
  }
};

}  // namespace skipstone
