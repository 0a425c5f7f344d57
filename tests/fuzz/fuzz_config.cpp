// libFuzzer target for config parsing and validation (parse_config_text, the path of
// `skipstone run CONFIG.json`): every input must satisfy config_property_violation() — accepted
// with a resolved config that is a fixed point, or rejected with a ConfigError naming its key.
// A violation aborts (a finding), as do crashes, sanitizer reports and hangs.
// Build and run: scripts/fuzz.sh SECONDS.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "config_property.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string violation =
      skipstone::fuzz::config_property_violation(std::string(reinterpret_cast<const char*>(data), size));
  if (!violation.empty()) {
    std::fprintf(stderr, "%s\n", violation.c_str());
    std::abort();
  }
  return 0;
}
