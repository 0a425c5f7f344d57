// The force the surface exerts on a rolling ball, and what it says about the rolling model's
// assumptions (the companion paper on the normal force and static friction of a rolling ball,
// Eq. (1.1)-(1.3)). Newton's law for the centre x of the ball (unit mass) gives the contact force
//     F = x'' - g,
// g the physical gravity vector (not the effective g / (1 + gamma^2) a rolling ball falls at):
// its normal part N = F . nu (nu the unit normal from the contact point to the centre) must stay
// > 0, else a real ball leaves the surface (1.1); its tangential part f = F - N nu, the static
// friction, must satisfy |f| <= mu_s N, else the ball slips (1.2); max |f| / N over the path is
// the least friction coefficient the path needs (1.3).
//
// x'' comes from the equations of motion, never from differencing the path. On the curved part
// N^c over a wall piece, in the frame X1 = tau, X2 = e2, X3 = e3 with nu = sin(phi) e1 + cos(phi)
// e_w and y = (v1, v2, S12, cos phi, sin phi, q, [v3, S13, S23, x3]): v_i = x' . X_i, so
// x'' . X_i = v_i' - x' . X_i', and with d nu/dt = (v1 / r) tau - f_s v2 e2,
// d tau/dt = -(v1 / r) nu - f_c v2 e2, d e2/dt = kappa l' e1 (l' = v2 / (1 - r kappa sin phi),
// x' . e1 = v1 cos phi; f_c, f_s of Proposition 12):
//     x'' . nu  = -v1^2 / r + f_s v2^2,
//     x'' . tau = v1' + f_c v2^2,   x'' . e2 = v2' - f_c v1 v2,   x'' . e3 = v3'.
// On a convex wall (f_s <= 0) without in-plane gravity N = -v1^2/r + f_s v2^2 < 0: the centre
// turns round the edge, its acceleration points at the contact, and the plate has to pull. The
// rolling models hold the ball to the plate by construction; N < 0 says where a real ball would
// leave it. On the flat parts gravity lies in the plate, so N = 0 exactly and |f| = |g - G|.
//
// ContactStats keeps the observables over the samples a model gives it (its step points and the
// ends of its flat parts; docs/models.md says where each model samples and the error that leaves):
// normal_force_min, friction_ratio_max (the largest |f| / N over the samples with N > 0; +inf
// where some sample needs unbounded friction, needs_unbounded_friction), detach_time (first N < 0)
// and slip_time (first |f| > mu_s N), each first time moved back to the linear interpolation of
// the crossing between its sample and the one before (NaN: never).
#pragma once
#include <cmath>
#include <type_traits>
#include <utility>

#include "skipstone/hd.hpp"
#include "skipstone/result.hpp"

namespace skipstone {

// The contact force per unit mass at one point of the path: its normal part and |friction|.
template <class T>
struct ContactForce {
  T n, f;
};

// On N^c: from the frame state y, its right-hand side rhs (with the effective gravity in it),
// f_c, f_s, the ball radius r and the physical gravity's parts along nu, tau and e2 (g_nu, g_tau,
// g_2) and the axial friction f3 = v3' - g . e3 (0 for roll3).
template <class T>
SKIPSTONE_HD SKIPSTONE_INLINE ContactForce<T> edge_contact(const T* y, const T* rhs, T fc, T fs, T r, T g_nu,
                                                           T g_tau, T g_2, T f3) {
  const T v1 = y[0], v2 = y[1];
  const T n = -v1 * v1 / r + fs * v2 * v2 - g_nu;
  const T f1 = rhs[0] + fc * v2 * v2 - g_tau;
  const T f2 = rhs[1] - fc * v1 * v2 - g_2;
  return {n, sqrt(f1 * f1 + f2 * f2 + f3 * f3)};
}

// A sink that wants every contact-force sample (t, N, |f|) (tests).
template <class Sink, class = void>
struct has_on_contact : std::false_type {};
template <class Sink>
struct has_on_contact<Sink, std::void_t<decltype(std::declval<Sink&>().on_contact(0.0, 0.0, 0.0))>>
    : std::true_type {};

// Whether no finite friction coefficient holds the ball at a sample (Eq. (1.3) has no finite
// bound): the surface pulls (N < 0), or does not press (N = 0) while the path needs friction.
// friction_ratio_max is +inf for a path with such a sample (an upright plate's faces: N = 0 and
// |f| = g - G), rather than the largest ratio over the rest of the path, which would read as
// "needs little friction". N = 0 without friction (a face without gravity) needs none.
SKIPSTONE_HD SKIPSTONE_INLINE bool needs_unbounded_friction(double n, double f) {
  return n < 0.0 || (n <= 0.0 && f > 0.0);
}

// The physical gravity g from the effective G = g / (1 + gamma^2) = g (1 - eta^2) of Eq. (11).
template <class T>
SKIPSTONE_HD SKIPSTONE_INLINE T physical_gravity(T G, T eta) {
  return G / (T(1) - eta * eta);
}

struct ContactStats {
  bool on;  // the run asked for the contact observables (ScanSpec::contact_forces)
  double mu_s;
  double n_min, ratio_max, detach_time, slip_time;
  bool unbounded;            // some sample needs unbounded friction (needs_unbounded_friction)
  double t_prev, n_prev, m_prev;  // the sample before: time, N, mu_s N - |f|
  bool has_prev;

  SKIPSTONE_HD void start(bool asked, double mu) {
    on = asked;
    mu_s = mu;
    n_min = INFINITY;
    ratio_max = 0.0;
    detach_time = slip_time = NAN;
    unbounded = has_prev = false;
    t_prev = n_prev = m_prev = 0.0;
  }

  SKIPSTONE_HD void sample(double t, double n, double f) {
    if (!on) return;
    n_min = n < n_min ? n : n_min;
    if (n > 0.0) {
      const double ratio = f / n;
      ratio_max = ratio > ratio_max ? ratio : ratio_max;
    }
    unbounded = unbounded || needs_unbounded_friction(n, f);
    const double margin = mu_s * n - f;
    if (n < 0.0 && !(detach_time == detach_time)) detach_time = crossing(t, n, n_prev);  // NaN: not yet
    if (margin < 0.0 && !(slip_time == slip_time)) slip_time = crossing(t, margin, m_prev);
    t_prev = t;
    n_prev = n;
    m_prev = margin;
    has_prev = true;
  }

  SKIPSTONE_HD void write(TrajectoryResult& r) const {
    if (!on) return;
    r.normal_force_min = n_min;
    r.friction_ratio_max = unbounded ? INFINITY : ratio_max;
    r.detach_time = detach_time;
    r.slip_time = slip_time;
  }

 private:
  // Where a value v, >= 0 at the sample before and < 0 at time t, crosses 0 by linear interpolation.
  SKIPSTONE_HD double crossing(double t, double v, double v_prev) const {
    if (!has_prev || !(v_prev >= 0.0)) return t;
    return t_prev + (t - t_prev) * (v_prev / (v_prev - v));
  }
};

}  // namespace skipstone
