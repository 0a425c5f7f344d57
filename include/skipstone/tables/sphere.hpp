// Table `sphere`: domain of centres |x| <= R in R^3 (Figure 6), gravity along -z. Collision
// times as for the disc: closed form without gravity, quartic root with gravity.
#pragma once
#include "skipstone/tables/conic_flight.hpp"

namespace skipstone {

struct SphereTable {
  double R;

  SKIPSTONE_HD Hit<Vec3> next_hit(Vec3 x, Vec3 u, double g, int last, double t_limit) const {
    double t;
    const Vec3 zero = {0.0, 0.0, 0.0};
    if (g == 0.0) {
      const double uu = dot(u, u);
      const double xu = dot(x, u);
      if (last == 0) {
        t = -2.0 * xu / uu;
      } else {
        double r[2];
        const int n = quadratic_roots(dot(x, x) - R * R, 2.0 * xu, uu, 0.0, INFINITY, r);
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
    const Vec3 p = flight_position(x, u, Vec3{0.0, 0.0, -g}, t);
    return {HitKind::wall, t, unit_inward_normal(p, R), 0};
  }
};

}  // namespace skipstone
