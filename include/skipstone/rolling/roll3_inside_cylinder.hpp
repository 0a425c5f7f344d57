// roll3:inside-cylinder: a 3D ball of radius r rolling without slipping on the inner wall of a
// vertical circular cylinder of radius R under gravity g along -e3 (the classical system of the
// paper's Figure 2, left, and Section 1; Theorem 10). The centre moves on N_r, the cylinder of
// radius rho = R - r. Closed form for all time; no time stepping.
//
// Derivation (Newton-Euler with the rolling constraint; unit mass, I = gamma^2 r^2 per axis, so
// gamma = sqrt(2 lambda)/r as in inertia.hpp). Cylindrical frame e_rho (outward, centre ->
// contact), e_theta, e3; centre a = rho e_rho(theta) + z e3, ball angular velocity omega, contact
// force F at a + r e_rho:
//     a'' = F - g e3,   gamma^2 r^2 omega' = r e_rho x F,   a' = r e_rho x omega (contact at rest).
// The constraint gives rho theta' = -r omega_3 and z' = r omega_theta. Components of the torque
// equation, with omega' = (omega_rho' - omega_theta theta') e_rho + (omega_theta' + omega_rho theta')
// e_theta + omega_3' e3 (the frame turns at theta'):
//     e_rho:   omega_rho' = theta' omega_theta = theta' z' / r        (no torque about the normal)
//     e3:      gamma^2 r omega_3' = rho theta''  =>  (1 + gamma^2) theta'' = 0
//     e_theta: gamma^2 r (omega_theta' + omega_rho theta') = -(z'' + g).
// So Omega = theta' is constant, and (1 + gamma^2) z'' = -g - gamma^2 r Omega omega_rho.
// In the paper's variables (Theorem 7 with Eq. (11)): frame E1 = e_theta, E2 = e3, v = v1 E1 +
// v2 E2 (v1 = rho Omega, v2 = z'), tangential spin S = s E1^E2 with s = eta r omega_rho (the
// paper's S = r gamma Pi U Pi rescaled by 1/sqrt(1 + gamma^2), which makes its energy
// 1/2 (|v|^2 + s^2) + g_eff z; the physical one is (1 + gamma^2) times that). The normal nu of
// N_r points from the wall to the centre, nu = -e_rho, so the shape operator is S_x E1 = E1/rho
// (kappa = +1/rho; the strip's half-cylinders have -1/r), and Theorem 7 + Eq. (11) read
//     v1' = 0,   v2' = -w s - g_eff,   s' = w v2,   z' = v2,    w = eta v1 / rho,
// g_eff = g / (1 + gamma^2) (Eq. (11); or `g_effective` directly) -- exactly the Newton-Euler
// equations above. This is the rotating block of stadium_segments.hpp with a constant rate w:
// (v2, s) turns at rate w about (0, -g_eff/w), and
//     z(t) = z_c + A sin(w t + phase),  z_c = z0 - (s0 + g_eff/w)/w,  A = |(v2, s0 + g_eff/w)|/|w|:
// the height oscillates harmonically with angular frequency eta |Omega| (the classical
// sqrt(2/7) |Omega| for a solid ball, gamma^2 = 2/5), bounded, no net fall. w = 0 (eta = 0, or
// v1 = 0: rolling straight down) is the free fall z0 + v2 t - g_eff t^2 / 2 with s constant.
// Every state is block_map(w, g_eff, t) applied to the initial state, so nothing accumulates
// over many turns: the energy error is round-off for all t.
//
// Start "wall": angle theta0 = `angle`, height `z`, v1 = `v1` (> 0: counterclockwise seen from
// above), v2 = `v2`, s = `spin`. Masked: r >= R, or v1 = 0 without t_max (nothing would stop it).
// Start "state_file": a row as the sink sees the state (below: centre, its velocity, w), e.g. the
// final state of a run: theta0 from the centre, v1 = u . e_theta, v2 = u_z, s = w . e_rho.
// events = completed turns about the axis (time 2 pi rho / |v1| each).
//
// Contact force (contact_force.hpp), unit mass: the centre turns on the circle of radius rho at
// the constant speed |v1| and its acceleration along the wall's normal nu = -e_rho is v1^2 / rho,
// gravity lies in the wall, so N = v1^2 / rho > 0 at all times (a one-sided wall that pushes).
// The friction is vertical (theta'' = 0): f = z'' + g = g - G - w s, and with s - w z constant
// and (v2, s + G/w) turning at rate w,
//     f(t) = g - U cos(w t - delta),   U cos(delta) = w s0 + G,   U sin(delta) = w v2_0,
// (w = 0: f = g - G). So max |f| over [0, t] is at an end or where w t - delta is a multiple of
// pi inside, and slip_time (|f| > mu_s N) is the first time cos(w t - delta) leaves
// [(g - mu_s N) / U, (g + mu_s N) / U]: exact, no sampling.
//
// Sink: one on_event at the start, after every turn and at the end: x = centre (rho cos theta,
// rho sin theta, z), u = centre velocity v1 e_theta + v2 e3, w = s e_rho (so S x = w x x on the
// tangent plane), nu = -e_rho (the contact point x - r nu lies on the wall, radius R). A sink that
// asks for samples (trace --sample, height_series) gets the same row at each sample time, exact.
// With noisy constraints the run is noisy_inside_cylinder.hpp's.
#pragma once
#include <cstdint>

#include "skipstone/collision.hpp"
#include "skipstone/rolling/contact_force.hpp"
#include "skipstone/rolling/disc_output.hpp"
#include "skipstone/rolling/stadium_segments.hpp"

namespace skipstone {

struct InsideCylinderState {
  double rho, theta0, omega;  // radius of N_r, initial angle, angular rate v1 / rho
  double v1;
  RotatingBlock h0;           // (v2, s, z) at t = 0
  double gamma, G, w;         // the ball's gamma, effective gravity, rate of the block eta v1 / rho
  double eta;                 // the coupling eta of the rate (0 for a rubber ball: rolling_eta)
};

// The start of a scan point; false where it is masked.
SKIPSTONE_HD SKIPSTONE_INLINE bool inside_cylinder_setup(const ScanSpec& spec, const ScanPoint& pt,
                                                         InsideCylinderState& c) {
  const double* p = pt.p;
  const bool row = spec.start == StartKind::state;
  const double theta0 = row ? atan2(p[P_Y], p[P_X]) : p[P_ANGLE];
  const double er_x = cos(theta0), er_y = sin(theta0);
  const double rho = p[P_R] - p[P_BALL_R], v1 = row ? er_x * p[P_VY] - er_y * p[P_VX] : p[P_V1];
  if (!(rho > 0.0) || !(v1 != 0.0 || isfinite(spec.t_max))) return false;
  const RotatingBlock h0 =
      row ? RotatingBlock{p[P_VZ], er_x * p[P_WX] + er_y * p[P_WY], p[P_Z]} : RotatingBlock{p[P_V2], p[P_SPIN], p[P_Z]};
  const double gamma = point_gamma(spec, pt);
  const double eta = rolling_eta(pt, gamma);
  c = {rho, theta0, v1 / rho, v1, h0, gamma, rolling_gravity(pt, gamma), eta * v1 / rho, eta};
  return true;
}

// The row the sink sees (header comment) of the centre at angle theta and height z on the
// cylinder of radius rho, moving at v1 e_theta + v2 e3 with the spin s.
SKIPSTONE_HD SKIPSTONE_INLINE DiscRow inside_cylinder_row(double rho, double theta, double v1, double v2, double s,
                                                          double z) {
  const Vec3 er = {cos(theta), sin(theta), 0.0}, et = {-er.y, er.x, 0.0};
  return {Vec3{rho * er.x, rho * er.y, z}, State3D{{v1 * et.x, v1 * et.y, v2}, {s * er.x, s * er.y, 0.0}},
          Vec3{-er.x, -er.y, 0.0}};
}

SKIPSTONE_HD SKIPSTONE_INLINE DiscRow inside_cylinder_row(double t, const InsideCylinderState& c,
                                                          const RotatingBlock& h) {
  return inside_cylinder_row(c.rho, c.theta0 + c.omega * t, c.v1, h.a, h.b, h.z);
}

template <class Sink>
SKIPSTONE_HD void inside_cylinder_emit(Sink& sink, double t, const InsideCylinderState& c, const RotatingBlock& h) {
  const DiscRow row = inside_cylinder_row(t, c, h);
  sink.on_event(t, row.x, row.state, row.nu);
}

// The samples (disc_output.hpp: next_sample / on_sample) due up to t_end, in closed form.
template <class Sink>
SKIPSTONE_HD void inside_cylinder_samples(Sink& sink, const InsideCylinderState& c, double t_end) {
  for (double ts = sink.next_sample(); ts <= t_end; ts = sink.next_sample()) {
    const DiscRow row = inside_cylinder_row(ts, c, apply_block(block_map(c.w, c.G, ts), c.h0));
    sink.on_sample(ts, row.x, row.state, row.nu);
  }
}

// One turn (or its part) from t0 for a time tau, as a curve for the Poincare sections
// (section_map.hpp: SectionSink::on_curve), its rows those of inside_cylinder_emit. Bounds: the
// centre turns at the speed |v1| on the circle of radius rho (acceleration v1^2 / rho), and
// (v2, s) turns about (0, -G/w) at the radius rho_X (|v2| <= rho_X, |v2'| <= |w| rho_X), or
// falls freely where w = 0 (|v2| at an end, |v2'| = G).
struct InsideCylinderCurve {
  static constexpr int kDim = 3;
  InsideCylinderState c;
  double t0, tau;
  SKIPSTONE_HD void row(double t, double* out) const {
    RowCapture capture{out};
    inside_cylinder_emit(capture, t0 + t, c, apply_block(block_map(c.w, c.G, t0 + t), c.h0));
  }
  SKIPSTONE_HD void bounds(double& speed, double& acc) const {
    const double centre = c.v1 * c.v1 / c.rho;
    double r2, block_acc;
    if (c.w != 0.0) {
      const double bc = c.h0.b + c.G / c.w;
      r2 = c.h0.a * c.h0.a + bc * bc;
      block_acc = fabs(c.w) * sqrt(r2);
    } else {
      const double a0 = c.h0.a - c.G * t0, a1 = c.h0.a - c.G * (t0 + tau);
      r2 = a0 * a0 > a1 * a1 ? a0 * a0 : a1 * a1;
      block_acc = fabs(c.G);
    }
    speed = sqrt(c.v1 * c.v1 + r2);
    acc = sqrt(centre * centre + block_acc * block_acc);
  }
};

// The contact observables over [0, t_end] in closed form (header comment): N = v1^2 / rho, f(t)
// = g - U cos(w t - delta) with F0 = w s0 + G, V = w v2_0 (U cos delta = F0, U sin delta = V).
SKIPSTONE_HD SKIPSTONE_INLINE void inside_cylinder_contact(double n, double g, double F0, double V, double w,
                                                           double mu_s, double t_end, TrajectoryResult& res) {
  const double U = sqrt(F0 * F0 + V * V), delta = atan2(V, F0);
  // cos over the phases th(t) = w t - delta, t in [0, t_end]: its least and largest value
  const double a = -delta, b = w * t_end - delta;
  const double lo = a < b ? a : b, hi = a < b ? b : a;
  double c_min = cos(a) < cos(b) ? cos(a) : cos(b), c_max = cos(a) < cos(b) ? cos(b) : cos(a);
  if (floor(hi / (2.0 * kPi)) * 2.0 * kPi > lo) c_max = 1.0;            // a multiple of 2 pi inside
  if (floor((hi - kPi) / (2.0 * kPi)) * 2.0 * kPi + kPi > lo) c_min = -1.0;  // an odd multiple of pi
  const double f_lo = fabs(g - U * c_max), f_hi = fabs(g - U * c_min);
  const double f_max = f_lo > f_hi ? f_lo : f_hi;
  res.normal_force_min = n;
  res.friction_ratio_max = n > 0.0 ? f_max / n : needs_unbounded_friction(n, f_max) ? INFINITY : 0.0;
  res.detach_time = NAN;  // N = v1^2 / rho >= 0
  // slip: cos(th) < (g - mu_s N) / U or > (g + mu_s N) / U
  const double lower = g - mu_s * n, upper = g + mu_s * n;
  const double c0 = cos(a);
  res.slip_time = NAN;
  if (U * c0 < lower || U * c0 > upper) {
    res.slip_time = 0.0;
    return;
  }
  if (w == 0.0 || U == 0.0) return;
  double first = INFINITY;  // the least phase advance to a level the cosine leaves the band at
  const double levels[2] = {lower / U, upper / U};
  for (double level : levels) {
    if (!(level > -1.0 && level < 1.0)) continue;
    const double roots[2] = {acos(level), -acos(level)};
    for (double root : roots) {
      double d = fmod((root - a) * (w > 0.0 ? 1.0 : -1.0), 2.0 * kPi);
      if (d <= 0.0) d += 2.0 * kPi;
      first = d < first ? d : first;
    }
  }
  const double t_slip = first / fabs(w);
  if (t_slip <= t_end) res.slip_time = t_slip;
}

template <class Sink>
SKIPSTONE_HD TrajectoryResult simulate_roll3_inside_cylinder(const ScanSpec& spec, const ScanPoint& pt, Sink& sink) {
  InsideCylinderState c;
  if (!inside_cylinder_setup(spec, pt, c)) return masked_result();
  const double rho = c.rho, v1 = c.v1, gamma = c.gamma, G = c.G, w = c.w;
  const double t_turn = v1 != 0.0 ? 2.0 * kPi * rho / fabs(v1) : INFINITY;
  const double k0 = v1 * v1 + c.h0.a * c.h0.a + c.h0.b * c.h0.b;
  HeightStats ob;  // extremes at events and inside each turn, drift over the events
  ob.start(c.h0.z);
  RotatingBlock h = c.h0;
  double t = 0.0, max_err = 0.0;
  std::uint64_t events = 0;
  Status status = Status::finished;
  inside_cylinder_emit(sink, t, c, h);
  while (events < spec.max_events && t < spec.t_max) {
    const double t_next = static_cast<double>(events + 1) * t_turn;
    const bool turn = t_next <= spec.t_max;
    const double t_new = turn ? t_next : spec.t_max;
    block_extrema(h, w, G, t_new - t, ob.z_min, ob.z_max);
    if constexpr (wants_samples<Sink>::value) inside_cylinder_samples(sink, c, t_new);
    report_curve(sink, t, t_new - t, InsideCylinderCurve{c, t, t_new - t});
    h = apply_block(block_map(w, G, t_new), c.h0);
    t = t_new;
    if (turn) ++events;
    ob.sample(t, h.z);
    const double k = v1 * v1 + h.a * h.a + h.b * h.b;
    const double err = rolling_energy_defect(k, k0, G, h.z, c.h0.z);
    max_err = err > max_err ? err : max_err;
    inside_cylinder_emit(sink, t, c, h);
    if (!(isfinite(t) && isfinite(k) && isfinite(h.z))) {
      status = Status::non_finite;
      break;
    }
    if (err > spec.energy_tolerance) {
      status = Status::energy_drift;
      break;
    }
  }
  TrajectoryResult res = rolling_result(status, events, t, max_err, ob, h.z, spec.bounded_depth);
  if (spec.contact_forces)
    inside_cylinder_contact(v1 * v1 / rho, physical_gravity(G, eta_from_gamma(gamma)), w * c.h0.b + G, w * c.h0.a,
                            w, pt.p[P_MU_S], t, res);
  return res;
}

}  // namespace skipstone
