// ConfigError: a rejected config, naming the key path (e.g. scan.axes[1].max), the offending
// value and what is allowed. The CLI prints it and exits with status 2 before writing anything.
#pragma once
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

namespace skipstone {

class ConfigError : public std::runtime_error {
 public:
  ConfigError(const std::string& key, const std::string& what)
      : std::runtime_error("config error: " + key + ": " + what), key_(key) {}
  const std::string& key() const { return key_; }

 private:
  std::string key_;
};

// "value 3.5" style rendering of a JSON value for messages.
inline std::string show(const nlohmann::json& v) { return v.dump(); }

}  // namespace skipstone
