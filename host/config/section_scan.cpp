// Config section "scan" (docs/config.md "Scans"): a grid or a random sample over parameters
// and start keys. The axes are read first, for their names; their ends are checked against
// the parameters' rules once the start kind and the moment of inertia are known, and the
// constraints between parameters at every corner of the scanned box.
#include <cmath>
#include <string>

#include "config_sections.hpp"
#include "moment_of_inertia.hpp"

namespace skipstone {

using nlohmann::json;

namespace {

// An axis of an integer parameter (noise, realisation): a grid whose points are all integers.
void check_integer_axis(const ScanAxis& a, bool random, const std::string& path) {
  if (random)
    throw ConfigError(path + ".param", "value " + show(a.name) + " takes integer values only; allowed: a grid axis");
  const double step = a.n > 1 ? (a.max - a.min) / static_cast<double>(a.n - 1) : 0.0;
  if (a.n > 1 && step != std::floor(step))
    throw ConfigError(path + ".n", "value " + std::to_string(a.n) + " puts points of the integer parameter " + a.name +
                                       " between integers; allowed: n - 1 dividing max - min (e.g. n = max - min + 1)");
}

}  // namespace

void read_scan(JsonReader scan, RunConfig& rc) {
  ScanSpec& spec = rc.spec;
  const std::string type = scan.string_or("type", "grid");
  if (type != "grid" && type != "random")
    throw ConfigError("scan.type", "value " + show(type) + " is not allowed; allowed: \"grid\", \"random\"");
  spec.random = type == "random";
  if (spec.random) {
    spec.count = scan.integer("count", 1);
    spec.seed = scan.integer_or("seed", 0);
  }
  const json axes = scan.has("axes") ? scan.array("axes") : json::array();
  scan.finish();
  if (scan.has("axes") && axes.empty())
    throw ConfigError("scan.axes", "the list is empty; allowed: 1 to " + std::to_string(kMaxAxes) +
                                       " axes, or no \"axes\" key (nor \"scan\") for a single trajectory");
  if (axes.size() > static_cast<std::size_t>(kMaxAxes))
    throw ConfigError("scan.axes", "at most " + std::to_string(kMaxAxes) + " axes are allowed, got " +
                                       std::to_string(axes.size()));
  if (spec.random && axes.empty()) throw ConfigError("scan.axes", "a random scan needs at least one axis to sample");
  for (std::size_t i = 0; i < axes.size(); ++i) {
    const std::string path = axis_path(i);
    JsonReader ax(axes[i], path);
    ScanAxis a;
    a.name = ax.string("param");
    a.min = ax.number("min");
    a.max = ax.number("max");
    if (a.max < a.min) throw ConfigError(path + ".max", "value " + number_text(a.max) + " is below min " + number_text(a.min));
    a.n = spec.random ? 0 : ax.integer("n", 1);
    ax.finish();
    if (find_axis(rc, a.name)) throw ConfigError(path + ".param", "parameter " + show(a.name) + " is scanned twice");
    rc.axes.push_back(a);
  }
}

void resolve_axes(RunConfig& rc, const StartSchema& start) {
  ScanSpec& spec = rc.spec;
  const SystemSchema& sys = rc.system;
  for (std::size_t i = 0; i < rc.axes.size(); ++i) {
    const ScanAxis& a = rc.axes[i];
    const std::string path = axis_path(i);
    AxisSpec& as = spec.axes[i];
    as.min = a.min;
    as.max = a.max;
    as.n = a.n;
    if (sys.moment && is_moment(a.name)) {
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
      std::string allowed = sys.moment ? "gamma|eta|beta" : "";
      for (const auto& x : sys.parameters) allowed += (allowed.empty() ? "" : ", ") + x.name;
      for (const auto& x : start.keys) allowed += ", " + x.name;
      throw ConfigError(path + ".param", "value " + show(a.name) + " is not a scannable parameter of system " + sys.name +
                                             " with start " + show(rc.start) + "; allowed: " + allowed);
    }
    as.param = r->param;
    check_rule(*r, a.min, path + ".min");
    check_rule(*r, a.max, path + ".max");
    if (r->param == P_NOISE || r->param == P_REALISATION) check_integer_axis(a, spec.random, path);
  }
  spec.n_axes = static_cast<std::int32_t>(rc.axes.size());
  if (spec.random) {
    rc.shape = {static_cast<std::size_t>(spec.count)};
    return;
  }
  long double total = 1.0L;
  for (const auto& a : rc.axes) total *= static_cast<long double>(a.n);
  if (total > 1.1e12L) throw ConfigError("scan.axes", "the grid has more than 1.1e12 points");
  spec.count = 1;
  for (const auto& a : rc.axes) spec.count *= a.n;
  for (auto it = rc.axes.rbegin(); it != rc.axes.rend(); ++it) rc.shape.push_back(it->n);
  if (rc.shape.empty()) rc.shape.push_back(1);
}

void check_scanned_box(const RunConfig& rc) {
  const ScanSpec& spec = rc.spec;
  const std::size_t corners = std::size_t{1} << rc.axes.size();
  for (std::size_t c = 0; c < corners; ++c) {
    double p[kParamCount];
    for (int k = 0; k < kParamCount; ++k) p[k] = spec.params[k];
    for (std::size_t i = 0; i < rc.axes.size(); ++i) p[spec.axes[i].param] = (c >> i) & 1 ? rc.axes[i].max : rc.axes[i].min;
    const auto err = check_cross_constraints(rc.system, spec.start, p, gamma_of(spec.moment, p[P_MOMENT]));
    if (!err) continue;
    std::string where = "parameters." + err->param;
    for (std::size_t i = 0; i < rc.axes.size(); ++i)
      if (rc.axes[i].name == err->param) where = axis_path(i) + ((c >> i) & 1 ? ".max" : ".min");
    if (err->param == "gamma") where = rc.moment_name == "gamma" ? where : "parameters." + rc.moment_name;
    throw ConfigError(where, err->message);
  }
}

void resolve_scan(RunConfig& rc) {
  json& scan = rc.resolved["scan"];
  scan["type"] = rc.spec.random ? "random" : "grid";
  if (rc.spec.random) {
    scan["count"] = rc.spec.count;
    scan["seed"] = rc.spec.seed;
  }
  for (const auto& a : rc.axes) {
    json ja = {{"param", a.name}, {"min", a.min}, {"max", a.max}};
    if (!rc.spec.random) ja["n"] = a.n;
    scan["axes"].push_back(ja);
  }
}

}  // namespace skipstone
