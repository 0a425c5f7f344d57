// Boundary (Birkhoff) coordinates of the impacts of a no-slip trajectory, and the sink that
// bins them (config outputs.boundary_map) and records them (outputs.boundary_events) while an
// ensemble kernel runs (docs/config.md, "Outputs"; docs/models.md, "Boundary coordinates").
// At an impact at the centre position x, with inward normal nu and the state after the
// collision, speed |u|:
//   2D table (part `part` of the wall): the row (s, p, spin),
//     s    = table.boundary_parameter(x, part), the table's boundary_s in [0, 1);
//     p    = u . tangent / |u|, tangent = -J nu: the sine of the angle between u and the normal;
//     spin = s / |u|, the spin over the speed in the model's units.
//   3D (cylinder:<table>, sphere), in the wall frame (nu, tangent = nu x up, up), `up` the unit
//   tangent of the wall towards +z (the axis in a cylinder; north on the sphere): the row
//   (s, z, p, p_up, spin_n, spin_t, spin_up),
//     s, z    = cylinder: the cross-section's boundary parameter and the height x_z;
//               sphere: the longitude over 2 pi in [0, 1) and cos(colatitude) = x_z / |x|
//               (equal-area coordinates of the wall point);
//     p, p_up = the velocity's tangential components over |u| (p is the 2D table's p when
//               u_z = 0 in a cylinder);
//     spin_*  = the spin vector's components (w . nu, w . tangent, w . up) over |u| (spin_up is
//               the 2D spin in a cylinder).
// Sinks without on_impact (the trace recorder, DiscardSink) are not called: runs without these
// outputs compute nothing more. The binning and recording (PointRecorder, BoundaryMapSpec) serve
// the section crossings too (section_map.hpp).
#pragma once
#include <cmath>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "skipstone/collision.hpp"
#include "skipstone/hd.hpp"
#include "skipstone/vec.hpp"

namespace skipstone {

constexpr int kBoundaryMaxCoords = 3;  // the axes of a map
// Coordinates of an impact's row: 3 of a 2D table, 7 of a 3D model.
constexpr int kImpactCoords2D = 3, kImpactCoords3D = 7, kImpactMaxCoords = kImpactCoords3D;
// Columns of a recorded 2D impact in the kernel: event number (impacts counted from 1), t, s, p,
// spin (a 3D impact: 2 + kImpactCoords3D).
constexpr int kBoundaryEventFields = 2 + kImpactCoords2D;

// The bins of a map over n_coords (2 or 3) of a point's coordinates: axis k bins coordinate
// column[k] of the point, in bins [lo + i w, lo + (i + 1) w), w = (hi - lo) / bins, the last one
// closed at hi.
struct BoundaryMapSpec {
  int n_coords;
  std::uint64_t bins[kBoundaryMaxCoords];
  double lo[kBoundaryMaxCoords], hi[kBoundaryMaxCoords];
  int column[kBoundaryMaxCoords] = {0, 1, 2};
};

// Bins of the map (the product of bins); a count array holds one more, the impacts outside it.
SKIPSTONE_HD SKIPSTONE_INLINE std::uint64_t boundary_bin_count(const BoundaryMapSpec& m) {
  std::uint64_t n = 1;
  for (int k = 0; k < m.n_coords; ++k) n *= m.bins[k];
  return n;
}

// The flat bin (row-major, axis 0 slowest) of a point with coordinates c, or
// boundary_bin_count(m) when a binned coordinate is outside its range or not finite.
SKIPSTONE_HD SKIPSTONE_INLINE std::uint64_t boundary_bin(const BoundaryMapSpec& m, const double* c) {
  std::uint64_t flat = 0;
  for (int k = 0; k < m.n_coords; ++k) {
    const double v = c[m.column[k]];
    if (!(v >= m.lo[k] && v <= m.hi[k])) return boundary_bin_count(m);
    std::uint64_t i = static_cast<std::uint64_t>((v - m.lo[k]) / (m.hi[k] - m.lo[k]) * static_cast<double>(m.bins[k]));
    if (i >= m.bins[k]) i = m.bins[k] - 1;
    flat = flat * m.bins[k] + i;
  }
  return flat;
}

// Whether a table has a boundary parameter: the 2D tables and the cylinders over them (their
// cross-section's), not the sphere.
template <class Table, class = void>
struct has_boundary_parameter : std::false_type {};
template <class Table>
struct has_boundary_parameter<Table, std::void_t<decltype(std::declval<const Table&>().boundary_parameter(Vec2{}, 0))>>
    : std::true_type {};

// The table's boundary parameter at wall point x of part `part` (a state of either precision;
// a cylinder's at the cross-section point (x, y)).
template <class Table, class V>
SKIPSTONE_HD SKIPSTONE_INLINE double wall_parameter(const Table& table, V x, int part) {
  return table.boundary_parameter(Vec2{static_cast<double>(x.x), static_cast<double>(x.y)}, part);
}

// Whether a sink wants the impacts' boundary coordinates.
template <class Sink, class = void>
struct has_on_impact : std::false_type {};
template <class Sink>
struct has_on_impact<Sink, std::void_t<decltype(&Sink::on_impact)>> : std::true_type {};

// The row (s, z, p, p_up, spin_n, spin_t, spin_up) of a 3D impact (see the top of this file).
template <class Table, class V, class S>
SKIPSTONE_HD SKIPSTONE_INLINE void impact_row_3d(const Table& table, int part, V x, const S& st, V nu_in, double* c) {
  const Vec3 p = {double(x.x), double(x.y), double(x.z)}, nu = {double(nu_in.x), double(nu_in.y), double(nu_in.z)};
  const Vec3 u = {double(st.u.x), double(st.u.y), double(st.u.z)}, w = {double(st.w.x), double(st.w.y), double(st.w.z)};
  Vec3 up;
  if constexpr (has_boundary_parameter<Table>::value) {  // a cylinder: horizontal normal, up the axis
    c[0] = wall_parameter(table, x, part);
    c[1] = p.z;
    up = {0.0, 0.0, 1.0};
  } else {  // the sphere: longitude and cos(colatitude); at a pole, up as at longitude 0
    const double rho = norm(p), horizontal = sqrt(p.x * p.x + p.y * p.y);
    const double turns = atan2(p.y, p.x) / (2.0 * 3.14159265358979323846);
    c[0] = turns < 0.0 ? turns + 1.0 : turns;
    c[1] = p.z / rho;
    const double cos_lon = horizontal > 0.0 ? p.x / horizontal : 1.0, sin_lon = horizontal > 0.0 ? p.y / horizontal : 0.0;
    up = {-c[1] * cos_lon, -c[1] * sin_lon, horizontal / rho};
  }
  const Vec3 tangent = cross(nu, up);
  const double speed = norm(u);
  c[2] = dot(u, tangent) / speed;
  c[3] = dot(u, up) / speed;
  c[4] = dot(w, nu) / speed;
  c[5] = dot(w, tangent) / speed;
  c[6] = dot(w, up) / speed;
}

// Hands the boundary coordinates of the impact just made (the 2D row or the 3D one) to a sink
// that has on_impact.
template <class Sink, class Table, class V, class S>
SKIPSTONE_HD SKIPSTONE_INLINE void report_impact(Sink& sink, const Table& table, int part, double t, V x, const S& st,
                                                 V nu) {
  if constexpr (has_on_impact<Sink>::value) {
    if constexpr (std::is_same_v<S, State2DT<scalar_of<V>>>) {
      const double ux = st.u.x, uy = st.u.y;
      const double speed = sqrt(ux * ux + uy * uy);
      const double c[kImpactCoords2D] = {wall_parameter(table, x, part),
                                         (ux * static_cast<double>(nu.y) - uy * static_cast<double>(nu.x)) / speed,
                                         static_cast<double>(st.s) / speed};
      sink.on_impact(t, c);
    } else {
      double c[kImpactCoords3D];
      impact_row_3d(table, part, x, st, nu, c);
      sink.on_impact(t, c);
    }
  }
}

// One more point in a count of a map: on the CPU each thread counts into a map of its own, on a
// GPU every thread of a chunk counts into the one map, atomically.
SKIPSTONE_HD SKIPSTONE_INLINE void count_point(std::uint64_t* count) {
#ifdef __CUDA_ARCH__
  atomicAdd(reinterpret_cast<unsigned long long*>(count), 1ull);
#else
  ++*count;
#endif
}

// Bins points (impacts, section crossings) into `counts` (boundary_bin_count + 1 entries, null:
// no map) and records the first `capacity` into `rows` (`fields` each: point number counted from
// 1, t, then the point's first fields - 2 coordinates; null: none); `points` counts them all.
struct PointRecorder {
  const BoundaryMapSpec* map = nullptr;
  std::uint64_t* counts = nullptr;
  double* rows = nullptr;
  std::uint64_t capacity = 0;
  int fields = kBoundaryEventFields;
  std::uint64_t points = 0;

  SKIPSTONE_HD void record(double t, const double* c) {
    if (counts) count_point(counts + boundary_bin(*map, c));
    if (rows && points < capacity) {
      double* row = rows + static_cast<std::uint64_t>(fields) * points;
      row[0] = static_cast<double>(points + 1);
      row[1] = t;
      for (int k = 2; k < fields; ++k) row[k] = c[k - 2];
    }
    ++points;
  }
};

// The sink of outputs.boundary_map / boundary_events: every impact's row to `impacts`.
// For the observables mean_free_time and coverage it keeps the times of the first and last
// impacts, and marks the cells of `cells` (null: none) that the impacts fall in: cell b is
// visited when stamps[b] == stamp, so that one stamp array serves a thread's trajectories in turn
// (a new stamp each) without clearing.
struct BoundarySink {
  PointRecorder impacts;
  double t_first = 0.0, t_last = 0.0;
  const BoundaryMapSpec* cells = nullptr;
  std::uint64_t* stamps = nullptr;
  std::uint64_t stamp = 0, visited = 0;

  // The mean of the flight times between consecutive impacts; NaN below two impacts.
  SKIPSTONE_HD double mean_free_time() const {
    return impacts.points >= 2 ? (t_last - t_first) / static_cast<double>(impacts.points - 1) : NAN;
  }
  // The fraction of the cells visited.
  SKIPSTONE_HD double coverage() const { return static_cast<double>(visited) / static_cast<double>(boundary_bin_count(*cells)); }

  template <class V, class S>
  SKIPSTONE_HD void on_event(double, V, const S&, V) {}
  template <class T>
  SKIPSTONE_HD void on_step(T, const T*) {}
  SKIPSTONE_HD void on_impact(double t, const double* c) {
    if (impacts.points == 0) t_first = t;
    t_last = t;
    if (cells) {
      const std::uint64_t b = boundary_bin(*cells, c);
      if (b < boundary_bin_count(*cells) && stamps[b] != stamp) {
        stamps[b] = stamp;
        ++visited;
      }
    }
    impacts.record(t, c);
  }
};

}  // namespace skipstone
