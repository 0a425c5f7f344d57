// Table `ellipse`: domain of centres x^2/a^2 + y^2/b^2 <= 1. Collision times are roots of
// F(x(t)), a quadratic (straight flights) or quartic (in-plane gravity).
#pragma once
#include "skipstone/tables/conic_flight.hpp"

namespace skipstone {

struct EllipseTable {
  double a, b;

  SKIPSTONE_HD Hit<Vec2> next_hit(Vec2 x, Vec2 u, double g, int last, double t_limit) const {
    const double xs[2] = {x.x, x.y}, us[2] = {u.x, u.y}, as[2] = {0.0, -g}, cs[2] = {0.0, 0.0};
    const double ws[2] = {1.0 / (a * a), 1.0 / (b * b)};
    const QuadricFlight<2> q = quadric_flight<2>(xs, us, as, cs, ws);
    const double diam = 2.0 * (a > b ? a : b);
    const double hi = bounded_flight_time(diam, norm(u), u.y, g);
    double r[4];
    const int n = quadric_roots<2>(q, last == 0, hi, r);
    if (n == 0) return {norm(u) > 0.0 || g != 0.0 ? HitKind::miss : HitKind::none, 0.0, {0.0, 0.0}, 0};
    // Without deflation the exit is the last root of the quadratic (the first may be behind us
    // only when starting outside, which validation excludes); with gravity the first root.
    const double t = (g == 0.0 && last != 0) ? r[n - 1] : r[0];
    if (t > t_limit) return {HitKind::none, t_limit, {0.0, 0.0}, 0};
    const Vec2 p = flight_position(x, u, Vec2{0.0, -g}, t);
    const Vec2 grad = {p.x / (a * a), p.y / (b * b)};
    return {HitKind::wall, t, (-1.0 / norm(grad)) * grad, 0};
  }

  SKIPSTONE_HD BoundaryPoint<Vec2> boundary_point(double s) const {
    // s is the fraction of the parameter angle (not of arc length): x = (a cos th, b sin th).
    const double th = 2.0 * kPi * s;
    const Vec2 p = {a * cos(th), b * sin(th)};
    const Vec2 grad = {p.x / (a * a), p.y / (b * b)};
    return {p, (-1.0 / norm(grad)) * grad, 0};
  }
  SKIPSTONE_HD bool inside(Vec2 x) const { return x.x * x.x / (a * a) + x.y * x.y / (b * b) <= 1.0; }
};

}  // namespace skipstone
