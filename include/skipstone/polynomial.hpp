// Real roots of low-degree polynomials on an interval, for exact collision times of free
// flights (straight lines or parabolas under gravity) against lines and conics (docs/models.md).
// Quadratics use the cancellation-free closed form; degrees 3-4 are isolated by the roots of
// the derivative (which split the interval into monotone pieces) and then bracketed and
// refined by safeguarded Newton-bisection, so no root in the interval is ever skipped.
#pragma once
#include <cmath>

#include "skipstone/hd.hpp"

namespace skipstone {

constexpr int kMaxPolyDegree = 4;

// p(t) = c[0] + c[1] t + ... + c[deg] t^deg
SKIPSTONE_HD SKIPSTONE_INLINE double poly_eval(const double* c, int deg, double t) {
  double v = c[deg];
  for (int i = deg - 1; i >= 0; --i) v = v * t + c[i];
  return v;
}

// Roots of c0 + c1 t + c2 t^2 strictly inside (lo, hi], sorted; returns their number.
SKIPSTONE_HD SKIPSTONE_INLINE int quadratic_roots(double c0, double c1, double c2, double lo, double hi, double* out) {
  int n = 0;
  double r0, r1;
  int m = 0;
  if (c2 == 0.0) {
    if (c1 == 0.0) return 0;
    r0 = -c0 / c1;
    m = 1;
  } else {
    const double disc = c1 * c1 - 4.0 * c2 * c0;
    if (disc < 0.0) return 0;
    const double q = -0.5 * (c1 + copysign(sqrt(disc), c1));
    if (q == 0.0) {
      r0 = 0.0;
      m = 1;
    } else {
      r0 = q / c2;
      r1 = c0 / q;
      if (r1 < r0) {
        const double tmp = r0;
        r0 = r1;
        r1 = tmp;
      }
      m = 2;
    }
  }
  if (r0 > lo && r0 <= hi) out[n++] = r0;
  if (m == 2 && r1 > lo && r1 <= hi) out[n++] = r1;
  return n;
}

// Root of a polynomial on [a, b] where p(a), p(b) have opposite signs (or one is zero).
SKIPSTONE_HD SKIPSTONE_INLINE double bracketed_root(const double* c, int deg, double a, double b) {
  double fa = poly_eval(c, deg, a);
  if (fa == 0.0) return a;
  double t = 0.5 * (a + b);
  for (int it = 0; it < 200; ++it) {
    const double ft = poly_eval(c, deg, t);
    if (ft == 0.0) return t;
    if ((ft < 0.0) == (fa < 0.0)) {
      a = t;
      fa = ft;
    } else {
      b = t;
    }
    // Newton step from t, accepted only if it stays inside the bracket.
    double d = 0.0;
    for (int i = deg; i >= 1; --i) d = d * t + i * c[i];
    double next = (d != 0.0) ? t - ft / d : 0.5 * (a + b);
    if (!(next > a && next < b)) next = 0.5 * (a + b);
    if (b - a <= 4e-16 * (fabs(a) + fabs(b)) || next == t) return next;
    t = next;
  }
  return t;
}

// All real roots of p (degree <= MaxDeg) in (lo, hi], sorted ascending; returns their number.
// The recursion on the derivative is resolved at compile time (no device-side recursion).
template <int MaxDeg>
SKIPSTONE_HD SKIPSTONE_INLINE int polynomial_roots_upto(const double* c, int deg, double lo, double hi, double* out) {
  while (deg > 0 && c[deg] == 0.0) --deg;
  if constexpr (MaxDeg <= 2) {
    return quadratic_roots(c[0], deg >= 1 ? c[1] : 0.0, deg >= 2 ? c[2] : 0.0, lo, hi, out);
  } else {
    if (deg <= 2) return quadratic_roots(c[0], deg >= 1 ? c[1] : 0.0, deg >= 2 ? c[2] : 0.0, lo, hi, out);
    double dc[MaxDeg];
    for (int i = 1; i <= deg; ++i) dc[i - 1] = i * c[i];
    double crit[MaxDeg];
    const int ncrit = polynomial_roots_upto<MaxDeg - 1>(dc, deg - 1, lo, hi, crit);
    double knots[MaxDeg + 2];
    int nk = 0;
    knots[nk++] = lo;
    for (int i = 0; i < ncrit; ++i)
      if (crit[i] < hi) knots[nk++] = crit[i];
    knots[nk++] = hi;
    int n = 0;
    for (int i = 0; i + 1 < nk; ++i) {
      const double a = knots[i], b = knots[i + 1];
      const double fa = poly_eval(c, deg, a), fb = poly_eval(c, deg, b);
      if (fb == 0.0) {
        out[n++] = b;
      } else if (fa != 0.0 && (fa < 0.0) != (fb < 0.0)) {
        out[n++] = bracketed_root(c, deg, a, b);
      }
    }
    return n;
  }
}

SKIPSTONE_HD SKIPSTONE_INLINE int polynomial_roots(const double* c, int deg, double lo, double hi, double* out) {
  return polynomial_roots_upto<kMaxPolyDegree>(c, deg, lo, hi, out);
}

}  // namespace skipstone
