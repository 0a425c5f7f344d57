// The roots in (0, tau] of a smooth level function f(t) (a Poincare section's n . x(t) - c along
// a closed-form curve: section_map.hpp, SectionSink::on_curve), found exactly rather than by
// sampling. With bounds |f'| <= M1 and |f''| <= M2 over [0, tau], a span [a, b] of half-width h
// about its midpoint m
//   has no root       where |f(m)| > h M1,
//   has f monotone    where |f'(m)| > h M2 (then one root at most: where f changes sign),
// and is halved otherwise (down to kCrossingDepth halvings, where a span is as small as doubles
// allow near a tangency). A root is then solved in its bracket by Newton's method kept inside
// the bracket (bisection where a step leaves it) to round-off. The roots come in ascending
// order; a root at t = 0 belongs to the curve before (half-open, as section_roots), and a
// tangency without a sign change is no crossing.
//
// Over one step of an integrated trajectory (an edge passage of the rolling tables:
// rolling/edge_sections.hpp) no such bounds are at hand, but the step's end states give f and f'
// at both ends for free (for_each_step_crossing): the cubic Hermite interpolant of those four
// values is split at its critical points into at most three pieces, taken to be monotone; where
// the values at the ends of the pieces (the interpolant's at the critical points) are not all of
// one sign, f itself (a re-integration) is evaluated at the critical points and each piece over
// which it changes sign holds one root, solved by solve_crossing on f itself. A pair of roots
// inside one step that the interpolant does not show (the trajectory grazing the plane by less
// than the interpolant's error) is missed: the exit's search (rim_passage.hpp) shortens such
// steps first, but a section may not change the trajectory's steps.
#pragma once
#include <cmath>

#include "skipstone/hd.hpp"

namespace skipstone {

constexpr int kCrossingDepth = 48;

// The roots t in (0, tau] of A t^2 + B t + C, ascending (a flight's crossings: the times at which
// n . (x + u t + a t^2 / 2) = c, section_map.hpp); returns how many (0-2).
SKIPSTONE_HD SKIPSTONE_INLINE int section_roots(double C, double B, double A, double tau, double* roots) {
  // A t^2 + B t + C = 0 with A = n.a / 2, B = n.u, C = n.x - c
  int n = 0;
  double r[2];
  if (A == 0.0) {
    if (B != 0.0) r[n++] = -C / B;
  } else {
    const double disc = B * B - 4.0 * A * C;
    if (disc >= 0.0) {
      const double q = -0.5 * (B + copysign(sqrt(disc), B));
      if (q != 0.0) {
        r[n++] = q / A;
        r[n++] = C / q;
      } else {
        r[n++] = 0.0;  // B = C = 0
      }
    }
  }
  if (n == 2 && r[1] < r[0]) {
    const double s = r[0];
    r[0] = r[1], r[1] = s;
  }
  int kept = 0;
  for (int k = 0; k < n; ++k)
    if (r[k] > 0.0 && r[k] <= tau) roots[kept++] = r[k];
  return kept;
}

// The root of f in (a, b] with f(a) = fa != 0 and fb = f(b) of the other sign or 0; the
// iterations stop at round-off, or where a Newton step is no longer than step_tol.
template <class F>
SKIPSTONE_HD double solve_crossing(const F& f, double a, double b, double fa, double fb, double step_tol = 0.0) {
  if (fb == 0.0) return b;
  double lo = a, hi = b;
  double t = a + (b - a) * (fa / (fa - fb));  // the secant's root to start from
  for (int i = 0; i < 100; ++i) {
    double rate;
    const double ft = f(t, rate);
    if (ft == 0.0) return t;
    if ((ft < 0.0) == (fa < 0.0)) lo = t;
    else hi = t;
    double next = t - ft / rate;
    if (!(next > lo && next < hi)) next = 0.5 * (lo + hi);
    if (fabs(next - t) <= step_tol || !(hi - lo > 4e-16 * fabs(hi))) return next;
    t = next;
  }
  return t;
}

// Calls visit(t, f'(t)) for each root t of f in (0, tau], ascending; f(t, rate) returns f(t) and
// sets rate = f'(t); speed >= sup |f'| and acc >= sup |f''| over [0, tau].
template <class F, class Visit>
SKIPSTONE_HD void for_each_crossing(const F& f, double tau, double speed, double acc, Visit&& visit) {
  if (!(tau > 0.0)) return;
  // the bounds padded by their own round-off
  speed *= 1.0 + 1e-12;
  acc *= 1.0 + 1e-12;
  struct Span {
    double a, b;
    int depth;
  };
  Span stack[kCrossingDepth + 2];
  int top = 0;
  stack[top++] = {0.0, tau, 0};
  while (top > 0) {
    const Span s = stack[--top];
    const double h = 0.5 * (s.b - s.a), m = s.a + h;
    double rate_m;
    const double fm = f(m, rate_m);
    if (fabs(fm) > h * speed) continue;
    if (fabs(rate_m) <= h * acc && s.depth < kCrossingDepth && m > s.a && m < s.b) {
      stack[top++] = {m, s.b, s.depth + 1};
      stack[top++] = {s.a, m, s.depth + 1};
      continue;
    }
    double rate_a, rate_b;
    const double fa = f(s.a, rate_a), fb = f(s.b, rate_b);
    if (!((fa < 0.0 && fb >= 0.0) || (fa > 0.0 && fb <= 0.0))) continue;
    const double t = solve_crossing(f, s.a, s.b, fa, fb);
    double rate;
    f(t, rate);
    visit(t, rate);
  }
}

// Calls visit(t, f'(t)) for each root t of f in (0, h] (ascending) over a step whose ends have
// f(0) = f0, f'(0) = d0, f(h) = f1, f'(h) = d1; f(t, rate) as for for_each_crossing, evaluated
// only inside (0, h) where a sign change is possible and at the roots (f(h, rate) must give f1,
// d1); the roots are solved to step_tol in t.
template <class F, class Visit>
SKIPSTONE_HD void for_each_step_crossing(const F& f, double h, double f0, double d0, double f1, double d1,
                                         double step_tol, Visit&& visit) {
  if (!(h > 0.0)) return;
  // the interpolant f0 + a1 s + a2 s^2 + a3 s^3 over s = t / h in [0, 1], its critical points
  const double a1 = h * d0, a2 = 3.0 * (f1 - f0) - h * (2.0 * d0 + d1), a3 = 2.0 * (f0 - f1) + h * (d0 + d1);
  double c[2];
  int n = section_roots(a1, 2.0 * a2, 3.0 * a3, 1.0, c);
  if (n > 0 && !(c[n - 1] < 1.0)) --n;
  double t[4], g[4];
  int m = 0;
  t[m] = 0.0, g[m++] = f0;
  for (int k = 0; k < n; ++k) t[m] = c[k] * h, g[m++] = f0 + c[k] * (a1 + c[k] * (a2 + c[k] * a3));
  t[m] = h, g[m++] = f1;
  bool positive = false, negative = false, zero = false;
  for (int k = 0; k < m; ++k) positive = positive || g[k] > 0.0, negative = negative || g[k] < 0.0;
  for (int k = 1; k < m; ++k) zero = zero || g[k] == 0.0;
  if (!(positive && negative) && !zero) return;
  double rate;
  for (int k = 1; k + 1 < m; ++k) g[k] = f(t[k], rate);
  for (int k = 0; k + 1 < m; ++k) {
    const double fa = g[k], fb = g[k + 1];
    if (!((fa < 0.0 && fb >= 0.0) || (fa > 0.0 && fb <= 0.0))) continue;
    const double root = solve_crossing(f, t[k], t[k + 1], fa, fb, step_tol);
    f(root, rate);
    visit(root, rate);
  }
}

}  // namespace skipstone
