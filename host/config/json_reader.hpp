// Typed, path-aware access to a JSON object: every getter knows the key path it reads, every
// failure is a ConfigError naming that path, and `finish()` rejects keys nobody asked about
// (listing the allowed ones and suggesting the nearest), so a typo never passes silently.
#pragma once
#include <cstdint>
#include <limits>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "config_error.hpp"

namespace skipstone {

class JsonReader {
 public:
  static constexpr std::uint64_t kMaxInteger = std::numeric_limits<std::uint64_t>::max();

  JsonReader(const nlohmann::json& obj, std::string path);
  // A reader of an absent section: behaves like an empty object (the reader keeps a reference
  // to its object, so this one refers to a static empty object).
  static JsonReader empty(std::string path);

  const std::string& path() const { return path_; }
  std::string key_path(const std::string& key) const;
  // Whether the key is present; asking makes it a known key of this object.
  bool has(const std::string& key);

  double number(const std::string& key);                       // required finite number
  double number_or(const std::string& key, double fallback);   // optional finite number
  std::optional<double> optional_number(const std::string& key);
  // Required integer in [min, max]; a value outside (1e20, -1, 0.5) names the allowed range.
  std::uint64_t integer(const std::string& key, std::uint64_t min = 0, std::uint64_t max = kMaxInteger);
  std::uint64_t integer_or(const std::string& key, std::uint64_t fallback, std::uint64_t min = 0,
                           std::uint64_t max = kMaxInteger);
  std::string string(const std::string& key);
  std::string string_or(const std::string& key, const std::string& fallback);
  const nlohmann::json& array(const std::string& key);
  const nlohmann::json& value(const std::string& key);  // required, any type: its checks are the caller's
  JsonReader object(const std::string& key);
  std::optional<JsonReader> optional_object(const std::string& key);
  // Marks a key as known without reading it (its reader is elsewhere).
  void allow(const std::string& key) { seen_.insert(key); }
  // Declares every key of this object up front and rejects any other now, before a section's
  // absence could be reported in place of its misspelt name.
  void only(const std::vector<std::string>& keys);

  // Throws for keys that were never read, asked about or allowed.
  void finish() const;

 private:
  const nlohmann::json& at(const std::string& key);
  const nlohmann::json& obj_;
  std::string path_;
  std::set<std::string> seen_;
};

// Checks a JSON value that must be a finite number; `path` names it in the error.
double json_number(const nlohmann::json& v, const std::string& path);

}  // namespace skipstone
