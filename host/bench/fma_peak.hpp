// A measured peak double-precision rate of this CPU: independent chains of fused multiply-adds
// in the widest vector unit the build targets (AVX-512, AVX2+FMA, else scalar fma), timed on
// one thread and on all threads. The benchmarks divide achieved flop rates by it.
#pragma once
#include <string>

namespace skipstone::bench {

struct FmaPeak {
  std::string isa;  // "avx512f", "avx2+fma" or "scalar fma"
  int lanes;        // doubles per FMA instruction
  int threads;
  double flops_1_thread, flops_all_threads;  // an FMA counts as 2 flops
};

FmaPeak measure_fma_peak(int threads);

}  // namespace skipstone::bench
