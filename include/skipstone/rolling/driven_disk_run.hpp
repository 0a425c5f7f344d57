// driven:disk, one run: the state (5.1) with the time and the motors' work (driven_disk.hpp)
// integrated by GBS extrapolation (gbs.hpp) with error control, every step ending exactly on
// the drive's kinks t1, t2 (the right-hand side is smooth only between them) and at t_max, no
// step turning any angle (phi, theta_i) by more than kDrivenAngleStep. Along the way the contact
// force is watched at every accepted step end (Eq. 1.1-1.3): the least N/M (normal_force_min),
// the largest |f|/N where N > 0 (friction_ratio_max: the least static friction coefficient the
// path needs), and the first times at which N <= 0 (detach_time) and |f| > mu_s N (slip_time),
// located inside their step by bisection on recomputed partial steps. The rolling equations are
// followed to t_max regardless: after detach_time or slip_time the path is no longer physical,
// which those two observables say. energy_error: the work-energy balance |E - E(0) - W| over
// the run, relative to the largest kinetic energy plus M |g| r (without drive W = 0 and it is
// plain energy conservation). The sink sees every accepted step as an event in the e1-e3 plane:
// the centre (-r (phi - phi(0)), r), its velocity (-r phi', 0), "spin" phi', contact normal e3.
#pragma once
#include <cmath>
#include <cstdint>
#include <limits>

#include "skipstone/collision.hpp"
#include "skipstone/gbs.hpp"
#include "skipstone/result.hpp"
#include "skipstone/rolling/driven_disk.hpp"

namespace skipstone {

constexpr int kDrivenDepth = 6;              // GBS extrapolation depth: order 12
constexpr double kDrivenAngleStep = 0.05;    // largest turn of any angle in one step (radians)
constexpr int kDrivenLocateIterations = 60;  // bisections of a step that holds a contact event
constexpr double kDrivenMinStep = 1e-14;     // smallest step, relative to 1 + t

// The two contact conditions as margins, > 0 while they hold: N (1.1), mu_s N - |f| (1.2).
enum class ContactEvent { detach, slip };

SKIPSTONE_HD SKIPSTONE_INLINE double contact_margin(const DrivenRig& rig, const DiskForces& F, ContactEvent e) {
  return e == ContactEvent::detach ? F.N : rig.mu_s * F.N - fabs(F.f);
}

// The time in (t0, t0 + h] at which `e`'s margin first drops to <= 0, given that it holds at
// y0 and fails at the step's end.
SKIPSTONE_HD inline double locate_contact_event(const DrivenDiskSystem& sys, const double* y0, double h, double rtol,
                                                double atol, ContactEvent e) {
  double lo = 0.0, hi = 1.0, yt[kDiskStateSize];
  for (int it = 0; it < kDrivenLocateIterations; ++it) {
    const double mid = 0.5 * (lo + hi);
    gbs_step<kDiskStateSize, kDrivenDepth>(sys, y0, mid * h, yt, rtol, atol);
    (contact_margin(sys.rig, driven_disk_forces(sys.rig, yt), e) > 0.0 ? lo : hi) = mid;
  }
  return y0[kDiskTime] + hi * h;
}

// The contact observables along the run.
struct ContactWatch {
  double n_min = INFINITY, ratio_max = -INFINITY;
  double detach = std::numeric_limits<double>::quiet_NaN(), slip = std::numeric_limits<double>::quiet_NaN();
  bool detached = false, slipped = false;

  SKIPSTONE_HD void see(const DiskForces& F, double M) {
    n_min = fmin(n_min, F.N / M);
    if (F.N > 0.0) ratio_max = fmax(ratio_max, fabs(F.f) / F.N);
  }
};

template <class Sink>
SKIPSTONE_HD void emit_disk_step(const DrivenRig& rig, const double* y, double phi0, Sink& sink) {
  const double r = rig.r, phid = y[kDiskPhiDot];
  sink.on_event(y[kDiskTime], Vec2{-r * (y[kDiskPhi] - phi0), r}, State2D{Vec2{-r * phid, 0.0}, phid},
                Vec2{0.0, 1.0});
}

template <class Sink>
SKIPSTONE_HD TrajectoryResult simulate_driven_disk(const ScanSpec& spec, const ScanPoint& pt, Sink& sink) {
  const DrivenRig rig = driven_rig(spec, pt);
  const DrivenDiskSystem sys{rig};
  constexpr int N = kDiskStateSize;
  const double M = rig_mass(rig), scale0 = M * fabs(rig.g) * rig.r;
  double y[N], yn[N];
  for (int i = 0; i < kDrivenMasses; ++i) {
    y[kDiskTheta + i] = pt.p[P_THETA];
    y[kDiskThetaDot + i] = 0.0;
  }
  y[kDiskPhi] = pt.p[P_ANGLE];
  y[kDiskPhiDot] = -pt.p[P_SPEED] / rig.r;
  y[kDiskTime] = 0.0;
  y[kDiskWork] = 0.0;
  const double phi0 = y[kDiskPhi], E0 = driven_disk_energy(rig, y);
  double T_max = driven_disk_kinetic(rig, y), err_max = 0.0;

  TrajectoryResult res = empty_result();
  ContactWatch watch;
  DiskForces F = driven_disk_forces(rig, y);
  watch.see(F, M);
  if (!(contact_margin(rig, F, ContactEvent::detach) > 0.0)) {
    watch.detached = true;
    watch.detach = 0.0;
  }
  if (!(contact_margin(rig, F, ContactEvent::slip) > 0.0)) {
    watch.slipped = true;
    watch.slip = 0.0;
  }
  emit_disk_step(rig, y, phi0, sink);

  double t = 0.0, H = INFINITY;
  std::uint64_t steps = 0;
  while (t < spec.t_max) {
    if (steps >= spec.max_steps) {
      res.status = Status::integrator_failure;
      break;
    }
    double rate = fmax(sqrt(fabs(rig.g) / rig.r), fabs(y[kDiskPhiDot]));  // the fastest angle
    for (int i = 0; i < kDrivenMasses; ++i) rate = fmax(rate, fabs(y[kDiskThetaDot + i]));
    double h = fmin(H, rate > 0.0 ? kDrivenAngleStep / rate : INFINITY);
    const double end = fmin(next_drive_break(rig, t), spec.t_max);
    const bool landing = t + h >= end;
    if (landing) h = end - t;
    const double err = gbs_step<N, kDrivenDepth>(sys, y, h, yn, spec.rtol, spec.atol);
    ++steps;
    if (!(err <= 1.0)) {
      H = h * gbs_step_factor<kDrivenDepth>(err);
      if (!(H >= kDrivenMinStep * (1.0 + t))) {
        res.status = Status::integrator_failure;
        break;
      }
      continue;
    }
    yn[kDiskTime] = landing ? end : t + h;  // exactly on a kink or t_max
    bool finite = true;
    for (int i = 0; i < N; ++i) finite = finite && isfinite(yn[i]);
    if (!finite) {
      res.status = Status::non_finite;
      break;
    }
    const DiskForces Fn = driven_disk_forces(rig, yn);
    if (!watch.detached && !(contact_margin(rig, Fn, ContactEvent::detach) > 0.0)) {
      watch.detached = true;
      watch.detach = locate_contact_event(sys, y, h, spec.rtol, spec.atol, ContactEvent::detach);
    }
    if (!watch.slipped && !(contact_margin(rig, Fn, ContactEvent::slip) > 0.0)) {
      watch.slipped = true;
      watch.slip = locate_contact_event(sys, y, h, spec.rtol, spec.atol, ContactEvent::slip);
    }
    watch.see(Fn, M);
    for (int i = 0; i < N; ++i) y[i] = yn[i];
    t = y[kDiskTime];
    T_max = fmax(T_max, driven_disk_kinetic(rig, y));
    const double defect = fabs(driven_disk_energy(rig, y) - E0 - y[kDiskWork]), scale = T_max + scale0;
    err_max = fmax(err_max, scale > 0.0 ? defect / scale : defect);
    emit_disk_step(rig, y, phi0, sink);
    if (err_max > spec.energy_tolerance) {
      res.status = Status::energy_drift;
      break;
    }
    H = h * gbs_step_factor<kDrivenDepth>(err);
  }
  res.steps = steps;
  res.t_end = t;
  res.energy_error = err_max;
  res.normal_force_min = watch.n_min;
  res.friction_ratio_max = watch.ratio_max > -INFINITY ? watch.ratio_max : 0.0;
  res.detach_time = watch.detach;
  res.slip_time = watch.slip;
  return res;
}

}  // namespace skipstone
