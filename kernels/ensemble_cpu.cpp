// CPU backend: the ensemble kernel on Thrust's OpenMP system (compiled by the host compiler).
// No-slip disc scans run their trajectories in SIMD lanes, blocks of kDiscLaneBlock
// trajectories per thread (disc_lane_block.hpp); every other model one trajectory per
// iteration (ensemble.inl).
#include <omp.h>
#include <thrust/for_each.h>
#include <thrust/system/omp/execution_policy.h>

#include "backends.hpp"
#include "disc_lane_block.hpp"
#include "ensemble.inl"

namespace skipstone::cpu {

namespace {
constexpr int kDiscLanes = 16;  // two AVX-512 registers of doubles: latency of one hides the other
constexpr std::uint64_t kDiscLaneBlock = 16 * kDiscLanes;
}  // namespace

void run_chunk(const ScanSpec& spec, std::uint64_t first, std::uint64_t count, TrajectoryResult* out) {
  if (!cpu_lanes::runs_in_disc_lanes(spec)) {
    kernels_detail::transform_chunk(thrust::omp::par, spec, &spec, first, count, out);
    return;
  }
  const std::uint64_t blocks = (count + kDiscLaneBlock - 1) / kDiscLaneBlock;
  thrust::counting_iterator<std::uint64_t> begin(0);
  thrust::for_each(thrust::omp::par, begin, begin + blocks, [&](std::uint64_t b) {
    const std::uint64_t start = b * kDiscLaneBlock;
    const std::uint64_t n = count - start < kDiscLaneBlock ? count - start : kDiscLaneBlock;
    cpu_lanes::DiscLaneBlock<kDiscLanes>(spec, first + start, n, out + start).run();
  });
}

int max_threads() { return omp_get_max_threads(); }
void set_threads(int n) { omp_set_num_threads(n); }

}  // namespace skipstone::cpu
