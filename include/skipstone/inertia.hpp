// Moment-of-inertia parameters and their conversions (paper Section 2.2 and Eq. (10), (13)).
//   gamma = sqrt(2 lambda)/r,  cos(beta) = (1-gamma^2)/(1+gamma^2),  sin(beta) = 2 gamma/(1+gamma^2),
//   eta = gamma/sqrt(1+gamma^2).
// A no-slip ball with angle beta corresponds to a rolling ball with eta = beta/pi (Eq. (13)).
#pragma once
#include <cmath>

#include "skipstone/vec.hpp"

namespace skipstone {


template <class T>
struct NoSlipCoefficientsT {
  T c_beta, s_beta;
};
using NoSlipCoefficients = NoSlipCoefficientsT<double>;

SKIPSTONE_HD SKIPSTONE_INLINE NoSlipCoefficients noslip_coefficients(double gamma) {
  const double g2 = gamma * gamma;
  return {(1.0 - g2) / (1.0 + g2), 2.0 * gamma / (1.0 + g2)};
}

// The coefficients of a double setup in the float kernels' type.
template <class T>
SKIPSTONE_HD SKIPSTONE_INLINE NoSlipCoefficientsT<T> coefficients_as(NoSlipCoefficients k) {
  return {static_cast<T>(k.c_beta), static_cast<T>(k.s_beta)};
}

// beta in [0, pi) from gamma >= 0: tan(beta/2) = gamma.
SKIPSTONE_HD SKIPSTONE_INLINE double beta_from_gamma(double gamma) { return 2.0 * atan(gamma); }
SKIPSTONE_HD SKIPSTONE_INLINE double gamma_from_beta(double beta) { return tan(0.5 * beta); }
SKIPSTONE_HD SKIPSTONE_INLINE double eta_from_gamma(double gamma) { return gamma / sqrt(1.0 + gamma * gamma); }
SKIPSTONE_HD SKIPSTONE_INLINE double gamma_from_eta(double eta) { return eta / sqrt(1.0 - eta * eta); }

}  // namespace skipstone
