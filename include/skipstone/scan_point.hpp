// From (spec, trajectory index) to that trajectory's parameter values: grid axes vary
// fastest-first (axis 0 is the x axis of a map), random samples draw every axis from the
// counter-based generator with stream = axis number, and a start from a file of states takes
// the state parameters from row `index` of the file.
#pragma once
#include "skipstone/inertia.hpp"
#include "skipstone/rng.hpp"
#include "skipstone/scan_spec.hpp"

namespace skipstone {

struct ScanPoint {
  double p[kParamCount];
};

SKIPSTONE_HD SKIPSTONE_INLINE double grid_value(const AxisSpec& a, std::uint64_t i) {
  if (a.n <= 1) return a.min;
  return a.min + (a.max - a.min) * (static_cast<double>(i) / static_cast<double>(a.n - 1));
}

SKIPSTONE_HD SKIPSTONE_INLINE ScanPoint scan_point(const ScanSpec& spec, std::uint64_t index) {
  ScanPoint pt;
  for (int k = 0; k < kParamCount; ++k) pt.p[k] = spec.params[k];
  std::uint64_t rest = index;
  for (int j = 0; j < spec.n_axes; ++j) {
    const AxisSpec& a = spec.axes[j];
    if (spec.random) {
      pt.p[a.param] = a.min + (a.max - a.min) * uniform01(spec.seed, index, static_cast<std::uint32_t>(j));
    } else {
      pt.p[a.param] = grid_value(a, rest % a.n);
      rest /= a.n;
    }
  }
  if (spec.state_rows)
    for (int c = 0; c < spec.state_columns; ++c)
      pt.p[spec.state_params[c]] = spec.state_rows[(index - spec.state_first) * static_cast<std::uint64_t>(spec.state_columns) + c];
  return pt;
}

// gamma of the trajectory, whichever of gamma, eta, beta the config gave.
SKIPSTONE_HD SKIPSTONE_INLINE double point_gamma(const ScanSpec& spec, const ScanPoint& pt) {
  const double m = pt.p[P_MOMENT];
  switch (spec.moment) {
    case MomentForm::eta: return gamma_from_eta(m);
    case MomentForm::beta: return gamma_from_beta(m);
    default: return m;
  }
}

}  // namespace skipstone
