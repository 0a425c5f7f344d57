// Overrides of single config values by key path, applied to a config's JSON before it is
// parsed (the Python module's run(..., overrides={"scan.axes[0].n": 64})). A key path is
// written as the ConfigError messages write them: object keys joined by '.', array elements
// as [i]; so the path of an error message can be overridden as it stands.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

namespace skipstone {

// Sets the value at `path` in `config`. Missing object keys along the path are created as
// objects and a missing last key is added (the parser then judges it like any key of the
// file). A ConfigError at `path` when the path is malformed, an index is outside its array,
// or a step leads into a value that is not an object or an array.
void apply_override(nlohmann::json& config, const std::string& path, const nlohmann::json& value);

}  // namespace skipstone
