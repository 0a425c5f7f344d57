// The largest finite-time Lyapunov exponent of the stadium models roll3:strip and roll4:planes
// (rolling/stadium_segments.hpp) from their tangent dynamics. The tangent vector rides on a run
// of the same trajectory (run_stadium): its emit hook hands every segment end to
// StadiumLyapunovSink, which carries the vector over the segment just run and passes the event on
// to the model's sink. A scan runs it after the plain run, which gives every other observable
// (below).
//
// Coordinates: delta = (sigma, v1, h.a, h.b, h.z[, q.a, q.b, q.z, S23]) (the arc length on the
// stadium, the speed along it, the height block and, on roll4:planes, the transversal block and
// the constant spin): the state row's components (roll3_strip.hpp, roll4_planes.hpp) up to order
// and sign, so its Euclidean norm is the row's. Over a segment of duration tau at rate w:
//     dsigma += tau dv1,   each block by tangent_block (block_tangent.hpp) with dw = k dv1,
// k = w_arc / v1 on the half-circles (the rate is eta v1 / r, signed) and 0 on the flat parts.
// At a segment end the rate jumps from w- to w+ at sigma = the junction, crossed at a time
// that depends on the state: the neighbour reaches it dt = -dsigma / v1 later, and the
// saltation delta+ = delta- + (f- - f+) dt changes each block by
//     da += (w+ - w-) b dt,   db -= (w+ - w-) a dt
// (the vector fields differ only in a' = -w b - G, b' = w a). The vector is renormalised at
// every segment end; with R_k the norms and the final norm,
//     lambda = (1/t) sum log R_k   (`lyapunov`),   mu = (1/N) sum log R_k   (`lyapunov_per_event`),
// N the half-circle passages.
//
// What it measures: the speed v1 is conserved and sets the period, while a half-circle turns
// every block by the same angle pi eta whatever the state, so a full round is a rotation by
// 2 pi eta about a centre that depends on v1 only: every direction but dv1 stays bounded, and
// dv1 shears the phase, |delta(t)| ~ |dv1| t. A generic vector's exponent decays like log(t)/t,
// one with dv1 = 0 like 1/t (tested).
#pragma once
#include <cmath>
#include <cstdint>

#include "skipstone/result.hpp"
#include "skipstone/rolling/roll3_strip.hpp"
#include "skipstone/rolling/roll4_planes.hpp"
#include "skipstone/rolling/stadium_segments.hpp"
#include "skipstone/sinks.hpp"
#include "skipstone/tangent/block_tangent.hpp"

namespace skipstone {

// Indices of the stadium tangent vector; roll3:strip has the first kStripTangentDim.
enum StadiumTangentIndex : int { kTSigma = 0, kTV1, kTHa, kTHb, kTHz, kTQa, kTQb, kTQz, kTS };
constexpr int kStripTangentDim = 5, kPlanesTangentDim = 9;

// One tangent vector along a stadium run (the sink run_stadium's emit hook hands the segment
// ends to: StadiumLyapunovEmit); Inner is the model's sink.
template <bool kSecondBlock, class Inner>
struct StadiumLyapunovSink {
  static constexpr int kDim = kSecondBlock ? kPlanesTangentDim : kStripTangentDim;
  Inner& inner;
  double d[kPlanesTangentDim];
  double log_growth = 0.0;
  bool saltation = true;    // false: the segment ends without their time shifts (tests only)
  bool renormalise = true;  // false: the raw tangent map (tests only)
  StadiumSetup prev;        // the state at the last segment end
  double t_prev = 0.0;
  bool started = false;

  SKIPSTONE_HD explicit StadiumLyapunovSink(Inner& sink, const double* d0 = nullptr) : inner(sink) {
    for (int i = 0; i < kPlanesTangentDim; ++i) d[i] = i < kDim ? (d0 ? d0[i] : 1.0 / sqrt(double(kDim))) : 0.0;
  }

  // The state s at time t, at a segment end (or the start, or the end of the run).
  SKIPSTONE_HD void advance(double t, const StadiumSetup& s) {
    if (started) {
      segment(prev, t - t_prev, s);
      rescale();
    }
    started = true;
    prev = s;
    t_prev = t;
  }

  SKIPSTONE_HD double norm2() const {
    double n = 0.0;
    for (int i = 0; i < kDim; ++i) n += d[i] * d[i];
    return n;
  }

  // The run's result with the exponents.
  SKIPSTONE_HD TrajectoryResult finish(TrajectoryResult res) const {
    const double total = log_growth + 0.5 * log(norm2());
    res.lyapunov = res.t_end > 0.0 ? total / res.t_end : NAN;
    res.lyapunov_per_event = res.events > 0 ? total / double(res.events) : NAN;
    return res;
  }

 private:
  // The segment from the state a (seg, pos) to the state b; `elapsed` is the time between them.
  SKIPSTONE_HD void segment(const StadiumSetup& a, double elapsed, const StadiumSetup& b) {
    const double speed = fabs(a.v1);
    const bool forward = a.v1 > 0.0, on_arc = (a.seg & 1) != 0, reach_end = b.seg != a.seg;
    // the duration as run_stadium takes it: the rest of the segment, or up to t_max
    const double tau = reach_end ? (forward ? a.st.length(a.seg) - a.pos : a.pos) / speed : elapsed;
    const double w = on_arc ? a.w_arc : 0.0, dw = on_arc ? (a.w_arc / a.v1) * d[kTV1] : 0.0;
    d[kTSigma] += tau * d[kTV1];
    const BlockMap m = block_map(w, a.G, tau);
    const BlockMap dm = block_map_rate_derivative(w, a.G, tau);
    set_block(kTHa, tangent_block(m, dm, a.h, block(kTHa), dw));
    if (kSecondBlock) set_block(kTQa, tangent_block(m, block_map_rate_derivative(w, 0.0, tau), a.q, block(kTQa), dw));
    if (!reach_end || !saltation) return;
    const double jump = ((b.seg & 1) != 0 ? b.w_arc : 0.0) - w;  // w+ - w-
    const double dt = -d[kTSigma] / a.v1;
    cross(kTHa, b.h, jump * dt);
    if (kSecondBlock) cross(kTQa, b.q, jump * dt);
  }
  SKIPSTONE_HD RotatingBlock block(int i) const { return {d[i], d[i + 1], d[i + 2]}; }
  SKIPSTONE_HD void set_block(int i, const RotatingBlock& x) {
    d[i] = x.a;
    d[i + 1] = x.b;
    d[i + 2] = x.z;
  }
  SKIPSTONE_HD void cross(int i, const RotatingBlock& x, double jump_dt) {
    d[i] += jump_dt * x.b;
    d[i + 1] -= jump_dt * x.a;
  }
  SKIPSTONE_HD void rescale() {
    if (!renormalise) return;
    const double r = sqrt(norm2());
    log_growth += log(r);
    for (int i = 0; i < kDim; ++i) d[i] /= r;
  }
};

// run_stadium's emit hook for a run with the tangent vector: the segment end to the tangent
// sink, then the model's event (ModelEmit: StripEmit, PlanesEmit) to the model's sink.
template <class ModelEmit>
struct StadiumLyapunovEmit {
  template <class Sink>
  SKIPSTONE_HD static void emit(Sink& sink, double t, double sigma, const StadiumSetup& s) {
    sink.advance(t, s);
    ModelEmit::emit(sink.inner, t, sigma, s);
  }
};

template <class ModelEmit>
struct stadium_row_emit<StadiumLyapunovEmit<ModelEmit>> {
  using type = ModelEmit;
};

// The run from s with the tangent vector ts (its inner sink the model's).
template <class ModelEmit, bool kSecondBlock, class Inner>
SKIPSTONE_HD TrajectoryResult run_stadium_lyapunov(const StadiumSetup& s, const StadiumStop& stop,
                                                   StadiumLyapunovSink<kSecondBlock, Inner>& ts) {
  return ts.finish(run_stadium<StadiumLyapunovEmit<ModelEmit>, kSecondBlock>(s, stop, ts));
}

// The plain runs out of line: a scan's plain kernel and its Lyapunov kernel call the same
// compiled run, so that every other observable is bit-identical with and without the exponent
// (an inlined copy is optimised with its surroundings, and g++ -march=native builds of the same
// closed form differ in the last bit between such contexts).
template <class Sink>
SKIPSTONE_NOINLINE SKIPSTONE_HD TrajectoryResult run_roll3_strip(const ScanSpec& spec, const ScanPoint& pt, Sink& sink) {
  return simulate_roll3_strip(spec, pt, sink);
}
template <class Sink>
SKIPSTONE_NOINLINE SKIPSTONE_HD TrajectoryResult run_roll4_planes(const ScanSpec& spec, const ScanPoint& pt, Sink& sink) {
  return simulate_roll4_planes(spec, pt, sink);
}

// The exponent of the trajectory from s, run again with the tangent vector, into res.
template <class ModelEmit, bool kSecondBlock>
SKIPSTONE_HD void add_stadium_exponent(const StadiumSetup& s, const ScanSpec& spec, TrajectoryResult& res) {
  DiscardSink none;
  StadiumLyapunovSink<kSecondBlock, DiscardSink> ts(none);
  const TrajectoryResult tangent = run_stadium_lyapunov<ModelEmit>(s, stadium_stop(spec), ts);
  res.lyapunov = tangent.lyapunov;
  res.lyapunov_per_event = tangent.lyapunov_per_event;
}

// One roll3:strip or roll4:planes trajectory of a scan that asks for the exponent: the plain run
// (its result and its events to the sink), then the same trajectory again with the tangent
// vector, for the exponent only.
template <class Sink>
SKIPSTONE_HD TrajectoryResult simulate_roll3_strip_lyapunov(const ScanSpec& spec, const ScanPoint& pt, Sink& sink) {
  TrajectoryResult res = run_roll3_strip(spec, pt, sink);
  StadiumSetup s;
  if (roll3_strip_setup(spec, pt, s)) add_stadium_exponent<StripEmit, false>(s, spec, res);
  return res;
}
template <class Sink>
SKIPSTONE_HD TrajectoryResult simulate_roll4_planes_lyapunov(const ScanSpec& spec, const ScanPoint& pt, Sink& sink) {
  TrajectoryResult res = run_roll4_planes(spec, pt, sink);
  StadiumSetup s;
  if (roll4_planes_setup(spec, pt, s)) add_stadium_exponent<PlanesEmit, true>(s, spec, res);
  return res;
}

}  // namespace skipstone
