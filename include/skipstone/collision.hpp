// The no-slip collision map, paper Eq. (1)-(3), specialised to dimensions 2 and 3.
//
// Conventions (docs/models.md):
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

// In the kernels' scalar type T (double; float for the float no-slip disc kernels).
template <class T>
struct State2DT {
  Vec2T<T> u;  // centre velocity
  T s;         // spin, S = s J
};

template <class T>
struct State3DT {
  Vec3T<T> u;  // centre velocity
  Vec3T<T> w;  // spin vector, S x = w x x
};
using State2D = State2DT<double>;
using State3D = State3DT<double>;

template <class T>
SKIPSTONE_HD SKIPSTONE_INLINE State2DT<T> noslip_collide(State2DT<T> in, Vec2T<T> nu, NoSlipCoefficientsT<T> k) {
  const Vec2T<T> tau = rot90(nu);
  const T u_hat = dot(in.u, nu);
  const T u_bar = dot(in.u, tau);
  const T u_bar_new = k.c_beta * u_bar + k.s_beta * in.s;
  const T s_new = k.s_beta * u_bar - k.c_beta * in.s;
  return {(-u_hat) * nu + u_bar_new * tau, s_new};
}

template <class T>
SKIPSTONE_HD SKIPSTONE_INLINE State3DT<T> noslip_collide(State3DT<T> in, Vec3T<T> nu, NoSlipCoefficientsT<T> k) {
  const T u_hat = dot(in.u, nu);
  const Vec3T<T> u_bar = in.u - u_hat * nu;
  const T s_bar = dot(in.w, nu);
  const Vec3T<T> W = cross(in.w, nu);
  const Vec3T<T> u_bar_new = k.c_beta * u_bar + k.s_beta * W;
  const Vec3T<T> W_new = k.s_beta * u_bar - k.c_beta * W;
  return {u_bar_new - u_hat * nu, s_bar * nu + cross(nu, W_new)};
}

// c ? a : b component by component (vec.hpp).
template <class T>
SKIPSTONE_HD SKIPSTONE_INLINE State2DT<T> select(bool c, const State2DT<T>& a, const State2DT<T>& b) {
  return {select(c, a.u, b.u), c ? a.s : b.s};
}
template <class T>
SKIPSTONE_HD SKIPSTONE_INLINE State3DT<T> select(bool c, const State3DT<T>& a, const State3DT<T>& b) {
  return {select(c, a.u, b.u), select(c, a.w, b.w)};
}

// A state in another scalar type (the float kernels' start from a double setup).
template <class T, class U>
SKIPSTONE_HD SKIPSTONE_INLINE State2DT<T> state_as(const State2DT<U>& s) {
  return {vec_as<T>(s.u), static_cast<T>(s.s)};
}
template <class T, class U>
SKIPSTONE_HD SKIPSTONE_INLINE State3DT<T> state_as(const State3DT<U>& s) {
  return {vec_as<T>(s.u), vec_as<T>(s.w)};
}

}  // namespace skipstone
