// Builds one no-slip trajectory from its scan point (table, gamma, g, initial condition) and
// runs it: the bridge between the scan description and noslip_trajectory.hpp. Initial
// conditions (MODELS.md section 2, README "Initial conditions"):
//   interior  x, y[, z], velocity (angle, speed in 2D; vx, vy, vz in 3D), spin
//   boundary  on the wall at boundary_s, leaving at `angle` from the inward normal nu
//             (positive towards tau = J nu), spin given
//   impact    arriving at the wall at boundary_s at incidence `angle`, with the spin chosen so
//             that the contact point slides with tangential velocity `slip` (and `slip_z` along
//             the axis in cylinders): slip = 0 is the rolling impact of Section 1. The
//             collision is applied at t = 0 and counts as the first event.
#pragma once
#include "skipstone/noslip_trajectory.hpp"
#include "skipstone/scan_point.hpp"
#include "skipstone/tables/cylinder.hpp"
#include "skipstone/tables/disc.hpp"
#include "skipstone/tables/ellipse.hpp"
#include "skipstone/tables/polygon.hpp"
#include "skipstone/tables/sinai.hpp"
#include "skipstone/tables/sphere.hpp"
#include "skipstone/tables/stadium.hpp"
#include "skipstone/tables/strip.hpp"

namespace skipstone {

SKIPSTONE_HD SKIPSTONE_INLINE NoSlipRunOptions noslip_options(const ScanSpec& spec, bool caustics, bool annulus,
                                                              double gamma_R) {
  return {spec.t_max, spec.max_events, spec.energy_tolerance, spec.bounded_depth, caustics, annulus, gamma_R};
}

SKIPSTONE_HD SKIPSTONE_INLINE TrajectoryResult masked_result() {
  TrajectoryResult r = empty_result();
  r.status = Status::masked;
  return r;
}

// Unit vectors of an in-plane direction relative to the wall: nu inward, tau = J nu.
SKIPSTONE_HD SKIPSTONE_INLINE Vec2 wall_direction(Vec2 nu, double angle, bool incoming) {
  const Vec2 tau = rot90(nu);
  const double c = cos(angle), s = sin(angle);
  return (incoming ? -c : c) * nu + s * tau;
}

template <class Table, class Sink>
SKIPSTONE_HD TrajectoryResult run_plane(const Table& table, const ScanSpec& spec, const ScanPoint& pt, Sink& sink,
                                        bool caustics) {
  const double* p = pt.p;
  const double gamma = point_gamma(spec, pt);
  const NoSlipCoefficients k = noslip_coefficients(gamma);
  NoSlipStart<Vec2, State2D> s0;
  s0.collide_first = false;
  s0.nu = {0.0, 0.0};
  if (spec.start == StartKind::interior) {
    s0.x = {p[P_X], p[P_Y]};
    if (!table.inside(s0.x)) return masked_result();
    s0.state = {p[P_SPEED] * Vec2{cos(p[P_ANGLE]), sin(p[P_ANGLE])}, p[P_SPIN]};
    s0.part = -1;
  } else {
    if (!(fabs(p[P_ANGLE]) < 0.5 * kPi)) return masked_result();
    BoundaryPoint<Vec2> bp = table.boundary_point(p[P_BOUNDARY_S]);
    if (spec.table == TableKind::strip) bp.x.y = p[P_Y];
    s0.x = bp.x;
    s0.part = bp.part;
    const bool incoming = spec.start == StartKind::impact;
    const Vec2 u = p[P_SPEED] * wall_direction(bp.nu, p[P_ANGLE], incoming);
    double spin = p[P_SPIN];
    if (incoming) spin = gamma * (dot(u, rot90(bp.nu)) - p[P_SLIP]);
    s0.state = {u, spin};
    s0.collide_first = incoming;
    s0.nu = bp.nu;
  }
  const NoSlipRunOptions opt = noslip_options(spec, caustics, false, 0.0);
  return integrate_noslip(table, k, p[P_G], s0, opt, sink);
}

template <class Section, class Sink>
SKIPSTONE_HD TrajectoryResult run_cylinder(const Section& section, const ScanSpec& spec, const ScanPoint& pt,
                                           Sink& sink, bool caustics) {
  const double* p = pt.p;
  const double gamma = point_gamma(spec, pt);
  const NoSlipCoefficients k = noslip_coefficients(gamma);
  const CylinderTable<Section> table{section};
  NoSlipStart<Vec3, State3D> s0;
  s0.collide_first = false;
  s0.nu = {0.0, 0.0, 0.0};
  const Vec3 w = {p[P_WX], p[P_WY], p[P_WZ]};
  if (spec.start == StartKind::interior) {
    s0.x = {p[P_X], p[P_Y], p[P_Z]};
    if (!section.inside(Vec2{s0.x.x, s0.x.y})) return masked_result();
    s0.state = {{p[P_VX], p[P_VY], p[P_VZ]}, w};
    s0.part = -1;
  } else {
    if (!(fabs(p[P_ANGLE]) < 0.5 * kPi)) return masked_result();
    const BoundaryPoint<Vec2> bp = section.boundary_point(p[P_BOUNDARY_S]);
    const bool incoming = spec.start == StartKind::impact;
    const Vec2 uh = p[P_SPEED] * wall_direction(bp.nu, p[P_ANGLE], incoming);
    const Vec3 nu = {bp.nu.x, bp.nu.y, 0.0};
    const Vec3 u = {uh.x, uh.y, p[P_VZ]};
    s0.x = {bp.x.x, bp.x.y, p[P_Z]};
    s0.part = bp.part;
    Vec3 spin = w;
    if (incoming) {
      // contact-point velocity u - W/gamma (W = S nu) has the prescribed tangential parts
      const Vec3 t_h = {-nu.y, nu.x, 0.0};
      const Vec3 e_z = {0.0, 0.0, 1.0};
      const Vec3 W = (gamma * (dot(u, t_h) - p[P_SLIP])) * t_h + (gamma * (u.z - p[P_SLIP_Z])) * e_z;
      spin = p[P_SPIN_NORMAL] * nu + cross(nu, W);
    }
    s0.state = {u, spin};
    s0.collide_first = incoming;
    s0.nu = nu;
  }
  const NoSlipRunOptions opt = noslip_options(spec, caustics, false, 0.0);
  return integrate_noslip(table, k, p[P_G], s0, opt, sink);
}

template <class Sink>
SKIPSTONE_HD TrajectoryResult run_sphere(const ScanSpec& spec, const ScanPoint& pt, Sink& sink) {
  const double* p = pt.p;
  const double gamma = point_gamma(spec, pt);
  const SphereTable table{p[P_R]};
  NoSlipStart<Vec3, State3D> s0;
  s0.x = {p[P_X], p[P_Y], p[P_Z]};
  if (dot(s0.x, s0.x) > table.R * table.R) return masked_result();
  s0.state = {{p[P_VX], p[P_VY], p[P_VZ]}, {p[P_WX], p[P_WY], p[P_WZ]}};
  s0.part = -1;
  s0.collide_first = false;
  s0.nu = {0.0, 0.0, 0.0};
  const NoSlipRunOptions opt = noslip_options(spec, false, true, gamma * table.R);
  return integrate_noslip(table, noslip_coefficients(gamma), p[P_G], s0, opt, sink);
}

// The table of this scan point, handed to `f` as a concrete type (one instantiation each).
template <class F>
SKIPSTONE_HD TrajectoryResult with_plane_table(const ScanSpec& spec, const ScanPoint& pt, F&& f) {
  const double* p = pt.p;
  switch (spec.table) {
    case TableKind::disc: return f(DiscTable{p[P_R]}, true);
    case TableKind::strip: return f(StripTable{p[P_L]}, false);
    case TableKind::stadium: return f(StadiumTable{p[P_HALF_LENGTH], p[P_R]}, false);
    case TableKind::ellipse: return f(EllipseTable{p[P_A], p[P_B]}, false);
    case TableKind::sinai: return f(SinaiTable{p[P_SIDE], p[P_RADIUS]}, false);
    case TableKind::rectangle:
    case TableKind::polygon: {
      PolygonTable poly;
      if (spec.table == TableKind::rectangle) {
        const double hw = 0.5 * p[P_WIDTH], hh = 0.5 * p[P_HEIGHT];
        poly.n = 4;
        poly.v[0] = {-hw, -hh};
        poly.v[1] = {hw, -hh};
        poly.v[2] = {hw, hh};
        poly.v[3] = {-hw, hh};
      } else {
        poly.n = spec.polygon_n;
        for (int i = 0; i < poly.n; ++i) poly.v[i] = spec.polygon[i];
      }
      double diam = 0.0;
      for (int i = 0; i < poly.n; ++i)
        for (int j = i + 1; j < poly.n; ++j) {
          const double d = norm(poly.v[i] - poly.v[j]);
          diam = d > diam ? d : diam;
        }
      poly.diameter = diam;
      poly.corner_tol = spec.corner_tolerance * diam;
      return f(poly, false);
    }
    default: return masked_result();
  }
}

template <class Sink>
SKIPSTONE_HD TrajectoryResult simulate_noslip(const ScanSpec& spec, const ScanPoint& pt, Sink& sink) {
  if (spec.model == ModelKind::noslip_sphere) return run_sphere(spec, pt, sink);
  if (spec.model == ModelKind::noslip_cylinder)
    return with_plane_table(spec, pt, [&](const auto& t, bool caustics) {
      return run_cylinder(t, spec, pt, sink, caustics);
    });
  return with_plane_table(spec, pt, [&](const auto& t, bool caustics) {
    return run_plane(t, spec, pt, sink, caustics);
  });
}

}  // namespace skipstone
