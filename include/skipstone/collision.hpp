// The no-slip collision map, paper Eq. (1)-(3), specialised to dimensions 2 and 3.
//
// Conventions (see README "Conventions"):
//  * nu is the unit normal at the contact, pointing INTO the domain of centres; the contact
//    point is a - r nu. With this sign the rolling subspace u = r U nu (Section 2.1) is the
//    set where the map is the identity.
//  * Spin is carried in velocity units, S = gamma r U.
//    2D: S = s J (J = counterclockwise rotation by pi/2), so W = S nu = s J nu = s tau with
//        tau := J nu. State (u_hat, u_bar, s) -> (-u_hat, c u_bar + s_b s, s_b u_bar - c s).
//    3D: S x = w x x (w the spin vector), S_bar = (w.nu) nu, W = S nu = w x nu.
//        (s_bar, u_hat, u_bar, W) -> (s_bar, -u_hat, c u_bar + s_b W, s_b u_bar - c W).
// gamma = 0 (c = 1, s_b = 0) is the specular reflection with the spin unchanged.
#pragma once
#include "skipstone/inertia.hpp"
#include "skipstone/vec.hpp"

namespace skipstone {

struct State2D {
  Vec2 u;    // centre velocity
  double s;  // spin, S = s J
};

struct State3D {
  Vec3 u;  // centre velocity
  Vec3 w;  // spin vector, S x = w x x
};

SKIPSTONE_HD SKIPSTONE_INLINE State2D noslip_collide(State2D in, Vec2 nu, NoSlipCoefficients k) {
  const Vec2 tau = rot90(nu);
  const double u_hat = dot(in.u, nu);
  const double u_bar = dot(in.u, tau);
  const double u_bar_new = k.c_beta * u_bar + k.s_beta * in.s;
  const double s_new = k.s_beta * u_bar - k.c_beta * in.s;
  return {(-u_hat) * nu + u_bar_new * tau, s_new};
}

SKIPSTONE_HD SKIPSTONE_INLINE State3D noslip_collide(State3D in, Vec3 nu, NoSlipCoefficients k) {
  const double u_hat = dot(in.u, nu);
  const Vec3 u_bar = in.u - u_hat * nu;
  const double s_bar = dot(in.w, nu);
  const Vec3 W = cross(in.w, nu);
  const Vec3 u_bar_new = k.c_beta * u_bar + k.s_beta * W;
  const Vec3 W_new = k.s_beta * u_bar - k.c_beta * W;
  return {u_bar_new - u_hat * nu, s_bar * nu + cross(nu, W_new)};
}

}  // namespace skipstone
