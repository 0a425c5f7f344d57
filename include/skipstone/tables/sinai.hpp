// Table `sinai`: the square torus of side `side` with a disc scatterer of radius rho at the
// centre of every cell (unfolded: scatterers at the lattice points (i side, j side)). The
// domain of centres is the outside of the scatterers. Positions are kept unfolded so that
// heights and drifts are physical. Flights are straight (no in-plane gravity: validation
// rejects g != 0) and are followed cell by cell; a scatterer lies inside its own cell, so only
// the disc of the current cell can be hit. A position so far out that the cell index cannot
// step (|x| / side >= 2^53) is a miss (a numerical failure).
#pragma once
#include "skipstone/tables/boundary.hpp"
#include "skipstone/polynomial.hpp"

namespace skipstone {

struct SinaiTable {
  double side, rho;

  SKIPSTONE_HD Hit<Vec2> next_hit(Vec2 x, Vec2 u, double /*g*/, int last, double t_limit) const {
    if (u.x == 0.0 && u.y == 0.0) return {HitKind::none, t_limit, {0.0, 0.0}, -1};
    double ci = floor(x.x / side + 0.5), cj = floor(x.y / side + 0.5);
    double t0 = 0.0;
    bool skip = last == 0;  // leaving a convex scatterer: cannot hit it again
    const double uu = dot(u, u);
    while (t0 <= t_limit) {
      const Vec2 c = {ci * side, cj * side};
      // time this flight leaves the cell
      const double tx = u.x > 0.0 ? ((ci + 0.5) * side - x.x) / u.x : u.x < 0.0 ? ((ci - 0.5) * side - x.x) / u.x : INFINITY;
      const double ty = u.y > 0.0 ? ((cj + 0.5) * side - x.y) / u.y : u.y < 0.0 ? ((cj - 0.5) * side - x.y) / u.y : INFINITY;
      const double t1 = tx < ty ? tx : ty;
      if (!skip) {
        const Vec2 d = x - c;
        double r[2];
        const int n = quadratic_roots(dot(d, d) - rho * rho, 2.0 * dot(d, u), uu, 0.0, INFINITY, r);
        // entering the disc: first root, where the distance decreases
        if (n > 0 && r[0] <= t1 + 1e-12 * (1.0 + t1) && dot(d, u) + uu * r[0] < 0.0) {
          const double t = r[0];
          if (t > t_limit) break;
          const Vec2 p = x + t * u;
          return {HitKind::wall, t, (1.0 / norm(p - c)) * (p - c), 0};
        }
      }
      skip = false;
      t0 = t1;
      // the next cell; beyond 2^53 cells from the origin the index no longer changes (the position
      // has lost its place in the cell): a numerical failure, not an endless walk
      double& index = tx < ty ? ci : cj;
      const double next = index + ((tx < ty ? u.x : u.y) > 0.0 ? 1.0 : -1.0);
      if (next == index) return {HitKind::miss, 0.0, {0.0, 0.0}, -1};
      index = next;
    }
    return {HitKind::none, t_limit, {0.0, 0.0}, -1};
  }

  // The wall as a curve (boundary.hpp): the scatterer of cell (0, 0), s = theta / (2 pi)
  // counterclockwise from (rho, 0). The domain is outside, so arc length runs clockwise, against
  // s: l = 2 pi rho (1 - s). kappa = +1/rho, no breaks.
  SKIPSTONE_HD BoundaryFrame boundary_frame(double s) const {
    const double th = 2.0 * kPi * s;
    const Vec2 n = {cos(th), sin(th)};
    return frame_from_normal(rho * n, n, 1.0 / rho, 0);
  }
  SKIPSTONE_HD double boundary_length() const { return 2.0 * kPi * rho; }
  SKIPSTONE_HD double arc_length(double s) const { return boundary_length() * wrap_unit(-s); }
  SKIPSTONE_HD double s_at_arc_length(double l) const { return wrap_unit(-l / boundary_length()); }
  // s of a point on the scatterer of any cell (positions are unfolded): the angle about the
  // centre of the cell it lies in.
  SKIPSTONE_HD double boundary_parameter(Vec2 p, int /*part*/) const {
    const Vec2 d = p - cell_centre(p);
    return wrap_unit(atan2(d.y, d.x) / (2.0 * kPi));
  }
  SKIPSTONE_HD int boundary_breaks(BoundaryBreak* /*out*/) const { return 0; }
  SKIPSTONE_HD Vec2 cell_centre(Vec2 x) const { return {side * floor(x.x / side + 0.5), side * floor(x.y / side + 0.5)}; }

  SKIPSTONE_HD BoundaryPoint<Vec2> boundary_point(double s) const {
    const BoundaryFrame f = boundary_frame(s);
    return {f.x, f.nu, f.part};
  }
  SKIPSTONE_HD bool inside(Vec2 x) const {
    const Vec2 c = cell_centre(x);
    return dot(x - c, x - c) >= rho * rho;
  }
  // The distance from x to the wall (to the nearest scatterer, that of the nearest lattice
  // point; <= 0 inside a scatterer).
  SKIPSTONE_HD double clearance(Vec2 x) const { return norm(x - cell_centre(x)) - rho; }
};

}  // namespace skipstone
