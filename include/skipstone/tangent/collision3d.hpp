// The linearised 3D no-slip collision (collision.hpp, the map C_nu of (u, w) with c = cos beta,
// s_b = sin beta), the tangent map at an impact in the sphere and the cylinders: the 2D one of
// tangent/collision.hpp with the normal turning in the wall's tangent plane. The collision
// happens at time t_c at the wall point x_c with inward normal nu, the state (u-, w-) before and
// (u+, w+) = C_nu(u-, w-) after, under the constant acceleration a = (0, 0, -g). A tangent vector
// delta = (dx, du, dw) at t_c just before the collision maps to the one just after (both at t_c):
//   dt  = -(nu . dx) / (nu . u-)        the neighbouring trajectory reaches the wall dt later,
//   dq  = dx + u- dt                    at the wall point x_c + dq (nu . dq = 0),
//   dn  = K dq                          where the normal is nu + dn (K: the wall's shape operator,
//                                       tangent/wall_curvature.hpp),
//   dx+ = dx + (u- - u+) dt
//   (du+, dw+) = C_nu(du + a dt, dw) - (a dt, 0) + D_nu C(u-, w-)[dn],
// with the derivative of C_nu(u, w) along a turn dn of the normal (nu . dn = 0), from
// u_hat = u . nu, u_bar = u - u_hat nu, s_bar = w . nu, W = w x nu and
// u+ = c u_bar + s_b W - u_hat nu, w+ = s_bar nu + nu x (s_b u_bar - c W):
//   d u_hat = u . dn, d u_bar = -(u . dn) nu - u_hat dn, d s_bar = w . dn, d W = w x dn,
//   du+ = c d u_bar + s_b d W - (u . dn) nu - u_hat dn,
//   dw+ = (w . dn) nu + s_bar dn + dn x W' + nu x (s_b d u_bar - c d W),  W' = s_b u_bar - c W.
// C_nu is linear in (u, w): its first terms carry the neighbour's velocity and spin at its own
// impact, moved back to t_c along the flights before (a dt) and after (-a dt).
#pragma once
#include "skipstone/collision.hpp"
#include "skipstone/tangent/phase_vector.hpp"
#include "skipstone/tangent/wall_curvature.hpp"

namespace skipstone {

// What the tangent map needs to know about one impact.
struct TangentImpact3D {
  Vec3 nu;            // inward unit normal at the impact point
  WallShape3D shape;  // how the normal turns along the wall there
  Vec3 acc;           // acceleration of the flights, (0, 0, -g)
  State3D before;     // (u-, w-)
  State3D after;      // (u+, w+) = C_nu(u-, w-)
  NoSlipCoefficients k;
};

// D_nu C(u, w)[dn]: the change of C_nu(u, w) for the normal turned from nu to nu + dn.
SKIPSTONE_HD SKIPSTONE_INLINE State3D collision_turn_derivative(const State3D& in, Vec3 nu, Vec3 dn,
                                                                NoSlipCoefficients k) {
  const double u_hat = dot(in.u, nu), s_bar = dot(in.w, nu), d_u_hat = dot(in.u, dn);
  const Vec3 u_bar = in.u - u_hat * nu, W = cross(in.w, nu);
  const Vec3 d_u_bar = (-d_u_hat) * nu - u_hat * dn, d_W = cross(in.w, dn);
  const Vec3 W_new = k.s_beta * u_bar - k.c_beta * W;
  const Vec3 du = k.c_beta * d_u_bar + k.s_beta * d_W - d_u_hat * nu - u_hat * dn;
  const Vec3 dw = dot(in.w, dn) * nu + s_bar * dn + cross(dn, W_new) + cross(nu, k.s_beta * d_u_bar - k.c_beta * d_W);
  return {du, dw};
}

SKIPSTONE_HD SKIPSTONE_INLINE PhaseVector3D tangent_collide(const PhaseVector3D& d, const TangentImpact3D& im) {
  const double dt = -dot(im.nu, d.x) / dot(im.nu, im.before.u);
  const Vec3 dq = d.x + dt * im.before.u;
  const Vec3 dn = normal_change(im.shape, dq);
  const State3D linear = noslip_collide(State3D{d.u + dt * im.acc, d.w}, im.nu, im.k);
  const State3D turn = collision_turn_derivative(im.before, im.nu, dn, im.k);
  return {d.x + dt * (im.before.u - im.after.u), linear.u - dt * im.acc + turn.u, linear.w + turn.w};
}

}  // namespace skipstone
