// One part of the CUDA backend's kernels (kernel_launch.hpp): the ensemble kernel and the
// collecting kernel of every model variant whose row I of kSystems has
// I % kKernelParts == SKIPSTONE_KERNEL_PART, one trajectory per thread, each launched on an
// exact grid of blocks of the size that gives it the most resident warps. CMakeLists.txt compiles
// this file once per part, with SKIPSTONE_KERNEL_PART set (the body of a translation unit, not a
// header: benchmarks/kernel_resources.py compiles it alone).
#include <cuda_runtime.h>

#include <string>
#include <type_traits>

#include "collect_trajectory.hpp"
#include "cuda/cuda_try.hpp"
#include "cuda/kernel_launch.hpp"
#include "skipstone/observable_columns.hpp"
#include "skipstone/simulate.hpp"

#ifndef SKIPSTONE_KERNEL_PART
#error "SKIPSTONE_KERNEL_PART (which part of the kernels this translation unit holds) is set by CMakeLists.txt"
#endif

namespace skipstone::cuda {
namespace {

// Both are kernel parameters, copied bytewise into parameter memory, within the 4 KB that
// every CUDA version allows a launch's parameters.
static_assert(std::is_trivially_copyable_v<ScanSpec> && std::is_trivially_copyable_v<KernelOutput>,
              "kernel parameters must be trivially copyable");
static_assert(sizeof(ScanSpec) + sizeof(KernelOutput) + 2 * sizeof(std::uint64_t) <= 4096,
              "kernel parameters exceed 4 KB");

// The spec is a __grid_constant__ kernel parameter (read in place from parameter memory, no
// per-thread copy); the kernel writes only the requested observables' columns
// (observable_columns.hpp).
template <class V>
__global__ void __launch_bounds__(kMaxBlockThreads)
    ensemble_kernel(const __grid_constant__ ScanSpec spec, std::uint64_t first, std::uint64_t n,
                    const __grid_constant__ KernelOutput out) {
  const std::uint64_t i = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const bool mine = i < n;
  if (mine) {
    DiscardSink sink;
    const TrajectoryResult r = simulate_variant<V>(spec, first + i, sink);
    if (out.whole) out.whole[i] = r;
    else write_columns(r, i, out.count, out.requests, out.columns, out.status, out.events);
  }
  if (out.finished) {  // the same for the whole grid: every thread of the block reaches the barrier
    const int block_finished = __syncthreads_count(mine);
    if (threadIdx.x == 0) atomicAdd_system(out.finished, static_cast<unsigned long long>(block_finished));
  }
}

// The trajectories of a collecting chunk (collect_trajectory.hpp), thread t < out.threads taking
// t, t + out.threads, ... (one each unless the coverage cells are stamped: CollectOutput), every
// thread counting into the chunk's maps.
template <class V>
__global__ void __launch_bounds__(kMaxBlockThreads)
    collect_kernel(const __grid_constant__ ScanSpec spec, std::uint64_t first, std::uint64_t n,
                   const __grid_constant__ CollectTarget target, const __grid_constant__ CollectOutput out) {
  const std::uint64_t thread = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (thread >= out.threads) return;
  std::uint64_t* stamps = target.cells ? out.stamps + boundary_bin_count(*target.cells) * thread : nullptr;
  for (std::uint64_t i = thread; i < n; i += out.threads)
    out.results[i] = collect_trajectory<V>(spec, first, i, target, stamps, out.boundary_counts, out.section_counts);
}

// The block size of a kernel on the current device: the one the CUDA runtime finds to give it the
// most resident warps per multiprocessor from its registers and stack, at most kMaxBlockThreads.
// The variants differ about fourfold in registers (benchmarks/RESULTS.md, "CUDA kernels"): a
// 190-register kernel keeps 8 warps resident in blocks of 256 threads but 10 in blocks of 160,
// while a light one fills the multiprocessor with 256.
template <class Kernel>
int block_threads(Kernel kernel) {
  int min_grid = 0, threads = 0;
  SKIPSTONE_CUDA_TRY(cudaOccupancyMaxPotentialBlockSize(&min_grid, &threads, kernel, 0, kMaxBlockThreads));
  return threads;
}

// Blocks of `threads` for n trajectories.
unsigned grid_blocks(std::uint64_t n, int threads) {
  const std::uint64_t blocks = (n + static_cast<std::uint64_t>(threads) - 1) / static_cast<std::uint64_t>(threads);
  if (blocks > 0x7fffffffu)
    throw std::runtime_error("CUDA backend: a chunk of " + std::to_string(n) + " trajectories needs more blocks than a grid holds");
  return static_cast<unsigned>(blocks);
}

// f(Variant<...>{}) if spec's variant is one of this part's; says whether it was.
template <class F>
bool visit_variant_of_part(const ScanSpec& spec, F&& f) {
  return visit_variant_among<kKernelParts, F, SKIPSTONE_KERNEL_PART>(spec, std::forward<F>(f));
}

}  // namespace

template <>
bool launch_ensemble_in_part<SKIPSTONE_KERNEL_PART>(const ScanSpec& spec, std::uint64_t first, std::uint64_t n,
                                                    const KernelOutput& out, cudaStream_t stream) {
  return visit_variant_of_part(spec, [&](auto v) {
    const int threads = block_threads(ensemble_kernel<decltype(v)>);
    ensemble_kernel<decltype(v)><<<grid_blocks(n, threads), threads, 0, stream>>>(spec, first, n, out);
    SKIPSTONE_CUDA_TRY(cudaGetLastError());
  });
}

template <>
bool launch_collect_in_part<SKIPSTONE_KERNEL_PART>(const ScanSpec& spec, std::uint64_t first, std::uint64_t n,
                                                   const CollectTarget& target, const CollectOutput& out) {
  CollectOutput launched = out;
  if (!target.cells) launched.threads = n;
  return visit_variant_of_part(spec, [&](auto v) {
    const int threads = block_threads(collect_kernel<decltype(v)>);
    collect_kernel<decltype(v)><<<grid_blocks(launched.threads, threads), threads>>>(spec, first, n, target, launched);
    SKIPSTONE_CUDA_TRY(cudaGetLastError());
  });
}

}  // namespace skipstone::cuda
