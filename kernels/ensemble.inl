// The ensemble kernel: trajectory index -> TrajectoryResult for a contiguous chunk of a scan,
// written once and compiled twice (ensemble_cpu.cpp: Thrust OpenMP system; ensemble_cuda.cu:
// Thrust CUDA system). Initial conditions are generated inside the kernel from the index;
// the only per-trajectory memory traffic is the result write.
// Expects SKIPSTONE_EXEC_POLICY to name the Thrust execution policy of the backend.
#include <thrust/iterator/counting_iterator.h>
#include <thrust/transform.h>

#include "skipstone/simulate.hpp"

namespace skipstone {
namespace kernels_detail {

struct SimulateTrajectory {
  ScanSpec spec;
  std::uint64_t first;
  SKIPSTONE_HD TrajectoryResult operator()(std::uint64_t i) const {
    DiscardSink sink;
    return simulate_in_precision(spec, first + i, sink);
  }
};

template <class Policy, class OutIt>
void transform_chunk(Policy&& policy, const ScanSpec& spec, std::uint64_t first, std::uint64_t count, OutIt out) {
  thrust::counting_iterator<std::uint64_t> begin(0);
  thrust::transform(policy, begin, begin + count, out, SimulateTrajectory{spec, first});
}

}  // namespace kernels_detail
}  // namespace skipstone
