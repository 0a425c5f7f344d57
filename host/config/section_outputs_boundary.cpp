// Config section "outputs": the boundary map (a histogram of the Birkhoff coordinates of every
// impact) and the recorded impacts of chosen trajectories (docs/config.md, "Outputs"), and the
// map's bins and the recorded trajectories as the section outputs read them too.
#include <algorithm>
#include <string>

#include "config_sections.hpp"
#include "impact_coordinates.hpp"

namespace skipstone {

using nlohmann::json;

constexpr std::uint64_t kMaxBoundaryBins = 100000000;  // bins of a whole map

namespace {

void read_boundary_map(JsonReader m, RunConfig& rc) {
  const std::string path = m.path();
  BoundaryOutputs& b = rc.boundary;
  b.coords = read_map_coords(m.array("coords"), path + ".coords", rc.system.traits, 3, false, b.spec);
  // the coordinates bounded by definition have their ranges; any other needs "ranges"
  for (const ImpactCoordinate& c : impact_coordinates(rc.system.traits))
    if (!c.bounded && std::find(b.coords.begin(), b.coords.end(), c.name) != b.coords.end() && !m.has("ranges"))
      throw ConfigError(path + ".ranges", "required with the coordinate \"" + c.name +
                                              "\", which has no bound of its own: one [min, max] per coordinate of coords");
  json resolved = read_map_bins(m, b);
  resolved["coords"] = b.coords;
  rc.resolved["outputs"]["boundary_map"] = resolved;
}

}  // namespace

std::vector<std::string> read_map_coords(const json& coords, const std::string& path, const SystemTraits& system,
                                         int max_coords, bool bounded_only, BoundaryMapSpec& spec) {
  const std::vector<ImpactCoordinate> row = impact_coordinates(system);
  std::vector<std::string> names, allowed;
  for (const ImpactCoordinate& c : row)
    if (c.bounded || !bounded_only) allowed.push_back(c.name);
  for (const json& c : coords)
    if (c.is_string() && std::find(allowed.begin(), allowed.end(), c.get<std::string>()) != allowed.end() &&
        std::find(names.begin(), names.end(), c.get<std::string>()) == names.end())
      names.push_back(c.get<std::string>());
  if (names.size() != coords.size() || names.size() < 2 || names.size() > static_cast<std::size_t>(max_coords))
    throw ConfigError(path, "value " + show(coords) + " is not allowed; allowed: " +
                                (max_coords == 2 ? std::string("2") : "2 or " + std::to_string(max_coords)) +
                                " distinct names of " + show(json(allowed)) + " (the " +
                                (bounded_only ? "bounded " : "") + "coordinates of the impacts of " + system.name + ")");
  spec.n_coords = static_cast<int>(names.size());
  for (std::size_t k = 0; k < names.size(); ++k) {
    const auto at = std::find_if(row.begin(), row.end(), [&](const ImpactCoordinate& c) { return c.name == names[k]; });
    spec.column[k] = static_cast<int>(at - row.begin());
    spec.lo[k] = at->lo;
    spec.hi[k] = at->hi;
  }
  return names;
}

json read_map_bins(JsonReader& m, BoundaryOutputs& b) {
  const std::string path = m.path();
  const std::vector<std::string>& names = b.coords;
  const json& bins = m.array("bins");
  if (bins.size() != names.size())
    throw ConfigError(path + ".bins", "expected " + std::to_string(names.size()) + " bin counts (one per coordinate), got " + show(bins));
  std::uint64_t total = 1;
  for (std::size_t k = 0; k < names.size(); ++k) {
    if (!bins[k].is_number_integer() || bins[k].get<std::int64_t>() < 1)
      throw ConfigError(path + ".bins[" + std::to_string(k) + "]", "value " + show(bins[k]) + " is not allowed; allowed: an integer >= 1");
    b.spec.bins[k] = bins[k].get<std::uint64_t>();
    total *= std::min<std::uint64_t>(b.spec.bins[k], kMaxBoundaryBins + 1);
    if (total > kMaxBoundaryBins)
      throw ConfigError(path + ".bins", "value " + show(bins) + " has more than " + std::to_string(kMaxBoundaryBins) + " bins in all");
  }
  if (m.has("ranges")) {
    const std::string rpath = path + ".ranges";
    const json& ranges = m.array("ranges");
    if (ranges.size() != names.size()) throw ConfigError(rpath, "expected one [min, max] per coordinate, got " + show(ranges));
    for (std::size_t k = 0; k < names.size(); ++k) {
      const json& r = ranges[k];
      const std::string kpath = rpath + "[" + std::to_string(k) + "]";
      if (!r.is_array() || r.size() != 2 || !r[0].is_number() || !r[1].is_number() || !(r[1].get<double>() > r[0].get<double>()))
        throw ConfigError(kpath, "value " + show(r) + " is not allowed; allowed: [min, max] with max > min");
      b.spec.lo[k] = r[0].get<double>();
      b.spec.hi[k] = r[1].get<double>();
    }
  }
  m.finish();
  b.map = true;
  json resolved = {{"bins", bins}, {"ranges", json::array()}};
  for (std::size_t k = 0; k < names.size(); ++k) resolved["ranges"].push_back({b.spec.lo[k], b.spec.hi[k]});
  return resolved;
}

json read_point_events(JsonReader e, const RunConfig& rc, BoundaryOutputs& b, const char* points) {
  const std::string path = e.path();
  if (e.has("every") == e.has("indices"))
    throw ConfigError(path, "expected exactly one of \"every\" (record trajectories 0, k, 2k, ...) and \"indices\" (a list)");
  json resolved = json::object();
  if (e.has("every")) {
    b.every = e.integer("every", 1);
    resolved["every"] = b.every;
  } else {
    const json& list = e.array("indices");
    for (std::size_t k = 0; k < list.size(); ++k) {
      const json& v = list[k];
      if (!v.is_number_integer() || v.get<std::int64_t>() < 0 || v.get<std::uint64_t>() >= rc.spec.count)
        throw ConfigError(path + ".indices[" + std::to_string(k) + "]", "value " + show(v) + " is not allowed; allowed: a trajectory index 0.." +
                                                                        std::to_string(rc.spec.count - 1));
      b.indices.push_back(v.get<std::uint64_t>());
    }
    std::sort(b.indices.begin(), b.indices.end());
    b.indices.erase(std::unique(b.indices.begin(), b.indices.end()), b.indices.end());
    resolved["indices"] = b.indices;
  }
  b.max_events = e.integer_or("max_events_per_trajectory", kDefaultBoundaryEvents, 1);
  resolved["max_events_per_trajectory"] = b.max_events;
  e.finish();
  b.events = true;
  const double bytes = static_cast<double>(recorded_count(b, rc.spec.count)) * static_cast<double>(b.max_events) *
                       static_cast<double>(point_event_columns(rc, b)) * 8.0;
  if (bytes > static_cast<double>(kMaxBoundaryEventBytes))
    throw ConfigError(path + ".max_events_per_trajectory",
                      std::string("the recorded ") + points + " could take " + std::to_string(static_cast<std::uint64_t>(bytes / (1 << 20))) + " MiB (" +
                          std::to_string(recorded_count(b, rc.spec.count)) + " trajectories x " + std::to_string(b.max_events) + " " + points +
                          "), more than the " + std::to_string(kMaxBoundaryEventBytes >> 20) +
                          " MiB allowed; record fewer trajectories (a larger \"every\") or fewer " + points + " each");
  return resolved;
}

void read_outputs(JsonReader outputs, RunConfig& rc) {
  outputs.only({"boundary_map", "boundary_events", "survival", "coverage", "height_series", "section", "section_map",
                "section_events"});
  const bool any = outputs.has("boundary_map") || outputs.has("boundary_events");
  const std::vector<ImpactCoordinate> row = impact_coordinates(rc.system.traits);
  if (any && row.empty())
    throw ConfigError(outputs.path() + (outputs.has("boundary_map") ? ".boundary_map" : ".boundary_events"),
                      "computed for the no-slip models (2D tables, cylinders, sphere) and the rolling tables "
                      "(roll4:disc, roll3:<table>, roll4:<table>) only, not for system " + rc.system.name);
  rc.boundary.event_fields = 2 + static_cast<int>(row.size());
  if (outputs.has("boundary_map")) read_boundary_map(outputs.object("boundary_map"), rc);
  if (outputs.has("boundary_events"))
    rc.resolved["outputs"]["boundary_events"] = read_point_events(outputs.object("boundary_events"), rc, rc.boundary, "impacts");
  if (outputs.has("survival")) read_survival(outputs.object("survival"), rc);
  if (outputs.has("coverage")) read_coverage(outputs.object("coverage"), rc);
  if (outputs.has("height_series")) read_height_series(outputs.object("height_series"), rc);
  read_section_outputs(outputs, rc);
  outputs.finish();
  check_escape_observables(rc);
  check_height_series(rc);
}

}  // namespace skipstone
