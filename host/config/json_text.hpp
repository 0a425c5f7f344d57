// A config's JSON text parsed with the key path in view: a key that appears twice in one
// object, a syntax error and a number beyond a double's range (NaN, Infinity, 1e999) are
// ConfigErrors at the key path being read ("(file)" outside any key), with the parser's line
// and column.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

namespace skipstone {

nlohmann::json parse_json_text(const std::string& text);

}  // namespace skipstone
