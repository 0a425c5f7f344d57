// The rolling ball on the curved part N^c over one smooth piece of a table's wall (edge_arc.hpp):
// Proposition 12 with the piece's curvature kappa(q), as rim_passage.hpp integrates it, for
//   roll3:<table> (N = 6): a 3D ball rolling on the plate C and over its edge, y = (v1, v2, S12,
//     cos phi, sin phi, q), with the plate's in-plane gravity along -y (acceleration G of the
//     rolling ball, Eq. (11)): its components along X1 = tau = cos(phi) e1 - sin(phi) e_w and
//     X2 = e2 (e_w the plate's normal) add
//         v1' += -G cos(phi) e1.y,     v2' += -G e2.y,
//     and E1 + G y_c is conserved, y_c = b(q).y + r sin(phi) e1(q).y the height of the centre;
//   roll4:<table> (N = 10): the 4D ball on C x R, y as in roll4_disc.hpp with q in place of the
//     rim arc length, gravity along the axis in the longitudinal block (roll4_disc.hpp).
// The transversal block is the one of disc_transversal.hpp with kappa = kappa(q), and the
// coordinate moves as q' = (dq/dl) v2 / (1 - r kappa sin phi) (edge_arc.hpp). Without in-plane
// gravity the transversal block of roll4 is roll3's (end of Section 5.4): the same function.
// The model needs 1 - r kappa sin(phi) > 0: on a convex wall always, around a scatterer of
// radius rho for r < rho (the config rejects the others).
//
// At a vertex of a polygon (a convex wedge) the nearest point of the plate to the centre is the
// vertex V itself, so the centre moves on the sphere of radius r about V: x = V + r (sin(phi)
// e1(psi) + cos(phi) e_w), psi the angle e1 has turned from the outward normal of the edge that
// ends at V. The shape operator of that sphere (normal from V to the centre) is -1/r on every
// tangent direction, and Theorem 7, dv/dt = -eta S Sh v, dS/dt = eta (Sh v) ^ v, becomes
//     dv/dt = (eta / r) S v,     dS/dt = 0 (roll3);   roll4 (on S^2 x R): dS/dt = -(eta v3 / r) v_s ^ e3,
// v_s the part of v on the sphere. In the frame X1 = tau = d x / d phi / r, X2 = e2(psi), X3 = e3,
// whose X1 and X2 turn along the sphere's latitude circles (geodesic curvature cot(phi) / r),
// these are Proposition 12's blocks with
//     f_c = -cos(phi) / (r sin(phi)),   f_s = -1 / r,   psi' = v2 / (r sin(phi)),
// computed as the circle's with (kn, kd, C) = (-1, 0, 1) (edge_arc.hpp), so f_s = -sin(phi) /
// (r sin(phi)): -1 / r to round-off, the one formula for every piece,
// which is the limit rho -> 0 of a circle piece of radius rho (kappa = -1/rho: f_c = -cos(phi) /
// (rho + r sin(phi)), f_s = -sin(phi) / (rho + r sin(phi)), psi' = l' / rho = v2 / (rho + r sin(phi))).
// In particular S12' = eta (f_s + 1/r) v1 v2 = 0 (to round-off as computed): the spin about the contact normal is constant
// and (v1, v2) turns at eta S12 / r, the centre running along a circle of the sphere. The vertex
// piece meets the two edge pieces where the sphere and the edges' cylinders touch (the planes
// through V across each edge): the frames agree there and only the curvature jumps, a break.
//
// Projection after every step (rim_passage.hpp): (cos phi, sin phi) onto the unit circle, and
// (v1, v2, S12) rescaled onto the transversal invariant (2 E1, or 2 (E1 + G y_c) - 2 G y_c with
// in-plane gravity, applied as roll4_disc.hpp applies E2 + G x3: only where the correction is a
// round-off-sized one) and (v3, S13, S23) onto 2 (E2 + G x3) - 2 G x3.
//
// Templated on the scalar type T of the state (double; float for the float kernels, whose wall
// piece is the double one rounded once: edge_arc.hpp).
#pragma once
#include "skipstone/rolling/contact_force.hpp"
#include "skipstone/rolling/disc_transversal.hpp"
#include "skipstone/rolling/edge_arc.hpp"

namespace skipstone {

// roll3's in-plane gravity on (v1', v2') where the wall's frame has e1.y = e1y, e2.y = e2y.
template <class T>
SKIPSTONE_HD SKIPSTONE_INLINE void inplane_gravity_rhs(same_t<T> G, same_t<T> cos_phi, same_t<T> e1y, same_t<T> e2y,
                                                       T& f0, T& f1) {
  f0 -= G * cos_phi * e1y;
  f1 -= G * e2y;
}

template <int N_, class T = double>
struct EdgeSystem {
  static_assert(N_ == 6 || N_ == 10, "roll3 (6 components) or roll4 (10)");
  static constexpr int N = N_;
  static constexpr bool kHasBreaks = true;

  EdgeArcT<T> arc;
  T r, eta;
  T G;         // roll3: in-plane gravity along -y; roll4: along the axis
  T k1_total;  // 2 E1 (roll4, or roll3 without G); 2 (E1 + G y_c) for roll3 with G
  T k2_total;  // roll4: 2 (E2 + G x3)
  T h_limit;   // the largest step: the time phi takes for about one radian
  T g;         // the physical gravity (contact forces; RollModelT::g)

  SKIPSTONE_HD bool inplane_gravity() const { return N == 6 && G != T(0); }

  // The height of the centre (roll3 with in-plane gravity).
  SKIPSTONE_HD T centre_height(const T* y) const {
    const EdgePointT<T> e = arc.point(y[5]);
    return e.b.y + r * y[4] * e.e1.y;
  }

  // (a template over the scalar U: T, and the Duals of the tangent dynamics, tangent/rim_tangent.hpp)
  template <class U>
  SKIPSTONE_HD void rhs(const U* y, U* f) const {
    const U q = y[5];
    U kn, kd, C, fc, fs;
    arc.curvature_terms(q, kn, kd, C);
    edge_transversal_rhs(kn, kd, C, r, eta, y, f, fc, fs);
    if (inplane_gravity()) {
      U e1y, e2y;
      arc.normal_y(q, e1y, e2y);
      inplane_gravity_rhs(G, y[3], e1y, e2y, f[0], f[1]);
    }
    if constexpr (N == 10) longitudinal_rhs(fc, fs, r, eta, G, y, f);
  }

  // The surface's force on the ball per unit mass at y (contact_force.hpp), under the physical
  // gravity: roll3's along -y in the plate (parts along nu, tau, e2), roll4's along the axis.
  SKIPSTONE_HD ContactForce<T> contact(const T* y) const {
    const T q = y[5];
    T kn, kd, C, fc, fs, f[N];
    arc.curvature_terms(q, kn, kd, C);
    edge_transversal_rhs(kn, kd, C, r, eta, y, f, fc, fs);
    T g_nu = T(0), g_tau = T(0), g_2 = T(0), f3 = T(0);
    if (inplane_gravity()) {
      T e1y, e2y;
      arc.normal_y(q, e1y, e2y);
      inplane_gravity_rhs(G, y[3], e1y, e2y, f[0], f[1]);
      g_nu = -g * y[4] * e1y;
      g_tau = -g * y[3] * e1y;
      g_2 = -g * e2y;
    }
    if constexpr (N == 10) {
      longitudinal_rhs(fc, fs, r, eta, G, y, f);
      f3 = f[6] + g;
    }
    return edge_contact(y, f, fc, fs, r, g_nu, g_tau, g_2, f3);
  }

  SKIPSTONE_HD void project(T* y) const {
    if (!inplane_gravity()) {
      project_transversal(y, sqrt(k1_total));
    } else {
      normalise_phi(y);
      rescale_block(y, k1_total - T(2) * G * centre_height(y));
    }
    if constexpr (N == 10) rescale_block(y + 6, k2_total - T(2) * G * y[9]);
  }

  SKIPSTONE_HD T radius() const { return r; }
  SKIPSTONE_HD T h_max() const { return h_limit; }

  // How far q is from the nearer end of the piece (> 0 inside), and its time derivative.
  SKIPSTONE_HD T break_margin(const T* y, T& rate) const {
    const T q = y[5];
    if (!(arc.q_hi < T(kNoBreak))) {  // a smooth closed wall
      rate = T(0);
      return T(kNoBreak);
    }
    T kn, kd, C;
    arc.curvature_terms(q, kn, kd, C);
    const T q_dot = y[1] * C / (kd - r * kn * y[4]);
    const T to_lo = q - arc.q_lo, to_hi = arc.q_hi - q;
    rate = to_lo < to_hi ? q_dot : -q_dot;
    return to_lo < to_hi ? to_lo : to_hi;
  }
};

}  // namespace skipstone
