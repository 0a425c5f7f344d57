// Table `disc`: domain of centres |x| <= R (Figure 5). With in-plane gravity (0, -g) the flight
// is a parabola and the collision time a root of a quartic; without gravity, a flight that
// starts on the wall has the closed form t = -2 x.u / |u|^2. DiscTableT<float> is the table of
// the float kernels: the flight from the wall and the normal are float arithmetic, the roots of
// a flight from the interior or under gravity are solved in double and rounded to float.
#pragma once
#include "skipstone/tables/boundary.hpp"
#include "skipstone/tables/conic_flight.hpp"

namespace skipstone {

template <class T>
struct DiscTableT {
  T R, inv_R;

  DiscTableT() = default;
  SKIPSTONE_HD explicit DiscTableT(T radius) : R(radius), inv_R(T(1) / radius) {}

  // t and nu are those of a wall hit where the kind is `wall` (t > 0, t <= t_limit). A straight
  // flight from the wall has no branches: the CPU backend's SIMD lanes run it.
  SKIPSTONE_HD Hit<Vec2T<T>> next_hit(Vec2T<T> x, Vec2T<T> u, T g, int last, T t_limit) const {
    // the root solves of a flight from the interior or under gravity, in double
    const Vec2 xd = vec_as<double>(x), ud = vec_as<double>(u);
    const double Rd = R;
    T t;
    HitKind kind;
    if (g == T(0)) {
      const T uu = dot(u, u);
      if (last == 0) {
        t = dot(T(-2) * x, u) / uu;  // -2x is known before u: one step less on the chain
      } else {
        double r[2];
        const int n = quadratic_roots(dot(xd, xd) - Rd * Rd, 2.0 * dot(xd, ud), dot(ud, ud), 0.0, INFINITY, r);
        t = n > 0 ? T(r[n - 1]) : T(-1);
      }
      kind = t > T(0) ? HitKind::wall : (uu > T(0) ? HitKind::miss : HitKind::none);
    } else {
      const double xs[2] = {xd.x, xd.y}, us[2] = {ud.x, ud.y};
      const double as[2] = {0.0, -double(g)}, cs[2] = {0.0, 0.0};
      const double ws[2] = {1.0 / (Rd * Rd), 1.0 / (Rd * Rd)};
      const QuadricFlight<2> q = quadric_flight<2>(xs, us, as, cs, ws);
      double r[4];
      const double hi = bounded_flight_time(2.0 * Rd, norm(ud), ud.y, g);
      const int n = quadric_roots<2>(q, last == 0, hi, r);
      t = n > 0 ? T(r[0]) : T(0);
      kind = n > 0 ? HitKind::wall : HitKind::miss;
    }
    kind = (kind == HitKind::wall) & (t > t_limit) ? HitKind::none : kind;
    // a straight flight is written as such: x + t (u + t a / 2) with a = 0 costs three more
    // operations on the dependency chain, which the compiler may not drop (signed zeros)
    const Vec2T<T> p = g == T(0) ? x + t * u : flight_position(x, u, Vec2T<T>{0, -g}, t);
    return {kind, t, round_wall_inward_normal(p, inv_R), 0};
  }

  // The wall as a curve (boundary.hpp): s = theta / (2 pi), counterclockwise from (R, 0);
  // l = 2 pi R s, kappa = -1/R, no breaks.
  SKIPSTONE_HD BoundaryFrame boundary_frame(double s) const {
    const double th = 2.0 * kPi * s;
    const Vec2 n = {cos(th), sin(th)};
    return frame_from_normal(double(R) * n, -n, -1.0 / double(R), 0);
  }
  SKIPSTONE_HD double boundary_length() const { return 2.0 * kPi * double(R); }
  SKIPSTONE_HD double arc_length(double s) const { return boundary_length() * wrap_unit(s); }
  SKIPSTONE_HD double s_at_arc_length(double l) const { return wrap_unit(l / boundary_length()); }
  SKIPSTONE_HD double boundary_parameter(Vec2 p, int /*part*/) const { return wrap_unit(atan2(p.y, p.x) / (2.0 * kPi)); }
  SKIPSTONE_HD int boundary_breaks(BoundaryBreak* /*out*/) const { return 0; }

  SKIPSTONE_HD BoundaryPoint<Vec2T<T>> boundary_point(double s) const {
    const BoundaryFrame f = boundary_frame(s);
    return {vec_as<T>(f.x), vec_as<T>(f.nu), f.part};
  }
  SKIPSTONE_HD Vec2T<T> settle(Vec2T<T> x, int /*part*/) const { return settle_on_round_wall(x, inv_R); }
  SKIPSTONE_HD bool inside(Vec2T<T> x) const { return dot(x, x) <= R * R; }
  // A lower bound on the distance from x to the wall (here exact; <= 0 outside).
  SKIPSTONE_HD T clearance(Vec2T<T> x) const { return R - norm(x); }
};
using DiscTable = DiscTableT<double>;

}  // namespace skipstone
