// The samples of a noisy edge passage (roll4:disc and the rolling tables with `noise`, trace
// --sample): a step sink for integrate_noisy_passage that emits the state at each of its sink's
// sample times (disc_output.hpp: next_sample / on_sample) inside a fixed step, then passes the
// step on to `steps` (whose row(y) makes a sample's row). The state at a time inside a step is
// the interpolant the passage's exit is located on (noisy_transversal.hpp): the cubic Hermite of
// the smooth components from their values and drifts at both ends of the step (they are C^1
// along every noise path), linear in the noise components, then projected as a step is. The
// stochastic scheme has no state between its steps that a shorter step would reproduce (the
// last step's Wiener increment would be another path's), so, unlike a deterministic passage's
// samples, these are interpolated; the trajectory is the same with or without sampling.
// t0: start time of the piece of the passage that is integrated.
#pragma once
#include "skipstone/hd.hpp"
#include "skipstone/rolling/disc_output.hpp"

namespace skipstone {

template <class Sys, class Steps, class Sink>
struct SampledNoisySteps {
  Steps& steps;
  Sink& out;
  const Sys& sys;
  double t0;
  double t_prev = 0.0;
  double y_prev[Sys::N] = {};

  SKIPSTONE_HD void on_step(double t, const double* y) {
    constexpr int N = Sys::N, F = Sys::kFirstNoise;
    if (t > 0.0) {
      const double h = t - t_prev;
      bool have_drifts = false;
      double f0[N], f1[N];
      for (double ts = out.next_sample(); ts - t0 <= t; ts = out.next_sample()) {
        double ys[N];
        const double s = (ts - t0 - t_prev) / h;
        if (!(s < 1.0)) {
          for (int k = 0; k < N; ++k) ys[k] = y[k];
        } else {
          if (!have_drifts) {
            sys.drift(y_prev, f0);
            sys.drift(y, f1);
            have_drifts = true;
          }
          const double s2 = s * s, s3 = s2 * s;
          const double a0 = 2 * s3 - 3 * s2 + 1, b0 = s3 - 2 * s2 + s, a1 = -2 * s3 + 3 * s2, b1 = s3 - s2;
          for (int k = 0; k < F; ++k) ys[k] = a0 * y_prev[k] + b0 * h * f0[k] + a1 * y[k] + b1 * h * f1[k];
          for (int k = F; k < N; ++k) ys[k] = (1.0 - s) * y_prev[k] + s * y[k];
          sys.project(ys);
        }
        const DiscRow row = steps.row(ys);
        out.on_sample(ts, row.x, row.state, row.nu);
      }
    }
    t_prev = t;
    for (int k = 0; k < N; ++k) y_prev[k] = y[k];
    steps.on_step(t, y);
  }
};

}  // namespace skipstone
