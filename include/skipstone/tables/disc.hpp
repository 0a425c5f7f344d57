// Table `disc`: domain of centres |x| <= R (Figure 5). With in-plane gravity (0, -g) the flight
// is a parabola and the collision time a root of a quartic; without gravity, a flight that
// starts on the wall has the closed form t = -2 x.u / |u|^2. DiscTableT<float> is the table of
// the float kernels: the flight from the wall and the normal are float arithmetic, the roots of
// a flight from the interior or under gravity are solved in double and rounded to float.
#pragma once
#include "skipstone/tables/conic_flight.hpp"

namespace skipstone {

template <class T>
struct DiscTableT {
  T R, inv_R;

  DiscTableT() = default;
  SKIPSTONE_HD explicit DiscTableT(T radius) : R(radius), inv_R(T(1) / radius) {}

  SKIPSTONE_HD Hit<Vec2T<T>> next_hit(Vec2T<T> x, Vec2T<T> u, T g, int last, T t_limit) const {
    const Vec2T<T> no_normal = {0, 0};
    T t;
    if (g == T(0)) {
      const T uu = dot(u, u);
      if (last == 0) {
        t = dot(T(-2) * x, u) / uu;  // -2x is known before u: one step less on the chain
      } else {
        const double R2 = double(R) * double(R), xu = double(x.x) * u.x + double(x.y) * u.y;
        const double c0 = double(x.x) * x.x + double(x.y) * x.y - R2;
        double r[2];
        const int n = quadratic_roots(c0, 2.0 * xu, double(u.x) * u.x + double(u.y) * u.y, 0.0, INFINITY, r);
        t = n > 0 ? T(r[n - 1]) : T(-1);
      }
      if (!(t > T(0))) return {uu > T(0) ? HitKind::miss : HitKind::none, 0, no_normal, 0};
    } else {
      const double xs[2] = {double(x.x), double(x.y)}, us[2] = {double(u.x), double(u.y)};
      const double as[2] = {0.0, -double(g)}, cs[2] = {0.0, 0.0};
      const double ws[2] = {1.0 / (double(R) * R), 1.0 / (double(R) * R)};
      const QuadricFlight<2> q = quadric_flight<2>(xs, us, as, cs, ws);
      double r[4];
      const double hi = bounded_flight_time(2.0 * R, norm(Vec2{us[0], us[1]}), us[1], g);
      const int n = quadric_roots<2>(q, last == 0, hi, r);
      if (n == 0) return {HitKind::miss, 0, no_normal, 0};
      t = T(r[0]);
    }
    if (t > t_limit) return {HitKind::none, t_limit, no_normal, 0};
    // a straight flight is written as such: x + t (u + t a / 2) with a = 0 costs three more
    // operations on the dependency chain, which the compiler may not drop (signed zeros)
    const Vec2T<T> p = g == T(0) ? x + t * u : flight_position(x, u, Vec2T<T>{0, -g}, t);
    return {HitKind::wall, t, round_wall_inward_normal(p, inv_R), 0};
  }

  SKIPSTONE_HD BoundaryPoint<Vec2T<T>> boundary_point(double s) const {
    const double th = 2.0 * kPi * s;
    const Vec2 n = {cos(th), sin(th)};
    return {vec_as<T>(double(R) * n), vec_as<T>(-n), 0};
  }
  SKIPSTONE_HD Vec2T<T> settle(Vec2T<T> x, int /*part*/) const { return settle_on_round_wall(x, inv_R); }
  SKIPSTONE_HD bool inside(Vec2T<T> x) const { return dot(x, x) <= R * R; }
};
using DiscTable = DiscTableT<double>;

}  // namespace skipstone
