// Noisy nonholonomic constraints on the transversal block of roll4:disc (the Figure-18 system,
// disc_transversal.hpp): the two Stratonovich perturbations of a constraint, with an
// Ornstein-Uhlenbeck process n(t) as the noise (docs/models.md "Noisy constraints").
//   slip (type 1): the contact point slips with velocity u = (n1, n2) in the frame (tau, e2),
//     v - r (omega x nu) = u. The state is the rolling part w = v - eta^2 u of the velocity and
//     S12; the centre moves at v = w + eta^2 u:
//       w1' = -f_c v2 w2 - eta f_s v2 S12,  w2' = f_c v2 w1 - (eta/r) v1 S12,
//       S12' = eta ((v1/r)(v2 - u2) + f_s v2 (v1 - u1)),  phi' = v1/r,  s' = v2/(1 - r kappa sin phi),
//     and E1 = (w1^2 + w2^2 + S12^2)/2 changes by dE1 = (1 - eta^2) n . F dt (F the reaction).
//   roughness (type 2): the contact normal turns at (1 + n) times the smooth rate, i.e. the
//     shape operator in the reaction terms is (1 + n) S: every eta above becomes eta (1 + n1)
//     (with u = 0). The generator stays skew, so E1 is conserved on every noise path.
// The rates take the wall's curvature as edge_arc.hpp's quotient kn / kd (the disc's rim: kappa /
// 1), so that the edge passages of the rolling tables (noisy_table.hpp) share them, and the
// integrator below stops at the breaks of such a wall.
// Noise: dn = -n/tau dt + sigma sqrt(2/tau) dW, started from its stationary law N(0, sigma^2).
// The state augmented with n has additive noise, so Stratonovich and Ito agree and the
// stochastic Heun scheme (predictor-corrector trapezoid) has strong order 1 and weak order 2.
// Fixed step h; the exit (sin phi = 0) is located on the cubic Hermite interpolant of sin phi
// over the step (phi is twice differentiable along every path), and the state there is the
// Hermite interpolant of the smooth components.
// The noise is number k of the sequence normal_of(trajectory_noise_key(...), k) (rng.hpp: keyed by
// seed, index and realisation, and a file start's row): 0 and 1 the initial n1, n2; 2 + 2 j + i
// the increment of n_i over step j.
#pragma once
#include <cstdint>
#include <cstring>

#include "skipstone/result.hpp"
#include "skipstone/rng.hpp"
#include "skipstone/rolling/disc_transversal.hpp"
#include "skipstone/rolling/rim_passage.hpp"
#include "skipstone/scan_point.hpp"

namespace skipstone {

constexpr int kNoiseNone = 0;
constexpr int kNoiseSlip = 1;
constexpr int kNoiseRoughness = 2;

// The transversal block's rates with noisy constraints, f[0..5] for y[0..5] = (w1, w2, S12,
// cos phi, sin phi, s), given the noise (n1, n2), over a wall of curvature kappa = kn / kd whose
// coordinate s moves at ds/dl = C / kd (edge_arc.hpp; the disc's rim: (kappa, 1, 1), s the arc
// length); returns what the longitudinal block needs: f_c, f_s, the centre's velocity (v1, v2)
// and the reaction's eta (eta (1 + n1) under roughness).
struct NoisyRates {
  double fc, fs, v1, v2, eta;
};
SKIPSTONE_HD SKIPSTONE_INLINE NoisyRates noisy_transversal_rates(double kn, double kd, double C, double r, double eta,
                                                                 int kind, double n1, double n2, const double* y,
                                                                 double* f) {
  const double w1 = y[0], w2 = y[1], S = y[2], c = y[3], s = y[4];
  const double ir = 1.0 / r;
  const double w = 1.0 / (kd - r * kn * s);
  const double fc = kn * c * w, fs = kn * s * w;
  // roughness: the reaction terms scaled by 1 + n1; slip: the centre carried by eta^2 u
  const double e = kind == kNoiseRoughness ? eta * (1.0 + n1) : eta;
  const double u1 = kind == kNoiseSlip ? n1 : 0.0, u2 = kind == kNoiseSlip ? n2 : 0.0;
  const double v1 = w1 + eta * eta * u1, v2 = w2 + eta * eta * u2;
  f[0] = -fc * v2 * w2 - e * fs * v2 * S;
  f[1] = fc * v2 * w1 - e * ir * v1 * S;
  f[2] = e * (ir * v1 * (v2 - u2) + fs * v2 * (v1 - u1));
  f[3] = -s * v1 * ir;
  f[4] = c * v1 * ir;
  f[5] = v2 * C * w;
  return {fc, fs, v1, v2, e};
}

// The longitudinal block's rates (v3, S13, S23, x3 at y[6..9]; gravity G along the axis) with the
// transversal block's noisy rates q: the centre's velocity and the reaction's eta of q.
SKIPSTONE_HD SKIPSTONE_INLINE void noisy_longitudinal_rates(const NoisyRates& q, double r, double G, const double* y,
                                                            double* f) {
  const double v3 = y[6], S13 = y[7], S23 = y[8], ir = 1.0 / r;
  f[6] = q.eta * (q.fs * q.v2 * S23 - ir * q.v1 * S13) - G;
  f[7] = -q.fc * q.v2 * S23 + q.eta * ir * q.v1 * v3;
  f[8] = q.fc * q.v2 * S13 - q.eta * q.fs * q.v2 * v3;
  f[9] = v3;
}

// A velocity/spin 3-block rescaled onto |b|^2 = target wherever the target is positive: the
// rough passages' projection onto an invariant with a potential (Heun's defect is larger than
// the deterministic projection's round-off window of rescale_block).
SKIPSTONE_HD SKIPSTONE_INLINE void noisy_rescale_block(double* b, double target) {
  const double k = b[0] * b[0] + b[1] * b[1] + b[2] * b[2];
  if (target > 0.0 && k > 0.0) {
    const double f = sqrt(target / k);
    for (int i = 0; i < 3; ++i) b[i] *= f;
  }
}

// The Ornstein-Uhlenbeck noise of a system: its parameters, how many components move (two
// slip components, one roughness), their constant diffusion coefficient and their drift.
struct OuNoise {
  double sigma, tau;  // stationary standard deviation, correlation time
  int kind;           // kNoiseSlip or kNoiseRoughness

  SKIPSTONE_HD int noises() const { return kind == kNoiseSlip ? 2 : 1; }
  SKIPSTONE_HD double diffusion() const { return sigma * sqrt(2.0 / tau); }
  SKIPSTONE_HD void drift(const double* n, double* f) const {
    f[0] = -n[0] / tau;
    f[1] = kind == kNoiseSlip ? -n[1] / tau : 0.0;
  }
};

// How a noisy system's Wiener increments dB drive its noise components: directly (component i
// by process i), or, for slip on the edge of a rolling table, the frame's components of the
// plate's Brownian motion B = (B_x, B_y, B_nu) (x, y in the plate, nu its normal; the faces'
// slip is driven by (B_x, B_y): slipping_face.hpp): along tau = cos(phi) e1 - sin(phi) nu and e2
// at the wall point (e1 its outward normal, e2 along the wall). The slip's driving noise is then
// one process through faces, junctions and passages, and a run with a smaller step follows the
// same path through a junction (the map turns with the state, whose phi and wall point are C^1,
// so the Stratonovich and Ito forms still agree).
SKIPSTONE_HD SKIPSTONE_INLINE void noise_drive_direct(const double* dB, double* dW) {
  dW[0] = dB[0];
  dW[1] = dB[1];
}
SKIPSTONE_HD SKIPSTONE_INLINE void slip_drive_in_frame(const double* y, Vec2 e1, Vec2 e2, const double* dB,
                                                       double* dW) {
  dW[0] = y[3] * (e1.x * dB[0] + e1.y * dB[1]) - y[4] * dB[2];
  dW[1] = e2.x * dB[0] + e2.y * dB[1];
}

// The transversal block with noisy constraints, state y = (w1, w2, S12, cos phi, sin phi, s, n1, n2).
struct NoisyTransversalSystem {
  double kappa, r, eta;
  OuNoise noise;
  static constexpr int N = 8;
  static constexpr int kFirstNoise = 6;  // n_i is y[kFirstNoise + i]

  SKIPSTONE_HD int noises() const { return noise.noises(); }
  SKIPSTONE_HD double diffusion() const { return noise.diffusion(); }
  // driven by one Wiener process per noise component (integrate_noisy_passage)
  SKIPSTONE_HD int drivers() const { return noises(); }
  SKIPSTONE_HD void drive(const double*, const double* dB, double* dW) const { noise_drive_direct(dB, dW); }
  SKIPSTONE_HD void drift(const double* y, double* f) const {
    noisy_transversal_rates(kappa, 1.0, 1.0, r, eta, noise.kind, y[6], y[7], y, f);
    noise.drift(y + 6, f + 6);
  }
  // After each step: (cos phi, sin phi) back onto the unit circle; nothing else is projected.
  SKIPSTONE_HD void project(double* y) const { normalise_phi(y); }
};

// The noise of a scan point, and its realisation (integer-valued parameters, rounded).
SKIPSTONE_HD SKIPSTONE_INLINE OuNoise noise_of(const ScanPoint& pt) {
  return {pt.p[P_NOISE_SIGMA], pt.p[P_NOISE_TAU], static_cast<int>(pt.p[P_NOISE] + 0.5)};
}
SKIPSTONE_HD SKIPSTONE_INLINE std::uint64_t realisation_of(const ScanPoint& pt) {
  return static_cast<std::uint64_t>(pt.p[P_REALISATION] + 0.5);
}

// The key of trajectory `index`'s noise: noise_key of (seed, index, its realisation). A start from
// a file of states (a run continued from another's final states) folds the bits of its row into
// the key, so that the continued run draws noise of its own rather than the first run's from its
// first passage again; the same row gives the same noise on either backend and in any chunk.
SKIPSTONE_HD SKIPSTONE_INLINE std::uint64_t trajectory_noise_key(const ScanSpec& spec, const ScanPoint& pt,
                                                                 std::uint64_t index) {
  std::uint64_t key = noise_key(spec.seed, index, realisation_of(pt));
  if (spec.start != StartKind::state) return key;
  for (int c = 0; c < spec.state_columns; ++c) {
    std::uint64_t bits;
    memcpy(&bits, &pt.p[spec.state_params[c]], sizeof bits);
    key = mix64(key ^ bits);
  }
  return key;
}

// The noise process a start from a file of states goes on from: the row's columns noise_n1,
// noise_n2 (P_NOISE_N1, P_NOISE_N2), which a noisy run's final state holds (docs/config.md
// "Start from a file of states"), so that a continued run's process goes on where the first left
// it instead of restarting from its stationary law (its increments are the continued run's own).
// Null where the row holds none: another start, a file without the columns, or NaN in a
// component the process has (a rough wall's run that ended on a face, where the next passage
// draws its own).
SKIPSTONE_HD SKIPSTONE_INLINE const double* row_noise(const ScanSpec& spec, const ScanPoint& pt) {
  static_assert(P_NOISE_N2 == P_NOISE_N1 + 1, "the row's two noise columns are read as an array");
  if (spec.start != StartKind::state) return nullptr;
  const double* n = &pt.p[P_NOISE_N1];
  for (int i = 0; i < noise_of(pt).noises(); ++i)
    if (!isfinite(n[i])) return nullptr;
  return n;
}

// The Brownian increments of one trajectory: increment(i, j, h) is that of Wiener process i
// (0, 1, 2) over step j of length h, the sum of the m increments of m steps of length h/m (m = 1
// in a run; m > 1 follows the same path as the run with step h/m, for convergence measurements).
// Processes 0 and 1 drive n_1, n_2 (numbers 2 + 2 k + i of the sequence); process 2, used only by
// a slipping table's edge (noisy_passages.hpp), has a sequence of its own.
struct CounterNoise {
  std::uint64_t key;
  std::uint32_t m = 1;

  SKIPSTONE_HD double initial(int i) const { return normal_of(key, static_cast<std::uint64_t>(i)); }
  SKIPSTONE_HD double increment(int i, std::uint64_t j, double h) const {
    const std::uint64_t third = mix64(key ^ 0x9e3779b97f4a7c15ULL);
    double sum = 0.0;
    for (std::uint32_t k = 0; k < m; ++k) {
      const std::uint64_t sub = static_cast<std::uint64_t>(m) * j + k;
      sum += i < 2 ? normal_of(key, 2 + 2 * sub + static_cast<std::uint64_t>(i)) : normal_of(third, sub);
    }
    return sqrt(h / m) * sum;
  }
};

// One stochastic Heun step of an additive-noise system from y (drift f0 there) over h with the
// Wiener increments dW of its moving noise components: y_new.
template <class Sys>
SKIPSTONE_HD void heun_step(const Sys& sys, const double* y, const double* f0, double h, const double* dW,
                            double* y_new) {
  constexpr int N = Sys::N;
  double gdW[N], yp[N], f1[N];
  for (int k = 0; k < N; ++k) gdW[k] = 0.0;
  for (int i = 0; i < sys.noises(); ++i) gdW[Sys::kFirstNoise + i] = sys.diffusion() * dW[i];
  for (int k = 0; k < N; ++k) yp[k] = y[k] + h * f0[k] + gdW[k];
  sys.drift(yp, f1);
  for (int k = 0; k < N; ++k) y_new[k] = y[k] + 0.5 * h * (f0[k] + f1[k]) + gdW[k];
}

// The state at s in [0, 1] of a step of length h from y0 (drift f0) to y1 (drift f1) of a system
// whose components from F on are noise: the cubic Hermite interpolant of the smooth components
// (C^1 along every noise path), linear in the noise. y may be y0.
template <int N, int F>
SKIPSTONE_HD SKIPSTONE_INLINE void noisy_step_between(const double* y0, const double* f0, const double* y1,
                                                      const double* f1, double h, double s, double* y) {
  const double s2 = s * s, s3 = s2 * s;
  const double a0 = 2 * s3 - 3 * s2 + 1, b0 = s3 - 2 * s2 + s, a1 = -2 * s3 + 3 * s2, b1 = s3 - s2;
  for (int k = 0; k < F; ++k) y[k] = a0 * y0[k] + b0 * h * f0[k] + a1 * y1[k] + b1 * h * f1[k];
  for (int k = F; k < N; ++k) y[k] = (1.0 - s) * y0[k] + s * y1[k];
}

// First theta in (0, 1] at which the Hermite cubic of sin phi over a step is negative; -1 if none.
SKIPSTONE_HD SKIPSTONE_INLINE double noisy_exit_theta(double g0, double d0, double g1, double d1) {
  double theta = hermite_first_root(g0, d0, g1, d1);
  if (theta >= 0.0 || !(g1 < 0.0)) return theta;
  double lo = 31.0 / 32.0, hi = 1.0;  // negative only in the last sampling interval
  for (int it = 0; it < 60; ++it) {
    const double mid = 0.5 * (lo + hi);
    const double s = mid, s2 = s * s, s3 = s2 * s;
    const double p = (2 * s3 - 3 * s2 + 1) * g0 + (s3 - 2 * s2 + s) * d0 + (-2 * s3 + 3 * s2) * g1 + (s3 - s2) * d1;
    (p < 0.0 ? hi : lo) = mid;
  }
  return 0.5 * (lo + hi);
}

// Where the noise of a passage starts: drawn from its stationary law before step 0 (a new
// passage), or carried over from inside step j of its sequence (a passage that goes on over the
// next piece of a table's wall from a break, or a slipping ball's passage from the face before
// it): the values n there, j, and the rest of step j, its length rest_h and the increments
// rest_dW of the driving processes over it (the step's increments split in proportion to time;
// rest_h = 0: it stopped at the end of step j - 1). The steps after it keep the time grid, so
// that a run with a smaller step on the same Brownian path (CounterNoise::m) follows the same
// path across it.
struct NoiseStart {
  bool carried = false;
  double n[2] = {0.0, 0.0};
  std::uint64_t step = 0;
  double rest_h = 0.0;
  double rest_dW[3] = {0.0, 0.0, 0.0};  // of the driving processes (drivers(), drive())
};

// Sub-steps of a fixed step where the state turns fast for it: a system with step_speedup(y)
// (how many times faster than the ball's own rolling its state turns: noisy_table.hpp, a
// polygon's vertex piece near its pole, whose rates grow like 1 / (r sin phi)) takes a step
// where that exceeds kSubStepSpeedup in sub-steps of the step's length over it (each turning the
// state as far as a step of its own rolling would; at least kMinSubStep of the step, the last
// one what is left), the step's Wiener increments split in proportion to time (the Brownian path
// linear over the step, as a cut step's rest is), so that the run keeps its time grid and
// Brownian path. Elsewhere the whole step at once: the plain scheme, bit for bit.
template <class Sys, class = void>
struct has_step_speedup : std::false_type {};
template <class Sys>
struct has_step_speedup<
    Sys, std::void_t<decltype(std::declval<const Sys&>().step_speedup(static_cast<const double*>(nullptr)))>>
    : std::true_type {};
constexpr double kSubStepSpeedup = 2.0;
constexpr double kMinSubStep = 1e-6;  // of the step: at most a million sub-steps

// The next sub-step of a step of length h whose rest is `rest`, from the state y.
template <class Sys>
SKIPSTONE_HD double sub_step(const Sys& sys, const double* y, double h, double rest) {
  if constexpr (has_step_speedup<Sys>::value) {
    const double speedup = sys.step_speedup(y);
    if (!(speedup > kSubStepSpeedup)) return rest;
    const double cut = h / speedup > kMinSubStep * h ? h / speedup : kMinSubStep * h;
    return cut < rest ? cut : rest;
  } else {
    return rest;
  }
}

// The key of passage j's noise sequence in the trajectory whose noise key is `key`.
SKIPSTONE_HD SKIPSTONE_INLINE std::uint64_t passage_noise_key(std::uint64_t key, std::uint64_t passage) {
  return mix64(key ^ mix64(passage + 0x2545f4914f6cdd1dULL));
}

// One passage from y0 (its components below Sys::kFirstNoise; sin phi = 0, moving into N^c)
// with fixed step h: the noise components start as `from` says. A system over a wall with
// breaks (rim_passage.hpp: kHasBreaks, break_margin) also stops where its coordinate reaches an
// end of the piece, located on the Hermite cubic of the margin as the exit is (side
// kRimBreakSide). Where it stops inside (a break or the exit), `onward` receives how the noise
// goes on from there: over the next piece, or onto a slipping face (slipping_face.hpp).
template <class Sys, class Noise, class Sink>
SKIPSTONE_HD RimRun<Sys::N, double> integrate_noisy_passage(const Sys& sys, const double* y0, double h, double t_max,
                                                            std::uint64_t max_steps, const Noise& noise, Sink& sink,
                                                            const NoiseStart& from = {},
                                                            NoiseStart* onward = nullptr) {
  constexpr int N = Sys::N, F = Sys::kFirstNoise;
  RimRun<N, double> out;
  double* y = out.y;
  for (int k = 0; k < F; ++k) y[k] = y0[k];
  for (int k = F; k < N; ++k) y[k] = 0.0;
  for (int i = 0; i < sys.noises(); ++i) y[F + i] = from.carried ? from.n[i] : sys.noise.sigma * noise.initial(i);
  out.status = Status::finished;
  out.side = 0;
  out.t = 0.0;
  out.steps = 0;
  double f0[N], f1[N], y1[N], dB[3] = {0.0, 0.0, 0.0}, dW[2] = {0.0, 0.0};
  sys.drift(y, f0);
  sink.on_step(out.t, y);
  const bool rest = from.carried && from.rest_h > 0.0;  // step 0 finishes the step the break cut
  const double shift = rest ? h - from.rest_h : 0.0;
  while (true) {
    const double t = out.steps == 0 ? 0.0 : static_cast<double>(out.steps) * h - shift;
    const double h_step = out.steps == 0 ? h - shift : h;
    if (!(t_max - t > 1e-9 * h)) {
      out.t = t_max;
      break;
    }
    if (out.steps >= max_steps) {
      out.status = Status::integrator_failure;
      out.t = t;
      break;
    }
    const bool to_end = t_max - t < h_step;  // the last step, shortened to end at t_max
    const double hs = to_end ? t_max - t : h_step;
    for (int i = 0; i < sys.drivers(); ++i)
      dB[i] = rest && out.steps == 0 ? from.rest_dW[i] * (hs / h_step) : noise.increment(i, from.step + out.steps, hs);
    ++out.steps;
    bool over = false;
    for (double done = 0.0;;) {  // the step's sub-steps (one but where the state turns fast)
      const double hm = sub_step(sys, y, hs, hs - done), tj = t + done;
      const bool last = !(hm < hs - done);
      double dBj[3];
      for (int i = 0; i < sys.drivers(); ++i) dBj[i] = dB[i] * (hm / hs);
      sys.drive(y, dBj, dW);
      heun_step(sys, y, f0, hm, dW, y1);
      sys.project(y1);
      sys.drift(y1, f1);
      bool finite = true;
      for (int k = 0; k < N; ++k) finite = finite && isfinite(y1[k]);
      if (!finite) {
        out.status = Status::non_finite;
        out.t = tj;
        over = true;
        break;
      }
      const double g0 = y[4], d0 = hm * f0[4], g1 = y1[4], d1 = hm * f1[4];
      double theta = g1 < 0.0 || (d0 < 0.0 && d1 > 0.0) ? noisy_exit_theta(g0, d0, g1, d1) : -1.0;
      bool at_break = false;
      if constexpr (rim_has_breaks<Sys>::value) {
        double r0, r1;
        const double m0 = sys.break_margin(y, r0), m1 = sys.break_margin(y1, r1);
        const double theta_b = m1 < 0.0 ? noisy_exit_theta(m0, hm * r0, m1, hm * r1) : -1.0;
        at_break = theta_b >= 0.0 && (theta < 0.0 || theta_b < theta);
        if (at_break) theta = theta_b;
      }
      if (theta >= 0.0) {
        noisy_step_between<N, F>(y, f0, y1, f1, hm, theta, y);
        const double s = last && done == 0.0 ? theta : (done + theta * hm) / hs;  // of the whole step
        if (onward) {
          const double rest_h = (1.0 - s) * hs;
          *onward = {true, {y[F], y[N - 1]}, from.step + out.steps - (rest_h > 0.0 ? 1 : 0), rest_h,
                     {(1.0 - s) * dB[0], (1.0 - s) * dB[1], (1.0 - s) * dB[2]}};
        }
        if (at_break) {
          out.side = kRimBreakSide;
        } else {
          out.side = y[3] > 0.0 ? 1 : -1;
          y[3] = out.side;
          y[4] = 0.0;
        }
        sys.project(y);
        out.t = t + s * hs;
        out.status = Status::exited;
        sink.on_step(out.t, y);
        over = true;
        break;
      }
      for (int k = 0; k < N; ++k) {
        y[k] = y1[k];
        f0[k] = f1[k];
      }
      // t + (t_max - t) may miss t_max by a rounding
      sink.on_step(last ? (to_end ? t_max : t + hs) : tj + hm, y);
      if (last) break;
      done += hm;
    }
    if (over) break;
  }
  return out;
}

// The first N components of a noisy passage's end (the deterministic system's state), for the
// run that goes on from it (table_roll.hpp: leave_piece).
template <int N, int M>
SKIPSTONE_HD RimRun<N, double> rim_run_head(const RimRun<M, double>& run) {
  RimRun<N, double> head{run.status, run.side, run.t, run.steps, {}};
  for (int k = 0; k < N; ++k) head.y[k] = run.y[k];
  return head;
}

}  // namespace skipstone
