// Forward-mode differentiation of a right-hand side: a Dual carries a value and its derivative
// along one direction, d (f(y + e delta)) / de at e = 0, and its arithmetic applies the chain rule
// exactly. Evaluating the rolling systems' right-hand sides (rolling/disc_transversal.hpp: rational
// in the state; the wall pieces' sines and cosines of q, rolling/edge_arc.hpp) on Duals with
// value y and derivative delta gives the Jacobian-vector product Df(y) delta of the variational equations (tangent/rim_tangent.hpp) from the same code as f
// itself, exact to round-off: no finite differences, and no second transcription of the
// equations that could drift from the one integrated.
#pragma once
#include <cmath>

#include "skipstone/hd.hpp"
#include "skipstone/poly_sincos.hpp"
#include "skipstone/precision.hpp"  // std::sqrt beside the Dual one below

namespace skipstone {

struct Dual {
  double v;  // value
  double d;  // derivative along the direction
  SKIPSTONE_HD constexpr Dual(double value = 0.0, double derivative = 0.0) : v(value), d(derivative) {}
};

SKIPSTONE_HD SKIPSTONE_INLINE Dual operator+(Dual a, Dual b) { return {a.v + b.v, a.d + b.d}; }
SKIPSTONE_HD SKIPSTONE_INLINE Dual operator-(Dual a, Dual b) { return {a.v - b.v, a.d - b.d}; }
SKIPSTONE_HD SKIPSTONE_INLINE Dual operator-(Dual a) { return {-a.v, -a.d}; }
SKIPSTONE_HD SKIPSTONE_INLINE Dual operator*(Dual a, Dual b) { return {a.v * b.v, a.d * b.v + a.v * b.d}; }
SKIPSTONE_HD SKIPSTONE_INLINE Dual operator/(Dual a, Dual b) {
  const double q = a.v / b.v;
  return {q, (a.d - q * b.d) / b.v};
}
SKIPSTONE_HD SKIPSTONE_INLINE Dual& operator+=(Dual& a, Dual b) { return a = a + b; }
SKIPSTONE_HD SKIPSTONE_INLINE Dual& operator-=(Dual& a, Dual b) { return a = a - b; }
SKIPSTONE_HD SKIPSTONE_INLINE Dual& operator*=(Dual& a, Dual b) { return a = a * b; }
SKIPSTONE_HD SKIPSTONE_INLINE Dual sqrt(Dual a) {
  const double s = sqrt(a.v);
  return {s, a.d / (2.0 * s)};
}

// sin and cos of the wall pieces' right-hand side terms (rolling/edge_arc.hpp): the value is
// poly_sincos's, the derivative (cos, -sin) of it.
SKIPSTONE_HD SKIPSTONE_INLINE void poly_sincos(Dual x, Dual& s, Dual& c) {
  double sv, cv;
  poly_sincos(x.v, sv, cv);
  s = {sv, cv * x.d};
  c = {cv, -sv * x.d};
}

}  // namespace skipstone
