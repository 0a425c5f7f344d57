// What a table reports about the next collision of a free flight (docs/models.md), and
// the flight itself: x(t) = x + u t + a t^2 / 2 with a constant acceleration a.
#pragma once
#include <type_traits>
#include <utility>

#include "skipstone/vec.hpp"

namespace skipstone {

enum class HitKind : int {
  wall = 0,    // a regular boundary point: normal is valid
  corner = 1,  // a corner (measure-zero event): the trajectory must stop
  none = 2,    // no collision before t_limit (legitimate: free flight continues)
  miss = 3,    // a bounded table reported no collision: numerical failure
};

template <class V>
struct Hit {
  HitKind kind;
  scalar_of<V> t;  // flight time to the collision
  V nu;            // unit normal at the collision point, pointing into the domain of centres
  int part;        // boundary component hit (passed back as `last` for the next flight)
};

// A boundary point of a table, for initial conditions that start on the wall.
template <class V>
struct BoundaryPoint {
  V x;
  V nu;  // inward unit normal
  int part;
};

template <class T>
SKIPSTONE_HD SKIPSTONE_INLINE Vec2T<T> flight_position(Vec2T<T> x, Vec2T<T> u, Vec2T<T> a, same_t<T> t) {
  const T half = 0.5;
  return {x.x + t * (u.x + half * t * a.x), x.y + t * (u.y + half * t * a.y)};
}
template <class T>
SKIPSTONE_HD SKIPSTONE_INLINE Vec3T<T> flight_position(Vec3T<T> x, Vec3T<T> u, Vec3T<T> a, same_t<T> t) {
  const T half = 0.5;
  return {x.x + t * (u.x + half * t * a.x), x.y + t * (u.y + half * t * a.y), x.z + t * (u.z + half * t * a.z)};
}

// Inward unit normal -p/|p| of a sphere or circle of radius R = 1/inv_R at a point p on it.
// p is on the wall up to O(eps) and the error does not accumulate, because every flight starts
// from a position settled onto the wall (the tables' settle()), so -p/R is unit to O(eps)
// with one multiplication on the impact-to-impact dependency chain.
template <class V>
SKIPSTONE_HD SKIPSTONE_INLINE V round_wall_inward_normal(V p, same_t<scalar_of<V>> inv_R) {
  return (-inv_R) * p;
}

// A point within O(eps) of a sphere or circle of radius 1/inv_R, moved onto it to O(eps^2):
// one Newton step for 1/sqrt(|p|^2 / R^2), no square root or division.
template <class V>
SKIPSTONE_HD SKIPSTONE_INLINE V settle_on_round_wall(V p, same_t<scalar_of<V>> inv_R) {
  using T = scalar_of<V>;
  return (T(1.5) - T(0.5) * dot(p, p) * (inv_R * inv_R)) * p;
}

// Whether a table moves the contact point of a hit onto its wall (settle(x, part)) before the
// next flight starts there. Tables whose hit points are recomputed from the wall itself at
// every flight (polygons, strips, conic root solves) do not need to.
template <class Table, class V, class = void>
struct has_settle : std::false_type {};
template <class Table, class V>
struct has_settle<Table, V, std::void_t<decltype(std::declval<const Table&>().settle(std::declval<V>(), 0))>>
    : std::true_type {};

// Longest time a flight can stay inside a bounded region of diameter `diam` when the
// acceleration along -y (or -z) is g: the height cannot fall by more than diam. Padded by 1%.
SKIPSTONE_HD SKIPSTONE_INLINE double bounded_flight_time(double diam, double speed, double v_up, double g) {
  double t;
  if (g > 0.0) {
    t = (v_up + sqrt(v_up * v_up + 2.0 * g * diam)) / g;
  } else if (g < 0.0) {
    t = (-v_up + sqrt(v_up * v_up - 2.0 * g * diam)) / (-g);
  } else {
    t = diam / speed;
  }
  return 1.01 * t + 1e-300;
}

}  // namespace skipstone
