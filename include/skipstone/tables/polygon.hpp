// Tables `polygon` (convex, vertices counterclockwise) and `rectangle` (a polygon with four
// vertices): the domain of centres is the intersection of the half-planes n_i . x >= c_i, so a
// flight leaves it at the first time any one distance reaches zero. A collision closer than
// corner_tol (relative to the table size) to a vertex is a corner hit: the outcome of the
// no-slip map is undefined there and the trajectory is stopped (MODELS.md section 2).
#pragma once
#include "skipstone/tables/conic_flight.hpp"

namespace skipstone {

constexpr int kMaxPolygonVertices = 16;

struct PolygonTable {
  int n;
  Vec2 v[kMaxPolygonVertices];
  double corner_tol;  // absolute distance to a vertex that counts as a corner hit
  double diameter;

  SKIPSTONE_HD Vec2 inward_normal(int i) const {
    const Vec2 d = v[(i + 1) % n] - v[i];
    return (1.0 / norm(d)) * rot90(d);
  }

  SKIPSTONE_HD Hit<Vec2> next_hit(Vec2 x, Vec2 u, double g, int last, double t_limit) const {
    const double hi = bounded_flight_time(diameter, norm(u), u.y, g);
    double best = INFINITY;
    int best_i = -1;
    for (int i = 0; i < n; ++i) {
      const Vec2 nu = inward_normal(i);
      const double d0 = dot(nu, x - v[i]);
      const double t = line_exit_time(d0, dot(nu, u), -0.5 * g * nu.y, i == last, hi);
      if (t < best) {
        best = t;
        best_i = i;
      }
    }
    if (best_i < 0) return {norm(u) > 0.0 || g != 0.0 ? HitKind::miss : HitKind::none, 0.0, {0.0, 0.0}, -1};
    if (best > t_limit) return {HitKind::none, t_limit, {0.0, 0.0}, -1};
    const Vec2 p = flight_position(x, u, Vec2{0.0, -g}, best);
    const Vec2 a = v[best_i], b = v[(best_i + 1) % n];
    const bool near_vertex = norm(p - a) <= corner_tol || norm(p - b) <= corner_tol;
    return {near_vertex ? HitKind::corner : HitKind::wall, best, inward_normal(best_i), best_i};
  }

  SKIPSTONE_HD double perimeter() const {
    double p = 0.0;
    for (int i = 0; i < n; ++i) p += norm(v[(i + 1) % n] - v[i]);
    return p;
  }

  // s in [0,1): fraction of the perimeter, counterclockwise from vertex 0.
  SKIPSTONE_HD BoundaryPoint<Vec2> boundary_point(double s) const {
    double rest = s * perimeter();
    for (int i = 0; i < n; ++i) {
      const Vec2 d = v[(i + 1) % n] - v[i];
      const double len = norm(d);
      if (rest <= len || i == n - 1) return {v[i] + (rest / len) * d, inward_normal(i), i};
      rest -= len;
    }
    return {v[0], inward_normal(0), 0};
  }

  SKIPSTONE_HD bool inside(Vec2 x) const {
    for (int i = 0; i < n; ++i)
      if (dot(inward_normal(i), x - v[i]) < 0.0) return false;
    return true;
  }
};

}  // namespace skipstone
