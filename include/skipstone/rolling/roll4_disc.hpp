// roll4:disc: a 4D ball of radius r rolling without slipping on the solid circular cylinder
// P = C x R in R^3, C the disc of radius R (paper Sections 5.1-5.5, Proposition 12, Figures
// 19-20), gravity along -e3 with the effective acceleration G = g / (1 + gamma^2) of Eq. (11)
// (or the paper's `g_effective` directly). States, frames and junction maps: disc_junction.hpp.
//
// Flat parts N^+-: exact free flight, the centre's projection on a straight chord of C (exit
// where it meets the circle, in closed form), z(t) = z + u3 t - G t^2 / 2, S constant.
// Curved part N^c: both blocks of Proposition 12 with kappa = -1/R,
//   transversal  (v1, v2, S12; phi, s) as in disc_transversal.hpp,
//   longitudinal v3'  = eta (f_s v2 S23 - v1 S13 / r) - G,
//                S13' = -f_c v2 S23 + eta v1 v3 / r,
//                S23' =  f_c v2 S13 - eta f_s v2 v3,      x3' = v3,
// each xi' = A xi (- G e1) with A skew, so E1 and E2 + G x3 are invariants. One passage is
// integrated by rim_passage.hpp (GBS, order 12); after every step the state is projected onto
// both invariants of the trajectory's start: (v1, v2, S12) rescaled to |.|^2 = 2 E1 and
// (v3, S13, S23) to |.|^2 = 2 (E2 + G z0) - 2 G x3 (skipped when that target is so small that the
// correction would not be a round-off-sized one), which keeps them exact to round-off over any
// number of passages. The passage ends at phi = 0 (back to N^+) or phi = pi (over to N^-).
//
// events: completed rim passages (max_events stops the run right after the exit of the last
// one). energy_error: the largest relative defect max(|2E1 - 2E1(0)|, |2(E2 + G z) - 2(E2 + G z)(0)|)
// / (2E) over the junctions and the end. rho_even / rho_odd: mean distance from the axis of the
// flat-part chords (the line p + t u: |p x u| / |u|), even and odd in order, counting the chords
// that start on the rim (the first flight from an interior start is not a chord, as in the
// no-slip disc); caustic_gap = |rho_even - rho_odd| (Figures 19-20).
//
// Start "plate" on N^+ (x4 = +r), "plate_minus" on N^- (x4 = -r): at (x1, x2) (masked outside C;
// on the circle it may be moving outward and enters N^c at once), height z, ambient velocity
// (v1, v2, v3) and spin (S12, S13, S23), S_ij = e_i . S e_j. The mirror x4 -> -x4 fixes e1, e2,
// e3, so the N^- start with the same numbers is the mirror image of the N^+ one: the same rows
// on the flat parts, and on N^c phi -> pi - phi, tau -> -tau (v1, S12, S13 change sign; tested).
//
// Sink (trace): on_event(t, x, (u, w), nu) at the start, at every rim entry and at the end with
// the ambient state, u = (u, u3), w = (A23, -A13, A12), nu = 0; and at every integrator step on
// N^c (the exit included) with the frame state, x = ((R + r sin phi) n(theta), x3) the centre's
// projection to R^3, u = (v1, v2, v3), w = (S23, -S13, S12), nu = sin(phi) n (so the contact
// column x - r nu is the rim point R n). In both, |u|^2 + |w|^2 = 2E and u_z^2 + w_x^2 + w_y^2 = 2E2.
// w is minus the spin vector of S (as in roll4_planes.hpp): with it the ambient (u, w) on a flat
// part is the state of the no-slip ball in cylinder:disc, and as r -> 0 a rim passage becomes
// the no-slip map with beta = +pi eta (Theorem 8, Eq. (13); tested). The rows are built in
// disc_output.hpp; a sink that asks for samples (trace --sample) also gets on_sample rows there.
//
// Templated on the scalar type T of the state, the flights and the rim passages: double, and
// float for the float kernel (options.precision), which is set up in double and rounded, keeps
// the clock, the height statistics and the chord sums in double (as the float no-slip kernels
// do) and integrates at the float tolerances (rtol, atol >= 1e-5). DiscRollRun, DiscRimSystem
// and DiscRollModel are the double versions.
#pragma once
#include "skipstone/collision.hpp"
#include "skipstone/height_stats.hpp"
#include "skipstone/precision.hpp"
#include "skipstone/result.hpp"
#include "skipstone/rolling/disc_junction.hpp"
#include "skipstone/rolling/disc_output.hpp"
#include "skipstone/rolling/disc_transversal.hpp"
#include "skipstone/rolling/stadium_segments.hpp"

namespace skipstone {

// Both blocks on N^c, y = (v1, v2, S12, cos phi, sin phi, s, v3, S13, S23, x3); component k
// at y[k * S] (S = W for the CPU backend's lanes, as in disc_transversal_rhs).
template <int S = 1, class T>
SKIPSTONE_HD SKIPSTONE_INLINE void disc_rim_rhs(same_t<T> kappa, same_t<T> r, same_t<T> eta, same_t<T> G, const T* y,
                                                T* f) {
  T fc, fs;
  disc_transversal_rhs<S>(kappa, r, eta, y, f, fc, fs);
  const T v1 = y[0], v2 = y[S], v3 = y[6 * S], S13 = y[7 * S], S23 = y[8 * S];
  const T ir = T(1) / r;
  f[6 * S] = eta * (fs * v2 * S23 - ir * v1 * S13) - G;
  f[7 * S] = -fc * v2 * S23 + eta * ir * v1 * v3;
  f[8 * S] = fc * v2 * S13 - eta * fs * v2 * v3;
  f[9 * S] = v3;
}

template <class T>
struct DiscRimSystemT {
  T kappa, r, eta, G;
  T xi;        // sqrt(2 E1)
  T k2_total;  // 2 (E2 + G x3)
  static constexpr int N = 10;

  SKIPSTONE_HD void rhs(const T* y, T* f) const { disc_rim_rhs(kappa, r, eta, G, y, f); }
  SKIPSTONE_HD void project(T* y) const {
    project_transversal(y, xi);
    rescale_block(y + 6, k2_total - T(2) * G * y[9]);
  }
  SKIPSTONE_HD T radius() const { return r; }
  SKIPSTONE_HD T h_max() const { return r / xi; }
};
using DiscRimSystem = DiscRimSystemT<double>;

template <class T>
struct DiscRollModelT {
  T R, r, eta, G;
};
using DiscRollModel = DiscRollModelT<double>;

struct DiscRollOptions {
  double t_max;
  std::uint64_t max_events;
  double energy_tolerance, bounded_depth;
  double rtol, atol;
  std::uint64_t max_steps;
};

template <class Sink, class T>
SKIPSTONE_HD void emit_plate(Sink& sink, double t, const PlateStateT<T>& s) {
  const DiscRow row = plate_row(s);
  sink.on_event(t, row.x, row.state, row.nu);
}

// Turns the integrator's steps on N^c into trace events and height extremes.
template <class Sink, class T>
struct DiscRimSteps {
  Sink& out;
  HeightStats& h;
  double t0;
  T theta0, R, r;

  SKIPSTONE_HD void on_step(T t, const T* y) {
    h.extremum(y[9]);
    if (t == T(0)) return;  // the entry, already reported in the ambient frame
    const DiscRow row = rim_row(y, theta0, R, r);
    out.on_event(t0 + t, row.x, row.state, row.nu);
  }
};

// Twice the energies of a plate state: transversal 2 E1 and longitudinal 2 E2.
template <class T>
SKIPSTONE_HD SKIPSTONE_INLINE T plate_k1(const PlateStateT<T>& s) {
  return dot(s.u, s.u) + s.A12 * s.A12;
}
template <class T>
SKIPSTONE_HD SKIPSTONE_INLINE T plate_k2(const PlateStateT<T>& s) {
  return s.u3 * s.u3 + s.A13 * s.A13 + s.A23 * s.A23;
}

template <class T>
struct DiscRollEndT {
  bool on_plate;  // false: stopped on N^c (t_max, failure); `state` is then the last plate state
  PlateStateT<T> state;
};
using DiscRollEnd = DiscRollEndT<double>;

// One roll4:disc trajectory as a resumable run: fly_to_rim() flies the flat part to the next
// rim passage and gives its entry state; the caller integrates the passage (a RimStepper over
// `sys`, whose steps go to the sink rim_steps()); leave_rim() takes the passage's end and makes
// the junction. run_roll4_disc does the passages one after the other; the CPU backend's lanes
// (kernels/rim_lane_block.hpp) integrate the passages of several trajectories together.
template <class T>
struct DiscRollRunT {
  DiscRollModelT<T> m;
  DiscRollOptions opt;
  DiscRimSystemT<T> sys;
  HeightStats hs;
  T k1_0, k2_0, z0;
  double max_err;
  PlateStateT<T> s;
  bool on_rim, have_chord, on_plate;
  ChordDistances chords;
  std::uint64_t steps, events;
  double t;        // the clock (double in both precisions)
  T z_end, theta;  // theta: the rim angle where the current passage started
  Status status;

  template <class Sink>
  SKIPSTONE_HD void start(const DiscRollModelT<T>& model, const PlateStateT<T>& s0, const DiscRollOptions& options,
                          Sink& sink) {
    m = model;
    opt = options;
    s = s0;
    hs.start(s.z);
    k1_0 = plate_k1(s);
    k2_0 = plate_k2(s);
    z0 = s.z;
    sys = {T(-1) / m.R, m.r, m.eta, m.G, sqrt(k1_0), k2_0 + T(2) * m.G * z0};
    max_err = 0.0;
    const T pp = dot(s.p, s.p), R2 = m.R * m.R;
    on_rim = pp >= R2 * (T(1) - ScalarConstants<T>::on_rim);
    if (on_rim) s.p = (m.R / sqrt(pp)) * s.p;
    have_chord = on_rim;
    chords.reset();
    steps = events = 0;
    t = 0.0;
    z_end = s.z;
    on_plate = true;
    status = Status::finished;
    emit_plate(sink, t, s);
  }

  // The largest relative energy defect so far, updated with (k1, k2) at height z.
  SKIPSTONE_HD T defect(T k1, T k2, T z) {
    const T k = k1 + k2, k0 = k1_0 + k2_0;
    const T e1 = fabs(k1 - k1_0), e2 = fabs(k2 + T(2) * m.G * (z - z0) - k2_0);
    const T e = (e1 > e2 ? e1 : e2) / (k > k0 ? k : k0);
    max_err = e > max_err ? e : max_err;
    return e;
  }

  // The flat part: the chord to the rim. Returns whether a rim passage follows (its entry state
  // written to y), or false when the run is over.
  template <class Sink>
  SKIPSTONE_HD bool fly_to_rim(Sink& sink, T* y) {
    if (!(events < opt.max_events && t < opt.t_max)) return false;
    const T G = m.G;
    const T dt = time_to_rim(s.p, s.u, m.R, on_rim);
    const bool to_end = !(isfinite(dt) && t + dt <= opt.t_max);
    if (to_end && !isfinite(opt.t_max)) {
      status = Status::escaped;
      return false;
    }
    const T tf = to_end ? T(opt.t_max - t) : dt;
    if (have_chord && tf > T(0)) chords.add(s.p, s.u);
    if (G != T(0)) {
      const T tv = s.u3 / G;
      if (tv > T(0) && tv < tf) hs.extremum(s.z + T(0.5) * s.u3 * tv);
    }
    if constexpr (wants_samples<Sink>::value) sample_flight(sink, s, t, to_end ? opt.t_max : t + tf, G);
    s = fly(s, tf, G);
    t = to_end ? opt.t_max : t + tf;
    z_end = s.z;
    hs.sample(t, s.z);
    const T err_in = defect(plate_k1(s), plate_k2(s), s.z);
    emit_plate(sink, t, s);
    if (to_end) return false;
    if (err_in > opt.energy_tolerance) {
      status = Status::energy_drift;
      return false;
    }
    theta = atan2(s.p.y, s.p.x);
    plate_to_rim(s, theta, y);
    return true;
  }

  // The sink of the current passage's integrator steps.
  template <class Sink>
  SKIPSTONE_HD DiscRimSteps<Sink, T> rim_steps(Sink& sink) {
    return {sink, hs, t, theta, m.R, m.r};
  }

  // The junction after a passage (the passage's steps have reported it). Returns whether the
  // run goes on.
  SKIPSTONE_HD bool leave_rim(const RimRun<10, T>& run) {
    steps += run.steps;
    t = run.status == Status::finished ? opt.t_max : t + run.t;
    z_end = run.y[9];
    if (run.status != Status::exited) {
      on_plate = false;
      status = run.status;
      const T k1 = run.y[0] * run.y[0] + run.y[1] * run.y[1] + run.y[2] * run.y[2];
      const T k2 = run.y[6] * run.y[6] + run.y[7] * run.y[7] + run.y[8] * run.y[8];
      defect(k1, k2, z_end);
      hs.sample(t, z_end);
      return false;
    }
    ++events;
    s = rim_to_plate(run.y, theta + run.y[5] / m.R, m.R);
    on_rim = true;
    have_chord = true;
    hs.sample(t, s.z);
    if (defect(plate_k1(s), plate_k2(s), s.z) > opt.energy_tolerance) {
      status = Status::energy_drift;
      return false;
    }
    if (!(isfinite(t) && isfinite(s.z))) {
      status = Status::non_finite;
      return false;
    }
    return true;
  }

  SKIPSTONE_HD double t_left() const { return opt.t_max - t; }
  SKIPSTONE_HD std::uint64_t steps_left() const { return opt.max_steps - steps; }

  SKIPSTONE_HD TrajectoryResult result() const {
    TrajectoryResult res = rolling_result(status, events, t, max_err, hs, z_end, opt.bounded_depth);
    res.steps = steps;
    chords.write(res);
    return res;
  }
};
using DiscRollRun = DiscRollRunT<double>;

// One roll4:disc trajectory: rim passages with the flat parts in between. Without samples it is
// one loop over GBS steps, in which a trajectory whose passage is over makes its junction and
// flight and starts its next passage within the same iteration: on a GPU the threads of a warp
// then keep stepping their passages together, where a loop over passages around a loop over
// steps would hold each thread that has finished its passage until the warp's longest one is
// done. The steps and so the results are those of integrate_rim passage by passage, which the
// sampling sinks (trace --sample) use.
template <class T, class Sink>
SKIPSTONE_HD TrajectoryResult run_roll4_disc(const DiscRollModelT<T>& m, PlateStateT<T> s0, const DiscRollOptions& opt,
                                             Sink& sink, DiscRollEndT<T>* end = nullptr) {
  constexpr int K = kRimExtrapolationDepth;
  DiscRollRunT<T> run;
  run.start(m, s0, opt, sink);
  T y[10];
  const T rtol = T(opt.rtol), atol = T(opt.atol);
  if constexpr (wants_samples<Sink>::value) {
    while (run.fly_to_rim(sink, y)) {
      DiscRimSteps<Sink, T> steps_sink = run.rim_steps(sink);
      SampledRimSteps<DiscRimSystemT<T>, DiscRimSteps<Sink, T>, Sink, T> sampled{
          steps_sink, sink, run.sys, rtol, atol, run.t, run.theta, m.R, m.r, T(0), {}};
      if (!run.leave_rim(integrate_rim<K>(run.sys, y, T(run.t_left()), rtol, atol, run.steps_left(), sampled))) break;
    }
  } else {
    RimStepper<K, DiscRimSystemT<T>, T> stepper;
    bool in_passage = false;
    for (;;) {
      if (!in_passage) {
        if (!run.fly_to_rim(sink, y)) break;
        DiscRimSteps<Sink, T> steps_sink = run.rim_steps(sink);
        stepper.start(run.sys, y, T(run.t_left()), run.steps_left(), steps_sink);
        in_passage = true;
      }
      T h;
      if (!stepper.next_step(h)) {
        in_passage = false;
        if (!run.leave_rim(stepper.run())) break;
        continue;
      }
      T y_step[10];
      const T err = gbs_step<10, K>(run.sys, stepper.y(), h, y_step, rtol, atol);
      DiscRimSteps<Sink, T> steps_sink = run.rim_steps(sink);
      stepper.take(y_step, err, steps_sink);
    }
  }
  if (end) *end = {run.on_plate, run.s};
  return run.result();
}

// The model, start and options of one roll4:disc scan point, in T (computed in double and
// rounded once); false: masked (the start outside C).
template <class T>
SKIPSTONE_HD bool roll4_disc_setup(const ScanSpec& spec, const ScanPoint& pt, DiscRollModelT<T>& m, PlateStateT<T>& s,
                                   DiscRollOptions& opt) {
  const double* p = pt.p;
  const double R = p[P_R];
  s.sheet = spec.start == StartKind::plate_minus ? -1 : 1;
  const Vec2 p0 = {p[P_X1], p[P_X2]};
  if (!(dot(p0, p0) <= R * R * (1.0 + ScalarConstants<double>::on_rim))) return false;
  s.p = {T(p0.x), T(p0.y)};
  s.u = {T(p[P_V1]), T(p[P_V2])};
  s.u3 = T(p[P_V3]);
  s.z = T(p[P_Z]);
  s.A12 = T(p[P_S12]);
  s.A13 = T(p[P_S13]);
  s.A23 = T(p[P_S23]);
  const double gamma = point_gamma(spec, pt);
  m = {T(R), T(p[P_BALL_R]), T(eta_from_gamma(gamma)), T(rolling_gravity(pt, gamma))};
  opt = {spec.t_max, spec.max_events, spec.energy_tolerance, spec.bounded_depth,
         spec.rtol,  spec.atol,       spec.max_steps};
  return true;
}

template <class T = double, class Sink>
SKIPSTONE_HD TrajectoryResult simulate_roll4_disc(const ScanSpec& spec, const ScanPoint& pt, Sink& sink) {
  DiscRollModelT<T> m;
  PlateStateT<T> s;
  DiscRollOptions opt;
  if (!roll4_disc_setup(spec, pt, m, s, opt)) return masked_result();
  return run_roll4_disc(m, s, opt, sink);
}

}  // namespace skipstone
