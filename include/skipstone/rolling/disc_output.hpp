// What the rolling tables (table_roll.hpp) report to their sink: the trace rows, and, for sinks
// that ask for them, the state at given sample times (`skipstone trace --sample DT`, Figure 20).
//
// Rows (conventions of disc_junction.hpp, paper Section 5.2 and Proposition 12). On a flat part
// the ambient state (plate_row): roll4 x = (p, z), u = (u, u3), w = (A23, -A13, A12), nu = 0;
// roll3 below. On N^c the frame state y, in the wall's edge rows: on roll4:disc's circle
// (rim_row) x = ((R + r sin phi) n(theta), x3), the centre projected to R^3, u = (v1, v2, v3),
// w = (S23, -S13, S12), nu = sin(phi) n, so that the contact column x - r nu is the rim point;
// on the other walls table_wall.hpp.
//
// Samples. A sink opts in by having next_sample() (the next time it wants, nondecreasing) and
// on_sample(t, x, state, nu), which must move next_sample() past t. The method is an exact stop
// at the sample time, not an interpolant: on a flat part the closed-form flight (fly_plate())
// over t_s - t from the last junction; on N^c, for t_s in (t_k, t_k + H_k] of an accepted GBS
// step, one more GBS step (same depth) of length t_s - t_k from the accepted state y_k, followed
// by the same projection onto the invariants. That is exactly what a run stopped at t_max = t_s
// computes (integrate_rim shortens its last step the same way), so a sample is as accurate as the
// integrated trajectory at that time: a step of at most the accepted length from an accepted
// state, local error within rtol/atol, energies exact to round-off. The extra steps are taken
// off to the side; the trajectory continues from y_{k+1} and is the same with or without
// sampling. Tested in tests/test_rolling_samples.cpp (measured figures there).
#pragma once
#include <type_traits>
#include <utility>

#include "skipstone/collision.hpp"
#include "skipstone/gbs.hpp"
#include "skipstone/rolling/disc_junction.hpp"
#include "skipstone/rolling/rim_passage.hpp"

namespace skipstone {

// Rows are double whatever the kernel's scalar type (a float run's rows are its float numbers).
struct DiscRow {
  Vec3 x;
  State3D state;
  Vec3 nu;
};

// The ambient row of a flat-part state: roll4 (N = 10) as above; roll3 (N = 6) x = the centre in
// R^3 with the plate in z = 0 (z = +-r on the faces), u = (u, 0), w = (0, 0, A12), nu = the unit
// normal from the contact point to the centre.
template <int N, class T>
SKIPSTONE_HD SKIPSTONE_INLINE DiscRow plate_row(const PlateStateT<T>& s, same_t<T> r) {
  if constexpr (N == 10)
    return {Vec3{s.p.x, s.p.y, s.z}, State3D{{s.u.x, s.u.y, s.u3}, {s.A23, -s.A13, s.A12}}, Vec3{0.0, 0.0, 0.0}};
  const double sg = s.sheet > 0 ? 1.0 : -1.0;
  return {Vec3{s.p.x, s.p.y, sg * r}, State3D{{s.u.x, s.u.y, 0.0}, {0.0, 0.0, s.A12}}, Vec3{0.0, 0.0, sg}};
}

// y: the frame state on N^c; theta0: the rim angle of the passage's entry point.
template <class T>
SKIPSTONE_HD SKIPSTONE_INLINE DiscRow rim_row(const T* y, same_t<T> theta0, same_t<T> R, same_t<T> r) {
  const Vec2T<T> n = rim_normal(theta0 + y[5] / R);
  const T rho = R + r * y[4];
  return {Vec3{rho * n.x, rho * n.y, y[9]}, State3D{{y[0], y[1], y[6]}, {y[8], -y[7], y[2]}},
          Vec3{y[4] * n.x, y[4] * n.y, 0.0}};
}

// The velocity of the centre of an edge row (the time derivative of its x) at the frame state y
// over the wall point with outward normal e1 and tangent e2: v1 cos(phi) e1 + v2 e2 in the plane
// (the frame's X1 = tau and X2 = e2 projected; it is the plate velocity of edge_to_plate at phi =
// 0 and pi) and, along the third axis, roll4's v3 (N = 10) or roll3's d(r cos phi)/dt =
// -v1 sin(phi) (N = 6).
template <int N, class T>
SKIPSTONE_HD SKIPSTONE_INLINE Vec3 edge_row_velocity(const T* y, Vec2T<T> e1, Vec2T<T> e2) {
  const Vec2T<T> u = (y[0] * y[3]) * e1 + y[1] * e2;
  return {u.x, u.y, N == 10 ? double(y[6]) : -double(y[0] * y[4])};
}

// The state at time h into a step from the accepted state y: one GBS step (the passages' depth)
// of length h, followed by the projection onto the invariants (what a run stopped at that time
// computes). Out of line on the device: its callers (a sample or a section crossing inside a
// step) are rare, and one body serves them all instead of a copy of the GBS step inlined into
// the kernel at each (which made the CUDA kernels compile about a third slower).
template <class Sys, class T>
SKIPSTONE_DEVICE_NOINLINE SKIPSTONE_HD void rim_partial_step(const Sys& sys, const T* y, same_t<T> h, T* y_h,
                                                             same_t<T> rtol, same_t<T> atol) {
  gbs_step<Sys::N, kRimExtrapolationDepth>(sys, y, h, y_h, rtol, atol);
  sys.project(y_h);
}

// The exact flight on a flat part over time tau: straight in (x1, x2), free fall at G along e3.
template <class T>
SKIPSTONE_HD SKIPSTONE_INLINE PlateStateT<T> fly(PlateStateT<T> s, same_t<T> tau, same_t<T> G) {
  s.p = s.p + tau * s.u;
  s.z = s.z + tau * (s.u3 - T(0.5) * G * tau);
  s.u3 -= G * tau;
  return s;
}

// The flight on a flat part over time tau: roll3 (N = 6) in the plane under G along -y, roll4
// (N = 10) straight in the plane with the free fall along the axis.
template <int N, class T>
SKIPSTONE_HD SKIPSTONE_INLINE PlateStateT<T> fly_plate(PlateStateT<T> s, same_t<T> tau, same_t<T> G) {
  if constexpr (N == 10) return fly(s, tau, G);
  s.p = flight_position(s.p, s.u, Vec2T<T>{T(0), -G}, tau);
  s.u.y -= G * tau;
  return s;
}

template <class Sink, class = void>
struct wants_samples : std::false_type {};
template <class Sink>
struct wants_samples<Sink, std::void_t<decltype(std::declval<Sink&>().next_sample())>> : std::true_type {};

// Whether a sink takes its samples as states, on_sample(t, y) (a noisy roll4:disc-transversal
// run's trace --sample, whose rows are the transversal state), rather than as rows.
template <class Sink, class = void>
struct takes_state_samples : std::false_type {};
template <class Sink>
struct takes_state_samples<
    Sink, std::void_t<decltype(std::declval<Sink&>().next_sample()),
                      decltype(std::declval<Sink&>().on_sample(0.0, static_cast<const double*>(nullptr)))>>
    : std::true_type {};

// Whether `sink` asks for samples in this run: it has the interface and a sample time is due (a
// collecting run's sink has the interface and asks only where the height series is kept).
template <class Sink>
SKIPSTONE_HD bool asks_for_samples(const Sink& sink) {
  if constexpr (wants_samples<Sink>::value) return sink.next_sample() < INFINITY;
  else return false;
}

// Samples of the flight from s at time t up to t_end (inclusive), in the rows of `wall`.
template <int N, class Sink, class Wall, class T>
SKIPSTONE_HD void sample_flight(Sink& sink, const Wall& wall, const PlateStateT<T>& s, double t, double t_end,
                                same_t<T> G, same_t<T> r) {
  for (double ts = sink.next_sample(); ts <= t_end; ts = sink.next_sample()) {
    const auto row = wall.plate_row(fly_plate<N>(s, T(ts - t), G), r);
    sink.on_sample(ts, row.x, row.state, row.nu);
  }
}

// A step sink that emits its sink's samples (next_sample / on_sample) inside each accepted step
// of a passage, then passes the step on to `steps` (whose row(y) makes a sample's row; a sink
// that takes states, takes_state_samples, gets the state itself). The
// state at a sample time inside a step comes from `inside` (RimPartialStep for the GBS passages,
// noisy_samples.hpp for the stochastic ones): inside.at(y0, t0, y1, t1, ts, ys) writes the state
// at ts in (t0, t1) from the step's ends; new_step() comes before a step's first sample. t0:
// start time of the piece of the passage that is integrated.
template <int N, class Steps, class Sink, class T, class Inside>
struct SampledSteps {
  Steps& steps;
  Sink& out;
  Inside inside;
  double t0;
  T t_prev = T(0);
  T y_prev[N] = {};

  SKIPSTONE_HD void on_step(T t, const T* y) {
    if (t > T(0)) {
      inside.new_step();
      for (double ts = out.next_sample(); T(ts - t0) <= t; ts = out.next_sample()) {
        T ys[N];
        if (T(ts - t0) == t) {
          for (int i = 0; i < N; ++i) ys[i] = y[i];
        } else {
          inside.at(y_prev, t_prev, y, t, T(ts - t0), ys);
        }
        if constexpr (takes_state_samples<Sink>::value) {
          out.on_sample(ts, ys);
        } else {
          const auto row = steps.row(ys);
          out.on_sample(ts, row.x, row.state, row.nu);
        }
      }
    }
    t_prev = t;
    for (int i = 0; i < N; ++i) y_prev[i] = y[i];
    steps.on_step(t, y);
  }
};

// The state inside a GBS step of a passage: a partial step from the step's start
// (rim_partial_step, what a run stopped at that time computes).
template <class Sys, class T>
struct RimPartialStep {
  const Sys& sys;
  T rtol, atol;
  SKIPSTONE_HD void new_step() {}
  SKIPSTONE_HD void at(const T* y0, T t0, const T*, T, T ts, T* ys) const {
    rim_partial_step(sys, y0, ts - t0, ys, rtol, atol);
  }
};

// The samples inside the GBS steps of a passage (integrate_rim's step sink).
template <class Sys, class Steps, class Sink, class T>
using SampledRimSteps = SampledSteps<Sys::N, Steps, Sink, T, RimPartialStep<Sys, T>>;

}  // namespace skipstone
