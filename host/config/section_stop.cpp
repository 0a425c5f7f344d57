// Config section "stop" (docs/config.md "Stop rules"): a time limit t_max, an event count
// max_events, or both; some systems require t_max. The tables with a boundary parameter (the 2D
// no-slip tables, cylinder:<table>, roll3:<table>, roll4:<table>, roll4:disc) may also have
// holes: arcs of the boundary parameter through which a trajectory leaves (skipstone/holes.hpp).
#include <cmath>
#include <limits>

#include "config_sections.hpp"

namespace skipstone {

using nlohmann::json;

namespace {

// stop.holes: [[lo, hi], ...], disjoint arcs of boundary_s with 0 <= lo < hi <= 1.
void read_holes(const json& list, RunConfig& rc) {
  const std::string path = "stop.holes";
  if (!(rc.system.traits.observables & kObsHoles))
    throw ConfigError(path, "holes are cut in the wall of the tables with a boundary parameter (the 2D no-slip "
                            "tables, cylinder:<table>, roll3:<table>, roll4:<table>, roll4:disc) only, not in that "
                            "of system " + rc.system.name);
  if (rc.spec.start == StartKind::rim_entry)
    throw ConfigError(path, "a rim_entry start is one edge passage from a wall point, which no hole can end; "
                            "allowed: holes with a start on a face (plate, plate_minus)");
  if (list.empty() || list.size() > static_cast<std::size_t>(kMaxHoles))
    throw ConfigError(path, "expected 1 to " + std::to_string(kMaxHoles) + " holes [lo, hi], got " + show(list));
  HoleSet& h = rc.spec.holes;
  h.n = 0;
  for (std::size_t k = 0; k < list.size(); ++k) {
    const json& a = list[k];
    const std::string kpath = path + "[" + std::to_string(k) + "]";
    if (!a.is_array() || a.size() != 2 || !a[0].is_number() || !a[1].is_number())
      throw ConfigError(kpath, "value " + show(a) + " is not a hole; allowed: [lo, hi], an arc of boundary_s");
    const double lo = a[0].get<double>(), hi = a[1].get<double>();
    if (!(lo >= 0.0 && hi <= 1.0 && lo < hi))
      throw ConfigError(kpath, "value " + show(a) + " is out of range; allowed: [lo, hi] with 0 <= lo < hi <= 1 "
                               "(boundary_s of the table, docs/models.md; an arc across s = 0 is two holes)");
    for (int j = 0; j < h.n; ++j)
      if (lo < h.hi[j] && h.lo[j] < hi)
        throw ConfigError(kpath, "value " + show(a) + " overlaps stop.holes[" + std::to_string(j) +
                                     "]; allowed: disjoint arcs");
    h.lo[h.n] = lo;
    h.hi[h.n] = hi;
    ++h.n;
  }
  rc.resolved["stop"]["holes"] = list;
}

}  // namespace

void read_stop(JsonReader stop, RunConfig& rc) {
  ScanSpec& spec = rc.spec;
  const auto t_max = stop.optional_number("t_max");
  const bool has_events = stop.has("max_events");
  spec.max_events = stop.integer_or("max_events", std::numeric_limits<std::uint64_t>::max(), 1);
  spec.holes.n = 0;
  if (stop.has("holes")) read_holes(stop.array("holes"), rc);
  stop.finish();
  if (t_max && !(*t_max > 0.0)) throw ConfigError("stop.t_max", "value " + number_text(*t_max) + " is out of range; allowed: > 0");
  if (!t_max && !has_events) throw ConfigError("stop", "give t_max, max_events or both");
  if (rc.system.traits.needs_t_max && !t_max) throw ConfigError("stop.t_max", "required for system " + rc.system.name);
  spec.t_max = t_max.value_or(INFINITY);
  if (t_max) rc.resolved["stop"]["t_max"] = *t_max;
  if (has_events) rc.resolved["stop"]["max_events"] = spec.max_events;
}

}  // namespace skipstone
