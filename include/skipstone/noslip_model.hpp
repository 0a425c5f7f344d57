// Builds one no-slip trajectory from its scan point (table, gamma, g, initial condition) and
// runs it: the bridge between the scan description and noslip_trajectory.hpp. Initial
// conditions (docs/config.md, "Start kinds"):
//   interior  x, y[, z], velocity (angle, speed in 2D; vx, vy, vz in 3D), spin
//   boundary  on the wall at boundary_s, leaving at `angle` from the inward normal nu
//             (positive towards tau = J nu), spin given
//   impact    arriving at the wall at boundary_s at incidence `angle`, with the spin chosen so
//             that the contact point slides with tangential velocity `slip` (and `slip_z` along
//             the axis in cylinders): slip = 0 is the rolling impact of Section 1. The
//             collision is applied at t = 0 and counts as the first event.
//   state     a row of a file of states (the final_state columns): 2D x, y, ux, uy, spin; 3D
//             the interior keys x, y, z, vx, vy, vz, wx, wy, wz. Interior to the table (masked
//             otherwise), so a state on the wall (a run stopped by max_events) is not a start.
// The float kernels (disc, cylinder:disc) build the same setup in double and round it to float
// (setup_as), so a float trajectory starts from the double one's initial condition rounded.
#pragma once
#include <type_traits>

#include "skipstone/noslip_trajectory.hpp"
#include "skipstone/scan_point.hpp"
#include "skipstone/sinks.hpp"
#include "skipstone/system_traits.hpp"
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
  return {spec.t_max, spec.max_events, spec.energy_tolerance, spec.bounded_depth, caustics, annulus, gamma_R,
          spec.lyapunov_vectors, spec.impulse_ratios, spec.holes.n > 0 ? &spec.holes : nullptr};
}

// Unit vectors of an in-plane direction relative to the wall: nu inward, tau = J nu.
SKIPSTONE_HD SKIPSTONE_INLINE Vec2 wall_direction(Vec2 nu, double angle, bool incoming) {
  const Vec2 tau = rot90(nu);
  const double c = cos(angle), s = sin(angle);
  return (incoming ? -c : c) * nu + s * tau;
}

// Everything one no-slip trajectory needs, built from its scan point.
template <class Table, class V, class S>
struct NoSlipSetup {
  using T = scalar_of<V>;
  bool masked;  // the initial condition is outside the allowed set
  Table table;
  NoSlipCoefficientsT<T> k;
  T g;
  NoSlipStart<V, S> start;
  NoSlipRunOptions opt;
};

// The round tables in the float kernels' type (radius rounded, its inverse recomputed).
template <class T>
SKIPSTONE_HD SKIPSTONE_INLINE DiscTableT<T> table_as(const DiscTable& d) {
  return DiscTableT<T>{static_cast<T>(d.R)};
}
template <class T>
SKIPSTONE_HD SKIPSTONE_INLINE CylinderTable<DiscTableT<T>> table_as(const CylinderTable<DiscTable>& c) {
  return {table_as<T>(c.section)};
}

// A double setup rounded to scalar type T.
template <class T, class Table, class V, class S>
SKIPSTONE_HD auto setup_as(const NoSlipSetup<Table, V, S>& su) {
  using VT = decltype(vec_as<T>(V{}));
  using ST = decltype(state_as<T>(S{}));
  NoSlipSetup<decltype(table_as<T>(su.table)), VT, ST> out;
  out.masked = su.masked;
  out.table = table_as<T>(su.table);
  out.k = coefficients_as<T>(su.k);
  out.g = static_cast<T>(su.g);
  out.start = {vec_as<T>(su.start.x), state_as<T>(su.start.state), su.start.part, su.start.collide_first,
               vec_as<T>(su.start.nu)};
  out.opt = su.opt;
  return out;
}

template <class Table>
SKIPSTONE_HD NoSlipSetup<Table, Vec2, State2D> plane_setup(const Table& table, const ScanSpec& spec,
                                                           const ScanPoint& pt, bool caustics) {
  const double* p = pt.p;
  const double gamma = point_gamma(spec, pt);
  NoSlipSetup<Table, Vec2, State2D> su;
  su.masked = false;
  su.table = table;
  su.k = noslip_coefficients(gamma);
  su.g = p[P_G];
  su.opt = noslip_options(spec, caustics, false, 0.0);
  NoSlipStart<Vec2, State2D>& s0 = su.start;
  s0.collide_first = false;
  s0.nu = {0.0, 0.0};
  if (spec.start == StartKind::interior || spec.start == StartKind::state) {
    s0.x = {p[P_X], p[P_Y]};
    su.masked = !table.inside(s0.x);
    const Vec2 u = spec.start == StartKind::state ? Vec2{p[P_VX], p[P_VY]}
                                                  : p[P_SPEED] * Vec2{cos(p[P_ANGLE]), sin(p[P_ANGLE])};
    s0.state = {u, p[P_SPIN]};
    s0.part = -1;
  } else {
    su.masked = !(fabs(p[P_ANGLE]) < 0.5 * kPi);
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
  return su;
}

template <class Section>
SKIPSTONE_HD NoSlipSetup<CylinderTable<Section>, Vec3, State3D> cylinder_setup(const Section& section,
                                                                                const ScanSpec& spec,
                                                                                const ScanPoint& pt, bool caustics) {
  const double* p = pt.p;
  const double gamma = point_gamma(spec, pt);
  NoSlipSetup<CylinderTable<Section>, Vec3, State3D> su;
  su.masked = false;
  su.table = CylinderTable<Section>{section};
  su.k = noslip_coefficients(gamma);
  su.g = p[P_G];
  su.opt = noslip_options(spec, caustics, false, 0.0);
  NoSlipStart<Vec3, State3D>& s0 = su.start;
  s0.collide_first = false;
  s0.nu = {0.0, 0.0, 0.0};
  const Vec3 w = {p[P_WX], p[P_WY], p[P_WZ]};
  if (spec.start == StartKind::interior || spec.start == StartKind::state) {
    s0.x = {p[P_X], p[P_Y], p[P_Z]};
    su.masked = !section.inside(Vec2{s0.x.x, s0.x.y});
    s0.state = {{p[P_VX], p[P_VY], p[P_VZ]}, w};
    s0.part = -1;
  } else {
    su.masked = !(fabs(p[P_ANGLE]) < 0.5 * kPi);
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
  return su;
}

SKIPSTONE_HD SKIPSTONE_INLINE NoSlipSetup<SphereTable, Vec3, State3D> sphere_setup(const ScanSpec& spec,
                                                                                   const ScanPoint& pt) {
  const double* p = pt.p;
  const double gamma = point_gamma(spec, pt);
  NoSlipSetup<SphereTable, Vec3, State3D> su;
  su.table = SphereTable{p[P_R]};
  su.k = noslip_coefficients(gamma);
  su.g = p[P_G];
  su.opt = noslip_options(spec, false, true, gamma * su.table.R);
  NoSlipStart<Vec3, State3D>& s0 = su.start;
  s0.x = {p[P_X], p[P_Y], p[P_Z]};
  su.masked = dot(s0.x, s0.x) > su.table.R * su.table.R;
  s0.state = {{p[P_VX], p[P_VY], p[P_VZ]}, {p[P_WX], p[P_WY], p[P_WZ]}};
  s0.part = -1;
  s0.collide_first = false;
  s0.nu = {0.0, 0.0, 0.0};
  return su;
}

// The polygon of a `rectangle` (from width/height, per trajectory) or `polygon` table.
SKIPSTONE_HD SKIPSTONE_INLINE PolygonTable polygon_table(const ScanSpec& spec, const ScanPoint& pt, bool rectangle) {
  const double* p = pt.p;
  PolygonTable poly;
  if (rectangle) {
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
  return poly;
}

// The table T of this scan point as its concrete type (void for a TableKind that is no 2D table).
template <TableKind T>
SKIPSTONE_HD auto plane_table_of(const ScanSpec& spec, const ScanPoint& pt) {
  const double* p = pt.p;
  if constexpr (T == TableKind::disc) return DiscTable{p[P_R]};
  else if constexpr (T == TableKind::strip) return StripTable{p[P_L]};
  else if constexpr (T == TableKind::stadium) return StadiumTable{p[P_HALF_LENGTH], p[P_R]};
  else if constexpr (T == TableKind::ellipse) return EllipseTable{p[P_A], p[P_B]};
  else if constexpr (T == TableKind::sinai) return SinaiTable{p[P_SIDE], p[P_RADIUS]};
  else if constexpr (T == TableKind::rectangle || T == TableKind::polygon)
    return polygon_table(spec, pt, T == TableKind::rectangle);
}

// The table T of this scan point, handed to `f` as a concrete type: T is a compile-time
// constant here, so a kernel instantiated for one table holds only that table's code.
template <TableKind T, class F>
SKIPSTONE_HD void with_plane_table_of(const ScanSpec& spec, const ScanPoint& pt, F&& f) {
  if constexpr (!std::is_void_v<decltype(plane_table_of<T>(spec, pt))>) f(plane_table_of<T>(spec, pt));
}

// The setup of this scan point for model M (a no-slip model) on table T in precision P, handed
// to `f` (float only where the system has a float kernel: simulate.hpp, visit_variant). The
// chord-distance observables (caustics) are accumulated where the system has them (kSystems).
template <ModelKind M, TableKind T, Precision P, class F>
SKIPSTONE_HD void with_noslip_setup_of(const ScanSpec& spec, const ScanPoint& pt, F&& f) {
  const auto in_precision = [&](const auto& su) {
    if constexpr (P == Precision::float32) f(setup_as<float>(su));
    else f(su);
  };
  constexpr bool caustics = (system_traits(M, T).observables & kObsCaustic) != 0;
  if constexpr (M == ModelKind::noslip_sphere) {
    static_assert(!caustics && (system_traits(M, T).observables & kObsAnnulus) != 0,
                  "sphere_setup accumulates the annulus observables, not the caustics");
    f(sphere_setup(spec, pt));
  } else if constexpr (M == ModelKind::noslip_cylinder) {
    with_plane_table_of<T>(spec, pt, [&](const auto& t) { in_precision(cylinder_setup(t, spec, pt, caustics)); });
  } else {
    with_plane_table_of<T>(spec, pt, [&](const auto& t) { in_precision(plane_setup(t, spec, pt, caustics)); });
  }
}

// The trajectory of a setup, by a kernel of gravity kind G (integrate_noslip) with the tangent
// dynamics Tangent (noslip_trajectory.hpp: NoTangent, or a tangent/lyapunov_frame.hpp frame).
template <GravityKind G = GravityKind::any, class Tangent = NoTangent, class Table, class V, class S, class Sink>
SKIPSTONE_HD TrajectoryResult run_setup(const NoSlipSetup<Table, V, S>& su, Sink& sink) {
  if (su.masked) return masked_result();
  return integrate_noslip<G, Tangent>(su.table, su.k, su.g, su.start, su.opt, sink);
}

// One no-slip trajectory of model M on table T (TableKind::none for the sphere) in precision P;
// kLyapunov: with the tangent dynamics of the Lyapunov observables (double only): those of the
// 2D phase space on the 2D tables, of the 3D one in the sphere and the cylinders.
template <ModelKind M, TableKind T, Precision P, GravityKind G, bool kLyapunov, class Sink>
SKIPSTONE_HD TrajectoryResult simulate_noslip_of(const ScanSpec& spec, const ScanPoint& pt, Sink& sink) {
  static_assert(!kLyapunov || P == Precision::float64, "the tangent dynamics are computed in double");
  using Frame = std::conditional_t<M == ModelKind::noslip_plane, LyapunovFrame2D, LyapunovFrame3D>;
  using Tangent = std::conditional_t<kLyapunov, Frame, NoTangent>;
  TrajectoryResult r = masked_result();
  with_noslip_setup_of<M, T, P>(spec, pt, [&](const auto& su) { r = run_setup<G, Tangent>(su, sink); });
  return r;
}

}  // namespace skipstone
