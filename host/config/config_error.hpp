// The two kinds of bad input, both exit status 2 before anything is written. UsageError: a
// rejected command line (an unknown or malformed option). ConfigError: a rejected config, naming the key path (e.g. scan.axes[1].max), the offending
// value and what is allowed. The CLI prints it and exits with status 2 before writing anything.
#pragma once
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

namespace skipstone {

// A key path as printed: control characters (a key may hold any JSON string, NUL included,
// which would cut the message short) written as JSON escapes \uXXXX.
inline std::string printable_key(const std::string& key) {
  std::string out;
  for (unsigned char c : key) {
    if (c >= 0x20 && c != 0x7f) {
      out += static_cast<char>(c);
      continue;
    }
    static const char* const kHex = "0123456789abcdef";
    out += "\\u00";
    out += kHex[c >> 4];
    out += kHex[c & 15];
  }
  return out;
}

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class ConfigError : public std::runtime_error {
 public:
  ConfigError(const std::string& key, const std::string& what)
      : std::runtime_error("config error: " + printable_key(key) + ": " + what), key_(printable_key(key)) {}
  const std::string& key() const { return key_; }

 private:
  std::string key_;
};

// "value 3.5" style rendering of a JSON value for messages.
inline std::string show(const nlohmann::json& v) { return v.dump(); }

}  // namespace skipstone
