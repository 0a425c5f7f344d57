// The ensemble kernel: trajectory index -> TrajectoryResult for a contiguous chunk of a scan,
// written once and compiled twice (ensemble_cpu.cpp: Thrust OpenMP system; ensemble_cuda.cu:
// Thrust CUDA system, with 64-bit indices: THRUST_FORCE_64_BIT_OFFSET_TYPE), and instantiated
// once per model variant. Initial conditions are generated inside the kernel from the index;
// the only per-trajectory memory traffic is the result write.
#include <thrust/iterator/counting_iterator.h>
#include <thrust/transform.h>

#include "skipstone/simulate.hpp"

namespace skipstone {
namespace kernels_detail {

// The spec is read where it lies (device memory for CUDA), not carried by value: a by-value
// spec is a kernel parameter whose address is taken, which gives every GPU thread a private
// ~1 KB copy in local memory.
template <class V>
struct SimulateTrajectory {
  const ScanSpec* spec;
  std::uint64_t first;
  SKIPSTONE_HD TrajectoryResult operator()(std::uint64_t i) const {
    DiscardSink sink;
    return simulate_variant<V>(*spec, first + i, sink);
  }
};

// One kernel per model variant (simulate.hpp: Variant), chosen here on the host from `spec`;
// `spec_for_kernel` is the same spec in memory the kernel can read.
template <class Policy, class OutIt>
void transform_chunk(Policy&& policy, const ScanSpec& spec, const ScanSpec* spec_for_kernel, std::uint64_t first,
                     std::uint64_t count, OutIt out) {
  thrust::counting_iterator<std::uint64_t> begin(0);
  visit_variant(spec, [&](auto v) {
    thrust::transform(policy, begin, begin + count, out, SimulateTrajectory<decltype(v)>{spec_for_kernel, first});
  });
}

}  // namespace kernels_detail
}  // namespace skipstone
