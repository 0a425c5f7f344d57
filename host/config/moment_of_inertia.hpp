// The three forms of the moment of inertia a config may give (parameters or a scan axis):
// gamma, eta = gamma/sqrt(1+gamma^2) and beta with gamma = tan(beta/2) (docs/config.md
// "Moment of inertia"), their allowed ranges and gamma from each.
#pragma once
#include <string>

#include "skipstone/inertia.hpp"
#include "skipstone/scan_spec.hpp"

namespace skipstone {

inline bool is_moment(const std::string& n) { return n == "gamma" || n == "eta" || n == "beta"; }

inline MomentForm moment_form(const std::string& n) {
  return n == "eta" ? MomentForm::eta : (n == "beta" ? MomentForm::beta : MomentForm::gamma);
}

inline bool moment_ok(MomentForm f, double v) {
  switch (f) {
    case MomentForm::gamma: return v >= 0.0;
    case MomentForm::eta: return v >= 0.0 && v < 1.0;
    default: return v >= 0.0 && v < kPi;
  }
}

inline const char* moment_allowed(MomentForm f) {
  switch (f) {
    case MomentForm::gamma: return ">= 0";
    case MomentForm::eta: return "in [0, 1)";
    default: return "in [0, pi)";
  }
}

inline double gamma_of(MomentForm f, double v) {
  switch (f) {
    case MomentForm::eta: return gamma_from_eta(v);
    case MomentForm::beta: return gamma_from_beta(v);
    default: return v;
  }
}

}  // namespace skipstone
