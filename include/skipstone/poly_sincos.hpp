// sin and cos of a double from additions, multiplications and one rounding to an integer, with
// no table and no branch: a loop over the CPU backend's SIMD lanes that calls it vectorises,
// and a lane gives the same bits as a one-trajectory kernel that calls it (libm's sin and cos
// do not vectorise, and a vector version of them rounds differently). Used where a right-hand
// side needs the sine and cosine of a wall coordinate (rolling/edge_arc.hpp).
// x = k pi/2 + r with |r| <= pi/4: k pi/2 subtracted in three parts (33, 33 and 53 bits of
// pi/2; k pi/2 is exact in the first two for |k| < 2^20), then the Taylor polynomials of sin r
// to r^17 and cos r to r^16 (truncation below 1e-17 on |r| <= pi/4), and the quadrant k mod 4
// by selects. Accurate to about one rounding unit for |x| < 1e6 (tests/test_poly_sincos.cpp).
// The float overload (the float kernels of the rolling tables) is the same scheme in float:
// k pi/2 in three parts of 8, 12 and 24 bits (k pi/2 exact in the first two for |k| < 2^12, so
// |x| < ~6e3) and the polynomials to r^11 and r^12 (truncation below 2e-10 on |r| <= pi/4).
#pragma once
#include <cmath>

#include "skipstone/hd.hpp"

namespace skipstone {

SKIPSTONE_HD SKIPSTONE_INLINE void poly_sincos(double x, double& s, double& c) {
  constexpr double two_over_pi = 0.6366197723675814;
  constexpr double p1 = 1.5707963267341256, p2 = 6.077100506303966e-11, p3 = 2.0222662487959506e-21;
  const double k = rint(x * two_over_pi);
  const double r = ((x - k * p1) - k * p2) - k * p3;
  const double r2 = r * r;
  const double sp =
      -1.0 / 6.0 +
      r2 * (1.0 / 120.0 +
            r2 * (-1.0 / 5040.0 +
                  r2 * (1.0 / 362880.0 +
                        r2 * (-1.0 / 39916800.0 +
                              r2 * (1.0 / 6227020800.0 + r2 * (-1.0 / 1307674368000.0 + r2 * (1.0 / 355687428096000.0)))))));
  const double cp =
      1.0 / 24.0 +
      r2 * (-1.0 / 720.0 +
            r2 * (1.0 / 40320.0 +
                  r2 * (-1.0 / 3628800.0 +
                        r2 * (1.0 / 479001600.0 + r2 * (-1.0 / 87178291200.0 + r2 * (1.0 / 20922789888000.0))))));
  const double sr = r + r * r2 * sp;
  const double cr = (1.0 - 0.5 * r2) + r2 * r2 * cp;
  // k mod 4 as -2, -1, 0, 1 or 2 (rint, not floor: g++ vectorises floor only without
  // -ftrapping-math); -1 is quadrant 3, -2 and 2 quadrant 2
  const double m = k - 4.0 * rint(0.25 * k);
  const bool odd = fabs(m) == 1.0;
  const double s0 = odd ? cr : sr, c0 = odd ? sr : cr;
  s = m > 1.5 || m < -0.5 ? -s0 : s0;
  c = m > 0.5 || m < -1.5 ? -c0 : c0;
}

SKIPSTONE_HD SKIPSTONE_INLINE void poly_sincos(float x, float& s, float& c) {
  constexpr float two_over_pi = 0.63661977f;
  constexpr float p1 = 1.5703125f, p2 = 4.837512969970703125e-4f, p3 = 7.54978995489188216e-8f;
  const float k = rintf(x * two_over_pi);
  const float r = ((x - k * p1) - k * p2) - k * p3;
  const float r2 = r * r;
  const float sp = -1.0f / 6.0f + r2 * (1.0f / 120.0f + r2 * (-1.0f / 5040.0f + r2 * (1.0f / 362880.0f +
                                                                                      r2 * (-1.0f / 39916800.0f))));
  const float cp = 1.0f / 24.0f + r2 * (-1.0f / 720.0f + r2 * (1.0f / 40320.0f + r2 * (-1.0f / 3628800.0f +
                                                                                     r2 * (1.0f / 479001600.0f))));
  const float sr = r + r * r2 * sp;
  const float cr = (1.0f - 0.5f * r2) + r2 * r2 * cp;
  const float m = k - 4.0f * rintf(0.25f * k);  // k mod 4, as in the double version
  const bool odd = fabsf(m) == 1.0f;
  const float s0 = odd ? cr : sr, c0 = odd ? sr : cr;
  s = m > 1.5f || m < -0.5f ? -s0 : s0;
  c = m > 0.5f || m < -1.5f ? -c0 : c0;
}

}  // namespace skipstone
