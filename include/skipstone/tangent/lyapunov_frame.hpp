// Finite-time Lyapunov exponents of one no-slip trajectory from its tangent dynamics
// (flight.hpp, collision.hpp, collision3d.hpp): in 2D n = 1 or 5 tangent vectors of the phase
// space (x, y, u, v, s), in 3D (sphere, cylinders) n = 1 of (x, u, w) (phase_vector.hpp), ride
// along the trajectory and are re-orthonormalised by modified
// Gram-Schmidt after every impact (the QR method of Benettin, Galgani, Giorgilli and Strelcyn,
// Meccanica 15, 9 (1980); Shimada and Nagashima, Prog. Theor. Phys. 61, 1605 (1979)). With
// R_ii the norms Gram-Schmidt divides by, at the end of the run (time t, N impacts)
//   lambda_i = (1/t) sum log R_ii   per unit time (`lyapunov_spectrum`; lambda_1: `lyapunov`),
//   mu_1     = (1/N) sum log R_11   per impact (`lyapunov_per_event`),
// finite-time exponents over the run's own horizon, in the order of the QR method (decreasing
// for long runs); |delta(0)| = 1. Renormalising at every
// impact keeps the vectors O(1): a flight grows them at most linearly in its duration.
//
// The first vector is on the energy shell: (1, ..., 1) less its component along grad E
// (phase_vector.hpp: energy_gradient), normalised. In 2D the other four complete it to an
// orthonormal basis (a Householder reflection taking e_1 to it), so that the spectrum's
// first exponent is the one the single vector gives, bit for bit.
#pragma once
#include <cstdint>

#include "skipstone/collision.hpp"
#include "skipstone/result.hpp"
#include "skipstone/tangent/collision.hpp"
#include "skipstone/tangent/collision3d.hpp"
#include "skipstone/tangent/flight.hpp"
#include "skipstone/tangent/phase_vector.hpp"

namespace skipstone {

static_assert(kPhaseDim2D == kLyapunovSpectrumLength, "the spectrum observable has one exponent per phase dimension");

// Up to kMaxVectors tangent vectors of type PV, which cross an impact as Impact says.
template <class PV, class Impact, int kMaxVectors>
struct LyapunovFrame {
  static constexpr int kDim = PV::kDim;
  PV v[kMaxVectors];
  double log_growth[kMaxVectors];
  int n;  // vectors followed: 1 (largest exponent) or kDim (spectrum, 2D)

  template <class V, class S>
  SKIPSTONE_HD void start(V /*x*/, const S& st, double g, int count) {
    n = count < kMaxVectors ? count : kMaxVectors;
    double grad[kDim];
    const PV gradient = energy_gradient(st, g);
    for (int i = 0; i < kDim; ++i) grad[i] = component(gradient, i);
    double gg = 0.0, wg = 0.0;
    for (int i = 0; i < kDim; ++i) {
      gg += grad[i] * grad[i];
      wg += grad[i];
    }
    double d0[kDim], dd = 0.0;
    for (int i = 0; i < kDim; ++i) {
      d0[i] = 1.0 - (gg > 0.0 ? wg / gg : 0.0) * grad[i];
      dd += d0[i] * d0[i];
    }
    const double inv = 1.0 / sqrt(dd);
    for (int i = 0; i < kDim; ++i) d0[i] *= inv;
    v[0] = PV::from_components(d0);
    // H = I - 2 w w^T / |w|^2 with w = e_1 - d0 takes e_1 to d0; its other columns complete the basis
    double w[kDim], ww = 0.0;
    for (int i = 0; i < kDim; ++i) {
      w[i] = (i == 0 ? 1.0 : 0.0) - d0[i];
      ww += w[i] * w[i];
    }
    for (int j = 1; j < n; ++j) {
      double c[kDim];
      for (int i = 0; i < kDim; ++i) c[i] = (i == j ? 1.0 : 0.0) - (ww > 0.0 ? 2.0 * w[j] / ww : 0.0) * w[i];
      v[j] = PV::from_components(c);
    }
    for (int i = 0; i < kMaxVectors; ++i) log_growth[i] = 0.0;
  }

  SKIPSTONE_HD void fly(double dt) {
    for (int i = 0; i < n && i < kMaxVectors; ++i) v[i] = tangent_flight(v[i], dt);
  }

  SKIPSTONE_HD void collide(const Impact& im) {
    for (int i = 0; i < n && i < kMaxVectors; ++i) v[i] = tangent_collide(v[i], im);
    orthonormalise(v, log_growth);
  }

  // The exponents at time t after `events` impacts into res (the growth since the last
  // impact included).
  SKIPSTONE_HD void write(TrajectoryResult& res, double t, std::uint64_t events) const {
    PV w[kMaxVectors];
    double lg[kMaxVectors];
    for (int i = 0; i < kMaxVectors; ++i) {
      w[i] = v[i];
      lg[i] = log_growth[i];
    }
    orthonormalise(w, lg);
    const double inv_t = t > 0.0 ? 1.0 / t : NAN;
    res.lyapunov = lg[0] * inv_t;
    res.lyapunov_per_event = events > 0 ? lg[0] / static_cast<double>(events) : NAN;
    if constexpr (kMaxVectors == kLyapunovSpectrumLength)
      if (n == kMaxVectors)
        for (int i = 0; i < kMaxVectors; ++i) res.lyapunov_spectrum[i] = lg[i] * inv_t;
  }

 private:
  SKIPSTONE_HD void orthonormalise(PV* w, double* lg) const {
    for (int i = 0; i < n && i < kMaxVectors; ++i) {
      for (int j = 0; j < i; ++j) w[i] = add_scaled(w[i], -dot(w[i], w[j]), w[j]);
      const double r = sqrt(dot(w[i], w[i]));
      lg[i] += log(r);
      w[i] = scaled(1.0 / r, w[i]);
    }
  }
};

// The 2D tables: the largest exponent or the spectrum. The sphere and the cylinders: the largest.
using LyapunovFrame2D = LyapunovFrame<PhaseVector2D, TangentImpact, kPhaseDim2D>;
using LyapunovFrame3D = LyapunovFrame<PhaseVector3D, TangentImpact3D, 1>;

}  // namespace skipstone
