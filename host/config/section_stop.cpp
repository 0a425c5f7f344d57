// Config section "stop" (docs/config.md "Stop rules"): a time limit t_max, an event count
// max_events, or both; some systems require t_max.
#include <cmath>
#include <limits>

#include "config_sections.hpp"

namespace skipstone {

void read_stop(JsonReader stop, RunConfig& rc) {
  ScanSpec& spec = rc.spec;
  const auto t_max = stop.optional_number("t_max");
  const bool has_events = stop.has("max_events");
  spec.max_events = stop.integer_or("max_events", std::numeric_limits<std::uint64_t>::max(), 1);
  stop.finish();
  if (t_max && !(*t_max > 0.0)) throw ConfigError("stop.t_max", "value " + number_text(*t_max) + " is out of range; allowed: > 0");
  if (!t_max && !has_events) throw ConfigError("stop", "give t_max, max_events or both");
  if (rc.system.traits.needs_t_max && !t_max) throw ConfigError("stop.t_max", "required for system " + rc.system.name);
  spec.t_max = t_max.value_or(INFINITY);
  if (t_max) rc.resolved["stop"]["t_max"] = *t_max;
  if (has_events) rc.resolved["stop"]["max_events"] = spec.max_events;
}

}  // namespace skipstone
