// The linearised rotating block of the closed-form rolling models (rolling/stadium_segments.hpp:
// roll3:strip, roll4:planes on each segment; roll3:inside-cylinder for all time). A block
// X = (a, b) with height z,
//     a' = -w b - G,   b' = w a,   z' = a,
// runs over a time t by the exact map apply_block(block_map(w, G, t), X), whose coefficients
// are functions of theta = w t:
//     c = cos, s = sin, ta = t sinc, tb = t cosc, ga = G ta, gb = G tb, gz = G t^2 q,
//     sinc = sin(theta)/theta, cosc = (1 - cos theta)/theta, q = (1 - cos theta)/theta^2.
// The map is linear in (a, b, z) but the rate w is the state's own: w = k v1 with k = eta/r
// (signed) on a stadium's half-circles and eta/rho in the inside cylinder, so a tangent vector
// (da, db, dz) with a change dw = k dv1 of the rate maps to
//     (da, db, dz)(t) = [linear part of the map](da, db, dz) + dw d/dw apply_block(...)(X),
// d/dw of each coefficient being t d/dtheta of its function of theta (below, with short
// series where theta is small and the closed forms cancel). Exact for the closed-form flight:
// no time stepping, no finite differences.
#pragma once
#include <cmath>

#include "skipstone/hd.hpp"
#include "skipstone/rolling/stadium_segments.hpp"

namespace skipstone {

// d/dw of the coefficients of block_map(w, G, t) (a BlockMap of derivatives).
SKIPSTONE_HD SKIPSTONE_INLINE BlockMap block_map_rate_derivative(double w, double G, double t) {
  const double th = w * t;
  double d_sinc, d_cosc, d_q;  // d/dtheta of sinc, cosc, q
  if (fabs(th) < 1e-2) {
    const double th2 = th * th;
    d_sinc = th * (-1.0 / 3.0 + th2 * (1.0 / 30.0 - th2 / 840.0));
    d_cosc = 0.5 + th2 * (-1.0 / 8.0 + th2 / 144.0);
    d_q = th * (-1.0 / 12.0 + th2 * (1.0 / 180.0 - th2 / 6720.0));
  } else {
    const double s = sin(th), c = cos(th);
    const double cosc = (1.0 - c) / th, q = cosc / th;
    d_sinc = (c - s / th) / th;
    d_cosc = (s - cosc) / th;
    d_q = (s / th - 2.0 * q) / th;
  }
  BlockMap d;
  d.c = -t * sin(th);
  d.s = t * cos(th);
  d.ta = t * t * d_sinc;
  d.tb = t * t * d_cosc;
  d.ga = G * d.ta;
  d.gb = G * d.tb;
  d.gz = G * t * t * t * d_q;
  return d;
}

// The tangent (da, db, dz) of the block X through the map m = block_map(w, G, t), with the
// rate changed by dw; dm = block_map_rate_derivative(w, G, t) (G = 0 for an unforced block).
SKIPSTONE_HD SKIPSTONE_INLINE RotatingBlock tangent_block(const BlockMap& m, const BlockMap& dm, const RotatingBlock& x,
                                                          const RotatingBlock& dx, double dw) {
  const RotatingBlock linear = apply_block_free(m, dx);
  return {linear.a + dw * (dm.c * x.a - dm.s * x.b - dm.ga), linear.b + dw * (dm.s * x.a + dm.c * x.b - dm.gb),
          linear.z + dw * (dm.ta * x.a - dm.tb * x.b - dm.gz)};
}

}  // namespace skipstone
