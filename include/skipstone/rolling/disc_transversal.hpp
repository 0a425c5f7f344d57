// The transversal (cross-section) block of roll4:disc on the curved part N^c, Proposition 12
// with kappa = -1/R (Section 5.5, Figure 18):
//   v1' = -f_c v2^2 - eta f_s v2 S12,   v2' = f_c v1 v2 - (eta/r) v1 S12,
//   S12' = eta (f_s + 1/r) v1 v2,       phi' = v1/r,   s' = v2/(1 - r kappa sin phi),
//   f_c = kappa cos(phi)/(1 - r kappa sin phi),  f_s = kappa sin(phi)/(1 - r kappa sin phi).
// The block is xi' = A xi with A skew, so E1 = (v1^2 + v2^2 + S12^2)/2 is conserved; phi is
// carried as (cos phi, sin phi), which turns the right-hand side into a rational function
// without trigonometry. Integration: GBS extrapolation (gbs.hpp) with error control, followed
// after every step by the orthogonal projection back onto the energy sphere and the unit
// circle (Hairer-Lubich-Wanner, Geometric Numerical Integration IV.4: projection keeps the
// order and makes E1 exact to round-off). The exit through phi = 0 (same side, the "friendly
// roll") or phi = pi (opposite side) is the sign change of sin(phi), located by Newton
// iteration on recomputed partial steps.
#pragma once
#include "skipstone/gbs.hpp"
#include "skipstone/result.hpp"
#include "skipstone/scan_point.hpp"

namespace skipstone {

// y = (v1, v2, S12, cos phi, sin phi, arc length s along the rim)
struct DiscTransversalSystem {
  double kappa, r, eta;
  static constexpr int N = 6;

  SKIPSTONE_HD void rhs(const double* y, double* f) const {
    const double v1 = y[0], v2 = y[1], S = y[2], c = y[3], s = y[4];
    const double w = 1.0 / (1.0 - r * kappa * s);
    const double fc = kappa * c * w, fs = kappa * s * w;
    const double ir = 1.0 / r;
    f[0] = -fc * v2 * v2 - eta * fs * v2 * S;
    f[1] = fc * v1 * v2 - eta * ir * v1 * S;
    f[2] = eta * (fs + ir) * v1 * v2;
    f[3] = -s * v1 * ir;
    f[4] = c * v1 * ir;
    f[5] = v2 * w;
  }
};

struct RimPassage {
  Status status;
  int side;          // +1 back to phi = 0, -1 over to phi = pi, 0 still on the rim at t_max
  double t, arc;     // time and arc length at exit (or at t_max)
  double energy_error;
  std::uint64_t steps;
  double y[6];       // state at the end
};

constexpr double kRimFineStep = 0.02;  // h_fine / h_max

// First theta in (0, 1) where the cubic Hermite interpolant of (g0, d0) .. (g1, d1) is
// negative, refined by bisection; -1 when it stays non-negative (sampled at 1/32 spacing).
SKIPSTONE_HD SKIPSTONE_INLINE double hermite_first_root(double g0, double d0, double g1, double d1) {
  const auto p = [&](double s) {
    const double s2 = s * s, s3 = s2 * s;
    return (2 * s3 - 3 * s2 + 1) * g0 + (s3 - 2 * s2 + s) * d0 + (-2 * s3 + 3 * s2) * g1 + (s3 - s2) * d1;
  };
  double prev = 0.0;
  for (int k = 1; k < 32; ++k) {
    const double s = k / 32.0;
    if (p(s) < 0.0) {
      double lo = prev, hi = s;
      for (int it = 0; it < 40; ++it) {
        const double mid = 0.5 * (lo + hi);
        (p(mid) < 0.0 ? hi : lo) = mid;
      }
      return 0.5 * (lo + hi);
    }
    prev = s;
  }
  return -1.0;
}

SKIPSTONE_HD SKIPSTONE_INLINE void project_transversal(double* y, double xi_norm) {
  const double n = sqrt(y[0] * y[0] + y[1] * y[1] + y[2] * y[2]);
  const double a = xi_norm / n;
  y[0] *= a;
  y[1] *= a;
  y[2] *= a;
  const double cn = 1.0 / sqrt(y[3] * y[3] + y[4] * y[4]);
  y[3] *= cn;
  y[4] *= cn;
}

// One passage over the rim from phi = 0 with v1 > 0. K: extrapolation depth (order 2K).
template <int K, class Sink>
SKIPSTONE_HD RimPassage integrate_rim_passage(const DiscTransversalSystem& sys, double v1, double v2, double S12,
                                              double t_max, double rtol, double atol, std::uint64_t max_steps,
                                              Sink& sink) {
  RimPassage out;
  double y[6] = {v1, v2, S12, 1.0, 0.0, 0.0};
  const double xi = sqrt(v1 * v1 + v2 * v2 + S12 * S12);
  const double h_max = sys.r / xi;  // phi moves by at most ~1 rad per step
  // A step in which sin(phi) has a local minimum may hide a short excursion past phi = 0 or pi
  // (both ends positive, a dip below zero inside). Such steps are refined down to h_fine, where
  // the cubic Hermite interpolant of sin(phi) resolves the dip.
  const double h_fine = kRimFineStep * h_max;
  double H = 0.1 * h_max;
  double t = 0.0;
  double y_new[6];
  out.status = Status::finished;
  out.side = 0;
  out.steps = 0;
  sink.on_step(t, y);
  for (;;) {
    if (t >= t_max) break;
    if (out.steps >= max_steps) {
      out.status = Status::integrator_failure;
      break;
    }
    if (H > h_max) H = h_max;
    const bool last_step = t + H >= t_max;
    if (last_step) H = t_max - t;
    const double err = gbs_step<6, K>(sys, y, H, y_new, rtol, atol);
    ++out.steps;
    if (!(err <= 1.0)) {
      if (!isfinite(err) && !(H > 0.0)) {
        out.status = Status::non_finite;
        break;
      }
      H *= gbs_step_factor<K>(err);
      if (H < 1e-14 * (1.0 + t)) {
        out.status = Status::integrator_failure;
        break;
      }
      continue;
    }
    project_transversal(y_new, xi);
    double theta = -1.0;  // fraction of the step at which sin(phi) first reaches 0, if it does
    if (y_new[4] < 0.0) {
      theta = y[4] / (y[4] - y_new[4]);
    } else {
      const double d0 = H * y[3] * y[0] / sys.r, d1 = H * y_new[3] * y_new[0] / sys.r;  // d sin(phi)/d theta
      if (d0 < 0.0 && d1 > 0.0) {
        if (H > h_fine) {
          H = H * 0.25 > h_fine ? H * 0.25 : h_fine;
          continue;
        }
        theta = hermite_first_root(y[4], d0, y_new[4], d1);
      }
    }
    if (theta >= 0.0) {
      // sin(phi) reaches 0 inside [t, t + H]: Newton on theta with recomputed partial steps.
      double yt[6];
      for (int it = 0; it < 12; ++it) {
        gbs_step<6, K>(sys, y, theta * H, yt, rtol, atol);
        project_transversal(yt, xi);
        const double g = yt[4];
        const double dg = yt[3] * yt[0] / sys.r;  // d sin(phi)/dt
        const double dtheta = -g / (dg * H);
        theta += dtheta;
        if (theta < 0.0) theta = 0.0;
        if (theta > 1.0) theta = 1.0;
        if (fabs(dtheta * H) <= 1e-15 * (1.0 + t)) break;
      }
      gbs_step<6, K>(sys, y, theta * H, yt, rtol, atol);
      project_transversal(yt, xi);
      t += theta * H;
      for (int i = 0; i < 6; ++i) y[i] = yt[i];
      out.status = Status::exited;
      out.side = y[3] > 0.0 ? 1 : -1;
      sink.on_step(t, y);
      break;
    }
    for (int i = 0; i < 6; ++i) y[i] = y_new[i];
    t = last_step ? t_max : t + H;
    sink.on_step(t, y);
    if (!isfinite(y[0] + y[1] + y[2] + y[5])) {
      out.status = Status::non_finite;
      break;
    }
    H *= gbs_step_factor<K>(err);
  }
  out.t = t;
  out.arc = y[5];
  const double e = y[0] * y[0] + y[1] * y[1] + y[2] * y[2];
  out.energy_error = fabs(e - xi * xi) / (xi * xi);
  for (int i = 0; i < 6; ++i) out.y[i] = y[i];
  return out;
}


constexpr int kRimExtrapolationDepth = 6;  // order 12

template <class Sink>
SKIPSTONE_HD TrajectoryResult simulate_disc_transversal(const ScanSpec& spec, const ScanPoint& pt, Sink& sink) {
  const double* p = pt.p;
  const double speed = p[P_SPEED];
  const double v2 = p[P_V2], S12 = p[P_S12];
  const double v1sq = speed * speed - v2 * v2 - S12 * S12;
  if (!(v1sq > 0.0)) return masked_result();
  TrajectoryResult res = empty_result();
  const double gamma = point_gamma(spec, pt);
  const DiscTransversalSystem sys{-1.0 / p[P_R], p[P_BALL_R], eta_from_gamma(gamma)};
  const RimPassage rp = integrate_rim_passage<kRimExtrapolationDepth>(sys, sqrt(v1sq), v2, S12, spec.t_max,
                                                                      spec.rtol, spec.atol, spec.max_steps, sink);
  res.status = rp.status;
  res.events = rp.status == Status::exited ? 1 : 0;
  res.t_end = rp.t;
  res.energy_error = rp.energy_error;
  res.exit_side = rp.side;
  if (rp.status == Status::exited) {
    res.exit_time = rp.t;
    res.exit_arc = rp.arc;
  }
  return res;
}

}  // namespace skipstone
