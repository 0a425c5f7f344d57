// A config's JSON text parsed with the key path in view: a key that appears twice in one
// object, a syntax error and a number beyond a double's range (NaN, Infinity, 1e999) are
// ConfigErrors at the key path being read, with the parser's line and column. A syntax error
// names `source` (the config file's path, when there is one): at the key path, or instead of it
// outside any key ("(file)" when there is no source). Any byte after the document other than
// white space, and a NUL byte anywhere (which the parser would take for the end of the text),
// is a syntax error.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

namespace skipstone {

nlohmann::json parse_json_text(const std::string& text, const std::string& source = "");

}  // namespace skipstone
