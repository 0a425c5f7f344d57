// One trajectory of any model from (spec, scan point): the single entry point shared by the
// ensemble kernels (both backends), the trace command and the scalar reference loop in tests.
// The sink sees the events (no-slip impacts, the segment ends of roll3:strip/roll4:planes, the
// turns of roll3:inside-cylinder, the junctions and rim steps of roll4:disc: on_event) or the
// integrator steps of the Figure-18 system (on_step). simulate_in_precision adds the float kernels.
#pragma once
#include "skipstone/noslip_model.hpp"
#include "skipstone/rolling/disc_transversal.hpp"
#include "skipstone/rolling/roll3_inside_cylinder.hpp"
#include "skipstone/rolling/roll3_strip.hpp"
#include "skipstone/rolling/roll4_disc.hpp"
#include "skipstone/rolling/roll4_planes.hpp"
#include "skipstone/sinks.hpp"

namespace skipstone {

template <class Sink>
SKIPSTONE_HD TrajectoryResult simulate_trajectory(const ScanSpec& spec, std::uint64_t index, Sink& sink) {
  const ScanPoint pt = scan_point(spec, index);
  if (spec.model == ModelKind::roll_disc_transversal) return simulate_disc_transversal(spec, pt, sink);
  if (spec.model == ModelKind::roll_disc) return simulate_roll4_disc(spec, pt, sink);
  if (spec.model == ModelKind::roll_planes) return simulate_roll4_planes(spec, pt, sink);
  if (spec.model == ModelKind::roll_strip) return simulate_roll3_strip(spec, pt, sink);
  if (spec.model == ModelKind::roll_inside_cylinder) return simulate_roll3_inside_cylinder(spec, pt, sink);
  return simulate_noslip(spec, pt, sink);
}

// The ensemble kernels' entry: as simulate_trajectory, but spec.precision = float32 runs the
// float kernel of the models that have one (roll4:disc-transversal, the Figure-18 map).
template <class Sink>
SKIPSTONE_HD TrajectoryResult simulate_in_precision(const ScanSpec& spec, std::uint64_t index, Sink& sink) {
  if (spec.precision == Precision::float32 && spec.model == ModelKind::roll_disc_transversal)
    return simulate_disc_transversal<float>(spec, scan_point(spec, index), sink);
  return simulate_trajectory(spec, index, sink);
}

}  // namespace skipstone
