// Poincare sections (config outputs.section, section_map, section_events; docs/config.md
// "Outputs"): the crossings of a plane n . x = c by the ball's centre x, found exactly on the
// flights. A model with flights in closed form reports each one to a sink that has on_flight
// (report_flight): its start time t0, duration tau, start row (x, state) and constant
// acceleration a, so that x(t0 + t) = x + u t + a t^2 / 2, u(t0 + t) = u + a t, the spin constant.
// The crossing times are the roots of the quadratic n . x(t0 + t) = c in (0, tau] (half open:
// a crossing at a flight's end is the next flight's start and counts once), computed with the
// cancellation-free form of the roots; the direction is the sign of n . u at the root (a tangency,
// n . u = 0 there, is no crossing). At each crossing the sink writes the row of the state there
// (final_state.hpp: 2D (x, y, u_x, u_y, s), 3D (x, y, z, u_x, u_y, u_z, w_x, w_y, w_z)) and hands
// the chosen columns of it, the section coordinates, to a PointRecorder (boundary_map.hpp).
//
// The models that report flights: the no-slip tables, cylinders and sphere (every flight between
// impacts) and the rolling tables roll3:<table>, roll4:<table>, roll4:disc (the flat parts, in
// the plate rows of disc_output.hpp). Their edge passages, integrated rather than in closed
// form, report each accepted integrator step instead (report_step, rolling/edge_sections.hpp):
// its start time and length h, the centre and its velocity at its ends (the step's own states),
// and at any time inside (one more integrator step from the step's start, projected, as the
// trace's samples); their crossings in (0, h] are found by curve_crossings.hpp
// (for_each_step_crossing) and solved on the re-integrated states, to the exit's time resolution
// (ScalarConstants<T>::rim_newton (1 + t)): on the plane to round-off times the speed, on the
// trajectory to the integrator's tolerance. The row at such a crossing is the trace's edge row
// (disc_output.hpp) with the centre's velocity in place of the frame's: the centre, its
// velocity, the frame's spin.
//
// The closed-form rolling models roll3:strip, roll4:planes (every segment of the stadium) and
// roll3:inside-cylinder (every turn about the axis) report curves instead (report_curve): a
// start time, a duration and the state row at any time inside, with bounds on the speed and
// the acceleration over it; their crossings are the roots of n . x(t) = c isolated and solved by
// curve_crossings.hpp, exact to round-off like the quadratic's.
#pragma once
#include <cmath>
#include <type_traits>

#include "skipstone/boundary_map.hpp"
#include "skipstone/curve_crossings.hpp"
#include "skipstone/final_state.hpp"
#include "skipstone/hd.hpp"

namespace skipstone {

constexpr int kSectionMaxRow = 9;  // values of a 3D state row

// The plane n . x = offset in the row's position components (2 for a 2D row, 3 for a 3D one),
// the crossings counted (+1: n . u > 0, -1: n . u < 0, 0: both) and the row columns kept.
struct SectionPlane {
  double n[3];
  double offset;
  int direction;
  int n_coords;
  int column[kBoundaryMaxCoords];
};

// Whether a sink wants the flights: it says so by kWantsFlights (its on_flight is a template).
template <class Sink, class = void>
struct has_on_flight : std::false_type {};
template <class Sink>
struct has_on_flight<Sink, std::void_t<decltype(Sink::kWantsFlights)>> : std::bool_constant<Sink::kWantsFlights> {};

// Hands a flight to a sink that has on_flight; no code for any other sink.
template <class Sink, class V, class S, class A>
SKIPSTONE_HD SKIPSTONE_INLINE void report_flight(Sink& sink, double t0, double tau, V x, const S& st, A a) {
  if constexpr (has_on_flight<Sink>::value) sink.on_flight(t0, tau, x, st, a);
}

// Hands an integrator step (SectionSink::on_step_curve) to a sink that has on_flight; no code for
// any other sink.
template <class Sink, class Step>
SKIPSTONE_HD SKIPSTONE_INLINE void report_step(Sink& sink, double t0, double h, const Step& step) {
  if constexpr (has_on_flight<Sink>::value) sink.on_step_curve(t0, h, step);
}

// Hands a curve (SectionSink::on_curve) to a sink that has on_flight; no code for any other sink.
template <class Sink, class Curve>
SKIPSTONE_HD SKIPSTONE_INLINE void report_curve(Sink& sink, double t0, double tau, const Curve& c) {
  if constexpr (has_on_flight<Sink>::value) sink.on_curve(t0, tau, c);
}

// The state row a sink's on_event is handed (final_state.hpp), written to `row`: how a curve
// gets its rows from the model's own event code.
struct RowCapture {
  double* row;
  template <class V, class S>
  SKIPSTONE_HD void on_event(double, V x, const S& st, V) {
    write_state_row(x, st, row);
  }
};

// A piece's start and the end of the piece before are one point of the trajectory (its position
// is continuous over impacts, entries, exits and breaks) computed twice, so their levels n . x - c
// differ by round-off only; the one jump, a coordinate that restarts after a period (the
// stadium's arc length sigma in roll3:strip and roll4:planes), is a whole period. Where the two
// levels are on different sides of the plane (or one on it) and within kJunctionLevel (1 + |c|),
// the piece starts from the level the piece before ended at: a crossing at the junction counts
// once, in the piece before if its end is on the plane or past it, else in this one.
constexpr double kJunctionLevel = 1e-6;

// The crossings of the flights it is handed into `crossings`, one trajectory's pieces in order.
struct SectionSink {
  static constexpr bool kWantsFlights = true;
  const SectionPlane* plane = nullptr;
  PointRecorder crossings;
  double end_level = NAN;  // the level where the last piece ended, as its crossings left it

  template <class V, class S, class A>
  SKIPSTONE_HD void on_flight(double t0, double tau, V x, const S& st, A a) {
    const SectionPlane& p = *plane;
    double nx = 0.0, nu = 0.0, na = 0.0;
    const double xv[3] = {double(x.x), double(x.y), component_z(x)};
    const double uv[3] = {double(st.u.x), double(st.u.y), component_z(st.u)};
    const double av[3] = {double(a.x), double(a.y), component_z(a)};
    for (int k = 0; k < 3; ++k) nx += p.n[k] * xv[k], nu += p.n[k] * uv[k], na += p.n[k] * av[k];
    double roots[2];
    const double c0 = start_level(nx - p.offset);
    const int n = section_roots(c0, nu, 0.5 * na, tau, roots);
    end_level = flight_end_level(c0, nu, 0.5 * na, tau, n);
    for (int k = 0; k < n; ++k) {
      const double t = roots[k], speed = nu + na * t;
      if (speed == 0.0 || (p.direction > 0 && speed < 0.0) || (p.direction < 0 && speed > 0.0)) continue;
      V xt = x;
      S s = st;
      xt.x = x.x + t * (st.u.x + 0.5 * t * a.x);
      xt.y = x.y + t * (st.u.y + 0.5 * t * a.y);
      s.u.x = st.u.x + t * a.x;
      s.u.y = st.u.y + t * a.y;
      if constexpr (kIs3D<V>) {
        xt.z = x.z + t * (st.u.z + 0.5 * t * a.z);
        s.u.z = st.u.z + t * a.z;
      }
      double row[kSectionMaxRow];
      write_state_row(xt, s, row);
      record(t0 + t, row);
    }
  }

  // A curve from t0 to t0 + tau: Curve::kDim position components in its rows, row(t, out) the
  // state row at t0 + t, bounds(speed, acc) sup |u| and sup |du/dt| over it.
  template <class Curve>
  SKIPSTONE_HD void on_curve(double t0, double tau, const Curve& curve) {
    const SectionPlane& p = *plane;
    constexpr int D = Curve::kDim;
    double n_len = 0.0;
    for (int k = 0; k < D; ++k) n_len += p.n[k] * p.n[k];
    n_len = sqrt(n_len);
    double speed, acc;
    curve.bounds(speed, acc);
    const auto own_level = [&](double t, double& rate) {
      double row[kSectionMaxRow], v = 0.0;
      curve.row(t, row);
      rate = 0.0;
      for (int k = 0; k < D; ++k) v += p.n[k] * row[k], rate += p.n[k] * row[D + k];
      return v - p.offset;
    };
    double rate0, rate_end;
    const double f0 = start_level(own_level(0.0, rate0));
    const auto level = [&](double t, double& rate) { return t == 0.0 ? (rate = rate0, f0) : own_level(t, rate); };
    end_level = own_level(tau, rate_end);
    for_each_crossing(level, tau, n_len * speed, n_len * acc, [&](double t, double rate) {
      if (rate == 0.0 || (p.direction > 0 && rate < 0.0) || (p.direction < 0 && rate > 0.0)) return;
      double row[kSectionMaxRow];
      curve.row(t, row);
      record(t0 + t, row);
    });
  }

  // An integrator step from t0 to t0 + h: step.at(t, x, v, row) writes the centre x (3 values),
  // its velocity v and the state row at t0 + t, t in [0, h] (the step's own end states at 0 and
  // h); step.resolution the time to which a crossing is solved.
  template <class Step>
  SKIPSTONE_HD void on_step_curve(double t0, double h, const Step& step) {
    const SectionPlane& p = *plane;
    double x[3], v[3], row[kSectionMaxRow];
    const auto level = [&](double t, double& rate) {
      step.at(t, x, v, row);
      double f = -p.offset;
      rate = 0.0;
      for (int k = 0; k < 3; ++k) f += p.n[k] * x[k], rate += p.n[k] * v[k];
      return f;
    };
    double d0, d1;
    const double f0 = start_level(level(0.0, d0)), f1 = level(h, d1);
    end_level = f1;
    for_each_step_crossing(level, h, f0, d0, f1, d1, step.resolution, [&](double t, double rate) {
      if (rate == 0.0 || (p.direction > 0 && rate < 0.0) || (p.direction < 0 && rate > 0.0)) return;
      record(t0 + t, row);  // the row of the evaluation at the root, which gave rate
    });
  }

 private:
  // The level a piece starts from: its own f0, or the end level of the piece before where the
  // two differ by round-off across the plane (kJunctionLevel).
  SKIPSTONE_HD double start_level(double f0) const {
    const bool same_side = (f0 < 0.0) == (end_level < 0.0) && (f0 > 0.0) == (end_level > 0.0);
    return !same_side && fabs(f0 - end_level) <= kJunctionLevel * (1.0 + fabs(plane->offset)) ? end_level : f0;
  }
  // The level at a flight's end (C + B tau + A tau^2) on the side its n crossings in (0, tau]
  // leave it: a root within round-off of tau may fall on either side of it whatever the sign of
  // the polynomial there.
  static SKIPSTONE_HD double flight_end_level(double C, double B, double A, double tau, int n) {
    const double f = C + tau * (B + A * tau);
    if (C == 0.0 || f == 0.0) return f;
    const bool ends_positive = (C > 0.0) == (n % 2 == 0);
    return (f > 0.0) == ends_positive ? f : -f;
  }
  SKIPSTONE_HD void record(double t, const double* row) {
    double c[kBoundaryMaxCoords];
    for (int j = 0; j < plane->n_coords; ++j) c[j] = row[plane->column[j]];
    crossings.record(t, c);
  }
  template <class V>
  static constexpr bool kIs3D = !std::is_same_v<V, Vec2T<scalar_of<V>>>;
  template <class V>
  static SKIPSTONE_HD double component_z(V v) {
    if constexpr (kIs3D<V>) return double(v.z);
    return 0.0;
  }
};

}  // namespace skipstone
