// CPU backend: the ensemble kernel on Thrust's OpenMP system (compiled by the host compiler).
// The systems whose row of kSystems (skipstone/system_traits.hpp) has SIMD lanes - no-slip scans
// in a round wall (disc; cylinder:disc) and the rim passages of roll4:disc, its Figure-18 system
// and the rolling tables roll3:<table>, roll4:<table> - run their trajectories in lanes, one
// block of trajectories per iteration (noslip_lane_block.hpp, rim_lane_block.hpp,
// table_roll_lanes.hpp); every other system, and every scan that asks for Lyapunov exponents,
// impulse ratios or contact forces or has holes in a round wall, one trajectory per iteration
// (ensemble.inl).
#include <omp.h>

#include <algorithm>
#include <limits>
#include <thrust/for_each.h>
#include <thrust/system/omp/execution_policy.h>

#include "backends.hpp"
#include "collect_trajectory.hpp"
#include "ensemble.inl"
#include "noslip_lane_block.hpp"
#include "rim_lane_block.hpp"
#include "skipstone/system_traits.hpp"
#include "table_roll_lanes.hpp"

namespace skipstone::cpu {

namespace {

// No-slip lanes: 16 in both precisions. Doubles: two AVX-512 registers, the latency of one hides
// the other. Floats: one register, with the clock and sums in two registers of doubles (the lane
// counts were chosen by timing; the figures are in benchmarks/RESULTS.md, History).
constexpr int kNoSlipLanes = 16;
// Rim lanes: one AVX-512 register of T (chosen by timing 4 to 32 lanes).
template <class T>
constexpr int kRimLanes = 64 / sizeof(T);

// Trajectories per thread in one launch of the one-trajectory kernel: enough to make the
// launch's fork and join negligible, few enough that `done` moves often.
constexpr std::uint64_t kPiecePerThread = 1024;

void count_done(DoneCounter* done, std::uint64_t n) {
  if (done) done->fetch_add(n, std::memory_order_relaxed);
}

// The scan's trajectories in blocks of Block::kBlock, one block per iteration.
template <class Block>
void run_lane_blocks(const ScanSpec& spec, std::uint64_t first, std::uint64_t count, TrajectoryResult* out,
                     DoneCounter* done) {
  constexpr std::uint64_t block = Block::kBlock;
  const std::uint64_t blocks = (count + block - 1) / block;
  thrust::counting_iterator<std::uint64_t> begin(0);
  thrust::for_each(thrust::omp::par, begin, begin + blocks, [&](std::uint64_t b) {
    const std::uint64_t start = b * block;
    const std::uint64_t n = count - start < block ? count - start : block;
    Block(spec, first + start, n, out + start).run();
    count_done(done, n);
  });
}

// A no-slip scan in a round wall (disc, cylinder:disc) in scalar type T, in SIMD lanes.
template <class T>
void run_round_wall_lanes(const ScanSpec& spec, std::uint64_t first, std::uint64_t count, TrajectoryResult* out,
                          DoneCounter* done) {
  using cpu_lanes::NoSlipLaneBlock;
  using Disc = DiscTableT<T>;
  using Cylinder = CylinderTable<Disc>;
  constexpr int W = kNoSlipLanes;
  constexpr ModelKind plane = ModelKind::noslip_plane, cylinder = ModelKind::noslip_cylinder;
  if (spec.model == plane)
    run_lane_blocks<NoSlipLaneBlock<plane, Disc, Vec2T<T>, State2DT<T>, false, W>>(spec, first, count, out, done);
  else if (scan_has_gravity(spec))
    run_lane_blocks<NoSlipLaneBlock<cylinder, Cylinder, Vec3T<T>, State3DT<T>, true, W>>(spec, first, count, out, done);
  else
    run_lane_blocks<NoSlipLaneBlock<cylinder, Cylinder, Vec3T<T>, State3DT<T>, false, W>>(spec, first, count, out, done);
}

// A scan of rim passages (the Figure-18 system, roll4:disc) in the spec's precision, in lanes of
// one AVX-512 register of that type.
template <template <class, int> class Trajectories>
void run_rim_lanes(const ScanSpec& spec, std::uint64_t first, std::uint64_t count, TrajectoryResult* out,
                   DoneCounter* done) {
  using cpu_lanes::RimLaneBlock;
  if (spec.precision == Precision::float32)
    run_lane_blocks<RimLaneBlock<Trajectories<float, kRimLanes<float>>>>(spec, first, count, out, done);
  else
    run_lane_blocks<RimLaneBlock<Trajectories<double, kRimLanes<double>>>>(spec, first, count, out, done);
}

// A roll3:<table> (N = 6) or roll4:<table> (N = 10) scan in the spec's precision, in lanes of
// one AVX-512 register of that type.
template <int N, TableKind TK>
void run_table_lanes_of(const ScanSpec& spec, std::uint64_t first, std::uint64_t count, TrajectoryResult* out,
                        DoneCounter* done) {
  using cpu_lanes::RimLaneBlock;
  using cpu_lanes::TableRollTrajectories;
  if (spec.precision == Precision::float32)
    run_lane_blocks<RimLaneBlock<TableRollTrajectories<float, N, TK, kRimLanes<float>>>>(spec, first, count, out,
                                                                                          done);
  else
    run_lane_blocks<RimLaneBlock<TableRollTrajectories<double, N, TK, kRimLanes<double>>>>(spec, first, count, out,
                                                                                            done);
}

template <int N>
void run_table_lanes(const ScanSpec& spec, std::uint64_t first, std::uint64_t count, TrajectoryResult* out,
                     DoneCounter* done) {
  switch (spec.table) {
    case TableKind::disc:
      if constexpr (N == 6) run_table_lanes_of<N, TableKind::disc>(spec, first, count, out, done);
      break;
    case TableKind::stadium: run_table_lanes_of<N, TableKind::stadium>(spec, first, count, out, done); break;
    case TableKind::ellipse: run_table_lanes_of<N, TableKind::ellipse>(spec, first, count, out, done); break;
    case TableKind::rectangle: run_table_lanes_of<N, TableKind::rectangle>(spec, first, count, out, done); break;
    case TableKind::polygon: run_table_lanes_of<N, TableKind::polygon>(spec, first, count, out, done); break;
    case TableKind::sinai: run_table_lanes_of<N, TableKind::sinai>(spec, first, count, out, done); break;
    default: break;
  }
}

// The lane blocks above exist for these systems only: a row of kSystems with other lanes is a
// dispatch that run_chunk does not have.
constexpr bool lanes_have_blocks() {
  for (const SystemTraits& s : kSystems) {
    const bool round_wall = s.table == TableKind::disc &&
                            (s.model == ModelKind::noslip_plane || s.model == ModelKind::noslip_cylinder);
    const bool tables = s.table == TableKind::stadium || s.table == TableKind::ellipse ||
                        s.table == TableKind::rectangle || s.table == TableKind::polygon ||
                        s.table == TableKind::sinai || (s.table == TableKind::disc && s.model == ModelKind::roll3_table);
    const bool rim = s.model == ModelKind::roll_disc_transversal || s.model == ModelKind::roll_disc ||
                     ((s.model == ModelKind::roll3_table || s.model == ModelKind::roll4_table) && tables);
    if ((s.lanes == Lanes::round_wall && !round_wall) || (s.lanes == Lanes::rim && !rim)) return false;
  }
  return true;
}
static_assert(lanes_have_blocks(), "kSystems: SIMD lanes for a system without a lane block");

// One output kind of a collecting run: its recorded rows sized in `c`, and a map of counts per
// thread, summed at the end (integer counts: the sum is the same in any order).
struct ThreadMaps {
  PointCollect& c;
  std::uint64_t slots;
  std::vector<std::uint64_t> counts;

  ThreadMaps(PointCollect& collect, int threads) : c(collect), slots(c.map_slots()) {
    counts.assign(slots * static_cast<std::uint64_t>(threads), 0);
    c.rows.assign(c.row_values(), 0.0);
    c.points.assign(c.recorded.size(), 0);
  }
  PointTarget target() const {
    return {c.map, c.recorded.data(), c.recorded.size(), c.max_events, c.fields, c.rows.data(), c.points.data()};
  }
  std::uint64_t* of(int thread) { return slots ? counts.data() + slots * static_cast<std::uint64_t>(thread) : nullptr; }
  void sum(int threads) {
    c.counts.assign(slots, 0);
    for (int t = 0; t < threads; ++t)
      for (std::uint64_t b = 0; b < slots; ++b) c.counts[b] += counts[slots * static_cast<std::uint64_t>(t) + b];
  }
};

// The chunk's trajectories of variant V one per iteration (collect_trajectory), with a row of
// the coverage cells' stamps per thread.
template <class V>
void run_collecting(const ScanSpec& spec, std::uint64_t first, std::uint64_t count, TrajectoryResult* out,
                    BoundaryCollect& c, DoneCounter* done) {
  const int threads = omp_get_max_threads();
  ThreadMaps impacts(c.boundary, threads), crossings(c.section, threads);
  const std::uint64_t cells = c.cells ? boundary_bin_count(*c.cells) : 0;
  std::vector<std::uint64_t> stamps(cells * static_cast<std::uint64_t>(threads), 0);
  const std::uint64_t state_size = static_cast<std::uint64_t>(c.state_columns);
  c.final_states.assign(count * state_size, std::numeric_limits<double>::quiet_NaN());
  CollectTarget target{impacts.target(), crossings.target(), c.plane, c.state_columns, c.final_states.data(),
                       c.free_time, c.cells, c.heights};
  c.height_series.assign(count * static_cast<std::uint64_t>(c.heights.points), std::numeric_limits<double>::quiet_NaN());
  target.heights.values = c.height_series.data();
#pragma omp parallel for schedule(dynamic, 16)
  for (std::int64_t j = 0; j < static_cast<std::int64_t>(count); ++j) {
    const std::uint64_t i = static_cast<std::uint64_t>(j);
    const int thread = omp_get_thread_num();
    out[i] = collect_trajectory<V>(spec, first, i, target, stamps.data() + cells * static_cast<std::uint64_t>(thread),
                                   impacts.of(thread), crossings.of(thread));
    count_done(done, 1);
  }
  impacts.sum(threads);
  crossings.sum(threads);
}

}  // namespace

void run_chunk_collecting(const ScanSpec& spec, std::uint64_t first, std::uint64_t count, TrajectoryResult* out,
                          BoundaryCollect& collect, DoneCounter* done) {
  visit_variant(spec, [&](auto v) { run_collecting<decltype(v)>(spec, first, count, out, collect, done); });
}

void run_chunk(const ScanSpec& spec, std::uint64_t first, std::uint64_t count, TrajectoryResult* out,
               DoneCounter* done) {
  const SystemTraits* system = find_system(spec.model, spec.table);
  // the lanes carry no tangent vectors, no impulse ratios, no contact forces, and the round
  // wall's lanes do not test for holes: a scan that asks for Lyapunov exponents, impulse ratios
  // or contact forces, or has holes in a round wall, runs one trajectory per iteration (the rim
  // lanes test holes in the flights they share with the one-trajectory run: table_roll.hpp)
  const bool holes_off_lanes = spec.holes.n > 0 && system && system->lanes == Lanes::round_wall;
  const bool off_lanes = spec.lyapunov_vectors > 0 || spec.impulse_ratios || spec.contact_forces || holes_off_lanes;
  const Lanes lanes = system && !off_lanes ? system->lanes : Lanes::none;
  const bool in_float = spec.precision == Precision::float32;
  if (lanes == Lanes::rim && spec.model == ModelKind::roll3_table)
    run_table_lanes<6>(spec, first, count, out, done);
  else if (lanes == Lanes::rim && spec.model == ModelKind::roll4_table)
    run_table_lanes<10>(spec, first, count, out, done);
  else if (lanes == Lanes::rim && spec.model == ModelKind::roll_disc_transversal)
    run_rim_lanes<cpu_lanes::TransversalTrajectories>(spec, first, count, out, done);
  else if (lanes == Lanes::rim)
    run_rim_lanes<cpu_lanes::DiscRollTrajectories>(spec, first, count, out, done);
  else if (lanes == Lanes::round_wall && in_float)
    run_round_wall_lanes<float>(spec, first, count, out, done);
  else if (lanes == Lanes::round_wall)
    run_round_wall_lanes<double>(spec, first, count, out, done);
  else
    kernels_detail::transform_chunk([](std::uint64_t) { return thrust::omp::par; }, spec, first, count, out,
                                    kPiecePerThread * static_cast<std::uint64_t>(omp_get_max_threads()),
                                    [done](std::uint64_t n) { count_done(done, n); });
}

int max_threads() { return omp_get_max_threads(); }
void set_threads(int n) { omp_set_num_threads(n); }

}  // namespace skipstone::cpu
