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
#pragma once
#include <cmath>

#include "skipstone/hd.hpp"

namespace skipstone {

constexpr int kCrossingDepth = 48;

// The root of f in (a, b] with f(a) = fa != 0 and fb = f(b) of the other sign or 0.
template <class F>
SKIPSTONE_HD double solve_crossing(const F& f, double a, double b, double fa, double fb) {
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
    if (next == t || !(hi - lo > 4e-16 * fabs(hi))) return next;
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

}  // namespace skipstone
