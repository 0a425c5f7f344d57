// Gragg-Bulirsch-Stoer extrapolation step for y' = f(y): K modified-midpoint sweeps with
// n_j = 2j substeps, Aitken-Neville extrapolation in h^2, giving order 2K and an embedded error
// estimate |T_KK - T_K,K-1| (Hairer, Norsett, Wanner, Solving ODEs I, section II.9). No
// coefficient tables, any order, and a macro step can be recomputed over any fraction of its
// length, which is how events are located to round-off (rolling/*.hpp). State stays in
// registers/local arrays: N and K are compile-time constants. The scalar type T is deduced from
// the state (double; float for the float Figure-18 kernel, precision.hpp).
//
// gbs_step_lanes takes W states at once, each with its own step length (component i of lane l
// at y[i * W + l]): the CPU backend's SIMD lanes (kernels/rim_lane_block.hpp), whose loops over
// l the compiler vectorises. Each lane's arithmetic is that of gbs_step, which is its W = 1 case.
#pragma once
#include <cmath>
#include <type_traits>

#include "skipstone/hd.hpp"
#include "skipstone/precision.hpp"

namespace skipstone {

// How many leading components of a system's state the error estimate covers: all N, or
// Sys::kErrorComponents where the system says (a state carrying its tangent vectors behind it,
// tangent/rim_tangent.hpp, whose steps are those the state alone takes).
template <class Sys, int N, class = void>
struct gbs_error_components {
  static constexpr int value = N;
};
template <class Sys, int N>
struct gbs_error_components<Sys, N, std::void_t<decltype(Sys::kErrorComponents)>> {
  static constexpr int value = Sys::kErrorComponents;
};

// One macro step of length H[l] from each lane's state. sys.rhs(z, f) evaluates the right-hand
// side of all W lanes. Writes the extrapolated states to y_new and each lane's scaled RMS error
// estimate over the leading gbs_error_components to err (<= 1 means the step meets atol/rtol).
template <int N, int K, int W, class Sys, class T>
SKIPSTONE_HD SKIPSTONE_INLINE void gbs_step_lanes(const Sys& sys, const T* y, const T* H, T* y_new, T* err,
                                                  same_t<T> rtol, same_t<T> atol) {
  constexpr int M = N * W;
  T tab[K][M];
  T f0[M], f[M], z0[M], z1[M], cur[M];
  T h[W];
  sys.rhs(y, f0);
  for (int j = 1; j <= K; ++j) {
    const int n = 2 * j;
    for (int l = 0; l < W; ++l) h[l] = H[l] / n;
    for (int i = 0; i < N; ++i)
      for (int l = 0; l < W; ++l) {
        z0[i * W + l] = y[i * W + l];
        z1[i * W + l] = y[i * W + l] + h[l] * f0[i * W + l];
      }
    for (int m = 1; m < n; ++m) {
      sys.rhs(z1, f);
      for (int i = 0; i < N; ++i)
        for (int l = 0; l < W; ++l) {
          const T z2 = z0[i * W + l] + T(2) * h[l] * f[i * W + l];
          z0[i * W + l] = z1[i * W + l];
          z1[i * W + l] = z2;
        }
    }
    for (int k = 0; k < M; ++k) cur[k] = z1[k];
    for (int k = 0; k < j - 1; ++k) {
      const T nr = static_cast<T>(n) / static_cast<T>(2 * (j - k - 1));
      const T den = T(1) / (nr * nr - T(1));
      for (int i = 0; i < M; ++i) {
        const T prev = tab[k][i];
        tab[k][i] = cur[i];
        cur[i] = cur[i] + (cur[i] - prev) * den;
      }
    }
    for (int i = 0; i < M; ++i) tab[j - 1][i] = cur[i];
  }
  constexpr int NE = gbs_error_components<Sys, N>::value;
  static_assert(NE >= 1 && NE <= N, "the error estimate covers leading components of the state");
  for (int l = 0; l < W; ++l) err[l] = T(0);
  for (int i = 0; i < N; ++i)
    for (int l = 0; l < W; ++l) {
      const int k = i * W + l;
      y_new[k] = tab[K - 1][k];
      if (i >= NE) continue;
      const T ya = fabs(y[k]), yb = fabs(y_new[k]);
      const T sc = atol + rtol * (ya > yb ? ya : yb);
      const T e = (tab[K - 1][k] - tab[K - 2][k]) / sc;
      err[l] += e * e;
    }
  for (int l = 0; l < W; ++l) err[l] = sqrt(err[l] / NE);
}

// One macro step of length H from y. Writes the extrapolated state to y_new and returns the
// scaled RMS error estimate (<= 1 means the step meets atol/rtol).
template <int N, int K, class Sys, class T>
SKIPSTONE_HD T gbs_step(const Sys& sys, const T* y, same_t<T> H, T* y_new, same_t<T> rtol, same_t<T> atol) {
  T err;
  gbs_step_lanes<N, K, 1>(sys, y, &H, y_new, &err, rtol, atol);
  return err;
}

// Step-size factor after a step with scaled error err (order 2K method).
template <int K, class T>
SKIPSTONE_HD SKIPSTONE_INLINE T gbs_step_factor(T err) {
  if (!(err > T(0))) return err == T(0) ? T(4) : T(0.2);  // NaN (a step into a singularity): shrink
  const T f = T(0.9) * pow(err, T(-1) / (2 * K - 1));
  return f < T(0.2) ? T(0.2) : (f > T(4) ? T(4) : f);
}

}  // namespace skipstone
