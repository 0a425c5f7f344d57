// Table `disc`: domain of centres |x| <= R (Figure 5). With in-plane gravity (0, -g) the flight
// is a parabola and the collision time a root of a quartic; without gravity, a flight that
// starts on the wall has the closed form t = -2 x.u / |u|^2.
#pragma once
#include "skipstone/tables/conic_flight.hpp"

namespace skipstone {

struct DiscTable {
  double R, inv_R;

  DiscTable() = default;
  SKIPSTONE_HD explicit DiscTable(double radius) : R(radius), inv_R(1.0 / radius) {}

  SKIPSTONE_HD Hit<Vec2> next_hit(Vec2 x, Vec2 u, double g, int last, double t_limit) const {
    double t;
    if (g == 0.0) {
      const double uu = dot(u, u);
      if (last == 0) {
        t = dot(-2.0 * x, u) / uu;  // -2x is known before u: one step less on the chain
      } else {
        const double c0 = dot(x, x) - R * R;
        double r[2];
        const int n = quadratic_roots(c0, 2.0 * dot(x, u), uu, 0.0, INFINITY, r);
        t = n > 0 ? r[n - 1] : -1.0;
      }
      if (!(t > 0.0)) return {uu > 0.0 ? HitKind::miss : HitKind::none, 0.0, {0.0, 0.0}, 0};
    } else {
      const double xs[2] = {x.x, x.y}, us[2] = {u.x, u.y}, as[2] = {0.0, -g}, cs[2] = {0.0, 0.0};
      const double ws[2] = {1.0 / (R * R), 1.0 / (R * R)};
      const QuadricFlight<2> q = quadric_flight<2>(xs, us, as, cs, ws);
      double r[4];
      const double hi = bounded_flight_time(2.0 * R, norm(u), u.y, g);
      const int n = quadric_roots<2>(q, last == 0, hi, r);
      if (n == 0) return {HitKind::miss, 0.0, {0.0, 0.0}, 0};
      t = r[0];
    }
    if (t > t_limit) return {HitKind::none, t_limit, {0.0, 0.0}, 0};
    // a straight flight is written as such: x + t (u + t a / 2) with a = 0 costs three more
    // operations on the dependency chain, which the compiler may not drop (signed zeros)
    const Vec2 p = g == 0.0 ? x + t * u : flight_position(x, u, Vec2{0.0, -g}, t);
    return {HitKind::wall, t, round_wall_inward_normal(p, inv_R), 0};
  }

  SKIPSTONE_HD BoundaryPoint<Vec2> boundary_point(double s) const {
    const double th = 2.0 * kPi * s;
    const Vec2 n = {cos(th), sin(th)};
    return {R * n, -n, 0};
  }
  SKIPSTONE_HD Vec2 settle(Vec2 x, int /*part*/) const { return settle_on_round_wall(x, inv_R); }
  SKIPSTONE_HD bool inside(Vec2 x) const { return dot(x, x) <= R * R; }
};

}  // namespace skipstone
