// The CUDA backend's kernel launches as the engine (ensemble_cuda.cu) sees them. The kernels of
// the model variants (simulate.hpp: Variant) are compiled in kKernelParts translation units
// (kernel_part.cuh), part p holding the variants of the rows I of kSystems with
// I % kKernelParts == p, so that a parallel build compiles them side by side; launch_ensemble
// and launch_collect find the part that holds a scan's variant.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>

#include "collect_trajectory.hpp"
#include "skipstone/observable_columns.hpp"
#include "skipstone/scan_spec.hpp"

#ifndef SKIPSTONE_KERNEL_PARTS
#error "SKIPSTONE_KERNEL_PARTS (the number of kernel translation units) is set by CMakeLists.txt"
#endif

namespace skipstone::cuda {

inline constexpr int kKernelParts = SKIPSTONE_KERNEL_PARTS;

// The largest block of every kernel variant (its __launch_bounds__); each variant's own block
// size is the one the CUDA runtime finds to give it the most resident warps.
constexpr int kMaxBlockThreads = 256;

// Where an ensemble launch writes: the requested columns, or (whole != nullptr) whole results.
struct KernelOutput {
  std::int32_t count = 0;
  ColumnRequest requests[kObservableCount];
  double* columns[kObservableCount];
  std::uint8_t* status = nullptr;
  std::uint64_t* events = nullptr;
  TrajectoryResult* whole = nullptr;
  // Trajectories finished, advanced by each block once all of its trajectories are; null: not
  // counted. Mapped host memory, which the host reads while the kernel runs.
  unsigned long long* finished = nullptr;
};

// Where a collecting launch writes: its trajectories' results and the maps' counts (null: no
// map). With the observable coverage (CollectTarget::cells not null) the launch has `threads`
// threads, each taking trajectories i, i + threads, ... in turn and marking the cells they
// visit in its own cells-sized row of `stamps` (collect_trajectory); without it, one thread per
// trajectory.
struct CollectOutput {
  TrajectoryResult* results = nullptr;
  std::uint64_t* boundary_counts = nullptr;
  std::uint64_t* section_counts = nullptr;
  std::uint64_t* stamps = nullptr;
  std::uint64_t threads = 0;
};

// Trajectories [first, first + n) of spec's variant on `stream`, if part Part holds that variant
// (kernel_part.cuh); false, launching nothing, otherwise.
template <int Part>
bool launch_ensemble_in_part(const ScanSpec& spec, std::uint64_t first, std::uint64_t n, const KernelOutput& out,
                             cudaStream_t stream);
template <int Part>
bool launch_collect_in_part(const ScanSpec& spec, std::uint64_t first, std::uint64_t n, const CollectTarget& target,
                            const CollectOutput& out);

// The same, in whichever part holds spec's variant (ensemble_cuda.cu).
void launch_ensemble(const ScanSpec& spec, std::uint64_t first, std::uint64_t n, const KernelOutput& out,
                     cudaStream_t stream);
void launch_collect(const ScanSpec& spec, std::uint64_t first, std::uint64_t n, const CollectTarget& target,
                    const CollectOutput& out);

}  // namespace skipstone::cuda
