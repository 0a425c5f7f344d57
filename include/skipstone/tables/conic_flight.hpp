// First exit of a free flight (line or parabola) through a quadric wall F(x) = 0, with F < 0 on
// the domain side: F(x(t)) is a polynomial of degree 2 (no gravity) or 4 (gravity). When the
// flight starts on that wall the root t = 0 is divided out ("deflation") instead of being
// avoided by a tolerance, so grazing and short flights stay exact.
#pragma once
#include "skipstone/polynomial.hpp"
#include "skipstone/tables/hit.hpp"

namespace skipstone {

// Quadric F(x) = sum_i w_i (x_i - c_i)^2 - 1 (w = 1/semi-axis^2). Coefficients of F(x(t)).
template <int Dim>
struct QuadricFlight {
  double coef[5];  // coef[0] + coef[1] t + ... + coef[4] t^4
  int degree;
};

// x, u, a, c, w given as arrays of length Dim.
template <int Dim>
SKIPSTONE_HD SKIPSTONE_INLINE QuadricFlight<Dim> quadric_flight(const double* x, const double* u, const double* a,
                                                               const double* c, const double* w) {
  QuadricFlight<Dim> q;
  for (int k = 0; k < 5; ++k) q.coef[k] = 0.0;
  bool accel = false;
  for (int i = 0; i < Dim; ++i) {
    const double d = x[i] - c[i];
    const double h = 0.5 * a[i];  // x_i(t) = d + u t + h t^2
    q.coef[0] += w[i] * d * d;
    q.coef[1] += w[i] * 2.0 * d * u[i];
    q.coef[2] += w[i] * (u[i] * u[i] + 2.0 * d * h);
    q.coef[3] += w[i] * 2.0 * u[i] * h;
    q.coef[4] += w[i] * h * h;
    accel = accel || a[i] != 0.0;
  }
  q.coef[0] -= 1.0;
  q.degree = accel ? 4 : 2;
  return q;
}

// Roots of F(x(t)) in (0, t_hi], sorted. `deflate` = the flight starts on this quadric.
template <int Dim>
SKIPSTONE_HD SKIPSTONE_INLINE int quadric_roots(const QuadricFlight<Dim>& q, bool deflate, double t_hi, double* out) {
  if (deflate) return polynomial_roots(q.coef + 1, q.degree - 1, 0.0, t_hi, out);
  return polynomial_roots(q.coef, q.degree, 0.0, t_hi, out);
}

// First root where a half-plane distance d(t) = d0 + d1 t + d2 t^2 reaches zero (d0 >= 0 inside).
SKIPSTONE_HD SKIPSTONE_INLINE double line_exit_time(double d0, double d1, double d2, bool deflate, double t_hi) {
  double r[2];
  const int n = deflate ? quadratic_roots(d1, d2, 0.0, 0.0, t_hi, r) : quadratic_roots(d0, d1, d2, 0.0, t_hi, r);
  for (int i = 0; i < n; ++i) {
    // crossing outward: d decreasing (or tangential) at the root
    const double slope = d1 + 2.0 * d2 * r[i];
    if (slope <= 0.0) return r[i];
  }
  return INFINITY;
}

}  // namespace skipstone
