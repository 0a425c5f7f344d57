// One trajectory of a collecting run, the same source for the CPU backend (ensemble_cpu.cpp, a
// thread's iterations) and the CUDA backend (ensemble_cuda.cu, one thread each): the run's
// results plus what its events feed (backends.hpp: BoundaryCollect): the impacts binned into a
// boundary map and recorded as rows, the section crossings of its flights likewise, the state
// of its last event (final_state), the heights at the times of height_series, the mean time
// between its impacts and the share of the coverage cells they visit. Everything it writes
// is reached through a CollectTarget of raw pointers into memory the kernel can address (host
// memory on the CPU, device memory on a GPU).
#pragma once
#include <cstdint>
#include <type_traits>

#include "skipstone/boundary_map.hpp"
#include "skipstone/final_state.hpp"
#include "skipstone/height_series.hpp"
#include "skipstone/section_map.hpp"
#include "skipstone/simulate.hpp"

namespace skipstone {

// The sink of a collecting run: the impacts (BoundarySink), the section crossings of the
// flights and the state of the last event.
struct CollectSink : BoundarySink {
  static constexpr bool kWantsFlights = true;
  SectionSink section;
  double* final_state = nullptr;  // null: not kept
  template <class V, class S>
  SKIPSTONE_HD void on_event(double, V x, const S& st, V) {
    if (final_state) write_state_row(x, st, final_state);
  }
  SKIPSTONE_HD double* take_state_row() {
    double* row = final_state;
    final_state = nullptr;
    return row;
  }
  template <class V, class S, class A>
  SKIPSTONE_HD void on_flight(double t0, double tau, V x, const S& st, A a) {
    if (section.plane) section.on_flight(t0, tau, x, st, a);
  }
  template <class Curve>
  SKIPSTONE_HD void on_curve(double t0, double tau, const Curve& c) {
    if (section.plane) section.on_curve(t0, tau, c);
  }
  template <class Step>
  SKIPSTONE_HD void on_step_curve(double t0, double h, const Step& step) {
    if (section.plane) section.on_step_curve(t0, h, step);
  }
};

// The same with the samples of the height series (the rolling runs ask next_sample(); with no
// series kept it is never due, and their trajectory is the same). Not for the Lyapunov variants:
// the config refuses the series with the exponents, whose tangent run takes no samples, and a
// sink without the sampling interface keeps the sampled plain run out of their kernels.
struct SamplingCollectSink : CollectSink {
  HeightSeriesRecorder heights;
  SKIPSTONE_HD double next_sample() const { return heights.next_sample(); }
  // The series is the height x3 of a 3D row (the 2D rows of roll3:strip have no series).
  template <class V, class S>
  SKIPSTONE_HD void on_sample(double t, V x, const S&, V) {
    if constexpr (std::is_same_v<V, Vec3>) heights.on_sample(t, x);
  }
};

// Where one output kind's points go (PointCollect, as the kernel addresses it).
struct PointTarget {
  const BoundaryMapSpec* map = nullptr;      // null: no map
  const std::uint64_t* recorded = nullptr;   // offsets in the chunk of the trajectories recorded, ascending
  std::uint64_t n_recorded = 0;
  std::uint64_t max_events = 0;              // rows kept per recorded trajectory
  int fields = kBoundaryEventFields;
  double* rows = nullptr;                    // max_events rows of `fields` per recorded trajectory
  std::uint64_t* points = nullptr;           // every point of each recorded trajectory
};

// Where a collecting chunk's trajectories write besides their results.
struct CollectTarget {
  PointTarget boundary, section;
  const SectionPlane* plane = nullptr;  // null: no section
  int state_columns = 0;                // 0: no final state kept
  double* final_states = nullptr;       // state_columns per trajectory of the chunk
  bool free_time = false;               // the observable mean_free_time
  const BoundaryMapSpec* cells = nullptr;  // the observable coverage's cells (null: not asked)
  HeightSeriesTarget heights;           // the observable height_series (points 0: not asked)
};

namespace collect_detail {
// The slot of trajectory i among t.recorded, or -1 (binary search).
SKIPSTONE_HD SKIPSTONE_INLINE std::int64_t recorded_slot(const PointTarget& t, std::uint64_t i) {
  std::uint64_t lo = 0, hi = t.n_recorded;
  while (lo < hi) {
    const std::uint64_t mid = lo + (hi - lo) / 2;
    if (t.recorded[mid] < i) lo = mid + 1;
    else hi = mid;
  }
  return lo < t.n_recorded && t.recorded[lo] == i ? static_cast<std::int64_t>(lo) : -1;
}

// Points `r` at t's map (counting into `counts`) and, when trajectory i is recorded, at its rows.
SKIPSTONE_HD SKIPSTONE_INLINE std::int64_t attach(PointRecorder& r, const PointTarget& t, std::uint64_t i,
                                                  std::uint64_t* counts) {
  r.fields = t.fields;
  if (t.map) {
    r.map = t.map;
    r.counts = counts;
  }
  const std::int64_t slot = recorded_slot(t, i);
  if (slot >= 0) {
    r.rows = t.rows + static_cast<std::uint64_t>(slot) * t.max_events * static_cast<std::uint64_t>(t.fields);
    r.capacity = t.max_events;
  }
  return slot;
}
}  // namespace collect_detail

// Trajectory `first + i` of variant V, counting its impacts and crossings into
// `boundary_counts` and `section_counts` (a thread's own maps on the CPU, the chunk's shared ones
// on a GPU) and, with the coverage cells, marking the cells it visits in `stamps` (the calling
// thread's row of them, one stamp per cell: trajectory i stamps i + 1, so that the row serves
// the thread's trajectories in turn without clearing).
template <class V>
SKIPSTONE_HD TrajectoryResult collect_trajectory(const ScanSpec& spec, std::uint64_t first, std::uint64_t i,
                                                 const CollectTarget& c, std::uint64_t* stamps,
                                                 std::uint64_t* boundary_counts, std::uint64_t* section_counts) {
  std::conditional_t<V::lyapunov, CollectSink, SamplingCollectSink> sink;
  if constexpr (!V::lyapunov) sink.heights.attach(c.heights, i);
  if (c.cells) {
    sink.cells = c.cells;
    sink.stamps = stamps;
    sink.stamp = i + 1;
  }
  if (c.state_columns > 0) sink.final_state = c.final_states + i * static_cast<std::uint64_t>(c.state_columns);
  sink.section.plane = c.plane;
  const std::int64_t impact_slot = collect_detail::attach(sink.impacts, c.boundary, i, boundary_counts);
  const std::int64_t crossing_slot = collect_detail::attach(sink.section.crossings, c.section, i, section_counts);
  TrajectoryResult r = simulate_variant<V>(spec, first + i, sink);
  if (c.free_time) r.mean_free_time = sink.mean_free_time();
  if (c.cells) r.coverage = sink.coverage();
  if (impact_slot >= 0) c.boundary.points[impact_slot] = sink.impacts.points;
  if (crossing_slot >= 0) c.section.points[crossing_slot] = sink.section.crossings.points;
  return r;
}

}  // namespace skipstone
