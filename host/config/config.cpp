// parse_config: a run config's sections read in order by their readers (config_sections.hpp),
// the helpers they share, and reading a config from JSON text or a file (docs/config.md).
#include "config.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>

#include "config_sections.hpp"
#include "json_text.hpp"

namespace skipstone {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

// A section of the top-level object; an absent one reads as empty.
JsonReader section(JsonReader& top, const char* name) {
  return top.optional_object(name).value_or(JsonReader::empty(name));
}

}  // namespace

std::string number_text(double v) {
  std::ostringstream os;
  os.precision(17);
  os << v;
  return os.str();
}

const ParamRule* find_rule(const std::vector<ParamRule>& rules, const std::string& name) {
  for (const auto& r : rules)
    if (r.name == name) return &r;
  return nullptr;
}

void check_rule(const ParamRule& r, double v, const std::string& path) {
  if (!r.ok(v)) throw ConfigError(path, "value " + number_text(v) + " is out of range; allowed: " + r.allowed);
}

std::string axis_path(std::size_t i) { return "scan.axes[" + std::to_string(i) + "]"; }

const ScanAxis* find_axis(const RunConfig& rc, const std::string& name) {
  for (const auto& a : rc.axes)
    if (a.name == name) return &a;
  return nullptr;
}

bool asks(const RunConfig& rc, const std::string& name) {
  return std::find(rc.observables.begin(), rc.observables.end(), name) != rc.observables.end();
}

std::string observable_path(const RunConfig& rc, const std::string& name) {
  return "observables[" +
         std::to_string(std::find(rc.observables.begin(), rc.observables.end(), name) - rc.observables.begin()) + "]";
}

std::vector<std::string> final_state_columns(const RunConfig& rc) {
  std::vector<std::string> columns = rc.state.columns;
  if (scan_has_noise(rc.spec)) columns.insert(columns.end(), kNoiseLayout.columns.begin(), kNoiseLayout.columns.end());
  return columns;
}

bool collects(const RunConfig& rc) {
  return rc.boundary.any() || rc.section.any() || !rc.height_times.empty() || asks(rc, "final_state");
}

RunConfig parse_config(const json& j) {
  RunConfig rc;
  JsonReader top(j, "");
  top.only({"system", "description", "parameters", "initial", "scan", "stop", "observables", "histograms", "outputs", "options"});
  const std::string system = top.string("system");
  rc.system = system_schema(system);
  rc.spec = ScanSpec{};
  rc.spec.model = rc.system.traits.model;
  rc.spec.table = rc.system.traits.table;
  rc.state = state_layout(rc.system.traits);
  for (double& v : rc.spec.params) v = 0.0;
  rc.spec.params[P_NOISE_N1] = rc.spec.params[P_NOISE_N2] = NAN;  // set by a state file's noise columns only
  rc.resolved = {{"system", system}};
  // a note for the reader of the config and of meta.json; no effect on the run
  if (top.has("description")) rc.resolved["description"] = top.string("description");

  JsonReader init = section(top, "initial");
  const StartSchema& start = read_start(init, rc);  // first: start keys may be scan axes
  read_scan(section(top, "scan"), rc);              // the axes' names, before the values they replace
  JsonReader params = section(top, "parameters");
  read_parameters(params, rc);
  read_rules(init, start.keys, "initial", rc);
  rc.resolved["initial"]["start"] = rc.start;
  resolve_axes(rc, start);
  resolve_state_scan(rc);
  check_scanned_box(rc);
  read_stop(section(top, "stop"), rc);
  read_options(section(top, "options"), rc);
  read_observables(top, rc);
  check_no_twist(rc);
  read_histograms(top, rc);
  resolve_scan(rc);
  read_outputs(section(top, "outputs"), rc);  // after the scan: indices are checked against its size
  return rc;
}

RunConfig parse_config_text(const std::string& text) { return parse_config(parse_json_text(text)); }

nlohmann::json read_config_json(const fs::path& path) {
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
  return parse_json_text(text, path.string());
}

RunConfig load_config_file(const fs::path& path) { return parse_config(read_config_json(path)); }

}  // namespace skipstone
