// The one-trajectory ensemble kernel of the CPU backend: trajectory index -> TrajectoryResult for
// a contiguous chunk of a scan on Thrust's OpenMP system (ensemble_cpu.cpp; the CUDA backend
// launches its own kernel, ensemble_cuda.cu), instantiated once per model variant. Initial
// conditions are generated inside the kernel from the index; the only per-trajectory memory
// traffic is the result write.
#include <thrust/iterator/counting_iterator.h>
#include <thrust/transform.h>

#include "skipstone/simulate.hpp"

namespace skipstone {
namespace kernels_detail {

template <class V>
struct SimulateTrajectory {
  const ScanSpec* spec;
  std::uint64_t first;
  SKIPSTONE_HD TrajectoryResult operator()(std::uint64_t i) const {
    DiscardSink sink;
    return simulate_variant<V>(*spec, first + i, sink);
  }
};

// One kernel per model variant (simulate.hpp: Variant), chosen here from `spec`; the chunk runs
// as launches of at most `piece` trajectories in index order: launch k on policy_of(k), then
// after(n) with its size n (where the backend counts finished trajectories).
template <class PolicyOf, class OutIt, class After>
void transform_chunk(PolicyOf&& policy_of, const ScanSpec& spec, std::uint64_t first,
                     std::uint64_t count, OutIt out, std::uint64_t piece, After&& after) {
  thrust::counting_iterator<std::uint64_t> begin(0);
  visit_variant(spec, [&](auto v) {
    std::uint64_t k = 0;
    for (std::uint64_t at = 0; at < count; at += piece, ++k) {
      const std::uint64_t n = count - at < piece ? count - at : piece;
      thrust::transform(policy_of(k), begin + at, begin + at + n, out + at,
                        SimulateTrajectory<decltype(v)>{&spec, first});
      after(n);
    }
  });
}

}  // namespace kernels_detail
}  // namespace skipstone
