// Gragg-Bulirsch-Stoer extrapolation step for y' = f(y): K modified-midpoint sweeps with
// n_j = 2j substeps, Aitken-Neville extrapolation in h^2, giving order 2K and an embedded error
// estimate |T_KK - T_K,K-1| (Hairer, Norsett, Wanner, Solving ODEs I, section II.9). No
// coefficient tables, any order, and a macro step can be recomputed over any fraction of its
// length, which is how events are located to round-off (rolling/*.hpp). State stays in
// registers/local arrays: N and K are compile-time constants. The scalar type T is deduced from
// the state (double; float for the float Figure-18 kernel, precision.hpp).
#pragma once
#include <cmath>

#include "skipstone/hd.hpp"
#include "skipstone/precision.hpp"

namespace skipstone {

// One macro step of length H from y. Writes the extrapolated state to y_new and returns the
// scaled RMS error estimate (<= 1 means the step meets atol/rtol).
template <int N, int K, class Sys, class T>
SKIPSTONE_HD T gbs_step(const Sys& sys, const T* y, same_t<T> H, T* y_new, same_t<T> rtol, same_t<T> atol) {
  T tab[K][N];
  T f0[N], f[N], z0[N], z1[N], cur[N];
  sys.rhs(y, f0);
  for (int j = 1; j <= K; ++j) {
    const int n = 2 * j;
    const T h = H / n;
    for (int i = 0; i < N; ++i) {
      z0[i] = y[i];
      z1[i] = y[i] + h * f0[i];
    }
    for (int m = 1; m < n; ++m) {
      sys.rhs(z1, f);
      for (int i = 0; i < N; ++i) {
        const T z2 = z0[i] + T(2) * h * f[i];
        z0[i] = z1[i];
        z1[i] = z2;
      }
    }
    for (int i = 0; i < N; ++i) cur[i] = z1[i];
    for (int k = 0; k < j - 1; ++k) {
      const T nr = static_cast<T>(n) / static_cast<T>(2 * (j - k - 1));
      const T den = T(1) / (nr * nr - T(1));
      for (int i = 0; i < N; ++i) {
        const T prev = tab[k][i];
        tab[k][i] = cur[i];
        cur[i] = cur[i] + (cur[i] - prev) * den;
      }
    }
    for (int i = 0; i < N; ++i) tab[j - 1][i] = cur[i];
  }
  T err = T(0);
  for (int i = 0; i < N; ++i) {
    y_new[i] = tab[K - 1][i];
    const T ya = fabs(y[i]), yb = fabs(y_new[i]);
    const T sc = atol + rtol * (ya > yb ? ya : yb);
    const T e = (tab[K - 1][i] - tab[K - 2][i]) / sc;
    err += e * e;
  }
  return sqrt(err / N);
}

// Step-size factor after a step with scaled error err (order 2K method).
template <int K, class T>
SKIPSTONE_HD SKIPSTONE_INLINE T gbs_step_factor(T err) {
  if (!(err > T(0))) return T(4);
  const T f = T(0.9) * pow(err, T(-1) / (2 * K - 1));
  return f < T(0.2) ? T(0.2) : (f > T(4) ? T(4) : f);
}

}  // namespace skipstone
