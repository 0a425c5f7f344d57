// The transversal (cross-section) block of roll4:disc on the curved part N^c, Proposition 12
// with kappa = -1/R (Section 5.5, Figure 18):
//   v1' = -f_c v2^2 - eta f_s v2 S12,   v2' = f_c v1 v2 - (eta/r) v1 S12,
//   S12' = eta (f_s + 1/r) v1 v2,       phi' = v1/r,   s' = v2/(1 - r kappa sin phi),
//   f_c = kappa cos(phi)/(1 - r kappa sin phi),  f_s = kappa sin(phi)/(1 - r kappa sin phi).
// The block is xi' = A xi with A skew, so E1 = (v1^2 + v2^2 + S12^2)/2 is conserved; phi is
// carried as (cos phi, sin phi), which turns the right-hand side into a rational function
// without trigonometry. One passage from phi = 0 (the Figure-18 map) is integrated by
// rim_passage.hpp, with the projection back onto the energy sphere and the unit circle after
// every step; the exit through phi = 0 (same side, the "friendly roll") or phi = pi (opposite
// side) ends it. Templated on the scalar type T: double, and float for the float Figure-18
// kernel (precision.hpp); DiscTransversalSystem and RimPassage are the double versions.
#pragma once
#include "skipstone/result.hpp"
#include "skipstone/rolling/rim_passage.hpp"
#include "skipstone/scan_point.hpp"

namespace skipstone {

// (cos phi, sin phi) = (y[3], y[4]) back onto the unit circle.
template <class T>
SKIPSTONE_HD SKIPSTONE_INLINE void normalise_phi(T* y) {
  const T cn = T(1) / sqrt(y[3] * y[3] + y[4] * y[4]);
  y[3] *= cn;
  y[4] *= cn;
}

template <class T>
SKIPSTONE_HD SKIPSTONE_INLINE void project_transversal(T* y, same_t<T> xi_norm) {
  const T n = sqrt(y[0] * y[0] + y[1] * y[1] + y[2] * y[2]);
  const T a = xi_norm / n;
  y[0] *= a;
  y[1] *= a;
  y[2] *= a;
  normalise_phi(y);
}

// A velocity/spin 3-block b rescaled onto |b|^2 = target, where that is a round-off-sized
// correction (a larger mismatch means a target near 0, where rescaling would not be one): the
// projection onto an invariant with a potential, E2 + G x3 or E1 + G y_c.
template <class T>
SKIPSTONE_HD SKIPSTONE_INLINE void rescale_block(T* b, same_t<T> target) {
  const T k = b[0] * b[0] + b[1] * b[1] + b[2] * b[2];
  if (fabs(k - target) < ScalarConstants<T>::rim_projection_window * target) {
    const T f = sqrt(target / k);
    b[0] *= f;
    b[1] *= f;
    b[2] *= f;
  }
}

// v1 of an entry into N^c with (v2, S12) on the energy sphere of radius `speed` (the rim_entry
// starts); false where v1^2 = speed^2 - v2^2 - S12^2 <= 0 (the start is masked).
SKIPSTONE_HD SKIPSTONE_INLINE bool entry_v1(double speed, double v2, double S12, double& v1) {
  const double v1sq = speed * speed - v2 * v2 - S12 * S12;
  if (!(v1sq > 0.0)) return false;
  v1 = sqrt(v1sq);
  return true;
}

// The transversal block's rates of (v1, v2, S12, cos phi, sin phi) given f_c and f_s. Component
// k of y and f lies at [k * S]: S = 1 for one state, S = W for a lane of the CPU backend's
// W-lane states (kernels/rim_lane_block.hpp).
template <int S = 1, class T>
SKIPSTONE_HD SKIPSTONE_INLINE void transversal_block_rhs(T fc, T fs, same_t<T> r, same_t<T> eta, const T* y, T* f) {
  const T v1 = y[0], v2 = y[S], Sp = y[2 * S], c = y[3 * S], s = y[4 * S];
  const T ir = T(1) / r;
  f[0] = -fc * v2 * v2 - eta * fs * v2 * Sp;
  f[S] = fc * v1 * v2 - eta * ir * v1 * Sp;
  f[2 * S] = eta * (fs + ir) * v1 * v2;
  f[3 * S] = -s * v1 * ir;
  f[4 * S] = c * v1 * ir;
}

// The transversal right-hand side for y = (v1, v2, S12, cos phi, sin phi, arc length s along
// the rim); returns f_c and f_s for the longitudinal block (longitudinal_rhs). Strided by S as
// transversal_block_rhs.
template <int S = 1, class T>
SKIPSTONE_HD SKIPSTONE_INLINE void disc_transversal_rhs(same_t<T> kappa, same_t<T> r, same_t<T> eta, const T* y, T* f,
                                                        T& fc, T& fs) {
  const T v2 = y[S], c = y[3 * S], s = y[4 * S];
  const T w = T(1) / (T(1) - r * kappa * s);
  fc = kappa * c * w;
  fs = kappa * s * w;
  transversal_block_rhs<S>(fc, fs, r, eta, y, f);
  f[5 * S] = v2 * w;
}

// The same block over a piece of a table's wall (edge_arc.hpp) with curvature kappa = kn / kd and
// dq/dl = C / kd, y[5] = q: f_c = kn cos(phi) d, f_s = kn sin(phi) d, q' = v2 C d with
// d = 1 / (kd - r kn sin phi), which has no division by 0 at a vertex (kd = 0).
template <int S = 1, class T>
SKIPSTONE_HD SKIPSTONE_INLINE void edge_transversal_rhs(same_t<T> kn, same_t<T> kd, same_t<T> C, same_t<T> r,
                                                        same_t<T> eta, const T* y, T* f, T& fc, T& fs) {
  const T v2 = y[S], c = y[3 * S], s = y[4 * S];
  const T d = T(1) / (kd - r * kn * s);
  fc = kn * c * d;
  fs = kn * s * d;
  transversal_block_rhs<S>(fc, fs, r, eta, y, f);
  f[5 * S] = v2 * C * d;
}

// The longitudinal block of roll4 on N^c (v3, S13, S23, x3; gravity G along the axis), given
// the transversal block's f_c and f_s (roll4_disc.hpp, edge_system.hpp); strided by S.
template <int S = 1, class T>
SKIPSTONE_HD SKIPSTONE_INLINE void longitudinal_rhs(T fc, T fs, same_t<T> r, same_t<T> eta, same_t<T> G, const T* y,
                                                    T* f) {
  const T v1 = y[0], v2 = y[S], v3 = y[6 * S], S13 = y[7 * S], S23 = y[8 * S];
  const T ir = T(1) / r;
  f[6 * S] = eta * (fs * v2 * S23 - ir * v1 * S13) - G;
  f[7 * S] = -fc * v2 * S23 + eta * ir * v1 * v3;
  f[8 * S] = fc * v2 * S13 - eta * fs * v2 * v3;
  f[9 * S] = v3;
}

template <class T>
struct DiscTransversalSystemT {
  T kappa, r, eta;
  static constexpr int N = 6;

  SKIPSTONE_HD void rhs(const T* y, T* f) const {
    T fc, fs;
    disc_transversal_rhs(kappa, r, eta, y, f, fc, fs);
  }
};
using DiscTransversalSystem = DiscTransversalSystemT<double>;

// The system as rim_passage.hpp integrates it: with the projection onto |(v1, v2, S12)| = xi.
template <class T>
struct TransversalPassage {
  DiscTransversalSystemT<T> sys;
  T xi;
  static constexpr int N = 6;

  SKIPSTONE_HD void rhs(const T* y, T* f) const { sys.rhs(y, f); }
  SKIPSTONE_HD void project(T* y) const { project_transversal(y, xi); }
  SKIPSTONE_HD T radius() const { return sys.r; }
  SKIPSTONE_HD T h_max() const { return sys.r / xi; }  // phi moves by at most ~1 rad per step
};

template <class T>
struct RimPassageT {
  Status status;
  int side;          // +1 back to phi = 0, -1 over to phi = pi, 0 still on the rim at t_max
  T t, arc;          // time and arc length at exit (or at t_max)
  T energy_error;
  std::uint64_t steps;
  T y[6];            // state at the end
};
using RimPassage = RimPassageT<double>;

// The start of one passage over the rim from phi = 0 with v1 > 0: the system with its
// invariant xi = |(v1, v2, S12)| and the entry state.
template <class T>
struct TransversalStart {
  bool masked;  // no entry: v1^2 = speed^2 - v2^2 - S12^2 <= 0 (scan points only)
  TransversalPassage<T> passage;
  T y0[6];
};

template <class T>
SKIPSTONE_HD TransversalStart<T> transversal_start(const DiscTransversalSystemT<T>& sys, T v1, T v2, T S12) {
  const T xi = sqrt(v1 * v1 + v2 * v2 + S12 * S12);
  return {false, {sys, xi}, {v1, v2, S12, T(1), T(0), T(0)}};
}

template <class T>
SKIPSTONE_HD RimPassageT<T> rim_passage_of(const TransversalPassage<T>& passage, const RimRun<6, T>& run) {
  const T xi = passage.xi;
  RimPassageT<T> out;
  out.status = run.status;
  out.side = run.side;
  out.t = run.t;
  out.arc = run.y[5];
  const T e = run.y[0] * run.y[0] + run.y[1] * run.y[1] + run.y[2] * run.y[2];
  out.energy_error = fabs(e - xi * xi) / (xi * xi);
  out.steps = run.steps;
  for (int i = 0; i < 6; ++i) out.y[i] = run.y[i];
  return out;
}

// One passage over the rim from phi = 0 with v1 > 0. K: extrapolation depth (order 2K).
template <int K, class T, class Sink>
SKIPSTONE_HD RimPassageT<T> integrate_rim_passage(const DiscTransversalSystemT<T>& sys, same_t<T> v1, same_t<T> v2,
                                                  same_t<T> S12, same_t<T> t_max, same_t<T> rtol, same_t<T> atol,
                                                  std::uint64_t max_steps, Sink& sink) {
  const TransversalStart<T> st = transversal_start(sys, v1, v2, S12);
  return rim_passage_of(st.passage, integrate_rim<K>(st.passage, st.y0, t_max, rtol, atol, max_steps, sink));
}

// One Figure-18 pixel's passage. The scan point and tolerances are computed in double and
// rounded once to T (the entry direction v1 from v2, S12 on the energy sphere; eta from gamma).
template <class T>
SKIPSTONE_HD TransversalStart<T> disc_transversal_start(const ScanSpec& spec, const ScanPoint& pt) {
  const double* p = pt.p;
  const double speed = p[P_SPEED];
  const double v2 = p[P_V2], S12 = p[P_S12];
  double v1;
  if (!entry_v1(speed, v2, S12, v1)) return {true, {}, {}};
  const double gamma = point_gamma(spec, pt);
  const DiscTransversalSystemT<T> sys{T(-1.0 / p[P_R]), T(p[P_BALL_R]), T(eta_from_gamma(gamma))};
  return transversal_start(sys, T(v1), T(v2), T(S12));
}

template <class T>
SKIPSTONE_HD TrajectoryResult disc_transversal_result(const RimPassageT<T>& rp) {
  TrajectoryResult res = empty_result();
  res.status = rp.status;
  res.events = rp.status == Status::exited ? 1 : 0;
  res.steps = rp.steps;
  res.t_end = rp.t;
  res.energy_error = rp.energy_error;
  res.exit_side = rp.side;
  if (rp.status == Status::exited) {
    res.exit_time = rp.t;
    res.exit_arc = rp.arc;
  }
  return res;
}

template <class T = double, class Sink>
SKIPSTONE_HD TrajectoryResult simulate_disc_transversal(const ScanSpec& spec, const ScanPoint& pt, Sink& sink) {
  const TransversalStart<T> st = disc_transversal_start<T>(spec, pt);
  if (st.masked) return masked_result();
  const RimRun<6, T> run = integrate_rim<kRimExtrapolationDepth>(st.passage, st.y0, T(spec.t_max), T(spec.rtol),
                                                                 T(spec.atol), spec.max_steps, sink);
  return disc_transversal_result(rim_passage_of(st.passage, run));
}

}  // namespace skipstone
