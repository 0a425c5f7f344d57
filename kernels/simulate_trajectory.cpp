// The one-trajectory run of every model (simulate_any_variant, simulate.hpp) compiled once for
// the sinks most callers have: DiscardSink and EventSink (event_sink.hpp). Each translation
// unit that ran a trajectory with a sink of its own used to compile every model again.
#include "skipstone/simulate.hpp"

namespace skipstone {

TrajectoryResult simulate_trajectory(const ScanSpec& spec, std::uint64_t index, DiscardSink& sink) {
  return simulate_any_variant(spec, index, sink);
}

TrajectoryResult simulate_trajectory(const ScanSpec& spec, std::uint64_t index, EventSink& sink) {
  return simulate_any_variant(spec, index, sink);
}

}  // namespace skipstone
