// The largest finite-time Lyapunov exponent of roll3:inside-cylinder
// (rolling/roll3_inside_cylinder.hpp) from its tangent dynamics. The state at time t is a closed
// form of the start, theta(t) = theta0 + v1 t / rho and (v2, s, z)(t) = apply_block(block_map(w,
// G, t), (v2, s, z)(0)) with w = eta v1 / rho, so the tangent map from 0 to t is its derivative:
// in the coordinates delta = (rho theta, v1, v2, s, z) (arc length round the axis, the speeds,
// the spin, the height),
//     d(rho theta) = d(rho theta0) + t dv1,   dv1 constant,
//     (dv2, ds, dz) = tangent_block (block_tangent.hpp) with dw = (eta / rho) dv1,
// exact, with no events to cross: the run's turns are only its bookkeeping. Nothing grows
// faster than linearly (below), so the vector needs no renormalisation:
//     lambda = log |delta(t)| / t   (`lyapunov`),   mu = log |delta(t)| / N   (`lyapunov_per_event`),
// N the turns about the axis, from the uniform |delta(0)| = 1.
//
// What it measures: the motion is integrable (uniform rotation about the axis, the block turning
// at the constant rate w about a fixed centre). Every direction but dv1 is turned and stays
// bounded; dv1 shears the angle about the axis and the block's phase, |delta(t)| ~ |dv1| t. A
// generic vector's exponent decays like log(t)/t, one with dv1 = 0 like 1/t (tested).
#pragma once
#include <cmath>

#include "skipstone/result.hpp"
#include "skipstone/rolling/roll3_inside_cylinder.hpp"
#include "skipstone/tangent/block_tangent.hpp"

namespace skipstone {

constexpr int kInsideCylinderTangentDim = 5;

// The tangent map from 0 to t of the start c, in place on d = (rho theta, v1, v2, s, z).
SKIPSTONE_HD SKIPSTONE_INLINE void tangent_inside_cylinder(const InsideCylinderState& c, double t, double* d) {
  const double k = c.eta / c.rho;  // dw / dv1
  const RotatingBlock h = tangent_block(block_map(c.w, c.G, t), block_map_rate_derivative(c.w, c.G, t), c.h0,
                                        {d[2], d[3], d[4]}, k * d[1]);
  d[0] += t * d[1];
  d[2] = h.a;
  d[3] = h.b;
  d[4] = h.z;
}

// The plain run out of line: the plain kernel and the Lyapunov kernel call the same compiled run,
// so that every other observable is bit-identical with and without the exponent (as
// tangent/stadium_lyapunov.hpp's).
template <class Sink>
SKIPSTONE_NOINLINE SKIPSTONE_HD TrajectoryResult run_roll3_inside_cylinder(const ScanSpec& spec, const ScanPoint& pt,
                                                                         Sink& sink) {
  return simulate_roll3_inside_cylinder(spec, pt, sink);
}

// One trajectory of a scan that asks for the exponent: the plain run, then the tangent map to
// its end. d0: the start vector (nullptr: the uniform one); the end vector goes back in d_end.
template <class Sink>
SKIPSTONE_HD TrajectoryResult simulate_roll3_inside_cylinder_lyapunov(const ScanSpec& spec, const ScanPoint& pt,
                                                                      Sink& sink, const double* d0 = nullptr,
                                                                      double* d_end = nullptr) {
  TrajectoryResult res = run_roll3_inside_cylinder(spec, pt, sink);
  InsideCylinderState c;
  if (!inside_cylinder_setup(spec, pt, c)) return res;
  constexpr int n = kInsideCylinderTangentDim;
  double d[n];
  for (int i = 0; i < n; ++i) d[i] = d0 ? d0[i] : 1.0 / sqrt(double(n));
  tangent_inside_cylinder(c, res.t_end, d);
  double n2 = 0.0;
  for (int i = 0; i < n; ++i) {
    n2 += d[i] * d[i];
    if (d_end) d_end[i] = d[i];
  }
  const double total = 0.5 * log(n2);
  res.lyapunov = res.t_end > 0.0 ? total / res.t_end : NAN;
  res.lyapunov_per_event = res.events > 0 ? total / double(res.events) : NAN;
  return res;
}

}  // namespace skipstone
