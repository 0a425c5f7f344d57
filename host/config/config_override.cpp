// Setting config values by key path ("scan.axes[0].n"), from --set arguments or Python.
#include "config_override.hpp"

#include <cstdint>
#include <utility>
#include <variant>
#include <vector>

#include "config_error.hpp"

namespace skipstone {

namespace {

using Step = std::variant<std::string, std::uint64_t>;  // an object key or an array index

[[noreturn]] void bad_path(const std::string& path, const std::string& why) {
  throw ConfigError(path, "override: " + why);
}

std::vector<Step> steps_of(const std::string& path) {
  const std::string allowed = "; allowed: keys joined by '.', array elements as [i], e.g. scan.axes[0].n";
  std::vector<Step> steps;
  std::size_t i = 0;
  while (i < path.size()) {
    if (path[i] == '[') {
      const std::size_t close = path.find(']', i);
      const std::string digits = close == std::string::npos ? "" : path.substr(i + 1, close - i - 1);
      if (steps.empty() || digits.empty() || digits.size() > 18 || digits.find_first_not_of("0123456789") != std::string::npos)
        bad_path(path, "malformed key path" + allowed);
      steps.emplace_back(static_cast<std::uint64_t>(std::stoull(digits)));
      i = close + 1;
    } else {
      if (!steps.empty()) {
        if (path[i] != '.') bad_path(path, "malformed key path" + allowed);
        ++i;
      }
      const std::size_t end = path.find_first_of(".[", i);
      const std::string key = path.substr(i, end == std::string::npos ? std::string::npos : end - i);
      if (key.empty()) bad_path(path, "malformed key path" + allowed);
      steps.emplace_back(key);
      i = end == std::string::npos ? path.size() : end;
    }
  }
  if (steps.empty()) bad_path(path, "empty key path" + allowed);
  return steps;
}

}  // namespace

void apply_override(nlohmann::json& config, const std::string& path, const nlohmann::json& value) {
  const std::vector<Step> steps = steps_of(path);
  nlohmann::json* at = &config;
  std::string reached;  // the path walked so far, for messages
  for (const Step& step : steps) {
    const std::string where = reached.empty() ? "the config" : reached;
    if (const std::string* key = std::get_if<std::string>(&step)) {
      if (at->is_null() && !reached.empty()) *at = nlohmann::json::object();
      if (!at->is_object()) bad_path(path, where + " is " + std::string(at->type_name()) + ", not an object");
      at = &(*at)[*key];
      reached += (reached.empty() ? "" : ".") + *key;
    } else {
      const std::uint64_t index = std::get<std::uint64_t>(step);
      if (!at->is_array()) bad_path(path, where + " is " + std::string(at->type_name()) + ", not an array");
      if (index >= at->size())
        bad_path(path, "index " + std::to_string(index) + " is outside " + where + ", which has " +
                           std::to_string(at->size()) + " elements");
      at = &(*at)[index];
      reached += "[" + std::to_string(index) + "]";
    }
  }
  *at = value;
}

ConfigOverride parse_set_argument(const std::string& text) {
  const std::size_t eq = text.find('=');
  if (eq == std::string::npos)
    throw UsageError("--set " + text + ": expected KEY=VALUE, e.g. --set scan.axes[0].n=256 or --set options.precision=float");
  const std::string value = text.substr(eq + 1);
  nlohmann::json parsed = nlohmann::json::parse(value, nullptr, false);
  if (parsed.is_discarded()) parsed = value;
  return {text.substr(0, eq), std::move(parsed)};
}

RunConfig parse_config_with_overrides(nlohmann::json config, const std::vector<ConfigOverride>& overrides) {
  nlohmann::json recorded = nlohmann::json::array();
  for (const ConfigOverride& o : overrides) {
    apply_override(config, o.path, o.value);
    recorded.push_back({{"key", o.path}, {"value", o.value}});
  }
  RunConfig rc = parse_config(config);
  rc.overrides = std::move(recorded);
  return rc;
}

std::string set_arguments_text(const nlohmann::json& recorded) {
  std::string text;
  for (const nlohmann::json& o : recorded)
    text += (text.empty() ? "--set " : " --set ") + o.at("key").get<std::string>() + "=" + o.at("value").dump();
  return text.empty() ? "no --set" : text;
}

}  // namespace skipstone
