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
// A system over a wall with breaks (rolling/edge_system.hpp: curvature jumps) also has
// kHasBreaks = true and break_margin(y, rate): how far the state is from the ends of the current
// smooth piece of the wall (> 0 inside) and its time derivative. No step crosses a break: a step
// that ends past one (or dips past it inside, seen as for phi) is cut at the break, located as
// the exit is, and the passage ends there with side kRimBreakSide; the caller continues it on
// the next piece.
// The scalar type T is deduced from the state (double; float for the float Figure-18 kernel,
// whose tolerances are the float constants of precision.hpp).
#pragma once
#include <cstdint>
#include <type_traits>

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
  int side;       // +1 out at phi = 0, -1 out at phi = pi, 0 still on the rim, kRimBreakSide at a break
  T t;            // time at exit (or at t_max), from the start of the passage
  std::uint64_t steps;
  T y[N];         // state at the end
};

constexpr double kRimFineStep = 0.02;  // h_fine / h_max
constexpr int kRimBreakSide = 2;       // RimRun::side of a passage stopped at a break of the wall

template <class Sys, class = void>
struct rim_has_breaks : std::false_type {};
template <class Sys>
struct rim_has_breaks<Sys, std::enable_if_t<Sys::kHasBreaks>> : std::true_type {};
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

// One passage as a sequence of GBS steps, each computed by the caller: next_step(h) names the
// step the passage needs (from y(), over length h; false when the passage is over), take()
// receives its result. integrate_rim computes them one at a time; the CPU backend's lanes
// (kernels/rim_lane_block.hpp) compute the steps of 8 (double) or 16 (float) passages at once.
//   advance: a step of the adaptive integration (rejected and shortened, or accepted: then
//            projected, and checked for the exit inside it);
//   locate:  Newton on the fraction theta of the step at which sin(phi) reaches 0, with
//            recomputed partial steps from the step's start. When the step ends past the rim
//            (sin(phi) < 0), [lo, hi] brackets the first crossing and a Newton step that
//            leaves it is replaced by bisection: in a long step the trajectory's smooth
//            continuation past phi = pi can turn back, and unguarded Newton then settled on
//            the end of the step instead (seen with the float kernel: exit one step, ~1 rad,
//            late);
//   land:    the partial step to the located exit.
template <int K, class Sys, class T>
class RimStepper {
 public:
  static constexpr int N = Sys::N;

  template <class Sink>
  SKIPSTONE_HD void start(const Sys& sys, const T* y0, same_t<T> t_max, std::uint64_t max_steps, Sink& sink) {
    sys_ = sys;
    for (int i = 0; i < N; ++i) out_.y[i] = y0[i];
    h_max_ = sys.h_max();
    H_ = T(0.1) * h_max_;
    out_.t = T(0);
    t_max_ = t_max;
    max_steps_ = max_steps;
    out_.status = Status::finished;
    out_.side = 0;
    out_.steps = 0;
    phase_ = Phase::advance;
    event_ = 0;
    sink.on_step(out_.t, out_.y);
  }

  SKIPSTONE_HD const T* y() const { return out_.y; }
  SKIPSTONE_HD const Sys& system() const { return sys_; }

  SKIPSTONE_HD bool next_step(T& h) {
    if (phase_ == Phase::over) return false;
    if (phase_ != Phase::advance) {
      h = theta_ * H_;
      return true;
    }
    if (out_.t >= t_max_) {
      phase_ = Phase::over;
      return false;
    }
    if (out_.steps >= max_steps_) {
      out_.status = Status::integrator_failure;
      phase_ = Phase::over;
      return false;
    }
    if (H_ > h_max_) H_ = h_max_;
    last_step_ = out_.t + H_ >= t_max_;
    if (last_step_) H_ = t_max_ - out_.t;
    h = H_;
    return true;
  }

  // The step named by next_step: its end state (projected here, in place) and error estimate.
  // Out of line on the GPU: inlined, the GBS loop that calls it carried all of the stepper's
  // state in registers, and ptxas spilled (the register figures: benchmarks/RESULTS.md).
  template <class Sink>
  SKIPSTONE_DEVICE_NOINLINE SKIPSTONE_HD void take(T* y_step, T err, Sink& sink) {
    if (phase_ == Phase::advance) {
      advance(y_step, err, sink);
      return;
    }
    sys_.project(y_step);
    if (phase_ == Phase::locate) {
      newton(y_step);
      return;
    }
    if constexpr (rim_has_breaks<Sys>::value) {
      // The two events' first guesses came from different interpolants: the one located may lie
      // past the other (a break reached after phi has already returned to 0 or pi, or an exit
      // beyond the end of the piece). Then the other one comes first: locate it inside [0, theta].
      // Events that coincide to within `same` (an exit at a junction) end the passage as an exit.
      const T same = T(1e3) * ScalarConstants<T>::rim_newton;
      T rate;
      if (event_ == 1 && y_step[4] < -same) {
        relocate(0, out_.y[4], y_step[4]);
        return;
      }
      if (event_ == 0) {
        const T m = sys_.break_margin(y_step, rate);
        if (m < -same * (T(1) + fabs(y_step[5]))) {
          relocate(1, sys_.break_margin(out_.y, rate), m);
          return;
        }
      }
    }
    out_.t += theta_ * H_;
    for (int i = 0; i < N; ++i) out_.y[i] = y_step[i];
    out_.status = Status::exited;
    out_.side = event_ == 1 ? kRimBreakSide : out_.y[3] > T(0) ? 1 : -1;
    sink.on_step(out_.t, out_.y);
    phase_ = Phase::over;
  }

  SKIPSTONE_HD const RimRun<N, T>& run() const { return out_; }

 private:
  enum class Phase { advance, locate, land, over };

  template <class Sink>
  SKIPSTONE_HD void advance(T* y_new, T err, Sink& sink) {
    const T* y = out_.y;
    ++out_.steps;
    if (!(err <= T(1))) {
      if (!isfinite(err) && !(H_ > T(0))) {
        out_.status = Status::non_finite;
        phase_ = Phase::over;
        return;
      }
      H_ *= gbs_step_factor<K>(err);
      if (H_ < ScalarConstants<T>::rim_min_step * (T(1) + out_.t)) {
        out_.status = Status::integrator_failure;
        phase_ = Phase::over;
      }
      return;
    }
    sys_.project(y_new);
    T theta = T(-1);  // fraction of the step at which sin(phi) first reaches 0, if it does
    if (y_new[4] < T(0)) {
      theta = y[4] / (y[4] - y_new[4]);
    } else {
      const T r = sys_.radius();
      const T d0 = H_ * y[3] * y[0] / r, d1 = H_ * y_new[3] * y_new[0] / r;  // d sin(phi)/d theta
      if (d0 < T(0) && d1 > T(0)) {
        if (shorten_to_fine()) return;
        theta = hermite_first_root(y[4], d0, y_new[4], d1);
      }
    }
    event_ = 0;
    bool bracketed = y_new[4] < T(0);
    T lo_b = T(0);  // the lower end of a break's bracket
    if constexpr (rim_has_breaks<Sys>::value) {
      T rate0, rate1;
      const T m0 = sys_.break_margin(y, rate0), m1 = sys_.break_margin(y_new, rate1);
      T theta_b = T(-1);
      if (!(m0 > T(0)) && rate0 < T(0)) {
        theta_b = T(0);  // on a break and moving out of the piece: it leaves at once
      } else if (m1 < T(0) && !(m0 > T(0))) {
        // on a break moving in (a piece just entered), out again within the step: the later
        // crossing, not the break it starts on
        theta_b = hermite_first_root(m0, H_ * rate0, m1, H_ * rate1);
        if (theta_b < T(0)) theta_b = T(1);
        lo_b = T(0.5) * theta_b;
      } else if (m1 < T(0)) {
        theta_b = m0 / (m0 - m1);
      } else if (rate0 < T(0) && rate1 > T(0)) {
        if (shorten_to_fine()) return;
        theta_b = hermite_first_root(m0, H_ * rate0, m1, H_ * rate1);
      }
      if (theta_b >= T(0) && (theta < T(0) || theta_b < theta)) {
        theta = theta_b;
        bracketed = m1 < T(0);
        event_ = 1;
      }
    }
    if (theta >= T(0)) {
      theta_ = theta;
      bracketed_ = bracketed;
      lo_ = event_ == 1 ? lo_b : T(0);
      hi_ = T(1);
      iteration_ = 0;
      phase_ = Phase::locate;
      return;
    }
    for (int i = 0; i < N; ++i) out_.y[i] = y_new[i];
    out_.t = last_step_ ? t_max_ : out_.t + H_;
    sink.on_step(out_.t, out_.y);
    bool finite = true;
    for (int i = 0; i < N; ++i) finite = finite && isfinite(out_.y[i]);
    if (!finite) {
      out_.status = Status::non_finite;
      phase_ = Phase::over;
      return;
    }
    H_ *= gbs_step_factor<K>(err);
  }

  // A step in which an event function has a local minimum may hide a dip past zero: it is
  // shortened (by 4, down to h_fine) before the Hermite interpolant is trusted to find the dip.
  // Returns whether it was shortened (the step is then redone).
  SKIPSTONE_HD bool shorten_to_fine() {
    const T h_fine = T(kRimFineStep) * h_max_;
    if (!(H_ > h_fine)) return false;
    H_ = H_ * T(0.25) > h_fine ? H_ * T(0.25) : h_fine;
    return true;
  }

  // Locate `event` instead, inside [0, theta_], where its function goes from g0 to g_end < 0.
  SKIPSTONE_HD void relocate(int event, T g0, T g_end) {
    event_ = event;
    hi_ = theta_;
    lo_ = T(0);
    bracketed_ = true;
    theta_ = g0 > T(0) ? theta_ * g0 / (g0 - g_end) : T(0);
    iteration_ = 0;
    phase_ = Phase::locate;
  }

  SKIPSTONE_HD void newton(const T* yt) {
    T g = yt[4], dg = yt[3] * yt[0] / sys_.radius();  // sin(phi) and d sin(phi)/dt
    if constexpr (rim_has_breaks<Sys>::value) {
      if (event_ == 1) g = sys_.break_margin(yt, dg);
    }
    if (bracketed_) (g > T(0) ? lo_ : hi_) = theta_;
    T dtheta = -g / (dg * H_);
    if (bracketed_ && !(theta_ + dtheta >= lo_ && theta_ + dtheta <= hi_)) dtheta = T(0.5) * (lo_ + hi_) - theta_;
    theta_ += dtheta;
    if (theta_ < T(0)) theta_ = T(0);
    if (theta_ > T(1)) theta_ = T(1);
    ++iteration_;
    if (fabs(dtheta * H_) <= ScalarConstants<T>::rim_newton * (T(1) + out_.t) || iteration_ == kRimNewtonIterations)
      phase_ = Phase::land;
  }

  Sys sys_;
  RimRun<N, T> out_;  // the passage so far: y is the state at t
  T h_max_, H_, t_max_;
  T theta_, lo_, hi_;
  std::uint64_t max_steps_;
  int iteration_;
  int event_;  // the event being located: 0 the exit (sin phi = 0), 1 a break of the wall
  bool last_step_, bracketed_;
  Phase phase_;
};

// One passage from y0 (sin phi = 0, moving into N^c). K: extrapolation depth (order 2K).
template <int K, class Sys, class T, class Sink>
SKIPSTONE_HD RimRun<Sys::N, T> integrate_rim(const Sys& sys, const T* y0, same_t<T> t_max, same_t<T> rtol,
                                             same_t<T> atol, std::uint64_t max_steps, Sink& sink) {
  RimStepper<K, Sys, T> stepper;
  stepper.start(sys, y0, t_max, max_steps, sink);
  T h, y_step[Sys::N];
  while (stepper.next_step(h)) {
    const T err = gbs_step<Sys::N, K>(sys, stepper.y(), h, y_step, rtol, atol);
    stepper.take(y_step, err, sink);
  }
  return stepper.run();
}

}  // namespace skipstone
