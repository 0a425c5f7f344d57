// Overrides of single config values by key path, applied to a config's JSON before it is
// parsed: `skipstone run CONFIG --set scan.axes[0].n=256` and the Python module's
// run(..., overrides={"scan.axes[0].n": 256}) both go through parse_config_with_overrides.
// A key path is written as the ConfigError messages write them: object keys joined by '.',
// array elements as [i]; so the path of an error message can be overridden as it stands.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "config.hpp"

namespace skipstone {

struct ConfigOverride {
  std::string path;
  nlohmann::json value;
};

// Sets the value at `path` in `config`. Missing object keys along the path are created as
// objects and a missing last key is added (the parser then judges it like any key of the
// file). A ConfigError at `path` when the path is malformed, an index is outside its array,
// or a step leads into a value that is not an object or an array.
void apply_override(nlohmann::json& config, const std::string& path, const nlohmann::json& value);

// A --set argument "PATH=VALUE" (split at the first '='): VALUE read as JSON, or taken as a
// plain string when it is not JSON (--set options.precision=float). A UsageError without '='.
ConfigOverride parse_set_argument(const std::string& text);

// The overrides applied in order to `config`, then parse_config; the result's `overrides`
// records them (meta.json, the checkpoint's manifest).
RunConfig parse_config_with_overrides(nlohmann::json config, const std::vector<ConfigOverride>& overrides);

// The recorded overrides as --set arguments ("--set a=1 --set b=\"x\""), "no --set" when none.
std::string set_arguments_text(const nlohmann::json& recorded);

}  // namespace skipstone
