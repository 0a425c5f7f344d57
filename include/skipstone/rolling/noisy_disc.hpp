// roll4:disc with noisy constraints on the rim (docs/models.md "Noisy constraints"): the flat
// parts and the junctions are roll4_disc.hpp's, each rim passage is integrated by the stochastic
// Heun scheme of noisy_transversal.hpp on both blocks of Proposition 12 with the noise:
//   transversal block as in noisy_transversal.hpp; longitudinal block with the centre's velocity
//   (v1, v2) = w + eta^2 u in place of w and eta (1 + n1) in place of eta under roughness (the
//   slip u has no component along the axis, so v3 is both the rolling and the centre's velocity):
//     v3' = e (f_s v2 S23 - v1 S13 / r) - G,  S13' = -f_c v2 S23 + e v1 v3 / r,
//     S23' = f_c v2 S13 - e f_s v2 v3,        x3' = v3.
// Roughness keeps both blocks skew, so E1 and E2 + G x3 hold on every path: its passages are
// projected onto them after every step (as the deterministic ones are); slip exchanges energy
// with the contact and is not projected (and never stops for energy drift). The slip lives on
// the rim: at the junction the rolling part w of the velocity goes on onto the face.
// Passage j of trajectory i in realisation m has its own noise sequence, keyed by
// (trajectory_noise_key: seed, i, m and a file start's row; j) (passage_noise_key). A sink that
// asks for samples (trace --sample) gets them inside the passages too (noisy_samples.hpp).
#pragma once
#include <cmath>
#include <cstdint>

#include "skipstone/rolling/noisy_samples.hpp"
#include "skipstone/rolling/noisy_transversal.hpp"
#include "skipstone/rolling/roll4_disc.hpp"

namespace skipstone {

// Both blocks on N^c with noisy constraints: y = (w1, w2, S12, cos phi, sin phi, s, v3, S13, S23,
// x3, n1, n2).
struct NoisyDiscRimSystem {
  DiscRimSystem rim;  // kappa, r, eta, G and the invariants of the projection
  OuNoise noise;
  static constexpr int N = 12;
  static constexpr int kFirstNoise = 10;

  SKIPSTONE_HD int noises() const { return noise.noises(); }
  SKIPSTONE_HD double diffusion() const { return noise.diffusion(); }
  SKIPSTONE_HD void drift(const double* y, double* f) const {
    const NoisyRates q =
        noisy_transversal_rates(rim.kappa, 1.0, 1.0, rim.r, rim.eta, noise.kind, y[10], y[11], y, f);
    noisy_longitudinal_rates(q, rim.r, rim.G, y, f);
    noise.drift(y + 10, f + 10);
  }
  // Roughness: onto |(w, S12)| = xi and |(v3, S13, S23)|^2 = k2_total - 2 G x3 (Heun's defect is
  // larger than the deterministic projection's round-off window, so the longitudinal block is
  // rescaled whenever its target is positive); slip: (cos phi, sin phi) only.
  SKIPSTONE_HD void project(double* y) const {
    if (noise.kind != kNoiseRoughness) {
      normalise_phi(y);
      return;
    }
    project_transversal(y, rim.xi);
    noisy_rescale_block(y + 6, rim.k2_total - 2.0 * rim.G * y[9]);
  }
};

// One roll4:disc trajectory with noisy constraints on the rim (noise != 0, double only).
template <class Sink>
SKIPSTONE_HD TrajectoryResult simulate_noisy_roll4_disc(const ScanSpec& spec, const ScanPoint& pt, std::uint64_t index,
                                                        Sink& sink) {
  DiscRollModel m;
  PlateState s;
  RollOptions opt;
  if (!roll4_disc_setup(spec, pt, m, s, opt)) return masked_result();  // a state row on the edge too
  double* row = take_state_row(sink);
  const OuNoise noise = noise_of(pt);
  if (noise.kind == kNoiseSlip) opt.energy_tolerance = INFINITY;  // slip exchanges energy with the contact
  const std::uint64_t key = trajectory_noise_key(spec, pt, index);
  const double h = pt.p[P_NOISE_DT];
  DiscRollRun run;
  run.start(DiscWall<double>{m.R, 0.0, false}, RollModel{m.r, m.eta, m.G, m.g}, s, opt, sink);
  double y[10];
  bool on_edge = run.fly_to_edge(sink, y);
  EdgeSectionOf<Sink, DiscWall<double>, true> section{};  // the section's search of the steps
  for (std::uint64_t passage = 0; on_edge; ++passage) {
    const NoisyDiscRimSystem sys{run.sys, noise};
    const CounterNoise passage_noise{passage_noise_key(key, passage)};
    auto steps = run.edge_steps(sink, &section);  // reads the first 10 components of each step's state
    RimRun<12, double> r12;
    if constexpr (wants_samples<Sink>::value) {
      SampledNoisySteps<NoisyDiscRimSystem, decltype(steps), Sink> sampled{steps, sink, {sys}, run.t};
      r12 = integrate_noisy_passage(sys, y, h, run.t_left(), run.steps_left(), passage_noise, sampled);
    } else {
      r12 = integrate_noisy_passage(sys, y, h, run.t_left(), run.steps_left(), passage_noise, steps);
    }
    on_edge = run.leave_piece(rim_run_head<10>(r12), y) == EdgeEnd::plate && run.fly_to_edge(sink, y);
  }
  if (row) run.write_state_row(y, row);
  return run.result();
}

}  // namespace skipstone
