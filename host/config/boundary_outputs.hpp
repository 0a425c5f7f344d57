// The point outputs of a run (config section "outputs", docs/config.md "Outputs"): a histogram
// of coordinates of every point of the scan and the points of chosen trajectories; the points
// are the impacts in Birkhoff coordinates (boundary_map, boundary_events) or the crossings of a
// Poincare section (section_map, section_events; skipstone/section_map.hpp). The impacts also
// give the per-trajectory observables mean_free_time and coverage.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "skipstone/boundary_map.hpp"
#include "skipstone/section_map.hpp"

namespace skipstone {

// The impacts a recorded trajectory keeps by default, and the most bytes boundary_events may
// hold in memory (the rows of every recorded trajectory at its max_events_per_trajectory).
constexpr std::uint64_t kDefaultBoundaryEvents = 1000;
constexpr std::uint64_t kMaxBoundaryEventBytes = std::uint64_t(4) << 30;

struct BoundaryOutputs {
  bool map = false;
  BoundaryMapSpec spec{};
  std::vector<std::string> coords;  // the map's coordinates, in its axes' order (spec.column: their place in a point's row)
  bool events = false;
  std::uint64_t every = 0;             // record trajectories i with i % every == 0 (0: use indices)
  std::vector<std::uint64_t> indices;  // or these, ascending
  std::uint64_t max_events = kDefaultBoundaryEvents;
  int event_fields = kBoundaryEventFields;  // values of a recorded point (PointRecorder): 2 + its coordinates
  // Per-trajectory observables of the impacts (rc.boundary only): mean_free_time, and coverage
  // of the cells of outputs.coverage (the grid of a map in two bounded coordinates).
  bool free_time = false;
  bool coverage = false;
  BoundaryMapSpec cells{};
  // Whether a run follows these points (the CPU backend's one-trajectory path).
  bool any() const { return map || events || free_time || coverage; }
};

// The offsets from `first` of the trajectories of [first, end) whose impacts are recorded, ascending.
std::vector<std::uint64_t> recorded_in(const BoundaryOutputs& b, std::uint64_t first, std::uint64_t end);

// Recorded trajectories of a scan of `count` trajectories.
std::uint64_t recorded_count(const BoundaryOutputs& b, std::uint64_t count);

}  // namespace skipstone
