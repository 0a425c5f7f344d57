// Thin driver functions in front of the ensemble kernel, one namespace per backend. Host code
// calls these and never sees Thrust policies or CUDA launches.
#pragma once
#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "skipstone/boundary_map.hpp"
#include "skipstone/height_series.hpp"
#include "skipstone/section_map.hpp"
#include "skipstone/result.hpp"
#include "skipstone/scan_spec.hpp"

namespace skipstone {

// Trajectories of a chunk finished so far, which run_chunk advances while it runs (a block of
// SIMD lanes or a bounded launch at a time) so that progress can be reported from inside a chunk.
using DoneCounter = std::atomic<std::uint64_t>;

// The points of one output kind a chunk bins and records: the impacts (outputs.boundary_map,
// boundary_events) or the section crossings (outputs.section_map, section_events).
struct PointCollect {
  const BoundaryMapSpec* map = nullptr;  // null: no map
  std::vector<std::uint64_t> counts;     // out: boundary_bin_count + 1 (the last: points outside the map)
  std::vector<std::uint64_t> recorded;   // in: offsets from `first` of the trajectories to record, ascending
  std::uint64_t max_events = 0;          // points recorded per trajectory (its first ones)
  int fields = kBoundaryEventFields;     // in: values of a recorded row (PointRecorder)
  std::vector<double> rows;              // out: max_events rows of `fields` per recorded trajectory
  std::vector<std::uint64_t> points;     // out: every point of each recorded trajectory

  // Entries of `counts` (0 without a map) and of `rows`.
  std::uint64_t map_slots() const { return map ? boundary_bin_count(*map) + 1 : 0; }
  std::uint64_t row_values() const { return recorded.size() * max_events * static_cast<std::uint64_t>(fields); }
};

// What a chunk collects from the events of its trajectories besides their results (the impacts
// of the 2D no-slip tables and the rolling tables' edge entries; the section crossings of the
// flights, section_map.hpp; the observable final_state from the last event; height_series from
// the rolling runs' samples; the observables mean_free_time and coverage from the impacts).
struct BoundaryCollect {
  PointCollect boundary, section;
  const SectionPlane* plane = nullptr;     // null: no section
  int state_columns = 0;                   // in: values of a final state (final_state.hpp); 0: none kept
  std::vector<double> final_states;        // out: state_columns per trajectory, NaN where it had no event
  HeightSeriesTarget heights;              // in: the height_series grid (points 0: none kept; values unused)
  std::vector<double> height_series;       // out: heights.points per trajectory, NaN after its end
  bool free_time = false;                  // the mean_free_time observable: into TrajectoryResult
  const BoundaryMapSpec* cells = nullptr;  // the coverage observable's cells (null: not asked)
};

namespace cpu {
// Results of trajectories [first, first + count) into out[0 .. count); `done`, when given, is
// advanced by the number of trajectories finished as they finish.
void run_chunk(const ScanSpec& spec, std::uint64_t first, std::uint64_t count, TrajectoryResult* out,
               DoneCounter* done = nullptr);
// As run_chunk, one trajectory per iteration, with the impacts binned and recorded into `collect`.
void run_chunk_collecting(const ScanSpec& spec, std::uint64_t first, std::uint64_t count, TrajectoryResult* out,
                          BoundaryCollect& collect, DoneCounter* done = nullptr);
int max_threads();
void set_threads(int n);
}  // namespace cpu

namespace cuda {
// False (with the reason in *why) when the binary has no CUDA backend or no device is usable.
bool available(std::string* why);
// Devices visible to this process (0 when none or not built).
int device_count();
// The device that later calls of this host thread use (cudaSetDevice), and the current one.
void set_device(int device);
int current_device();
std::string device_description();
// The current device as the benchmarks describe it (clock: the peak SM clock).
struct DeviceInfo {
  std::string name;
  int multiprocessors, clock_khz, cc_major, cc_minor;
};
DeviceInfo device_info();
std::uint64_t free_device_memory();
void run_chunk(const ScanSpec& spec, std::uint64_t first, std::uint64_t count, TrajectoryResult* out,
               DoneCounter* done = nullptr);
// As cpu::run_chunk_collecting, on the current device (one trajectory per thread, the maps counted
// atomically; with the coverage cells, each thread stamps its own row of them for trajectory after
// trajectory).
void run_chunk_collecting(const ScanSpec& spec, std::uint64_t first, std::uint64_t count, TrajectoryResult* out,
                          BoundaryCollect& collect, DoneCounter* done = nullptr);
// Whole results of chunk after chunk on the current device, through a device and a pinned host
// buffer kept across calls (grown when a chunk is larger): the benchmarks' runs.
class ResultChunks {
 public:
  ResultChunks() = default;
  ~ResultChunks();
  ResultChunks(const ResultChunks&) = delete;
  ResultChunks& operator=(const ResultChunks&) = delete;
  // Results of trajectories [first, first + count), valid until the next call.
  const TrajectoryResult* run(const ScanSpec& spec, std::uint64_t first, std::uint64_t count);

 private:
  TrajectoryResult* device_ = nullptr;
  TrajectoryResult* host_ = nullptr;  // pinned
  std::uint64_t capacity_ = 0;
};
}  // namespace cuda

}  // namespace skipstone
