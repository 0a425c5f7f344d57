// One passage of a rolling ball over the curved part N^c of a 4D cylinder (paper Sections 5.2-5.3,
// Proposition 12), for any system whose state starts with (v1, ., ., cos phi, sin phi): the
// Figure-18 transversal block (disc_transversal.hpp) and the full roll4:disc (roll4_disc.hpp).
// Integration: GBS extrapolation (gbs.hpp) with error control, followed after every step by
// the system's projection onto its invariants (Hairer-Lubich-Wanner, Geometric Numerical
// Integration IV.4: projection keeps the order and makes the energies exact to round-off).
// The passage ends where sin(phi) returns to 0: at phi = 0 (cos phi > 0, side +1) or at
// phi = pi (side -1), located by Newton iteration on recomputed partial steps. A step in which
// sin(phi) has a local minimum may hide a short excursion past phi = 0 or pi (both ends
// positive, a dip below zero inside); such steps are refined down to h_fine, where the cubic
// Hermite interpolant of sin(phi) resolves the dip.
//
// Sys: static constexpr int N; rhs(y, f); project(y); radius() (the ball radius r, phi' = v1/r);
// h_max() (largest step, about one radian of phi). The sink sees every accepted step as on_step(t, y), t from 0.
// The scalar type T is deduced from the state (double; float for the float Figure-18 kernel,
// whose tolerances are the float constants of precision.hpp).
#pragma once
#include <cstdint>

#include "skipstone/gbs.hpp"
#include "skipstone/precision.hpp"
#include "skipstone/status.hpp"
#include "skipstone/vec.hpp"

namespace skipstone {

// Newton (or, outside the bracket, bisection) iterations that locate an exit: Newton needs a
// few; bisection halves the bracket each time, down to the rounding unit of double.
constexpr int kRimNewtonIterations = 64;

template <int N, class T = double>
struct RimRun {
  Status status;  // exited, finished (t_max on the rim), non_finite, integrator_failure
  int side;       // +1 out at phi = 0, -1 out at phi = pi, 0 still on the rim
  T t;            // time at exit (or at t_max), from the start of the passage
  std::uint64_t steps;
  T y[N];         // state at the end
};

constexpr double kRimFineStep = 0.02;  // h_fine / h_max
constexpr int kRimExtrapolationDepth = 6;  // order 12

// First theta in (0, 1) where the cubic Hermite interpolant of (g0, d0) .. (g1, d1) is
// negative, refined by bisection; -1 when it stays non-negative (sampled at 1/32 spacing).
template <class T>
SKIPSTONE_HD SKIPSTONE_INLINE T hermite_first_root(T g0, T d0, T g1, T d1) {
  const auto p = [&](T s) {
    const T s2 = s * s, s3 = s2 * s;
    return (2 * s3 - 3 * s2 + 1) * g0 + (s3 - 2 * s2 + s) * d0 + (-2 * s3 + 3 * s2) * g1 + (s3 - s2) * d1;
  };
  T prev = T(0);
  for (int k = 1; k < 32; ++k) {
    const T s = k / T(32);
    if (p(s) < T(0)) {
      T lo = prev, hi = s;
      for (int it = 0; it < 40; ++it) {
        const T mid = T(0.5) * (lo + hi);
        (p(mid) < T(0) ? hi : lo) = mid;
      }
      return T(0.5) * (lo + hi);
    }
    prev = s;
  }
  return T(-1);
}

// One passage from y0 (sin phi = 0, moving into N^c). K: extrapolation depth (order 2K).
template <int K, class Sys, class T, class Sink>
SKIPSTONE_HD RimRun<Sys::N, T> integrate_rim(const Sys& sys, const T* y0, same_t<T> t_max, same_t<T> rtol,
                                             same_t<T> atol, std::uint64_t max_steps, Sink& sink) {
  constexpr int N = Sys::N;
  RimRun<N, T> out;
  T* y = out.y;
  for (int i = 0; i < N; ++i) y[i] = y0[i];
  const T r = sys.radius();
  const T h_max = sys.h_max();
  const T h_fine = T(kRimFineStep) * h_max;
  T H = T(0.1) * h_max;
  T t = T(0);
  T y_new[N];
  out.status = Status::finished;
  out.side = 0;
  out.steps = 0;
  sink.on_step(t, y);
  for (;;) {
    if (t >= t_max) break;
    if (out.steps >= max_steps) {
      out.status = Status::integrator_failure;
      break;
    }
    if (H > h_max) H = h_max;
    const bool last_step = t + H >= t_max;
    if (last_step) H = t_max - t;
    const T err = gbs_step<N, K>(sys, y, H, y_new, rtol, atol);
    ++out.steps;
    if (!(err <= T(1))) {
      if (!isfinite(err) && !(H > T(0))) {
        out.status = Status::non_finite;
        break;
      }
      H *= gbs_step_factor<K>(err);
      if (H < ScalarConstants<T>::rim_min_step * (T(1) + t)) {
        out.status = Status::integrator_failure;
        break;
      }
      continue;
    }
    sys.project(y_new);
    T theta = T(-1);  // fraction of the step at which sin(phi) first reaches 0, if it does
    if (y_new[4] < T(0)) {
      theta = y[4] / (y[4] - y_new[4]);
    } else {
      const T d0 = H * y[3] * y[0] / r, d1 = H * y_new[3] * y_new[0] / r;  // d sin(phi)/d theta
      if (d0 < T(0) && d1 > T(0)) {
        if (H > h_fine) {
          H = H * T(0.25) > h_fine ? H * T(0.25) : h_fine;
          continue;
        }
        theta = hermite_first_root(y[4], d0, y_new[4], d1);
      }
    }
    if (theta >= T(0)) {
      // sin(phi) reaches 0 inside [t, t + H]: Newton on theta with recomputed partial steps.
      // When the step ends past the rim (sin(phi) < 0), [lo, hi] brackets the first crossing and
      // a Newton step that leaves it is replaced by bisection: in a long step the trajectory's
      // smooth continuation past phi = pi can turn back, and unguarded Newton then settled on
      // the end of the step instead (seen with the float kernel: exit one step, ~1 rad, late).
      const bool bracketed = y_new[4] < T(0);
      T lo = T(0), hi = T(1);
      T yt[N];
      for (int it = 0; it < kRimNewtonIterations; ++it) {
        gbs_step<N, K>(sys, y, theta * H, yt, rtol, atol);
        sys.project(yt);
        const T g = yt[4];
        const T dg = yt[3] * yt[0] / r;  // d sin(phi)/dt
        if (bracketed) (g > T(0) ? lo : hi) = theta;
        T dtheta = -g / (dg * H);
        if (bracketed && !(theta + dtheta >= lo && theta + dtheta <= hi)) dtheta = T(0.5) * (lo + hi) - theta;
        theta += dtheta;
        if (theta < T(0)) theta = T(0);
        if (theta > T(1)) theta = T(1);
        if (fabs(dtheta * H) <= ScalarConstants<T>::rim_newton * (T(1) + t)) break;
      }
      gbs_step<N, K>(sys, y, theta * H, yt, rtol, atol);
      sys.project(yt);
      t += theta * H;
      for (int i = 0; i < N; ++i) y[i] = yt[i];
      out.status = Status::exited;
      out.side = y[3] > T(0) ? 1 : -1;
      sink.on_step(t, y);
      break;
    }
    for (int i = 0; i < N; ++i) y[i] = y_new[i];
    t = last_step ? t_max : t + H;
    sink.on_step(t, y);
    bool finite = true;
    for (int i = 0; i < N; ++i) finite = finite && isfinite(y[i]);
    if (!finite) {
      out.status = Status::non_finite;
      break;
    }
    H *= gbs_step_factor<K>(err);
  }
  out.t = t;
  return out;
}

}  // namespace skipstone
