// The linearised no-slip collision (collision.hpp, the map C_nu of (u, s) with c = cos beta,
// s_b = sin beta), the 2D tangent map at an impact. The collision happens at time t_c at the
// wall point x_c with inward normal nu, tau = J nu, the state (u-, s-) before and
// (u+, s+) = C_nu(u-, s-) after, under the constant acceleration a = (0, -g). A tangent vector
// delta = (dx, du, ds) at t_c just before the collision maps to the one just after (both at t_c):
//   dt  = -(nu . dx) / (nu . u-)        the neighbouring trajectory reaches the wall dt later,
//   dq  = dx + u- dt                    at the wall point x_c + dq (nu . dq = 0),
//   dth = kappa (tau . dq)              where the normal has turned by dth (kappa of
//                                       tables/boundary.hpp: d nu / dl = kappa tangent, tangent = -tau),
//   dx+ = dx + (u- - u+) dt
//   (du+, ds+) = C_nu(du + a dt, ds) - (a dt, 0) + dth dC/dth(u-, s-)
//   dC/dth(u, s) = ( -((1 + c) u_bar + s_b s) nu - (1 + c) u_hat tau,  -s_b u_hat ),
//                  u_hat = u . nu, u_bar = u . tau,
// the last from d nu / dth = tau, d tau / dth = -nu. C_nu is linear in (u, s): the first terms
// are C_nu itself applied to the velocity and spin the neighbour has at its own impact, moved
// back to t_c along the flights before (a dt) and after (-a dt); the turn of the frame is the
// curvature term. For gamma = 0 (c = 1, s_b = 0) this is the specular billiard's tangent map
// (Dellago, Posch and Hoover, Phys. Rev. E 53, 1485 (1996)), with ds+ = -ds.
#pragma once
#include "skipstone/collision.hpp"
#include "skipstone/tangent/phase_vector.hpp"

namespace skipstone {

// What the tangent map needs to know about one impact.
struct TangentImpact {
  Vec2 nu;         // inward unit normal at the impact point
  double kappa;    // signed curvature of the wall there (tables/boundary.hpp)
  Vec2 acc;        // acceleration of the flights, (0, -g)
  State2D before;  // (u-, s-)
  State2D after;   // (u+, s+) = C_nu(u-, s-)
  NoSlipCoefficients k;
};

// dC/dth(u, s): the change of C_nu(u, s) per unit turn of the normal.
SKIPSTONE_HD SKIPSTONE_INLINE State2D collision_turn_derivative(const State2D& in, Vec2 nu, NoSlipCoefficients k) {
  const Vec2 tau = rot90(nu);
  const double u_hat = dot(in.u, nu), u_bar = dot(in.u, tau);
  const double one_c = 1.0 + k.c_beta;
  return {(-(one_c * u_bar + k.s_beta * in.s)) * nu - (one_c * u_hat) * tau, -k.s_beta * u_hat};
}

SKIPSTONE_HD SKIPSTONE_INLINE PhaseVector2D tangent_collide(const PhaseVector2D& d, const TangentImpact& im) {
  const double dt = -dot(im.nu, d.x) / dot(im.nu, im.before.u);
  const Vec2 dq = d.x + dt * im.before.u;
  const double dth = im.kappa * dot(rot90(im.nu), dq);
  const State2D linear = noslip_collide(State2D{d.u + dt * im.acc, d.s}, im.nu, im.k);
  const State2D turn = collision_turn_derivative(im.before, im.nu, im.k);
  return {d.x + dt * (im.before.u - im.after.u), linear.u - dt * im.acc + dth * turn.u, linear.s + dth * turn.s};
}

}  // namespace skipstone
