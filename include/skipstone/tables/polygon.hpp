// Tables `polygon` (convex, vertices counterclockwise) and `rectangle` (a polygon with four
// vertices): the domain of centres is the intersection of the half-planes n_i . x >= c_i, so a
// flight leaves it at the first time any one distance reaches zero. A collision closer than
// corner_tol (relative to the table size) to a vertex is a corner hit: the outcome of the
// no-slip map is undefined there and the trajectory is stopped (docs/models.md).
#pragma once
#include "skipstone/tables/boundary.hpp"
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

  // The wall as a curve (boundary.hpp): s = l / perimeter, counterclockwise from vertex 0 along
  // edge 0 (vertex 0 to vertex 1, part 0), then edge 1, ... kappa = 0; every vertex is a break.
  // At a vertex other than vertex 0 the frame is that of the edge that ends there.
  SKIPSTONE_HD double boundary_length() const {
    double p = 0.0;
    for (int i = 0; i < n; ++i) p += norm(v[(i + 1) % n] - v[i]);
    return p;
  }
  SKIPSTONE_HD BoundaryFrame boundary_frame(double s) const {
    double rest = s * boundary_length();
    for (int i = 0; i < n; ++i) {
      const Vec2 d = v[(i + 1) % n] - v[i];
      const double len = norm(d);
      if (rest <= len || i == n - 1) return frame_from_normal(v[i] + (rest / len) * d, inward_normal(i), 0.0, i);
      rest -= len;
    }
    return frame_from_normal(v[0], inward_normal(0), 0.0, 0);
  }
  SKIPSTONE_HD double arc_length(double s) const { return boundary_length() * wrap_unit(s); }
  SKIPSTONE_HD double s_at_arc_length(double l) const { return wrap_unit(l / boundary_length()); }
  // s of a point on edge `part`: its projection onto the edge.
  SKIPSTONE_HD double boundary_parameter(Vec2 p, int part) const {
    double l = 0.0;
    for (int i = 0; i < part; ++i) l += norm(v[i + 1] - v[i]);
    const Vec2 d = v[(part + 1) % n] - v[part];
    return wrap_unit((l + dot(p - v[part], d) / norm(d)) / boundary_length());
  }
  // The vertices, vertex i at the arc length of edges 0 .. i-1; the interior angle is pi minus
  // the angle the tangent turns by there.
  SKIPSTONE_HD int boundary_breaks(BoundaryBreak* out) const {
    const double P = boundary_length();
    double l = 0.0;
    for (int i = 0; i < n; ++i) {
      const Vec2 before = v[i] - v[(i + n - 1) % n], after = v[(i + 1) % n] - v[i];
      const double turn = atan2(cross(before, after), dot(before, after));
      out[i] = {l / P, BreakKind::vertex, 0.0, 0.0, kPi - turn};
      l += norm(after);
    }
    return n;
  }

  SKIPSTONE_HD BoundaryPoint<Vec2> boundary_point(double s) const {
    const BoundaryFrame f = boundary_frame(s);
    return {f.x, f.nu, f.part};
  }

  SKIPSTONE_HD bool inside(Vec2 x) const {
    for (int i = 0; i < n; ++i)
      if (dot(inward_normal(i), x - v[i]) < 0.0) return false;
    return true;
  }
  // A lower bound on the distance from x to the wall (exact inside a convex polygon: the least
  // distance to a side's line; <= 0 outside).
  SKIPSTONE_HD double clearance(Vec2 x) const {
    double d = INFINITY;
    for (int i = 0; i < n; ++i) {
      const double di = dot(inward_normal(i), x - v[i]);
      d = di < d ? di : d;
    }
    return d;
  }
};

}  // namespace skipstone
