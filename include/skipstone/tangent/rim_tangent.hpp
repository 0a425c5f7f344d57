// The variational equations of a rolling ball on the curved part N^c (rolling/rim_passage.hpp's
// systems: roll4:disc's DiscRimSystem, the tables' EdgeSystem), integrated in the same GBS steps
// as the state: the state y (N components) followed by one tangent vector delta (N more),
//   y' = f(y),   delta' = Df(y) delta,
// with Df(y) delta from the system's own right-hand side evaluated on Duals (tangent/dual.hpp):
// the exact Jacobian-vector product. The state's rates are the system's rhs itself, so the
// state's arithmetic is that of the plain run bit for bit, and the step-size control looks at
// the state only (kErrorComponents = N, gbs.hpp): the run takes exactly the plain run's steps,
// and requesting the tangent dynamics changes no other output. As GBS is a fixed sequence of
// rhs evaluations and linear combinations, delta after a step is the derivative of that
// numerical step (at its fixed length) along delta: internal differentiation, which the tests
// compare with central differences of the integrated trajectory.
//
// The projection after every step (onto the trajectory's own invariants and the unit circle of
// (cos phi, sin phi)) acts on the state only: a neighbouring trajectory projects onto its own
// invariants, and the exact flow keeps those, so the projection's derivative along delta is the
// identity up to the integration tolerance.
//
// Sys: a rim_passage.hpp system whose rhs is a template over the scalar (called with double and
// with Dual).
#pragma once
#include "skipstone/rolling/rim_passage.hpp"
#include "skipstone/tangent/dual.hpp"

namespace skipstone {

template <class Sys>
struct TangentRimSystem {
  static constexpr int M = Sys::N;  // the state's components
  static constexpr int N = 2 * M;   // state and tangent vector
  static constexpr int kErrorComponents = M;
  static constexpr bool kHasBreaks = rim_has_breaks<Sys>::value;

  Sys sys;

  // Df(y) delta for y = z[0 .. M), delta = z[M .. 2M), into out[0 .. M).
  SKIPSTONE_HD void tangent_rhs(const double* z, double* out) const {
    Dual y[M], f[M];
    for (int i = 0; i < M; ++i) y[i] = Dual(z[i], z[M + i]);
    sys.rhs(y, f);
    for (int i = 0; i < M; ++i) out[i] = f[i].d;
  }

  SKIPSTONE_HD void rhs(const double* z, double* f) const {
    sys.rhs(z, f);
    tangent_rhs(z, f + M);
  }
  SKIPSTONE_HD void project(double* z) const { sys.project(z); }
  SKIPSTONE_HD double radius() const { return sys.radius(); }
  SKIPSTONE_HD double h_max() const { return sys.h_max(); }
  SKIPSTONE_HD double break_margin(const double* z, double& rate) const { return sys.break_margin(z, rate); }
};

}  // namespace skipstone
