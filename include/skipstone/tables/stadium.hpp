// Table `stadium`: domain of centres = the rectangle |x| <= a, |y| <= R with half-discs of
// radius R on its short sides. Boundary parts: 0 top segment, 1 left cap, 2 bottom segment,
// 3 right cap. The flight leaves through the first crossing that lies on its own part.
#pragma once
#include "skipstone/tables/boundary.hpp"
#include "skipstone/tables/conic_flight.hpp"

namespace skipstone {

struct StadiumTable {
  double a;  // half-length of the straight segments
  double R;  // cap radius (half-width)

  SKIPSTONE_HD Hit<Vec2> next_hit(Vec2 x, Vec2 u, double g, int last, double t_limit) const {
    const Vec2 acc = {0.0, -g};
    const double hi = bounded_flight_time(2.0 * (a + R), norm(u), u.y, g);
    double best = INFINITY;
    int best_part = -1;
    // Straight segments y = +R (normal (0,-1)) and y = -R (normal (0,1)).
    for (int k = 0; k < 2; ++k) {
      const int part = k == 0 ? 0 : 2;
      const double sgn = k == 0 ? -1.0 : 1.0;  // inward normal y-component
      const double d0 = sgn * x.y + R;
      const double t = line_exit_time(d0, sgn * u.y, -0.5 * g * sgn, part == last, hi);
      if (t < best && fabs(flight_position(x, u, acc, t).x) <= a) {
        best = t;
        best_part = part;
      }
    }
    // Caps: circles of radius R centred at (-a, 0) (part 1) and (a, 0) (part 3).
    for (int k = 0; k < 2; ++k) {
      const int part = k == 0 ? 1 : 3;
      const double cx = k == 0 ? -a : a;
      const double xs[2] = {x.x, x.y}, us[2] = {u.x, u.y}, as[2] = {0.0, -g}, cs[2] = {cx, 0.0};
      const double ws[2] = {1.0 / (R * R), 1.0 / (R * R)};
      const QuadricFlight<2> q = quadric_flight<2>(xs, us, as, cs, ws);
      double r[4];
      const int n = quadric_roots<2>(q, part == last, hi, r);
      for (int i = 0; i < n && r[i] < best; ++i) {
        const Vec2 p = flight_position(x, u, acc, r[i]);
        const bool on_cap = k == 0 ? p.x <= -a : p.x >= a;
        // outward crossing of the circle: d/dt |p - c|^2 >= 0
        const Vec2 vel = {u.x, u.y - g * r[i]};
        if (on_cap && (p.x - cx) * vel.x + p.y * vel.y >= 0.0) {
          best = r[i];
          best_part = part;
          break;
        }
      }
    }
    if (best_part < 0) return {norm(u) > 0.0 || g != 0.0 ? HitKind::miss : HitKind::none, 0.0, {0.0, 0.0}, -1};
    if (best > t_limit) return {HitKind::none, t_limit, {0.0, 0.0}, -1};
    const Vec2 p = flight_position(x, u, acc, best);
    Vec2 nu;
    if (best_part == 0) nu = {0.0, -1.0};
    else if (best_part == 2) nu = {0.0, 1.0};
    else {
      const Vec2 c = {best_part == 1 ? -a : a, 0.0};
      nu = (-1.0 / norm(p - c)) * (p - c);
    }
    return {HitKind::wall, best, nu, best_part};
  }

  // The wall as a curve (boundary.hpp): s = l / perimeter, counterclockwise from (a, R): the
  // top segment (part 0, leftwards), the left cap (1), the bottom segment (2), the right cap (3).
  // kappa = 0 on the segments and -1/R on the caps. At a junction the frame is that of the part
  // that starts there. With a = 0 this is the disc of radius R turned by a quarter:
  // the frame at s is the disc's at s + 1/4.
  SKIPSTONE_HD BoundaryFrame boundary_frame(double s) const {
    double l = s * boundary_length();
    if (l < 2.0 * a) return frame_from_normal({a - l, R}, {0.0, -1.0}, 0.0, 0);
    l -= 2.0 * a;
    if (l < kPi * R) {
      const double th = 0.5 * kPi + l / R;
      const Vec2 n = {cos(th), sin(th)};
      return frame_from_normal(Vec2{-a, 0.0} + R * n, -n, -1.0 / R, 1);
    }
    l -= kPi * R;
    if (l < 2.0 * a) return frame_from_normal({-a + l, -R}, {0.0, 1.0}, 0.0, 2);
    l -= 2.0 * a;
    const double th = -0.5 * kPi + l / R;
    const Vec2 n = {cos(th), sin(th)};
    return frame_from_normal(Vec2{a, 0.0} + R * n, -n, -1.0 / R, 3);
  }
  SKIPSTONE_HD double boundary_length() const { return 4.0 * a + 2.0 * kPi * R; }
  SKIPSTONE_HD double arc_length(double s) const { return boundary_length() * wrap_unit(s); }
  SKIPSTONE_HD double s_at_arc_length(double l) const { return wrap_unit(l / boundary_length()); }
  // s of a point on part `part` (a cap's angle is measured from the cap's middle, so that a
  // point a rounding error beyond the cap's end stays next to it).
  SKIPSTONE_HD double boundary_parameter(Vec2 p, int part) const {
    double l;
    if (part == 0) l = a - p.x;
    else if (part == 1) l = 2.0 * a + R * (angle_from({-1.0, 0.0}, p - Vec2{-a, 0.0}) + 0.5 * kPi);
    else if (part == 2) l = 2.0 * a + kPi * R + (p.x + a);
    else l = 4.0 * a + kPi * R + R * (angle_from({1.0, 0.0}, p - Vec2{a, 0.0}) + 0.5 * kPi);
    return wrap_unit(l / boundary_length());
  }
  // The four junctions of segments and caps (none when a = 0: the disc).
  SKIPSTONE_HD int boundary_breaks(BoundaryBreak* out) const {
    if (!(a > 0.0)) return 0;
    const double P = boundary_length(), k = -1.0 / R;
    out[0] = {0.0, BreakKind::curvature_jump, k, 0.0, kPi};
    out[1] = {2.0 * a / P, BreakKind::curvature_jump, 0.0, k, kPi};
    out[2] = {(2.0 * a + kPi * R) / P, BreakKind::curvature_jump, k, 0.0, kPi};
    out[3] = {(4.0 * a + kPi * R) / P, BreakKind::curvature_jump, 0.0, k, kPi};
    return 4;
  }

  SKIPSTONE_HD BoundaryPoint<Vec2> boundary_point(double s) const {
    const BoundaryFrame f = boundary_frame(s);
    return {f.x, f.nu, f.part};
  }

  SKIPSTONE_HD bool inside(Vec2 x) const {
    const double dx = fabs(x.x) > a ? fabs(x.x) - a : 0.0;
    return dx * dx + x.y * x.y <= R * R;
  }
  // A lower bound on the distance from x to the wall (here exact: R less the distance to the
  // segment |x| <= a on the axis; <= 0 outside).
  SKIPSTONE_HD double clearance(Vec2 x) const {
    const double dx = fabs(x.x) > a ? fabs(x.x) - a : 0.0;
    return R - sqrt(dx * dx + x.y * x.y);
  }
};

}  // namespace skipstone
