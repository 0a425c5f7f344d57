// roll4:disc-transversal (the Figure-18 system) with noisy constraints: one passage from the
// entry that disc_transversal_start sets up, integrated by the stochastic Heun scheme of
// noisy_transversal.hpp with the noise of (seed, index, realisation). A sink that takes states
// as samples (takes_state_samples: trace --sample) gets them at its sample times on the steps'
// interpolant (noisy_samples.hpp), as the other noisy runs do: the run is the same with and
// without samples, and a sample is a state of that run's own noise path.
#pragma once
#include <cstdint>

#include "skipstone/rolling/disc_output.hpp"
#include "skipstone/rolling/noisy_samples.hpp"
#include "skipstone/rolling/noisy_transversal.hpp"

namespace skipstone {

template <class Sink>
SKIPSTONE_HD TrajectoryResult simulate_noisy_transversal(const ScanSpec& spec, const ScanPoint& pt, std::uint64_t index,
                                                         Sink& sink) {
  const TransversalStart<double> st = disc_transversal_start<double>(spec, pt);
  if (st.masked) return masked_result();
  const double* p = pt.p;
  const DiscTransversalSystem& d = st.passage.sys;
  const NoisyTransversalSystem sys{d.kappa, d.r, d.eta, noise_of(pt)};
  const CounterNoise noise{trajectory_noise_key(spec, pt, index)};
  const auto integrate = [&](auto& steps) {
    return integrate_noisy_passage(sys, st.y0, p[P_NOISE_DT], spec.t_max, spec.max_steps, noise, steps);
  };
  RimRun<8, double> run;
  if constexpr (takes_state_samples<Sink>::value) {
    SampledNoisySteps<NoisyTransversalSystem, Sink, Sink> sampled{sink, sink, {sys}, 0.0};
    run = integrate(sampled);
  } else {
    run = integrate(sink);
  }
  const double e0 = st.passage.xi * st.passage.xi;
  const double e = run.y[0] * run.y[0] + run.y[1] * run.y[1] + run.y[2] * run.y[2];
  RimPassage out{run.status, run.side, run.t, run.y[5], fabs(e - e0) / e0, run.steps, {}};
  return disc_transversal_result(out);
}

}  // namespace skipstone
