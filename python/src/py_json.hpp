// Python values as JSON, for configs given as dicts and for override values: None, bool, int,
// float, str, lists and tuples, dicts with str keys, and NumPy scalars and arrays (as the
// Python values their tolist() gives). Anything else is a ConfigError at its key path.
#pragma once
#include <string>

#include <nlohmann/json.hpp>
#include <pybind11/pybind11.h>

namespace skipstone {

// `path` is the key path of `value` in the config ("" for the config itself), in the form
// of the ConfigError messages: keys joined by '.', array elements as [i].
nlohmann::json json_from_python(pybind11::handle value, const std::string& path);

}  // namespace skipstone
