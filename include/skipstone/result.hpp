// Per-trajectory observables (docs/config.md, "Observables"), one plain struct for every model family so
// that kernels, reductions and writers share one layout. Fields that do not apply to a model
// stay NaN.
#pragma once
#include <cstdint>
#include <limits>

#include "skipstone/hd.hpp"
#include "skipstone/status.hpp"

namespace skipstone {

// Exponents in lyapunov_spectrum: one per dimension of the 2D no-slip phase space (x, y, u, v, s).
constexpr int kLyapunovSpectrumLength = 5;

struct TrajectoryResult {
  Status status;
  std::int32_t exit_side;  // +1 same side (friendly roll), -1 opposite side, 0 none by t_max
  std::uint64_t events;    // impacts, or rim crossings for rolling models
  std::uint64_t steps;     // integrator steps tried (accepted and rejected) of roll4:disc(-transversal), else 0
  double t_end;
  double energy_error;  // max relative energy error over the run
  double z_min, z_max, z_final, z_drift;
  double bounded;  // 1 when the height stayed above z0 - bounded_depth, else 0
  double rho_even, rho_odd, caustic_gap;
  double annulus_axis[3];
  double annulus_width;
  double exit_time, exit_arc;
  double lyapunov, lyapunov_per_event;  // largest finite-time exponent per unit time, per impact
  double lyapunov_spectrum[kLyapunovSpectrumLength];
  // |tangential| / normal impulse of the no-slip impacts: the largest and the mean
  double impulse_ratio_max, impulse_ratio_mean;
  double escape_time;  // when the trajectory left through a hole (stop.holes), NaN if it did not
  double hole;         // the index in stop.holes of the hole it left through, -1 none
  double mean_free_time;  // (t of the last impact - t of the first) / (impacts - 1), NaN below 2 impacts
  double coverage;        // fraction of the cells of outputs.coverage its impacts visited
  // The contact force of a rolling body on its floor (Eq. 1.1-1.3 of the rolling-robot model):
  double normal_force_min;    // least N / M over the path (force per unit of total mass)
  double friction_ratio_max;  // largest |f| / N over the times with N > 0, NaN if none
  double detach_time;         // first time with N <= 0, NaN if never
  double slip_time;           // first time with |f| > mu_s N, NaN if never
};
SKIPSTONE_HD SKIPSTONE_INLINE TrajectoryResult empty_result() {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  TrajectoryResult r;
  r.status = Status::finished;
  r.exit_side = 0;
  r.events = 0;
  r.steps = 0;
  r.t_end = 0.0;
  r.energy_error = nan;
  r.z_min = r.z_max = r.z_final = r.z_drift = nan;
  r.bounded = nan;
  r.rho_even = r.rho_odd = r.caustic_gap = nan;
  r.annulus_axis[0] = r.annulus_axis[1] = r.annulus_axis[2] = nan;
  r.annulus_width = nan;
  r.exit_time = r.exit_arc = nan;
  r.lyapunov = r.lyapunov_per_event = nan;
  for (double& l : r.lyapunov_spectrum) l = nan;
  r.impulse_ratio_max = r.impulse_ratio_mean = nan;
  r.escape_time = nan;
  r.hole = -1.0;
  r.mean_free_time = r.coverage = nan;
  r.normal_force_min = r.friction_ratio_max = r.detach_time = r.slip_time = nan;
  return r;
}

// The result of a trajectory whose initial condition lies outside the allowed set.
SKIPSTONE_HD SKIPSTONE_INLINE TrajectoryResult masked_result() {
  TrajectoryResult r = empty_result();
  r.status = Status::masked;
  return r;
}

}  // namespace skipstone
