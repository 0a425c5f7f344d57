// CPU backend: the ensemble kernel on Thrust's OpenMP system (compiled by the host compiler).
// No-slip scans in a round wall (disc; cylinder:disc) and the rim passages of roll4:disc and its
// Figure-18 system run their trajectories in SIMD lanes, one block of trajectories per iteration
// (noslip_lane_block.hpp, rim_lane_block.hpp); every other model one trajectory per iteration
// (ensemble.inl).
#include <omp.h>
#include <thrust/for_each.h>
#include <thrust/system/omp/execution_policy.h>

#include "backends.hpp"
#include "ensemble.inl"
#include "noslip_lane_block.hpp"
#include "rim_lane_block.hpp"

namespace skipstone::cpu {

namespace {

constexpr int kLanes = 16;  // two AVX-512 registers of doubles: the latency of one hides the other
// Rim lanes: one AVX-512 register of T (measured at 256^2: 8 doubles 0.081 s, 4 0.21 s,
// 16 0.093 s, 32 0.099 s; 16 floats 0.054 s, 8 0.093 s, 32 0.054 s).
template <class T>
constexpr int kRimLanes = 64 / sizeof(T);

// The scan's trajectories in blocks of Block::kBlock, one block per iteration.
template <class Block>
void run_lane_blocks(const ScanSpec& spec, std::uint64_t first, std::uint64_t count, TrajectoryResult* out) {
  constexpr std::uint64_t block = Block::kBlock;
  const std::uint64_t blocks = (count + block - 1) / block;
  thrust::counting_iterator<std::uint64_t> begin(0);
  thrust::for_each(thrust::omp::par, begin, begin + blocks, [&](std::uint64_t b) {
    const std::uint64_t start = b * block;
    const std::uint64_t n = count - start < block ? count - start : block;
    Block(spec, first + start, n, out + start).run();
  });
}

// Whether any trajectory of the scan has gravity (g fixed and nonzero, or scanned).
bool scan_has_gravity(const ScanSpec& spec) {
  for (int j = 0; j < spec.n_axes; ++j)
    if (spec.axes[j].param == P_G) return true;
  return spec.params[P_G] != 0.0;
}

}  // namespace

void run_chunk(const ScanSpec& spec, std::uint64_t first, std::uint64_t count, TrajectoryResult* out) {
  using cpu_lanes::NoSlipLaneBlock;
  using cpu_lanes::RimLaneBlock;
  if (spec.model == ModelKind::roll_disc_transversal) {
    using cpu_lanes::TransversalTrajectories;
    if (spec.precision == Precision::float32)
      run_lane_blocks<RimLaneBlock<TransversalTrajectories<float, kRimLanes<float>>>>(spec, first, count, out);
    else
      run_lane_blocks<RimLaneBlock<TransversalTrajectories<double, kRimLanes<double>>>>(spec, first, count, out);
    return;
  }
  if (spec.model == ModelKind::roll_disc) {
    run_lane_blocks<RimLaneBlock<cpu_lanes::DiscRollTrajectories<kRimLanes<double>>>>(spec, first, count, out);
    return;
  }
  using Cylinder = CylinderTable<DiscTable>;
  const bool lanes = spec.table == TableKind::disc && spec.precision == Precision::float64;
  if (lanes && spec.model == ModelKind::noslip_plane) {
    run_lane_blocks<NoSlipLaneBlock<ModelKind::noslip_plane, DiscTable, Vec2, State2D, false, kLanes>>(spec, first,
                                                                                                      count, out);
  } else if (lanes && spec.model == ModelKind::noslip_cylinder && scan_has_gravity(spec)) {
    run_lane_blocks<NoSlipLaneBlock<ModelKind::noslip_cylinder, Cylinder, Vec3, State3D, true, kLanes>>(spec, first,
                                                                                                       count, out);
  } else if (lanes && spec.model == ModelKind::noslip_cylinder) {
    run_lane_blocks<NoSlipLaneBlock<ModelKind::noslip_cylinder, Cylinder, Vec3, State3D, false, kLanes>>(spec, first,
                                                                                                        count, out);
  } else {
    kernels_detail::transform_chunk(thrust::omp::par, spec, &spec, first, count, out);
  }
}

int max_threads() { return omp_get_max_threads(); }
void set_threads(int n) { omp_set_num_threads(n); }

}  // namespace skipstone::cpu
