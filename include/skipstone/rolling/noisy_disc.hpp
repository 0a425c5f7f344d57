// roll4:disc with noisy constraints (docs/models.md "Noisy constraints"): the flat parts and the
// junctions are roll4_disc.hpp's (a slipping face's flight under slip), each rim passage is
// integrated by the stochastic Heun scheme of noisy_transversal.hpp on both blocks of
// Proposition 12 with the noise:
//   transversal block as in noisy_transversal.hpp; longitudinal block with the centre's velocity
//   (v1, v2) = w + eta^2 u in place of w and eta (1 + n1) in place of eta under roughness (the
//   slip u has no component along the axis, so v3 is both the rolling and the centre's velocity):
//     v3' = e (f_s v2 S23 - v1 S13 / r) - G,  S13' = -f_c v2 S23 + e v1 v3 / r,
//     S23' = f_c v2 S13 - e f_s v2 v3,        x3' = v3.
// Roughness keeps both blocks skew, so E1 and E2 + G x3 hold on every path: its passages are
// projected onto them after every step (as the deterministic ones are); slip exchanges energy
// with the contact and is not projected (and never stops for energy drift). Slip acts on the
// faces too (slipping_face.hpp); the run between the passages and how the noise is keyed and
// carried: noisy_passages.hpp.
#pragma once
#include <cmath>
#include <cstdint>

#include "skipstone/rolling/noisy_passages.hpp"
#include "skipstone/rolling/noisy_transversal.hpp"
#include "skipstone/rolling/roll4_disc.hpp"

namespace skipstone {

// Both blocks on N^c with noisy constraints: y = (w1, w2, S12, cos phi, sin phi, s, v3, S13, S23,
// x3, n1, n2).
struct NoisyDiscRimSystem {
  DiscRimSystem rim;  // kappa, r, eta, G and the invariants of the projection
  OuNoise noise;
  double theta0;  // the rim angle of the passage's entry point (the frame of slip's driving noise)
  static constexpr int N = 12;
  static constexpr int kFirstNoise = 10;

  SKIPSTONE_HD int noises() const { return noise.noises(); }
  SKIPSTONE_HD double diffusion() const { return noise.diffusion(); }
  // slip: driven by the plate's Brownian motion in the frame of the rim point (noisy_transversal.hpp)
  SKIPSTONE_HD int drivers() const { return noise.kind == kNoiseSlip ? 3 : noises(); }
  SKIPSTONE_HD void drive(const double* y, const double* dB, double* dW) const {
    if (noise.kind != kNoiseSlip) return noise_drive_direct(dB, dW);
    const Vec2 e1 = rim_normal(theta0 - y[5] * rim.kappa);  // the arc length s = y[5], kappa = -1/R
    slip_drive_in_frame(y, e1, rot90(e1), dB, dW);
  }
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

// One roll4:disc trajectory with noisy constraints (noise != 0, double only), its noise drawn
// from `noise` (CounterNoise::m > 1 in the convergence tests); from a face or a state row on the
// rim (face 0: the run goes on with that passage).
template <class Sink>
SKIPSTONE_HD TrajectoryResult noisy_roll4_disc_run(const ScanSpec& spec, const ScanPoint& pt, const CounterNoise& noise,
                                                   Sink& sink) {
  DiscRollModel m;
  RollOptions opt;
  const RollNoise rn = roll_noise(spec, pt, noise);
  const OuNoise& ou = rn.ou;
  double* row = take_state_row(sink);
  const auto noisy_system = [&](const DiscRollRun& r) { return NoisyDiscRimSystem{r.sys, ou, r.wall.theta}; };
  DiscRollRun run;
  double y[10];
  if (starts_on_edge_state_row(spec, pt.p)) {
    double theta, y0[10];
    if (!roll4_disc_edge_setup(spec, pt, m, opt, theta, y0)) return masked_result();
    run.start_on_edge(DiscWall<double>{m.R, 0.0, false}, RollModel{m.r, m.eta, m.G, m.g}, theta, y0,
                      noisy_roll_options(opt, ou), sink, y);
    return finish_noisy_roll(run, rn, true, y, row, sink, noisy_system);
  }
  PlateState s;
  if (!roll4_disc_setup(spec, pt, m, s, opt)) return masked_result();
  run.start(DiscWall<double>{m.R, 0.0, false}, RollModel{m.r, m.eta, m.G, m.g}, s, noisy_roll_options(opt, ou), sink);
  return finish_noisy_roll(run, rn, false, y, row, sink, noisy_system);
}

template <class Sink>
SKIPSTONE_HD TrajectoryResult simulate_noisy_roll4_disc(const ScanSpec& spec, const ScanPoint& pt, std::uint64_t index,
                                                        Sink& sink) {
  return noisy_roll4_disc_run(spec, pt, CounterNoise{trajectory_noise_key(spec, pt, index)}, sink);
}

}  // namespace skipstone
