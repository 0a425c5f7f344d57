// The property the config fuzzer (fuzz_config.cpp) and its replay test (test_config_fuzz.cpp)
// check on one input text: parse_config_text either accepts it, and then the resolved config
// is a fixed point of resolution (`skipstone merge` rebuilds a run from it), or rejects it with
// a ConfigError whose message names its key ("config error: KEY: ...", exit 2 in the CLI).
// Anything else — another exception type, a message without the key — is a violation.
#pragma once
#include <exception>
#include <string>

#include "config.hpp"
#include "config_error.hpp"

namespace skipstone::fuzz {

// Empty when the property holds, else what went wrong.
inline std::string config_property_violation(const std::string& text) {
  try {
    const RunConfig rc = parse_config_text(text);
    const RunConfig again = parse_config(rc.resolved);
    if (again.resolved != rc.resolved)
      return "resolved config is not a fixed point:\n" + rc.resolved.dump() + "\n" + again.resolved.dump();
  } catch (const ConfigError& e) {
    const std::string expected = "config error: " + e.key() + ": ";
    if (e.key().empty() || std::string(e.what()).rfind(expected, 0) != 0)
      return std::string("rejection does not name its key: ") + e.what();
  } catch (const std::exception& e) {
    return std::string("not a ConfigError (the CLI would exit 1, not 2): ") + e.what();
  }
  return "";
}

}  // namespace skipstone::fuzz
