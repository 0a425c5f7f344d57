// Config sections "initial" and "parameters": the start kind, the moment of inertia (exactly
// one of gamma, eta, beta, as a value or a scan axis), the values of the system's parameters
// and start keys against their rules, gravity and polygon vertices.
#include <string>
#include <vector>

#include "config_sections.hpp"
#include "moment_of_inertia.hpp"

namespace skipstone {
namespace {

using nlohmann::json;

// Exactly one of gamma, eta, beta, in parameters or as a scan axis.
void read_moment(JsonReader& params, RunConfig& rc) {
  std::vector<std::string> given;
  for (const char* m : {"gamma", "eta", "beta"})
    if (params.has(m)) given.push_back(m);
  for (const auto& a : rc.axes)
    if (is_moment(a.name)) given.push_back(a.name);
  if (given.empty())
    throw ConfigError("parameters.gamma", "required: give the moment of inertia as one of gamma, eta or beta "
                                          "(in parameters or as a scan axis)");
  if (given.size() > 1)
    throw ConfigError("parameters." + given[1], "the moment of inertia is given twice (" + given[0] + " and " +
                                                    given[1] + "); give exactly one of gamma, eta, beta");
  rc.moment_name = given[0];
  rc.spec.moment = moment_form(rc.moment_name);
  if (params.has(rc.moment_name)) {
    const double v = params.number(rc.moment_name);
    if (!moment_ok(rc.spec.moment, v))
      throw ConfigError("parameters." + rc.moment_name,
                        "value " + number_text(v) + " is out of range; allowed: " + moment_allowed(rc.spec.moment));
    rc.spec.params[P_MOMENT] = v;
    rc.resolved["parameters"][rc.moment_name] = v;
  }
}

// A convex polygon's vertices, counterclockwise.
void read_polygon(JsonReader& params, RunConfig& rc) {
  ScanSpec& spec = rc.spec;
  const json& verts = params.array("vertices");
  if (verts.size() < 3 || verts.size() > static_cast<std::size_t>(kMaxPolygonVertices))
    throw ConfigError("parameters.vertices", "a polygon needs 3 to " + std::to_string(kMaxPolygonVertices) +
                                                 " vertices, got " + std::to_string(verts.size()));
  spec.polygon_n = static_cast<std::int32_t>(verts.size());
  for (std::size_t i = 0; i < verts.size(); ++i) {
    const std::string vp = "parameters.vertices[" + std::to_string(i) + "]";
    if (!verts[i].is_array() || verts[i].size() != 2) throw ConfigError(vp, "expected [x, y], got " + show(verts[i]));
    spec.polygon[i] = {json_number(verts[i][0], vp + "[0]"), json_number(verts[i][1], vp + "[1]")};
  }
  for (int i = 0; i < spec.polygon_n; ++i) {
    const Vec2 a = spec.polygon[i], b = spec.polygon[(i + 1) % spec.polygon_n], c = spec.polygon[(i + 2) % spec.polygon_n];
    if (!(cross(b - a, c - b) > 0.0))
      throw ConfigError("parameters.vertices[" + std::to_string((i + 1) % spec.polygon_n) + "]",
                        "the polygon must be convex with vertices in counterclockwise order (turn at this vertex is not a left turn)");
  }
  rc.resolved["parameters"]["vertices"] = verts;
}

}  // namespace

const StartSchema& read_start(JsonReader& init, RunConfig& rc) {
  const SystemSchema& sys = rc.system;
  rc.start = init.string_or("start", sys.default_start);
  const auto it = sys.starts.find(rc.start);
  if (it == sys.starts.end()) {
    std::string allowed;
    for (const auto& kv : sys.starts) allowed += (allowed.empty() ? "" : ", ") + kv.first;
    throw ConfigError("initial.start", "value " + show(rc.start) + " is not a start kind of system " + sys.name +
                                           "; allowed: " + allowed);
  }
  const StartSchema& start = it->second;
  rc.spec.start = start.kind;
  std::vector<std::string> keys = {"start"};
  for (const auto& r : start.keys) keys.push_back(r.name);
  if (start.kind == StartKind::state) keys.push_back("file");
  init.only(keys);
  if (start.kind == StartKind::state) read_state_file(init, rc);
  return start;
}

void read_rules(JsonReader& rd, const std::vector<ParamRule>& rules, const char* section, RunConfig& rc) {
  for (const auto& r : rules) {
    const bool scanned = find_axis(rc, r.name) != nullptr;
    if (rd.has(r.name) && scanned) throw ConfigError(rd.key_path(r.name), "is also a scan axis; give it in one place only");
    double v;
    if (rd.has(r.name)) {
      v = rd.number(r.name);
      check_rule(r, v, rd.key_path(r.name));
    } else {
      if (!r.fallback && !scanned) throw ConfigError(rd.key_path(r.name), "required key is missing; allowed: " + r.allowed);
      v = r.fallback.value_or(0.0);
    }
    rc.spec.params[r.param] = v;
    if (!scanned) rc.resolved[section][r.name] = v;
  }
}

void read_parameters(JsonReader& params, RunConfig& rc) {
  const SystemSchema& sys = rc.system;
  std::vector<std::string> keys;
  if (sys.moment) keys = {"gamma", "eta", "beta"};
  for (const auto& r : sys.parameters) keys.push_back(r.name);
  if (sys.traits.table == TableKind::polygon) keys.push_back("vertices");
  for (const char* k : {"noise", "noise_sigma", "noise_tau", "noise_dt", "realisation"})
    if (params.has(k) && !find_rule(sys.parameters, k))
      throw ConfigError(params.key_path(k), std::string("is not a parameter of system ") + sys.name +
                                                ": noisy constraints are implemented for the rolling models roll4:disc-transversal, "
                                                "roll4:disc, roll3:<table>, roll4:<table>, roll3:strip, roll4:planes and "
                                                "roll3:inside-cylinder only");
  params.only(keys);
  if (sys.moment) read_moment(params, rc);
  read_rules(params, sys.parameters, "parameters", rc);
  if (find_rule(sys.parameters, "g_effective")) read_gravity(params, rc);
  if (sys.traits.table == TableKind::polygon) read_polygon(params, rc);
  if (!sys.traits.allows_gravity && (rc.spec.params[P_G] != 0.0 || rc.spec.params[P_G_EFF] != 0.0)) {
    const bool eff = rc.spec.params[P_G] == 0.0;
    const std::string along = sys.traits.model == ModelKind::roll3_table ? "roll4:sinai" : "cylinder:sinai";
    throw ConfigError(eff ? "parameters.g_effective" : "parameters.g",
                      "value " + number_text(rc.spec.params[eff ? P_G_EFF : P_G]) + " is not allowed for system " +
                          sys.name + ": a torus has no floor; allowed: 0 (use " + along +
                          " for gravity along the axis)");
  }
}

}  // namespace skipstone
