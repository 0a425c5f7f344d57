// FMA-throughput microbenchmark: kChains independent accumulators a = a * m + c per lane, more
// than the FMA latency x issue width, so the loop runs at the FMA units' rate, not their latency.
#include "fma_peak.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>

#if defined(__AVX512F__) || defined(__FMA__)
#include <immintrin.h>
#endif

namespace skipstone::bench {
namespace {

constexpr int kChains = 16;
constexpr double kMul = 0.9999999, kAdd = 1e-7;  // a stays near 1: no overflow, no denormals

// One vector type of the target: Vec, its lane count, broadcast, fma and horizontal sum.
#if defined(__AVX512F__)
struct Isa {
  using Vec = __m512d;
  static constexpr int kLanes = 8;
  static constexpr const char* kName = "avx512f";
  static Vec set1(double x) { return _mm512_set1_pd(x); }
  static Vec fma(Vec a, Vec m, Vec c) { return _mm512_fmadd_pd(a, m, c); }
  static double sum(Vec a) {  // not _mm512_reduce_add_pd: g++ 12 warns inside its header
    alignas(64) double v[8];
    _mm512_store_pd(v, a);
    return ((v[0] + v[1]) + (v[2] + v[3])) + ((v[4] + v[5]) + (v[6] + v[7]));
  }
};
#elif defined(__FMA__)
struct Isa {
  using Vec = __m256d;
  static constexpr int kLanes = 4;
  static constexpr const char* kName = "avx2+fma";
  static Vec set1(double x) { return _mm256_set1_pd(x); }
  static Vec fma(Vec a, Vec m, Vec c) { return _mm256_fmadd_pd(a, m, c); }
  static double sum(Vec a) {
    alignas(32) double v[4];
    _mm256_store_pd(v, a);
    return v[0] + v[1] + v[2] + v[3];
  }
};
#else
struct Isa {
  using Vec = double;
  static constexpr int kLanes = 1;
  static constexpr const char* kName = "scalar fma";
  static Vec set1(double x) { return x; }
  static Vec fma(Vec a, Vec m, Vec c) { return std::fma(a, m, c); }
  static double sum(Vec a) { return a; }
};
#endif

double fma_loop(std::uint64_t iters) {
  Isa::Vec a[kChains];
  for (int k = 0; k < kChains; ++k) a[k] = Isa::set1(1.0 + k * 1e-3);
  const Isa::Vec m = Isa::set1(kMul), c = Isa::set1(kAdd);
  for (std::uint64_t i = 0; i < iters; ++i)
    for (int k = 0; k < kChains; ++k) a[k] = Isa::fma(a[k], m, c);
  double s = 0.0;
  for (int k = 0; k < kChains; ++k) s += Isa::sum(a[k]);
  return s;
}

constexpr double kFlopsPerIter = 2.0 * Isa::kLanes * kChains;
volatile double g_sink;  // keeps the loops' results alive

// Flop rate of `threads` threads each running fma_loop(iters); the best of three runs.
double rate(int threads, std::uint64_t iters) {
  double best = 0.0;
  for (int rep = 0; rep < 3; ++rep) {
    const auto t0 = std::chrono::steady_clock::now();
    double s = 0.0;
#pragma omp parallel num_threads(threads) reduction(+ : s)
    s += fma_loop(iters);
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    g_sink = s;
    best = std::max(best, threads * kFlopsPerIter * static_cast<double>(iters) / wall);
  }
  return best;
}

}  // namespace

FmaPeak measure_fma_peak(int threads) {
  // Calibrate to about 0.1 s per run on one thread.
  const std::uint64_t probe = 1u << 20;
  const double probe_rate = rate(1, probe);
  const auto iters = static_cast<std::uint64_t>(std::max(1.0, 0.1 * probe_rate / kFlopsPerIter));
  FmaPeak p{Isa::kName, Isa::kLanes, threads, 0.0, 0.0};
  p.flops_1_thread = rate(1, iters);
  p.flops_all_threads = threads > 1 ? rate(threads, iters) : p.flops_1_thread;
  return p;
}

}  // namespace skipstone::bench
