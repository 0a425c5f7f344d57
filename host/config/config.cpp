// Parsing and validation of run configs into RunConfig/ScanSpec (README "Config format").
#include "config.hpp"

#include <algorithm>
#include <cmath>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <sstream>

#include "json_reader.hpp"
#include "observables.hpp"
#include "skipstone/inertia.hpp"

namespace skipstone {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

const ParamRule* find_rule(const std::vector<ParamRule>& rules, const std::string& name) {
  for (const auto& r : rules)
    if (r.name == name) return &r;
  return nullptr;
}

std::string number_text(double v) {
  std::ostringstream os;
  os.precision(17);
  os << v;
  return os.str();
}

void check_rule(const ParamRule& r, double v, const std::string& path) {
  if (!r.ok(v)) throw ConfigError(path, "value " + number_text(v) + " is out of range; allowed: " + r.allowed);
}

// Moment of inertia: exactly one of gamma, eta, beta, given in parameters or as a scan axis.
struct MomentChoice {
  MomentForm form;
  std::string name;
};

bool moment_ok(MomentForm f, double v) {
  switch (f) {
    case MomentForm::gamma: return v >= 0.0;
    case MomentForm::eta: return v >= 0.0 && v < 1.0;
    default: return v >= 0.0 && v < kPi;
  }
}
const char* moment_allowed(MomentForm f) {
  switch (f) {
    case MomentForm::gamma: return ">= 0";
    case MomentForm::eta: return "in [0, 1)";
    default: return "in [0, pi)";
  }
}
MomentForm moment_form(const std::string& n) {
  return n == "eta" ? MomentForm::eta : (n == "beta" ? MomentForm::beta : MomentForm::gamma);
}
bool is_moment(const std::string& n) { return n == "gamma" || n == "eta" || n == "beta"; }

double gamma_of(MomentForm f, double v) {
  switch (f) {
    case MomentForm::eta: return gamma_from_eta(v);
    case MomentForm::beta: return gamma_from_beta(v);
    default: return v;
  }
}

}  // namespace

RunConfig parse_config(const json& j) {
  RunConfig rc;
  JsonReader top(j, "");
  top.only({"system", "description", "parameters", "initial", "scan", "stop", "observables", "histograms", "options"});
  const std::string system = top.string("system");
  rc.system = system_schema(system);
  const SystemSchema& sys = rc.system;
  ScanSpec& spec = rc.spec;
  spec = ScanSpec{};
  spec.model = sys.model;
  spec.table = sys.table;
  for (double& v : spec.params) v = 0.0;
  json resolved = {{"system", system}};
  // a note for the reader of the config and of meta.json; no effect on the run
  if (top.has("description")) resolved["description"] = top.string("description");

  // --- initial conditions (read first: their keys are scannable too)
  JsonReader init = top.optional_object("initial").value_or(JsonReader::empty("initial"));
  rc.start = init.string_or("start", sys.default_start);
  const auto start_it = sys.starts.find(rc.start);
  if (start_it == sys.starts.end()) {
    std::string allowed;
    for (const auto& kv : sys.starts) allowed += (allowed.empty() ? "" : ", ") + kv.first;
    throw ConfigError("initial.start", "value " + show(rc.start) + " is not a start kind of system " + system +
                                           "; allowed: " + allowed);
  }
  const StartSchema& start = start_it->second;
  spec.start = start.kind;
  std::vector<std::string> init_keys = {"start"};
  for (const auto& r : start.keys) init_keys.push_back(r.name);
  init.only(init_keys);

  // --- scan axes (names checked against the rules below)
  std::vector<std::pair<std::string, std::string>> axis_paths;  // (name, path)
  JsonReader scan = top.optional_object("scan").value_or(JsonReader::empty("scan"));
  const std::string scan_type = scan.string_or("type", "grid");
  if (scan_type != "grid" && scan_type != "random")
    throw ConfigError("scan.type", "value " + show(scan_type) + " is not allowed; allowed: \"grid\", \"random\"");
  spec.random = scan_type == "random";
  if (spec.random) {
    spec.count = scan.integer("count", 1);
    spec.seed = scan.integer_or("seed", 0);
  }
  const json axes_json = scan.has("axes") ? scan.array("axes") : json::array();
  scan.finish();
  if (scan.has("axes") && axes_json.empty())
    throw ConfigError("scan.axes", "the list is empty; allowed: 1 to " + std::to_string(kMaxAxes) +
                                       " axes, or no \"axes\" key (nor \"scan\") for a single trajectory");
  if (axes_json.size() > static_cast<std::size_t>(kMaxAxes))
    throw ConfigError("scan.axes", "at most " + std::to_string(kMaxAxes) + " axes are allowed, got " +
                                       std::to_string(axes_json.size()));
  if (spec.random && axes_json.empty())
    throw ConfigError("scan.axes", "a random scan needs at least one axis to sample");
  for (std::size_t i = 0; i < axes_json.size(); ++i) {
    const std::string path = "scan.axes[" + std::to_string(i) + "]";
    JsonReader ax(axes_json[i], path);
    ScanAxis a;
    a.name = ax.string("param");
    a.min = ax.number("min");
    a.max = ax.number("max");
    if (a.max < a.min)
      throw ConfigError(path + ".max", "value " + number_text(a.max) + " is below min " + number_text(a.min));
    if (spec.random) {
      a.n = 0;
    } else {
      a.n = ax.integer("n", 1);
    }
    ax.finish();
    for (const auto& prev : rc.axes)
      if (prev.name == a.name) throw ConfigError(path + ".param", "parameter " + show(a.name) + " is scanned twice");
    rc.axes.push_back(a);
    axis_paths.push_back({a.name, path});
  }

  // --- moment of inertia
  JsonReader params = top.optional_object("parameters").value_or(JsonReader::empty("parameters"));
  std::vector<std::string> param_keys = {"gamma", "eta", "beta"};
  for (const auto& r : sys.parameters) param_keys.push_back(r.name);
  if (sys.table == TableKind::polygon) param_keys.push_back("vertices");
  params.only(param_keys);
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
  spec.moment = moment_form(rc.moment_name);
  if (params.has(rc.moment_name)) {
    const double v = params.number(rc.moment_name);
    if (!moment_ok(spec.moment, v))
      throw ConfigError("parameters." + rc.moment_name,
                        "value " + number_text(v) + " is out of range; allowed: " + moment_allowed(spec.moment));
    spec.params[P_MOMENT] = v;
    resolved["parameters"][rc.moment_name] = v;
  }

  // --- model parameters
  auto read_rules = [&](JsonReader& rd, const std::vector<ParamRule>& rules, const char* section) {
    for (const auto& r : rules) {
      const bool scanned = [&] {
        for (const auto& a : rc.axes)
          if (a.name == r.name) return true;
        return false;
      }();
      if (rd.has(r.name) && scanned)
        throw ConfigError(rd.key_path(r.name), "is also a scan axis; give it in one place only");
      double v;
      if (rd.has(r.name)) {
        v = rd.number(r.name);
        check_rule(r, v, rd.key_path(r.name));
      } else {
        rd.allow(r.name);
        if (!r.fallback && !scanned) throw ConfigError(rd.key_path(r.name), "required key is missing; allowed: " + r.allowed);
        v = r.fallback.value_or(0.0);
      }
      spec.params[r.param] = v;
      if (!scanned) resolved[section][r.name] = v;
    }
  };
  read_rules(params, sys.parameters, "parameters");
  // Rolling models: gravity as the physical g or as the paper's effective g/(1+gamma^2), not
  // both. resolved.parameters keeps only the key that was given; RunConfig::gravity (meta.json "gravity") records both
  // values (MODELS.md, "Gravity in the rolling models"). Where the given key or the moment of inertia is a scan axis,
  // it names that axis as "scanned" and gives both values at the axis ends, "at_min" and "at_max", like meta.json's
  // "moment_of_inertia"; with both scanned it names the gravity axis and the derived value is null.
  if (find_rule(sys.parameters, "g_effective")) {
    const auto axis_path = [&](const std::string& k) -> std::string {
      for (const auto& ap : axis_paths)
        if (ap.first == k) return ap.second + ".param";
      return "";
    };
    const bool has_g = params.has("g") || !axis_path("g").empty();
    const bool has_eff = params.has("g_effective") || !axis_path("g_effective").empty();
    if (has_g && has_eff)
      throw ConfigError(params.has("g_effective") ? "parameters.g_effective" : axis_path("g_effective"),
                        "gravity is given twice; give exactly one of g (physical gravity) and g_effective (the "
                        "paper's effective value g/(1+gamma^2))");
    const std::string given = has_eff ? "g_effective" : "g";
    resolved["parameters"].erase(has_eff ? "g" : "g_effective");
    const std::string derived = has_eff ? "g" : "g_effective";
    const ScanAxis* gravity_axis = nullptr;
    const ScanAxis* moment_axis = nullptr;
    for (const auto& a : rc.axes) {
      if (a.name == given) gravity_axis = &a;
      if (is_moment(a.name)) moment_axis = &a;
    }
    // g and g_effective for the given key's value and the moment of inertia's value
    const auto both = [&](double given_value, double moment_value) {
      const double gamma = gamma_of(spec.moment, moment_value);
      const double f = 1.0 + gamma * gamma;
      return json{{"g", has_eff ? given_value * f : given_value}, {"g_effective", has_eff ? given_value : given_value / f}};
    };
    const double fixed_given = spec.params[has_eff ? P_G_EFF : P_G], fixed_moment = spec.params[P_MOMENT];
    json grav = {{"given", given}, {"relation", "g_effective = g / (1 + gamma^2), gamma of the rolling ball"}};
    if (gravity_axis && moment_axis) {
      grav["scanned"] = gravity_axis->name;
      grav["at_min"] = {{given, gravity_axis->min}, {derived, nullptr}};
      grav["at_max"] = {{given, gravity_axis->max}, {derived, nullptr}};
      grav["note"] = "the moment of inertia is scanned too (axis " + moment_axis->name + "): " + derived +
                     " differs per trajectory";
    } else if (gravity_axis) {
      grav["scanned"] = gravity_axis->name;
      grav["at_min"] = both(gravity_axis->min, fixed_moment);
      grav["at_max"] = both(gravity_axis->max, fixed_moment);
    } else if (moment_axis) {
      grav["scanned"] = moment_axis->name;
      grav["at_min"] = both(fixed_given, moment_axis->min);
      grav["at_max"] = both(fixed_given, moment_axis->max);
    } else {
      grav.update(both(fixed_given, fixed_moment));
    }
    rc.gravity = grav;
  }
  if (sys.table == TableKind::polygon) {
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
    resolved["parameters"]["vertices"] = verts;
  }
  if (!sys.allows_gravity && spec.params[P_G] != 0.0)
    throw ConfigError("parameters.g", "value " + number_text(spec.params[P_G]) + " is not allowed for system " + system +
                                          ": a torus has no floor; allowed: 0 (use cylinder:sinai for gravity along the axis)");

  read_rules(init, start.keys, "initial");
  resolved["initial"]["start"] = rc.start;

  // --- scan axes against the rules
  for (std::size_t i = 0; i < rc.axes.size(); ++i) {
    ScanAxis& a = rc.axes[i];
    const std::string& path = axis_paths[i].second;
    AxisSpec& as = spec.axes[i];
    as.min = a.min;
    as.max = a.max;
    as.n = a.n;
    if (is_moment(a.name)) {
      as.param = P_MOMENT;
      if (!moment_ok(spec.moment, a.min))
        throw ConfigError(path + ".min", "value " + number_text(a.min) + " is out of range for " + a.name + "; allowed: " + moment_allowed(spec.moment));
      if (!moment_ok(spec.moment, a.max))
        throw ConfigError(path + ".max", "value " + number_text(a.max) + " is out of range for " + a.name + "; allowed: " + moment_allowed(spec.moment));
      continue;
    }
    const ParamRule* r = find_rule(sys.parameters, a.name);
    if (!r) r = find_rule(start.keys, a.name);
    if (!r) {
      std::string allowed = "gamma|eta|beta";
      for (const auto& x : sys.parameters) allowed += ", " + x.name;
      for (const auto& x : start.keys) allowed += ", " + x.name;
      throw ConfigError(path + ".param", "value " + show(a.name) + " is not a scannable parameter of system " + system +
                                             " with start " + show(rc.start) + "; allowed: " + allowed);
    }
    as.param = r->param;
    check_rule(*r, a.min, path + ".min");
    check_rule(*r, a.max, path + ".max");
  }
  spec.n_axes = static_cast<std::int32_t>(rc.axes.size());
  if (!spec.random) {
    long double total = 1.0L;
    for (const auto& a : rc.axes) total *= static_cast<long double>(a.n);
    if (total > 1.1e12L) throw ConfigError("scan.axes", "the grid has more than 1.1e12 points");
    spec.count = 1;
    for (const auto& a : rc.axes) spec.count *= a.n;
    for (auto it = rc.axes.rbegin(); it != rc.axes.rend(); ++it) rc.shape.push_back(it->n);
    if (rc.shape.empty()) rc.shape.push_back(1);
  } else {
    rc.shape = {static_cast<std::size_t>(spec.count)};
  }

  // cross constraints at every corner of the scanned box
  const std::size_t corners = std::size_t{1} << rc.axes.size();
  for (std::size_t c = 0; c < corners; ++c) {
    double p[kParamCount];
    for (int k = 0; k < kParamCount; ++k) p[k] = spec.params[k];
    for (std::size_t i = 0; i < rc.axes.size(); ++i) p[spec.axes[i].param] = (c >> i) & 1 ? rc.axes[i].max : rc.axes[i].min;
    const auto err = check_cross_constraints(sys, spec.start, p, gamma_of(spec.moment, p[P_MOMENT]));
    if (err) {
      std::string where = "parameters." + err->param;
      for (std::size_t i = 0; i < rc.axes.size(); ++i)
        if (rc.axes[i].name == err->param) where = axis_paths[i].second + ((c >> i) & 1 ? ".max" : ".min");
      if (err->param == "gamma") where = rc.moment_name == "gamma" ? where : "parameters." + rc.moment_name;
      throw ConfigError(where, err->message);
    }
  }

  // --- stop rules
  JsonReader stop = top.optional_object("stop").value_or(JsonReader::empty("stop"));
  const auto t_max = stop.optional_number("t_max");
  const bool has_events = stop.has("max_events");
  spec.max_events = stop.integer_or("max_events", std::numeric_limits<std::uint64_t>::max(), 1);
  stop.finish();
  if (t_max && !(*t_max > 0.0)) throw ConfigError("stop.t_max", "value " + number_text(*t_max) + " is out of range; allowed: > 0");
  if (!t_max && !has_events) throw ConfigError("stop", "give t_max, max_events or both");
  if (sys.needs_t_max && !t_max) throw ConfigError("stop.t_max", "required for system " + system);
  spec.t_max = t_max.value_or(INFINITY);
  if (t_max) resolved["stop"]["t_max"] = *t_max;
  if (has_events) resolved["stop"]["max_events"] = spec.max_events;

  // --- options
  JsonReader opt = top.optional_object("options").value_or(JsonReader::empty("options"));
  const std::string precision = opt.string_or("precision", "double");
  if (precision != "double" && precision != "float")
    throw ConfigError("options.precision", "value \"" + precision + "\" is not allowed; allowed: double, float");
  const bool in_float = precision == "float";
  const bool has_float_kernel = spec.model == ModelKind::roll_disc_transversal || spec.model == ModelKind::roll_disc ||
                                (spec.table == TableKind::disc && (spec.model == ModelKind::noslip_plane ||
                                                                   spec.model == ModelKind::noslip_cylinder));
  if (in_float && !has_float_kernel)
    throw ConfigError("options.precision", "float has a kernel only for systems roll4:disc, roll4:disc-transversal (the Figure-18 map), disc and cylinder:disc; allowed for system " + system + ": double");
  spec.precision = in_float ? Precision::float32 : Precision::float64;
  // a float run's energy defect is some tens of float roundings: its own default
  spec.energy_tolerance = opt.number_or("energy_tolerance", in_float ? kFloatEnergyTolerance : 1e-9);
  spec.bounded_depth = opt.number_or("bounded_depth", 1.0);
  spec.corner_tolerance = opt.number_or("corner_tolerance", 1e-9);
  // float resolves relative errors of ~1e-7: its defaults are the measured bench setting
  const double default_tol = in_float ? kFloatDefaultTolerance : 1e-12;
  spec.rtol = opt.number_or("rtol", default_tol);
  spec.atol = opt.number_or("atol", default_tol);
  spec.max_steps = opt.integer_or("max_steps", 1000000, 1);
  rc.chunk_size = opt.integer_or("chunk_size", 0);
  opt.finish();
  if (!(spec.energy_tolerance > 0.0)) throw ConfigError("options.energy_tolerance", "value " + number_text(spec.energy_tolerance) + " is out of range; allowed: > 0");
  if (!(spec.bounded_depth >= 0.0)) throw ConfigError("options.bounded_depth", "value " + number_text(spec.bounded_depth) + " is out of range; allowed: >= 0");
  if (!(spec.corner_tolerance >= 0.0 && spec.corner_tolerance < 0.1)) throw ConfigError("options.corner_tolerance", "value " + number_text(spec.corner_tolerance) + " is out of range; allowed: in [0, 0.1)");
  if (!(spec.rtol > 0.0 && spec.rtol < 1.0)) throw ConfigError("options.rtol", "value " + number_text(spec.rtol) + " is out of range; allowed: in (0, 1)");
  if (!(spec.atol > 0.0)) throw ConfigError("options.atol", "value " + number_text(spec.atol) + " is out of range; allowed: > 0");
  if (in_float && spec.rtol < kFloatMinTolerance)
    throw ConfigError("options.rtol", "value " + number_text(spec.rtol) + " is below what float resolves; allowed with precision float: in [1e-5, 1)");
  if (in_float && spec.atol < kFloatMinTolerance)
    throw ConfigError("options.atol", "value " + number_text(spec.atol) + " is below what float resolves; allowed with precision float: >= 1e-5");
  resolved["options"] = {{"energy_tolerance", spec.energy_tolerance}, {"bounded_depth", spec.bounded_depth},
                         {"corner_tolerance", spec.corner_tolerance}, {"precision", precision}, {"rtol", spec.rtol}, {"atol", spec.atol},
                         {"max_steps", spec.max_steps}, {"chunk_size", rc.chunk_size}};

  // --- observables
  if (top.has("observables")) {
    const json& obs = top.array("observables");
    if (obs.empty()) throw ConfigError("observables", "the list is empty; leave the key out to get every observable");
    for (std::size_t i = 0; i < obs.size(); ++i) {
      const std::string path = "observables[" + std::to_string(i) + "]";
      if (!obs[i].is_string()) throw ConfigError(path, "expected a string, got " + show(obs[i]));
      const std::string name = obs[i].get<std::string>();
      bool known = false;
      for (const auto& o : sys.observables) known = known || o == name;
      if (!known) {
        std::string allowed;
        for (const auto& o : sys.observables) allowed += (allowed.empty() ? "" : ", ") + o;
        throw ConfigError(path, "value " + show(name) + " is not an observable of system " + system + "; allowed: " + allowed);
      }
      rc.observables.push_back(name);
    }
  } else {
    rc.observables = sys.observables;
  }
  resolved["observables"] = rc.observables;

  // --- histograms with declared bins, by observable
  if (top.has("histograms")) {
    const json& hj = j.at("histograms");
    if (!hj.is_object()) throw ConfigError("histograms", "expected an object {observable: {min, max, bins}}, got " + show(hj));
    for (const auto& [name, value] : hj.items()) {
      const std::string path = "histograms." + name;
      if (std::find(rc.observables.begin(), rc.observables.end(), name) == rc.observables.end()) {
        std::string allowed;
        for (const auto& o : rc.observables)
          if (observable_info(o).type != ObservableType::vector3) allowed += (allowed.empty() ? "" : ", ") + o;
        throw ConfigError(path, "not a requested observable; allowed: " + allowed);
      }
      if (observable_info(name).type == ObservableType::vector3)
        throw ConfigError(path, "a vector observable has no histogram; allowed: the scalar observables");
      if (!value.is_object()) throw ConfigError(path, "expected an object {min, max, bins}, got " + show(value));
      JsonReader h(value, path);
      const HistogramSpec hs{h.number("min"), h.number("max"), h.integer("bins", 1, kMaxHistogramBins)};
      h.finish();
      if (!(hs.max > hs.min)) throw ConfigError(path + ".max", "value " + number_text(hs.max) + " is out of range; allowed: > min (" + number_text(hs.min) + ")");
      rc.histograms[name] = hs;
      resolved["histograms"][name] = {{"min", hs.min}, {"max", hs.max}, {"bins", hs.bins}};
    }
  }

  resolved["scan"]["type"] = scan_type;
  if (spec.random) {
    resolved["scan"]["count"] = spec.count;
    resolved["scan"]["seed"] = spec.seed;
  }
  for (const auto& a : rc.axes) {
    json ja = {{"param", a.name}, {"min", a.min}, {"max", a.max}};
    if (!spec.random) ja["n"] = a.n;
    resolved["scan"]["axes"].push_back(ja);
  }
  rc.resolved = resolved;
  return rc;
}

RunConfig parse_config_text(const std::string& text) {
  return parse_config(parse_json_text(text));
}

RunConfig load_config_file(const std::filesystem::path& path) {
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (st.type() == fs::file_type::not_found) throw ConfigError(path.string(), "no such file; allowed: a config file (JSON)");
  if (st.type() == fs::file_type::directory) throw ConfigError(path.string(), "not a file (a directory); allowed: a config file (JSON)");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ConfigError(path.string(), std::string("cannot open: ") + std::strerror(errno));
  std::string text;
  try {
    text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  } catch (const std::exception&) {  // a read error after a successful open
    throw ConfigError(path.string(), std::string("cannot read: ") + std::strerror(errno));
  }
  return parse_config_text(text);
}

}  // namespace skipstone
