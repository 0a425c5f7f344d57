// Implementation of JsonReader: typed getters with key paths, unknown-key rejection.
#include "json_reader.hpp"

#include <cmath>

namespace skipstone {

JsonReader::JsonReader(const nlohmann::json& obj, std::string path) : obj_(obj), path_(std::move(path)) {
  if (!obj_.is_object()) throw ConfigError(path_.empty() ? "(top level)" : path_, "expected a JSON object, got " + show(obj_));
}

JsonReader JsonReader::empty(std::string path) {
  static const nlohmann::json kEmpty = nlohmann::json::object();
  return JsonReader(kEmpty, std::move(path));
}

std::string JsonReader::key_path(const std::string& key) const { return path_.empty() ? key : path_ + "." + key; }

bool JsonReader::has(const std::string& key) const { return obj_.contains(key); }

const nlohmann::json& JsonReader::at(const std::string& key) {
  seen_.insert(key);
  if (!obj_.contains(key)) throw ConfigError(key_path(key), "required key is missing");
  return obj_.at(key);
}

double json_number(const nlohmann::json& v, const std::string& path) {
  if (!v.is_number()) throw ConfigError(path, "expected a number, got " + show(v));
  const double d = v.get<double>();
  if (!std::isfinite(d)) throw ConfigError(path, "value " + show(v) + " is not a finite number");
  return d;
}

double JsonReader::number(const std::string& key) { return json_number(at(key), key_path(key)); }

double JsonReader::number_or(const std::string& key, double fallback) {
  seen_.insert(key);
  return has(key) ? number(key) : fallback;
}

std::optional<double> JsonReader::optional_number(const std::string& key) {
  seen_.insert(key);
  if (!has(key)) return std::nullopt;
  return number(key);
}

std::uint64_t JsonReader::integer(const std::string& key) {
  const nlohmann::json& v = at(key);
  if (v.is_number_unsigned()) return v.get<std::uint64_t>();
  if (v.is_number_integer()) {
    const std::int64_t i = v.get<std::int64_t>();
    if (i >= 0) return static_cast<std::uint64_t>(i);
    throw ConfigError(key_path(key), "value " + show(v) + " is negative; expected an integer >= 0");
  }
  if (v.is_number_float()) {
    const double d = v.get<double>();
    if (std::isfinite(d) && d >= 0.0 && d == std::floor(d) && d < 1.8e19) return static_cast<std::uint64_t>(d);
  }
  throw ConfigError(key_path(key), "expected an integer >= 0, got " + show(v));
}

std::uint64_t JsonReader::integer_or(const std::string& key, std::uint64_t fallback) {
  seen_.insert(key);
  return has(key) ? integer(key) : fallback;
}

std::string JsonReader::string(const std::string& key) {
  const nlohmann::json& v = at(key);
  if (!v.is_string()) throw ConfigError(key_path(key), "expected a string, got " + show(v));
  return v.get<std::string>();
}

std::string JsonReader::string_or(const std::string& key, const std::string& fallback) {
  seen_.insert(key);
  return has(key) ? string(key) : fallback;
}

const nlohmann::json& JsonReader::array(const std::string& key) {
  const nlohmann::json& v = at(key);
  if (!v.is_array()) throw ConfigError(key_path(key), "expected an array, got " + show(v));
  return v;
}

JsonReader JsonReader::object(const std::string& key) { return JsonReader(at(key), key_path(key)); }

std::optional<JsonReader> JsonReader::optional_object(const std::string& key) {
  seen_.insert(key);
  if (!has(key)) return std::nullopt;
  return object(key);
}

void JsonReader::finish() const {
  for (auto it = obj_.begin(); it != obj_.end(); ++it) {
    if (seen_.count(it.key())) continue;
    std::string allowed;
    for (const auto& k : seen_) allowed += (allowed.empty() ? "" : ", ") + k;
    throw ConfigError(key_path(it.key()), "unknown key; allowed here: " + (allowed.empty() ? "(none)" : allowed));
  }
}

}  // namespace skipstone
