// Gragg-Bulirsch-Stoer extrapolation step for y' = f(y): K modified-midpoint sweeps with
// n_j = 2j substeps, Aitken-Neville extrapolation in h^2, giving order 2K and an embedded error
// estimate |T_KK - T_K,K-1| (Hairer, Norsett, Wanner, Solving ODEs I, section II.9). No
// coefficient tables, any order, and a macro step can be recomputed over any fraction of its
// length, which is how events are located to round-off (rolling/*.hpp). State stays in
// registers/local arrays: N and K are compile-time constants.
#pragma once
#include <cmath>

#include "skipstone/hd.hpp"

namespace skipstone {

// One macro step of length H from y. Writes the extrapolated state to y_new and returns the
// scaled RMS error estimate (<= 1 means the step meets atol/rtol).
template <int N, int K, class Sys>
SKIPSTONE_HD double gbs_step(const Sys& sys, const double* y, double H, double* y_new, double rtol, double atol) {
  double tab[K][N];
  double f0[N], f[N], z0[N], z1[N], cur[N];
  sys.rhs(y, f0);
  for (int j = 1; j <= K; ++j) {
    const int n = 2 * j;
    const double h = H / n;
    for (int i = 0; i < N; ++i) {
      z0[i] = y[i];
      z1[i] = y[i] + h * f0[i];
    }
    for (int m = 1; m < n; ++m) {
      sys.rhs(z1, f);
      for (int i = 0; i < N; ++i) {
        const double z2 = z0[i] + 2.0 * h * f[i];
        z0[i] = z1[i];
        z1[i] = z2;
      }
    }
    for (int i = 0; i < N; ++i) cur[i] = z1[i];
    for (int k = 0; k < j - 1; ++k) {
      const double nr = static_cast<double>(n) / static_cast<double>(2 * (j - k - 1));
      const double den = 1.0 / (nr * nr - 1.0);
      for (int i = 0; i < N; ++i) {
        const double prev = tab[k][i];
        tab[k][i] = cur[i];
        cur[i] = cur[i] + (cur[i] - prev) * den;
      }
    }
    for (int i = 0; i < N; ++i) tab[j - 1][i] = cur[i];
  }
  double err = 0.0;
  for (int i = 0; i < N; ++i) {
    y_new[i] = tab[K - 1][i];
    const double ya = fabs(y[i]), yb = fabs(y_new[i]);
    const double sc = atol + rtol * (ya > yb ? ya : yb);
    const double e = (tab[K - 1][i] - tab[K - 2][i]) / sc;
    err += e * e;
  }
  return sqrt(err / N);
}

// Step-size factor after a step with scaled error err (order 2K method).
template <int K>
SKIPSTONE_HD SKIPSTONE_INLINE double gbs_step_factor(double err) {
  if (!(err > 0.0)) return 4.0;
  const double f = 0.9 * pow(err, -1.0 / (2 * K - 1));
  return f < 0.2 ? 0.2 : (f > 4.0 ? 4.0 : f);
}

}  // namespace skipstone
