// roll3:inside-cylinder with noisy constraints (docs/models.md, "Noisy constraints on
// roll3:inside-cylinder"): the two Stratonovich perturbations of the rolling constraint of
// roll3_inside_cylinder.hpp, with the Ornstein-Uhlenbeck noise of noisy_transversal.hpp. The
// ball is on the curved wall all the time, so both noises act all the time (on the rolling tables
// roughness acts on the edge passages only, slip on the faces too).
//
// Derivation (unit mass, I = gamma^2 r^2, the frame and variables of roll3_inside_cylinder.hpp).
// Slip (type 1): the contact point moves at u = n1 e_theta + n2 e3, a' + r omega x e_rho = u, so
// rho theta' = -r omega_3 + n1 and z' = r omega_theta + n2. The torque equation's e3 component
// gives (1 + gamma^2) rho theta'' = gamma^2 n1', its e_theta component
// (1 + gamma^2) z'' = gamma^2 n2' - g - gamma^2 r omega_rho theta', and omega_rho' = theta'
// omega_theta as without noise. With eta^2 = gamma^2 / (1 + gamma^2), the rolling part
// W = v - eta^2 u of the centre's velocity v and s = eta r omega_rho:
//     W1' = 0,   W2' = -(eta v1 / rho) s - g_eff,   s' = (eta v1 / rho) (v2 - n2),
//     theta' = v1 / rho,   z' = v2,   (v1, v2) = W + eta^2 (n1, n2),
// the rim's slip equations (noisy_transversal.hpp) on this wall. The energy
// (W1^2 + W2^2 + s^2) / 2 + g_eff z is not conserved: the contact exchanges it.
// Roughness (type 2): the wall's normal turns at (1 + n1) times the smooth rate, so the shape
// operator in the reaction terms is (1 + n1) / rho: every eta above becomes eta (1 + n1), with
// u = 0. The (v2, s) block stays skew and the energy is conserved on every noise path; the
// steps are projected onto it ((W2, s) rescaled), as the rough rim passages are.
// The start's v1, v2 are the rolling part W; n starts from its stationary law. A start from a
// state row takes the row's velocity as the centre's (the rows' u is v) and its noise columns
// as n where it has them (row_noise): W = v - eta^2 n under slip. The final state's noise
// columns are n at the end (roughness: n1, and NaN). The state
// y = (theta - theta0, z, W1, W2, s, n1, n2) is integrated by the stochastic Heun scheme with the
// fixed step noise_dt (strong order 1); a turn (theta - theta0 reaching 2 pi k in the direction
// of the start's v1) is located on the cubic Hermite interpolant of theta over the step, and the
// state there is the Hermite interpolant of the smooth components. The sink sees the rows of
// roll3_inside_cylinder.hpp at the start, at every turn and at the end, with u = v (the
// centre's velocity); a sink that asks for samples gets them inside the steps on the same
// interpolant (noisy_samples.hpp), and the Poincare sections search the steps on the straight
// line between their ends, as on the noisy edge passages. z_min and z_max are those of the step
// ends and turns.
#pragma once
#include <cmath>
#include <cstdint>

#include "skipstone/rolling/noisy_samples.hpp"
#include "skipstone/rolling/noisy_transversal.hpp"
#include "skipstone/rolling/roll3_inside_cylinder.hpp"
#include "skipstone/section_map.hpp"

namespace skipstone {

struct NoisyInsideCylinderSystem {
  double rho, eta, G;
  double k_total;  // W1^2 + W2^2 + s^2 + 2 G z at the start: twice the energy roughness keeps
  OuNoise noise;
  static constexpr int N = 7;
  static constexpr int kFirstNoise = 5;  // n_i is y[kFirstNoise + i]

  SKIPSTONE_HD int noises() const { return noise.noises(); }
  SKIPSTONE_HD double diffusion() const { return noise.diffusion(); }
  // The centre's velocity (v1, v2) along (e_theta, e3).
  SKIPSTONE_HD void velocity(const double* y, double& v1, double& v2) const {
    const double e2 = noise.kind == kNoiseSlip ? eta * eta : 0.0;
    v1 = y[2] + e2 * y[5];
    v2 = y[3] + e2 * y[6];
  }
  SKIPSTONE_HD void drift(const double* y, double* f) const {
    double v1, v2;
    velocity(y, v1, v2);
    const double e = noise.kind == kNoiseRoughness ? eta * (1.0 + y[5]) : eta;
    const double u2 = noise.kind == kNoiseSlip ? y[6] : 0.0;
    const double rate = e * v1 / rho;
    f[0] = v1 / rho;
    f[1] = v2;
    f[2] = 0.0;
    f[3] = -rate * y[4] - G;
    f[4] = rate * (v2 - u2);
    noise.drift(y + kFirstNoise, f + kFirstNoise);
  }
  // Roughness: (W2, s) onto the energy k_total - W1^2 - 2 G z; slip: nothing.
  SKIPSTONE_HD void project(double* y) const {
    if (noise.kind != kNoiseRoughness) return;
    const double target = k_total - y[2] * y[2] - 2.0 * G * y[1], k = y[3] * y[3] + y[4] * y[4];
    if (target > 0.0 && k > 0.0) {
      const double f = sqrt(target / k);
      y[3] *= f;
      y[4] *= f;
    }
  }
  SKIPSTONE_HD DiscRow row(const double* y, double theta0) const {
    double v1, v2;
    velocity(y, v1, v2);
    return inside_cylinder_row(rho, theta0 + y[0], v1, v2, y[4], y[1]);
  }
};

// The rows of the states, for the samples inside the steps (SampledSteps' `steps`).
struct NoisyCylinderRows {
  const NoisyInsideCylinderSystem& sys;
  double theta0;
  SKIPSTONE_HD DiscRow row(const double* y) const { return sys.row(y, theta0); }
  SKIPSTONE_HD void on_step(double, const double*) {}
};

// What a sink without samples keeps of the steps: nothing.
struct NoCylinderSamples {
  SKIPSTONE_HD void on_step(double, const double*) {}
};

template <class Sink>
SKIPSTONE_HD auto noisy_cylinder_samples(NoisyCylinderRows& rows, Sink& sink) {
  if constexpr (wants_samples<Sink>::value) {
    return SampledNoisySteps<NoisyInsideCylinderSystem, NoisyCylinderRows, Sink>{rows, sink, {rows.sys}, 0.0};
  } else {
    return NoCylinderSamples{};
  }
}

// One step from y0 to y1 over h, as a curve for the Poincare sections (section_map.hpp:
// SectionSink::on_step_curve): the straight line between the ends (the states inside a step of
// the stochastic scheme are not the scheme's), the rows of the states on it.
struct NoisyCylinderStepCurve {
  const NoisyInsideCylinderSystem& sys;
  double theta0;
  const double* y0;
  const double* y1;
  double h, resolution;
  SKIPSTONE_HD void at(double t, double* x, double* v, double* row) const {
    constexpr int N = NoisyInsideCylinderSystem::N;
    double ys[N];
    const double* y = t <= 0.0 ? y0 : y1;
    if (t > 0.0 && t < h) {
      const double along = t / h;
      for (int i = 0; i < N; ++i) ys[i] = y0[i] + along * (y1[i] - y0[i]);
      y = ys;
    }
    const DiscRow e = sys.row(y, theta0);
    x[0] = e.x.x, x[1] = e.x.y, x[2] = e.x.z;
    v[0] = e.state.u.x, v[1] = e.state.u.y, v[2] = e.state.u.z;
    write_state_row(e.x, e.state, row);
  }
};

// One roll3:inside-cylinder trajectory with noisy constraints (noise != 0, double only) on the
// Brownian path of `counter`.
template <class Sink>
SKIPSTONE_HD TrajectoryResult noisy_inside_cylinder_run(const ScanSpec& spec, const ScanPoint& pt,
                                                        const CounterNoise& counter, Sink& sink) {
  constexpr int N = NoisyInsideCylinderSystem::N, F = NoisyInsideCylinderSystem::kFirstNoise;
  InsideCylinderState c;
  if (!inside_cylinder_setup(spec, pt, c)) return masked_result();
  const OuNoise noise = noise_of(pt);
  const double h = pt.p[P_NOISE_DT];
  const double energy_tolerance = noise.kind == kNoiseSlip ? INFINITY : spec.energy_tolerance;  // slip: exchanged
  double y[N] = {0.0, c.h0.z, c.v1, c.h0.a, c.h0.b, 0.0, 0.0};
  const double* stored = row_noise(spec, pt);
  for (int i = 0; i < noise.noises(); ++i) y[F + i] = stored ? stored[i] : noise.sigma * counter.initial(i);
  if (spec.start == StartKind::state && noise.kind == kNoiseSlip) {  // a row's velocity is the centre's
    y[2] -= c.eta * c.eta * y[F];
    y[3] -= c.eta * c.eta * y[F + 1];
  }
  const double k0 = y[2] * y[2] + y[3] * y[3] + y[4] * y[4];
  const NoisyInsideCylinderSystem sys{c.rho, c.eta, c.G, k0 + 2.0 * c.G * c.h0.z, noise};
  const double dir = c.v1 < 0.0 ? -1.0 : 1.0;  // the turns are counted in the start's direction
  NoisyCylinderRows rows{sys, c.theta0};
  auto samples = noisy_cylinder_samples(rows, sink);
  const auto resolution = [](double t) { return ScalarConstants<double>::rim_newton * (1.0 + t); };
  const auto emit = [&](double t, const double* ys) {
    const DiscRow e = sys.row(ys, c.theta0);
    sink.on_event(t, e.x, e.state, e.nu);
  };
  HeightStats ob;
  ob.start(c.h0.z);
  double f0[N], f1[N], y1[N], yt[N], dW[2] = {0.0, 0.0};
  sys.drift(y, f0);
  emit(0.0, y);
  samples.on_step(0.0, y);
  std::uint64_t steps = 0, events = 0;
  double t = 0.0, max_err = 0.0;
  Status status = Status::finished;
  bool ended_on_turn = false;
  while (events < spec.max_events) {
    if (!(spec.t_max - t > 1e-9 * h)) {
      t = spec.t_max;
      break;
    }
    if (steps >= spec.max_steps) {
      status = Status::integrator_failure;
      break;
    }
    const bool to_end = spec.t_max - t < h;  // the last step, shortened to end at t_max
    const double hs = to_end ? spec.t_max - t : h;
    for (int i = 0; i < sys.noises(); ++i) dW[i] = counter.increment(i, steps, hs);
    heun_step(sys, y, f0, hs, dW, y1);
    sys.project(y1);
    sys.drift(y1, f1);
    ++steps;
    bool finite = true;
    for (int k = 0; k < N; ++k) finite = finite && isfinite(y1[k]);
    if (!finite) {
      status = Status::non_finite;
      break;
    }
    const double t1 = to_end ? spec.t_max : static_cast<double>(steps) * h;
    // the turns completed inside the step: dir (theta - theta0) passing 2 pi (events + 1)
    while (events < spec.max_events) {
      const double level = 2.0 * kPi * static_cast<double>(events + 1);
      const double g1 = level - dir * y1[0];
      if (!(g1 < 0.0)) break;
      const double s = noisy_exit_theta(level - dir * y[0], -dir * hs * f0[0], g1, -dir * hs * f1[0]);
      noisy_step_between<N, F>(y, f0, y1, f1, hs, s < 0.0 ? 1.0 : s, yt);
      yt[0] = dir * level;  // on the turn
      const double tt = s < 0.0 ? t1 : t + s * hs;
      ++events;
      emit(tt, yt);
      ob.sample(tt, yt[1]);
      ended_on_turn = events >= spec.max_events;
      if (ended_on_turn) {  // the run ends here: the step's part up to the turn
        report_step(sink, t, tt - t, NoisyCylinderStepCurve{sys, c.theta0, y, yt, tt - t, resolution(t)});
        samples.on_step(tt, yt);
        for (int k = 0; k < N; ++k) y[k] = yt[k];
        t = tt;
      }
    }
    if (ended_on_turn) break;
    report_step(sink, t, hs, NoisyCylinderStepCurve{sys, c.theta0, y, y1, hs, resolution(t)});
    for (int k = 0; k < N; ++k) {
      y[k] = y1[k];
      f0[k] = f1[k];
    }
    t = t1;
    ob.extremum(y[1]);
    samples.on_step(t, y);
    const double k = y[2] * y[2] + y[3] * y[3] + y[4] * y[4];
    const double err = rolling_energy_defect(k, k0, c.G, y[1], c.h0.z);
    max_err = err > max_err ? err : max_err;
    if (err > energy_tolerance) {
      status = Status::energy_drift;
      break;
    }
  }
  if (!ended_on_turn && t > 0.0) {  // the end, unless a turn or the start was the last row
    ob.sample(t, y[1]);
    emit(t, y);
  }
  if (double* row = take_state_row(sink)) {  // the last row's (final_state), then the noise columns
    constexpr int kStateColumns = 9;          // x, y, z, u, w (final_state.hpp)
    row[kStateColumns] = y[F];
    row[kStateColumns + 1] = noise.kind == kNoiseSlip ? y[F + 1] : NAN;
  }
  TrajectoryResult res = rolling_result(status, events, t, max_err, ob, y[1], spec.bounded_depth);
  res.steps = steps;
  return res;
}

// Trajectory `index` with the noise of (seed, index, realisation) (noisy_transversal.hpp:
// trajectory_noise_key).
template <class Sink>
SKIPSTONE_HD TrajectoryResult simulate_noisy_inside_cylinder(const ScanSpec& spec, const ScanPoint& pt,
                                                             std::uint64_t index, Sink& sink) {
  return noisy_inside_cylinder_run(spec, pt, CounterNoise{trajectory_noise_key(spec, pt, index)}, sink);
}

}  // namespace skipstone
