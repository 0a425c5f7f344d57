// Table `ellipse`: domain of centres x^2/a^2 + y^2/b^2 <= 1. Collision times are roots of
// F(x(t)), a quadratic (straight flights) or quartic (in-plane gravity).
#pragma once
#include "skipstone/tables/boundary.hpp"
#include "skipstone/tables/conic_flight.hpp"
#include "skipstone/tables/elliptic_arc.hpp"

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

  // The wall as a curve (boundary.hpp). The curve parameter theta gives the point
  // (a cos theta, b sin theta), counterclockwise; the normalised parameter is s = theta / (2 pi),
  // not a fraction of arc length. A rolling integrator can move along theta with
  // d theta / dl = 1 / curve_speed(theta) instead of inverting the arc length.
  SKIPSTONE_HD double curve_speed(double th) const {
    const double sn = sin(th), cs = cos(th);
    return sqrt(a * a * sn * sn + b * b * cs * cs);
  }
  // kappa = -a b / speed^3 (the ellipse is convex), no breaks.
  SKIPSTONE_HD BoundaryFrame curve_frame(double th) const {
    const Vec2 p = {a * cos(th), b * sin(th)};
    const Vec2 grad = {p.x / (a * a), p.y / (b * b)};
    const double v = curve_speed(th);
    return frame_from_normal(p, (-1.0 / norm(grad)) * grad, -a * b / (v * v * v), 0);
  }
  SKIPSTONE_HD BoundaryFrame boundary_frame(double s) const { return curve_frame(2.0 * kPi * s); }
  // Arc length from (a, 0): speed = b sqrt(1 - m sin^2 theta) with m = 1 - a^2/b^2, so
  // l(theta) = b E(theta | m).
  SKIPSTONE_HD double arc_modulus() const { return 1.0 - (a * a) / (b * b); }
  SKIPSTONE_HD double boundary_length() const { return 4.0 * b * elliptic_e_reduced(0.5 * kPi, arc_modulus()); }
  SKIPSTONE_HD double arc_length(double s) const { return b * elliptic_e(2.0 * kPi * wrap_unit(s), arc_modulus()); }
  // theta of an arc length: Newton's method on l(theta), kept inside a bisection bracket.
  SKIPSTONE_HD double s_at_arc_length(double l) const {
    const double m = arc_modulus(), L = boundary_length();
    const double target = L * wrap_unit(l / L);
    double lo = 0.0, hi = 2.0 * kPi, th = 2.0 * kPi * target / L;
    for (int it = 0; it < 100; ++it) {
      const double f = b * elliptic_e(th, m) - target;
      if (f == 0.0) break;
      if (f > 0.0) hi = th;
      else lo = th;
      double next = th - f / curve_speed(th);
      if (!(next > lo && next < hi)) next = 0.5 * (lo + hi);
      const bool done = fabs(next - th) <= 4e-16 * (1.0 + th);
      th = next;
      if (done) break;
    }
    return wrap_unit(th / (2.0 * kPi));
  }
  SKIPSTONE_HD double boundary_parameter(Vec2 p, int /*part*/) const {
    return wrap_unit(atan2(p.y / b, p.x / a) / (2.0 * kPi));
  }
  SKIPSTONE_HD int boundary_breaks(BoundaryBreak* /*out*/) const { return 0; }

  SKIPSTONE_HD BoundaryPoint<Vec2> boundary_point(double s) const {
    const BoundaryFrame f = boundary_frame(s);
    return {f.x, f.nu, f.part};
  }
  SKIPSTONE_HD bool inside(Vec2 x) const { return x.x * x.x / (a * a) + x.y * x.y / (b * b) <= 1.0; }
  // A lower bound on the distance from x to the wall (<= 0 outside): x lies on the ellipse
  // scaled by s = sqrt(x^2/a^2 + y^2/b^2), and s E plus the disc of radius (1 - s) min(a, b),
  // which E contains, lies in s E + (1 - s) E = E (E convex).
  SKIPSTONE_HD double clearance(Vec2 x) const {
    return (1.0 - sqrt(x.x * x.x / (a * a) + x.y * x.y / (b * b))) * (a < b ? a : b);
  }
};

}  // namespace skipstone
