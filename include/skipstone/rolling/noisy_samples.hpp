// The samples of a noisy edge passage (roll4:disc and the rolling tables with `noise`, trace
// --sample, height_series): the state at a sample time inside a fixed step of the stochastic
// scheme, for the step sink SampledSteps (disc_output.hpp) that emits them. It is the
// interpolant the passage's exit is located on (noisy_transversal.hpp): the cubic Hermite of the
// smooth components from their values and drifts at both ends of the step (they are C^1 along
// every noise path), linear in the noise components, then projected as a step is. The
// stochastic scheme has no state between its steps that a shorter step would reproduce (the
// last step's Wiener increment would be another path's), so, unlike a deterministic passage's
// samples, these are interpolated; the trajectory is the same with or without sampling.
#pragma once
#include "skipstone/hd.hpp"
#include "skipstone/rolling/disc_output.hpp"
#include "skipstone/rolling/noisy_transversal.hpp"

namespace skipstone {

// The state inside a step of the stochastic scheme (SampledSteps' `inside`).
template <class Sys>
struct NoisyStepHermite {
  const Sys& sys;
  bool have_drifts = false;  // f0, f1 are the drifts at the current step's ends
  double f0[Sys::N] = {}, f1[Sys::N] = {};

  SKIPSTONE_HD void new_step() { have_drifts = false; }
  SKIPSTONE_HD void at(const double* y0, double t0, const double* y1, double t1, double ts, double* ys) {
    constexpr int N = Sys::N, F = Sys::kFirstNoise;
    if (!have_drifts) {
      sys.drift(y0, f0);
      sys.drift(y1, f1);
      have_drifts = true;
    }
    const double h = t1 - t0;
    noisy_step_between<N, F>(y0, f0, y1, f1, h, (ts - t0) / h, ys);
    sys.project(ys);
  }
};

// The samples inside the steps of a noisy passage (integrate_noisy_passage's step sink).
template <class Sys, class Steps, class Sink>
using SampledNoisySteps = SampledSteps<Sys::N, Steps, Sink, double, NoisyStepHermite<Sys>>;

}  // namespace skipstone
