// Table `sphere`: domain of centres |x| <= R in R^3 (Figure 6), gravity along -z. Collision
// times as for the disc: closed form without gravity, quartic root with gravity.
#pragma once
#include "skipstone/tables/conic_flight.hpp"

namespace skipstone {

struct SphereTable {
  double R, inv_R;

  SphereTable() = default;
  SKIPSTONE_HD explicit SphereTable(double radius) : R(radius), inv_R(1.0 / radius) {}

  SKIPSTONE_HD Hit<Vec3> next_hit(Vec3 x, Vec3 u, double g, int last, double t_limit) const {
    double t;
    const Vec3 zero = {0.0, 0.0, 0.0};
    if (g == 0.0) {
      const double uu = dot(u, u);
      if (last == 0) {
        t = dot(-2.0 * x, u) / uu;  // -2x is known before u: one step less on the chain
      } else {
        double r[2];
        const int n = quadratic_roots(dot(x, x) - R * R, 2.0 * dot(x, u), uu, 0.0, INFINITY, r);
        t = n > 0 ? r[n - 1] : -1.0;
      }
      if (!(t > 0.0)) return {uu > 0.0 ? HitKind::miss : HitKind::none, 0.0, zero, 0};
    } else {
      const double xs[3] = {x.x, x.y, x.z}, us[3] = {u.x, u.y, u.z}, as[3] = {0.0, 0.0, -g};
      const double cs[3] = {0.0, 0.0, 0.0}, ws[3] = {1.0 / (R * R), 1.0 / (R * R), 1.0 / (R * R)};
      const QuadricFlight<3> q = quadric_flight<3>(xs, us, as, cs, ws);
      double r[4];
      const int n = quadric_roots<3>(q, last == 0, bounded_flight_time(2.0 * R, norm(u), u.z, g), r);
      if (n == 0) return {HitKind::miss, 0.0, zero, 0};
      t = r[0];
    }
    if (t > t_limit) return {HitKind::none, t_limit, zero, 0};
    // a straight flight is written as such: x + t (u + t a / 2) with a = 0 costs three more
    // operations on the dependency chain, which the compiler may not drop (signed zeros)
    const Vec3 p = g == 0.0 ? x + t * u : flight_position(x, u, Vec3{0.0, 0.0, -g}, t);
    return {HitKind::wall, t, round_wall_inward_normal(p, inv_R), 0};
  }
  SKIPSTONE_HD Vec3 settle(Vec3 x, int /*part*/) const { return settle_on_round_wall(x, inv_R); }
};

}  // namespace skipstone
