// One run of a body rolling on a horizontal plane moved by the point masses of a driven rig
// (driven_rig.hpp): driven:disk and driven:ball share it. The model's state, with the time and the
// work of the drive's motors in it, is integrated by GBS extrapolation (gbs.hpp) with error
// control, every step ending exactly on the drive's kinks t1, t2 (the right-hand side is smooth
// only between them) and at t_max, no step turning any angle by more than kDrivenAngleStep. Along
// the way the contact force is watched at every accepted step end (Eq. 1.1-1.3): the least N/M
// (normal_force_min), the largest |f|/N where N > 0 (friction_ratio_max: the least static friction
// coefficient the path needs; +inf once N <= 0 with friction, contact_force.hpp), and the first
// times at which N <= 0 (detach_time) and |f| > mu_s N (slip_time), located inside their step by
// bisection on recomputed partial steps.
// The rolling equations are followed to t_max regardless: after detach_time or slip_time the path
// is no longer physical, which those two observables say. energy_error: the work-energy balance
// |E - E(0) - W| over the run, relative to the largest kinetic energy plus M |g| r (without drive
// W = 0 and it is plain energy conservation).
// The drive's clock is part of the state: a start from a row of a state file (a run's
// final_state) sets it, the run goes on for t_max from there, and t_end, detach_time, slip_time
// and the events' times count from the start, as on every system.
//
// A Model gives: N, kTime, kWork (state size and where t and W are), rig, rhs(y, f) (y' = f),
// initial(spec, pt, y) (the start but the clock, or a state row's; false: masked), contact(y) (N
// and |f| in force units), energy(y), kinetic(y), rate(y) (the fastest angle's rate), emit(y, y0,
// sink) (the sink's view of an accepted step), observe(y, res) (its own observables, at the start
// and after every accepted step) and write_state_row(y, y0, row) (final_state).
#pragma once
#include <cmath>
#include <cstdint>
#include <limits>

#include "skipstone/final_state.hpp"
#include "skipstone/gbs.hpp"
#include "skipstone/result.hpp"
#include "skipstone/rolling/contact_force.hpp"
#include "skipstone/rolling/driven_rig.hpp"

namespace skipstone {

constexpr int kDrivenDepth = 6;              // GBS extrapolation depth: order 12
constexpr double kDrivenAngleStep = 0.05;    // largest turn of any angle in one step (radians)
constexpr int kDrivenLocateIterations = 60;  // bisections of a step that holds a contact event
constexpr double kDrivenMinStep = 1e-14;     // smallest step, relative to 1 + t

// The contact force at one state: the normal part N and |friction|, in force units.
struct DrivenContact {
  double N, f;
};

// The two contact conditions as margins, > 0 while they hold: N (1.1), mu_s N - |f| (1.2).
enum class ContactEvent { detach, slip };

SKIPSTONE_HD SKIPSTONE_INLINE double contact_margin(const DrivenRig& rig, const DrivenContact& F, ContactEvent e) {
  return e == ContactEvent::detach ? F.N : rig.mu_s * F.N - F.f;
}

// The time in (t0, t0 + h] at which `e`'s margin first drops to <= 0, given that it holds at
// y0 and fails at the step's end.
template <class Model>
SKIPSTONE_HD double locate_contact_event(const Model& model, const double* y0, double h, double rtol, double atol,
                                         ContactEvent e) {
  double lo = 0.0, hi = 1.0, yt[Model::N];
  for (int it = 0; it < kDrivenLocateIterations; ++it) {
    const double mid = 0.5 * (lo + hi);
    gbs_step<Model::N, kDrivenDepth>(model, y0, mid * h, yt, rtol, atol);
    (contact_margin(model.rig, model.contact(yt), e) > 0.0 ? lo : hi) = mid;
  }
  return y0[Model::kTime] + hi * h;
}

// The contact observables along the run.
struct ContactWatch {
  double n_min = INFINITY, ratio_max = 0.0;  // |f| / N >= 0: 0 where N > 0 nowhere
  double detach = std::numeric_limits<double>::quiet_NaN(), slip = std::numeric_limits<double>::quiet_NaN();
  bool detached = false, slipped = false;
  bool unbounded = false;  // some step end needs unbounded friction (needs_unbounded_friction)

  SKIPSTONE_HD void see(const DrivenContact& F, double M) {
    n_min = fmin(n_min, F.N / M);
    if (F.N > 0.0) ratio_max = fmax(ratio_max, F.f / F.N);
    unbounded = unbounded || needs_unbounded_friction(F.N, F.f);
  }
  SKIPSTONE_HD double friction_needed() const {
    return unbounded ? INFINITY : ratio_max;
  }
};

template <class Model, class Sink>
SKIPSTONE_HD TrajectoryResult simulate_driven(const ScanSpec& spec, const ScanPoint& pt, const Model& model,
                                              Sink& sink) {
  const DrivenRig& rig = model.rig;
  constexpr int N = Model::N, kTime = Model::kTime, kWork = Model::kWork;
  const double M = rig_mass(rig), scale0 = M * fabs(rig.g) * rig.r;
  double* const final_row = take_state_row(sink);
  double y[N], yn[N], y0[N];
  if (!model.initial(spec, pt, y)) return masked_result();
  y[kTime] = spec.start == StartKind::state ? pt.p[P_CLOCK] : 0.0;
  y[kWork] = 0.0;
  for (int i = 0; i < N; ++i) y0[i] = y[i];
  const double t0 = y[kTime], t_stop = t0 + spec.t_max;
  const double E0 = model.energy(y);
  double T_max = model.kinetic(y), err_max = 0.0;

  TrajectoryResult res = empty_result();
  ContactWatch watch;
  const DrivenContact F = model.contact(y);
  watch.see(F, M);
  if (!(contact_margin(rig, F, ContactEvent::detach) > 0.0)) {
    watch.detached = true;
    watch.detach = 0.0;
  }
  if (!(contact_margin(rig, F, ContactEvent::slip) > 0.0)) {
    watch.slipped = true;
    watch.slip = 0.0;
  }
  model.observe(y, res);
  model.emit(y, y0, sink);

  double t = t0, H = INFINITY;
  std::uint64_t steps = 0;
  while (t < t_stop) {
    if (steps >= spec.max_steps) {
      res.status = Status::integrator_failure;
      break;
    }
    const double rate = fmax(sqrt(fabs(rig.g) / rig.r), model.rate(y));
    double h = fmin(H, rate > 0.0 ? kDrivenAngleStep / rate : INFINITY);
    const double end = fmin(next_drive_break(rig, t), t_stop);
    const bool landing = t + h >= end;
    if (landing) h = end - t;
    const double err = gbs_step<N, kDrivenDepth>(model, y, h, yn, spec.rtol, spec.atol);
    ++steps;
    if (!(err <= 1.0)) {
      H = h * gbs_step_factor<kDrivenDepth>(err);
      if (!(H >= kDrivenMinStep * (1.0 + t))) {
        res.status = Status::integrator_failure;
        break;
      }
      continue;
    }
    yn[kTime] = landing ? end : t + h;  // exactly on a kink or at the end
    bool finite = true;
    for (int i = 0; i < N; ++i) finite = finite && isfinite(yn[i]);
    if (!finite) {
      res.status = Status::non_finite;
      break;
    }
    const DrivenContact Fn = model.contact(yn);
    if (!watch.detached && !(contact_margin(rig, Fn, ContactEvent::detach) > 0.0)) {
      watch.detached = true;
      watch.detach = locate_contact_event(model, y, h, spec.rtol, spec.atol, ContactEvent::detach) - t0;
    }
    if (!watch.slipped && !(contact_margin(rig, Fn, ContactEvent::slip) > 0.0)) {
      watch.slipped = true;
      watch.slip = locate_contact_event(model, y, h, spec.rtol, spec.atol, ContactEvent::slip) - t0;
    }
    watch.see(Fn, M);
    for (int i = 0; i < N; ++i) y[i] = yn[i];
    t = y[kTime];
    T_max = fmax(T_max, model.kinetic(y));
    const double defect = fabs(model.energy(y) - E0 - y[kWork]), scale = T_max + scale0;
    err_max = fmax(err_max, scale > 0.0 ? defect / scale : defect);
    model.observe(y, res);
    model.emit(y, y0, sink);
    if (err_max > spec.energy_tolerance) {
      res.status = Status::energy_drift;
      break;
    }
    H = h * gbs_step_factor<kDrivenDepth>(err);
  }
  res.steps = steps;
  res.t_end = t - t0;
  if (final_row) model.write_state_row(y, y0, final_row);
  res.energy_error = err_max;
  res.normal_force_min = watch.n_min;
  res.friction_ratio_max = watch.friction_needed();
  res.detach_time = watch.detach;
  res.slip_time = watch.slip;
  return res;
}

}  // namespace skipstone
