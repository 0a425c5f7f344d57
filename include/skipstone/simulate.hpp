// One trajectory of any model from (spec, scan point): the single entry point shared by the
// ensemble kernels (both backends), the trace command and the scalar reference loop in tests.
// The sink sees the events (no-slip: on_event) or integrator steps (rolling: on_step).
#pragma once
#include "skipstone/noslip_model.hpp"
#include "skipstone/rolling/disc_transversal.hpp"
#include "skipstone/sinks.hpp"

namespace skipstone {

template <class Sink>
SKIPSTONE_HD TrajectoryResult simulate_trajectory(const ScanSpec& spec, std::uint64_t index, Sink& sink) {
  const ScanPoint pt = scan_point(spec, index);
  if (spec.model == ModelKind::roll_disc_transversal) return simulate_disc_transversal(spec, pt, sink);
  return simulate_noslip(spec, pt, sink);
}

}  // namespace skipstone
