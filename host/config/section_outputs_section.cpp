// Config keys outputs.section, section_map and section_events (docs/config.md, "Outputs"): the
// plane n . x = offset crossed by the ball's centre (skipstone/section_map.hpp), the direction
// counted, the section coordinates (columns of the state row at the crossing), the histogram of
// the crossings and the recorded crossings of chosen trajectories.
#include <algorithm>
#include <cmath>
#include <string>

#include "config_sections.hpp"

namespace skipstone {

using nlohmann::json;

namespace {

// The row the sink writes at a crossing, named: the state columns of the no-slip models and the
// closed-form rolling ones (state_layout.cpp: roll3:strip (sigma, x2, ...), roll4:planes
// (sigma, x2, x3, ...), roll3:inside-cylinder the centre's), the rolling tables' plate row
// (disc_output.hpp: roll4 x = (p, x3), v = (u, u3), w = (S23, -S13, S12); roll3 x = (p, +-r),
// v = (u, 0), w = (0, 0, S12)).
std::vector<std::string> section_columns(const RunConfig& rc) {
  const ModelKind m = rc.spec.model;
  if (is_noslip(m) || m == ModelKind::roll_strip || m == ModelKind::roll_planes || m == ModelKind::roll_inside_cylinder)
    return rc.state.columns;
  if (m == ModelKind::roll_disc || m == ModelKind::roll3_table || m == ModelKind::roll4_table)
    return {"x1", "x2", "x3", "v1", "v2", "v3", "wx", "wy", "wz"};
  return {};
}

std::string list_text(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "\"" : ", \"") + n + "\"";
  return out;
}

void read_plane(JsonReader sec, RunConfig& rc, const std::vector<std::string>& columns) {
  const std::string path = sec.path();
  SectionPlane& p = rc.plane;
  const std::size_t dim = columns.size() == 5 ? 2 : 3;  // position components of the row
  const json& normal = sec.array("normal");
  double len = 0.0;
  for (const json& v : normal) len += v.is_number() ? v.get<double>() * v.get<double>() : NAN;
  if (normal.size() != dim || !(len > 0.0) || !std::isfinite(len))
    throw ConfigError(path + ".normal", "value " + show(normal) + " is not allowed; allowed: " + std::to_string(dim) +
                                            " finite numbers, not all 0 (the plane's normal in (" +
                                            list_text({columns.begin(), columns.begin() + static_cast<long>(dim)}) + "))");
  for (std::size_t k = 0; k < 3; ++k) p.n[k] = k < dim ? normal[k].get<double>() : 0.0;
  p.offset = sec.number_or("offset", 0.0);
  const json dir = sec.has("direction") ? sec.value("direction") : json(1);
  if (dir == json(1) || dir == json(-1))
    p.direction = dir.get<int>();
  else if (dir == json("both"))
    p.direction = 0;
  else
    throw ConfigError(path + ".direction", "value " + show(dir) + " is not allowed; allowed: 1 (n . u > 0), -1 (n . u < 0) or \"both\"");
  const json& coords = sec.array("coords");
  if (coords.size() < 2 || coords.size() > kBoundaryMaxCoords)
    throw ConfigError(path + ".coords", "value " + show(coords) + " is not allowed; allowed: 2 or 3 names among " + list_text(columns));
  rc.section.coords.clear();
  for (std::size_t k = 0; k < coords.size(); ++k) {
    const auto at = coords[k].is_string() ? std::find(columns.begin(), columns.end(), coords[k].get<std::string>()) : columns.end();
    if (at == columns.end())
      throw ConfigError(path + ".coords[" + std::to_string(k) + "]", "value " + show(coords[k]) + " is not allowed; allowed: one of " + list_text(columns));
    p.column[k] = static_cast<int>(at - columns.begin());
    rc.section.coords.push_back(*at);
  }
  p.n_coords = static_cast<int>(coords.size());
  sec.finish();
  rc.section.spec.n_coords = p.n_coords;
  rc.section.event_fields = 2 + p.n_coords;
  json resolved = {{"normal", json::array()}, {"offset", p.offset}, {"direction", dir}, {"coords", rc.section.coords}};
  for (std::size_t k = 0; k < dim; ++k) resolved["normal"].push_back(p.n[k]);
  rc.resolved["outputs"]["section"] = resolved;
}

}  // namespace

void read_section_outputs(JsonReader& outputs, RunConfig& rc) {
  const bool map = outputs.has("section_map"), events = outputs.has("section_events");
  if (!outputs.has("section") && !map && !events) return;
  const std::string key = outputs.path() + (outputs.has("section") ? ".section" : map ? ".section_map" : ".section_events");
  const std::vector<std::string> columns = section_columns(rc);
  if (columns.empty())
    throw ConfigError(key, "computed for the no-slip tables, cylinders and sphere and the rolling systems (roll4:disc, "
                           "roll3:<table>, roll4:<table>, roll3:strip, roll4:planes, roll3:inside-cylinder) only, "
                           "not for system " + rc.system.name);
  if (!outputs.has("section")) throw ConfigError(outputs.path() + ".section", "required with section_map or section_events: {\"normal\": [...], \"offset\": c, \"direction\": 1, \"coords\": [...]}");
  if (!map && !events) throw ConfigError(outputs.path() + ".section", "has no output: add section_map, section_events or both");
  read_plane(outputs.object("section"), rc, columns);
  if (map) {
    JsonReader m = outputs.object("section_map");
    if (!m.has("ranges"))
      throw ConfigError(m.path() + ".ranges", "required: one [min, max] per coordinate of outputs.section.coords");
    rc.resolved["outputs"]["section_map"] = read_map_bins(m, rc.section);
  }
  if (events)
    rc.resolved["outputs"]["section_events"] = read_point_events(outputs.object("section_events"), rc, rc.section, "crossings");
}

}  // namespace skipstone
