// rubber:sphere: the rubber Chaplygin sphere. A ball of radius |b| and mass mu whose centre of
// mass is its geometric centre, with principal moments A = diag(I1, I2, I3), rolls without
// slipping and without twisting (no spin about the contact normal) on a fixed sphere of radius
// a: b > 0 outside it, -a < b < 0 inside it, b < -a around it (the fixed sphere inside the ball).
// No gravity. Body-frame state: the angular velocity Omega and the Poisson vector gamma (the
// unit normal of the fixed sphere at the contact, from its centre outwards, in the body frame).
//
// Derivation (checked by hand and in tests/test_rubber_sphere.cpp). The centre is at
// x = (a + b) n with n = R gamma; the contact point is x - b n. No slip: x' = b omega x n, so
// n' = b/(a+b) omega x n and, in the body frame,
//     gamma' = kappa gamma x Omega,   kappa = a / (a + b);
// no twist: Omega . gamma = 0. The reactions that do no work on these motions (Lagrange-
// d'Alembert) are a force F at the contact and a couple lambda n about the normal, nothing
// else. Newton mu x'' = F and Euler about the centre, A Omega' + Omega x A Omega =
// (-b gamma) x F_body + lambda gamma, with F_body = mu b [Omega' x gamma + (1 - kappa)
// Omega x (Omega x gamma)]: on Omega . gamma = 0 the second term gives gamma x (Omega x (Omega
// x gamma)) = 0, and (-b gamma) x F_body = -mu b^2 (Omega' - (gamma . Omega') gamma). With
// Atilde = A + mu b^2 Id and (Atilde Omega) x Omega = (A Omega) x Omega:
//     Atilde Omega' = (Atilde Omega) x Omega + lambda gamma              (lambda absorbs mu b^2 gamma.Omega')
// and lambda is fixed by the no-twist constraint. Since Omega . gamma' = kappa Omega . (gamma x
// Omega) = 0 identically, d/dt (Omega . gamma) = gamma . Omega', so
//     lambda = -(gamma, Atilde^-1 ((Atilde Omega) x Omega)) / (gamma, Atilde^-1 gamma):
// this closure keeps Omega . gamma constant exactly (for any value, not only 0) and
// needs no correction for gamma'. |gamma| is constant too (gamma' is orthogonal to gamma), and
// H = 1/2 (Atilde Omega, Omega) has H' = lambda (gamma . Omega) = 0 on the constraint. The
// field has divergence -(Omega, Atilde^-1 gamma x gamma) / D with D = (gamma, Atilde^-1 gamma),
// and D' = 2 kappa (Omega, Atilde^-1 gamma x gamma), so rho = D^(1/(2 kappa)) =
// D^((a+b)/(2a)) satisfies div(rho X) = 0: the invariant density. Omega' does not depend on a:
// the fixed sphere enters only through kappa in gamma'. b = -2a (kappa = -1) is Borisov and
// Mamaev's integrable case.
//
// Integration: Gragg-Bulirsch-Stoer (gbs.hpp, order 2 kRubberDepth) on y = (Omega, gamma, m)
// with m' = gamma_3 (the time integral behind gamma3_mean), error-controlled by
// options.rtol/atol, the last step shortened to end at t_max. Nothing is projected: the drifts
// of |gamma| and Omega . gamma are reported as observables (gamma_drift, twist_max), the
// largest relative drift of H as energy_error. events = crossings of the contact over the
// body's equator (sign changes of gamma_3 from one accepted step to the next), a count that does
// not depend on where the integrator steps: a step is at most 1/(|kappa| |Omega|max) long, so
// gamma turns by at most one radian in it (|Omega|max^2 = 2H / min Atilde), and only a grazing
// double crossing inside one step is missed. stop.max_events ends the run at the step in which
// the count reaches it; steps = steps tried (options.max_steps bounds them).
//
// The contact force (contact_force.hpp, per unit mass mu; no gravity, so F = x'') at a state,
// from F_body above: F = b [Omega' x gamma + (1 - kappa) Omega x (Omega x gamma)]. Its normal
// part N is the part that presses the ball onto the fixed sphere: along gamma where the fixed
// sphere's body lies on the side -gamma of the contact (outside it, b > 0, and around it, b < -a:
// the fixed sphere inside the ball), along -gamma inside it (-a < b < 0). On the constraint
// (Omega . gamma = 0, |gamma| = 1), F . gamma = -b^2 |Omega|^2 / (a + b): the centre runs on the
// sphere of radius |a + b| about the fixed centre, and N = -b^2 |Omega|^2 / (a + b) < 0 outside
// (the fixed sphere has to pull: a real ball needs an attraction, such as gravity towards the
// centre, to stay on; the model holds it by construction), N = b^2 |Omega|^2 / |a + b| > 0 inside
// and around; f = |F - (F . gamma) gamma|, the friction that turns the ball's centre (the no-twist
// couple lambda gamma is a torque, not part of F).
//
// Start "body": gamma0 = (sin theta cos phi, sin theta sin phi, cos theta) from `theta`, `phi`;
// Omega0 = (wx, wy, wz) projected onto the plane orthogonal to gamma0 (the component along
// gamma0 would be a twist). Masked: nothing left after the projection (Omega0 parallel to
// gamma0, or zero), b = 0 or b = -a (a grid can pass through them), a non-finite start.
//
// Sink: on_step(t, y) at the start and after every accepted step, y = (Omega, gamma, m); the
// contact observables sample RubberSphereSystem::contact at the same states.
//
// final_state (a sink with take_state_row, final_state.hpp): the row wx wy wz theta phi of the
// state at t_end, the start "body"'s keys, so that a state_file of these rows continues the run:
// Omega as it is, theta = atan2(hypot(g1, g2), g3), phi = atan2(g2, g1) (the drift of |gamma| and
// the twist Omega . gamma drop out when the continued run starts, as from any body start).
#pragma once
#include <cstdint>

#include "skipstone/final_state.hpp"
#include "skipstone/gbs.hpp"
#include "skipstone/result.hpp"
#include "skipstone/rolling/contact_force.hpp"
#include "skipstone/scan_point.hpp"

namespace skipstone {

constexpr int kRubberDepth = 6;  // GBS extrapolation depth: order 12
constexpr int kRubberN = 7;      // Omega, gamma, m = integral of gamma_3 dt

// The free rates Atilde^-1 ((Atilde Omega) x Omega) of Omega (the rigid-body part, without the
// no-twist couple), for the diagonal Atilde = `at`.
SKIPSTONE_HD SKIPSTONE_INLINE void rubber_free_rates(const double* at, const double* w, double* f) {
  f[0] = (at[1] - at[2]) * w[1] * w[2] / at[0];
  f[1] = (at[2] - at[0]) * w[2] * w[0] / at[1];
  f[2] = (at[0] - at[1]) * w[0] * w[1] / at[2];
}

// The no-twist multiplier lambda for the free rates f at gamma = g: (gamma, Omega') = 0.
SKIPSTONE_HD SKIPSTONE_INLINE double rubber_no_twist_lambda(const double* at, const double* g, const double* f) {
  const double d = g[0] * g[0] / at[0] + g[1] * g[1] / at[1] + g[2] * g[2] / at[2];
  return -(g[0] * f[0] + g[1] * f[1] + g[2] * f[2]) / d;
}

struct RubberSphereSystem {
  double at[3];   // Atilde = A + mu b^2 Id (diagonal)
  double kappa;   // a / (a + b)
  double b;       // the ball's radius, signed as the parameter b
  double press;   // +1 where the fixed sphere presses along gamma (b > 0, b < -a), -1 inside it
  static constexpr int N = kRubberN;
  SKIPSTONE_HD void rhs(const double* y, double* f) const {
    const double* w = y;
    const double* g = y + 3;
    rubber_free_rates(at, w, f);
    const double lambda = rubber_no_twist_lambda(at, g, f);
    for (int i = 0; i < 3; ++i) f[i] += lambda * g[i] / at[i];
    f[3] = kappa * (g[1] * w[2] - g[2] * w[1]);
    f[4] = kappa * (g[2] * w[0] - g[0] * w[2]);
    f[5] = kappa * (g[0] * w[1] - g[1] * w[0]);
    f[6] = g[2];
  }
  // The contact force per unit mass at y (header): N and |f|.
  SKIPSTONE_HD ContactForce<double> contact(const double* y) const {
    double f[kRubberN];
    rhs(y, f);
    const double* w = y;
    const double* g = y + 3;
    const double wg = w[0] * g[0] + w[1] * g[1] + w[2] * g[2], gg = g[0] * g[0] + g[1] * g[1] + g[2] * g[2];
    double F[3];
    for (int i = 0; i < 3; ++i) {
      const double turn = f[(i + 1) % 3] * g[(i + 2) % 3] - f[(i + 2) % 3] * g[(i + 1) % 3];  // Omega' x gamma
      const double centripetal = w[i] * wg - g[i] * (w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
      F[i] = b * (turn + (1.0 - kappa) * centripetal);
    }
    const double along = (F[0] * g[0] + F[1] * g[1] + F[2] * g[2]) / gg;
    double t2 = 0.0;
    for (int i = 0; i < 3; ++i) t2 += (F[i] - along * g[i]) * (F[i] - along * g[i]);
    return {press * along * sqrt(gg), sqrt(t2)};
  }
  // Twice the energy, (Atilde Omega, Omega).
  SKIPSTONE_HD double energy2(const double* y) const {
    return at[0] * y[0] * y[0] + at[1] * y[1] * y[1] + at[2] * y[2] * y[2];
  }
};

// The system and start state of a scan point; false where the start is masked.
SKIPSTONE_HD SKIPSTONE_INLINE bool rubber_sphere_start(const ScanPoint& pt, RubberSphereSystem& sys, double* y) {
  const double* p = pt.p;
  const double a = p[P_A], b = p[P_B], mb2 = p[P_MU] * b * b;
  sys.at[0] = p[P_I1] + mb2;
  sys.at[1] = p[P_I2] + mb2;
  sys.at[2] = p[P_I3] + mb2;
  sys.kappa = a / (a + b);
  sys.b = b;
  sys.press = b > 0.0 || b < -a ? 1.0 : -1.0;
  const double st = sin(p[P_THETA]);
  const double g[3] = {st * cos(p[P_PHI]), st * sin(p[P_PHI]), cos(p[P_THETA])};
  const double wg = p[P_WX] * g[0] + p[P_WY] * g[1] + p[P_WZ] * g[2];
  y[0] = p[P_WX] - wg * g[0];
  y[1] = p[P_WY] - wg * g[1];
  y[2] = p[P_WZ] - wg * g[2];
  for (int i = 0; i < 3; ++i) y[3 + i] = g[i];
  y[6] = 0.0;
  const double e2 = sys.energy2(y);
  return b != 0.0 && isfinite(e2) && isfinite(sys.kappa) && e2 > 0.0;
}

// |Omega . gamma| and ||gamma| - 1| of a state: the no-twist and unit-normal defects.
SKIPSTONE_HD SKIPSTONE_INLINE double rubber_twist(const double* y) {
  return fabs(y[0] * y[3] + y[1] * y[4] + y[2] * y[5]);
}
SKIPSTONE_HD SKIPSTONE_INLINE double rubber_gamma_defect(const double* y) {
  return fabs(sqrt(y[3] * y[3] + y[4] * y[4] + y[5] * y[5]) - 1.0);
}

// The final_state row of a state y: the start "body"'s keys wx wy wz theta phi.
SKIPSTONE_HD SKIPSTONE_INLINE void rubber_state_row(const double* y, double* row) {
  row[0] = y[0], row[1] = y[1], row[2] = y[2];
  row[3] = atan2(sqrt(y[3] * y[3] + y[4] * y[4]), y[5]);
  row[4] = atan2(y[4], y[3]);
}

template <class Sink>
SKIPSTONE_HD TrajectoryResult simulate_rubber_sphere(const ScanSpec& spec, const ScanPoint& pt, Sink& sink) {
  RubberSphereSystem sys;
  double y[kRubberN], y_new[kRubberN];
  if (!rubber_sphere_start(pt, sys, y)) return masked_result();
  double* const row = take_state_row(sink);
  const double e0 = sys.energy2(y);
  const double w0 = sqrt(y[0] * y[0] + y[1] * y[1] + y[2] * y[2]);
  double at_min = sys.at[0] < sys.at[1] ? sys.at[0] : sys.at[1];
  at_min = at_min < sys.at[2] ? at_min : sys.at[2];
  const double h_max = 1.0 / (fabs(sys.kappa) * sqrt(e0 / at_min));
  double t = 0.0, h = 0.5 * h_max, energy_error = 0.0, twist = 0.0, drift = 0.0;
  std::uint64_t crossings = 0, tried = 0;
  Status status = Status::finished;
  ContactStats contact;
  contact.start(spec.contact_forces, pt.p[P_MU_S]);
  const auto watch = [&](double at) {
    if (!contact.on) return;
    const ContactForce<double> c = sys.contact(y);
    contact.sample(at, c.n, c.f);
  };
  sink.on_step(t, y);
  watch(t);
  while (t < spec.t_max && crossings < spec.max_events) {
    if (tried >= spec.max_steps) {
      status = Status::integrator_failure;
      break;
    }
    const double rest = spec.t_max - t;
    const bool last = h >= rest;
    const double hh = last ? rest : h;  // h <= h_max
    const double err = gbs_step<kRubberN, kRubberDepth>(sys, y, hh, y_new, spec.rtol, spec.atol);
    ++tried;
    const double grow = gbs_step_factor<kRubberDepth>(err);
    if (!(err <= 1.0)) {
      h = hh * grow;
      if (!(h > 1e-14 * (t + hh))) {
        status = Status::integrator_failure;
        break;
      }
      continue;
    }
    if ((y[5] < 0.0) != (y_new[5] < 0.0)) ++crossings;
    for (int i = 0; i < kRubberN; ++i) y[i] = y_new[i];
    t = last ? spec.t_max : t + hh;
    if (!last || hh * grow > h) h = hh * grow;  // a shortened last step does not shrink h
    h = h < h_max ? h : h_max;
    sink.on_step(t, y);
    watch(t);
    const double e = fabs(sys.energy2(y) - e0) / e0;
    energy_error = e > energy_error ? e : energy_error;
    const double tw = rubber_twist(y) / w0, gd = rubber_gamma_defect(y);
    twist = tw > twist ? tw : twist;
    drift = gd > drift ? gd : drift;
    if (!(isfinite(e) && isfinite(y[6]))) {
      status = Status::non_finite;
      break;
    }
    if (e > spec.energy_tolerance) {
      status = Status::energy_drift;
      break;
    }
  }
  if (row) rubber_state_row(y, row);
  TrajectoryResult res = empty_result();
  res.status = status;
  res.events = crossings;
  res.steps = tried;
  res.t_end = t;
  res.energy_error = energy_error;
  res.gamma_drift = drift;
  res.twist_max = twist;
  res.gamma3_mean = t > 0.0 ? y[6] / t : y[5];
  contact.write(res);
  return res;
}

}  // namespace skipstone
