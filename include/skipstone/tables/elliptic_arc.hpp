// Arc length of an ellipse: the elliptic integral of the second kind E(phi | m), evaluated
// through Carlson's symmetric integrals R_F and R_D by the duplication theorem (DLMF 19.25.1,
// 19.25.9, 19.36.1 and 19.36.2). Relative error near the double rounding error for every m < 1,
// negative m included, without tables or series in m.
#pragma once
#include "skipstone/vec.hpp"

namespace skipstone {

// R_F(x, y, z) = 1/2 int_0^inf dt / sqrt((t+x)(t+y)(t+z)), x, y, z >= 0, at most one zero.
SKIPSTONE_HD SKIPSTONE_INLINE double carlson_rf(double x, double y, double z) {
  double mu = 1.0, dx = 0.0, dy = 0.0, dz = 0.0;
  for (int it = 0; it < 64; ++it) {
    mu = (x + y + z) / 3.0;
    dx = 1.0 - x / mu;
    dy = 1.0 - y / mu;
    dz = 1.0 - z / mu;
    // the truncation error of the series below is about r^6 / 4, r = max |d|
    if (fmax(fabs(dx), fmax(fabs(dy), fabs(dz))) < 2.5e-3) break;
    const double sx = sqrt(x), sy = sqrt(y), sz = sqrt(z);
    const double lam = sx * (sy + sz) + sy * sz;
    x = 0.25 * (x + lam);
    y = 0.25 * (y + lam);
    z = 0.25 * (z + lam);
  }
  const double e2 = dx * dy - dz * dz, e3 = dx * dy * dz;
  return (1.0 - e2 / 10.0 + e3 / 14.0 + e2 * e2 / 24.0 - 3.0 * e2 * e3 / 44.0) / sqrt(mu);
}

// R_D(x, y, z) = 3/2 int_0^inf dt / sqrt((t+x)(t+y)(t+z)^3), x, y >= 0 (at most one zero), z > 0.
SKIPSTONE_HD SKIPSTONE_INLINE double carlson_rd(double x, double y, double z) {
  double sum = 0.0, fac = 1.0, mu = 1.0, dx = 0.0, dy = 0.0, dz = 0.0;
  for (int it = 0; it < 64; ++it) {
    mu = (x + y + 3.0 * z) / 5.0;
    dx = 1.0 - x / mu;
    dy = 1.0 - y / mu;
    dz = 1.0 - z / mu;
    if (fmax(fabs(dx), fmax(fabs(dy), fabs(dz))) < 1.5e-3) break;
    const double sx = sqrt(x), sy = sqrt(y), sz = sqrt(z);
    const double lam = sx * (sy + sz) + sy * sz;
    sum += fac / (sz * (z + lam));
    fac *= 0.25;
    x = 0.25 * (x + lam);
    y = 0.25 * (y + lam);
    z = 0.25 * (z + lam);
  }
  // dx + dy + 3 dz = 0: the series in the elementary symmetric functions of (dx, dy, dz, dz, dz)
  const double ea = dx * dy, eb = dz * dz, ec = ea - eb, ed = ea - 6.0 * eb, ee = ed + 2.0 * ec;
  const double series = 1.0 + ed * (-3.0 / 14.0 + 9.0 / 88.0 * ed - 9.0 / 52.0 * dz * ee) +
                        dz * (ee / 6.0 + dz * (-9.0 / 22.0 * ec + dz * 3.0 / 26.0 * ea));
  return 3.0 * sum + fac * series / (mu * sqrt(mu));
}

// E(phi | m) = int_0^phi sqrt(1 - m sin^2 t) dt for |phi| <= pi/2, m < 1.
SKIPSTONE_HD SKIPSTONE_INLINE double elliptic_e_reduced(double phi, double m) {
  const double s = sin(phi), c = cos(phi);
  const double y = 1.0 - m * s * s;
  return s * carlson_rf(c * c, y, 1.0) - m / 3.0 * s * s * s * carlson_rd(c * c, y, 1.0);
}

// E(phi | m) for any phi: E(phi + k pi) = E(phi) + 2 k E(pi/2).
SKIPSTONE_HD SKIPSTONE_INLINE double elliptic_e(double phi, double m) {
  const double k = floor(phi / kPi + 0.5);
  const double rest = phi - k * kPi;
  if (k == 0.0) return elliptic_e_reduced(rest, m);
  return elliptic_e_reduced(rest, m) + 2.0 * k * elliptic_e_reduced(0.5 * kPi, m);
}

}  // namespace skipstone
