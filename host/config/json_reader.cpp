// Implementation of JsonReader: typed getters with key paths, unknown-key rejection with the
// nearest allowed key.
#include "json_reader.hpp"

#include <algorithm>
#include <cmath>

namespace skipstone {
namespace {

// Edits (insertion, deletion, substitution, swap of neighbours) that turn a into b: the
// optimal string alignment distance.
std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.size()][b.size()];
}

// Whether two keys are near enough for one to be a likely typo of the other: one edit per
// three characters of the longer, at least one, and never all of it.
bool likely_typo(const std::string& a, const std::string& b, std::size_t distance) {
  const std::size_t longer = std::max(a.size(), b.size());
  return distance < longer && distance <= std::max<std::size_t>(1, longer / 3);
}

// The candidate nearest to `key`, if it is near enough to be a likely typo.
std::optional<std::string> nearest_key(const std::string& key, const std::vector<std::string>& candidates) {
  std::optional<std::string> best;
  std::size_t best_d = 0;
  for (const auto& k : candidates) {
    const std::size_t d = edit_distance(key, k);
    if (likely_typo(key, k, d) && (!best || d < best_d)) best = k, best_d = d;
  }
  return best;
}

std::string integer_range(std::uint64_t min, std::uint64_t max) {
  return "an integer in [" + std::to_string(min) + ", " + std::to_string(max) + "]";
}

}  // namespace

JsonReader::JsonReader(const nlohmann::json& obj, std::string path) : obj_(obj), path_(std::move(path)) {
  if (!obj_.is_object()) throw ConfigError(path_.empty() ? "(top level)" : path_, "expected a JSON object, got " + show(obj_));
}

JsonReader JsonReader::empty(std::string path) {
  static const nlohmann::json kEmpty = nlohmann::json::object();
  return JsonReader(kEmpty, std::move(path));
}

std::string JsonReader::key_path(const std::string& key) const { return path_.empty() ? key : path_ + "." + key; }

bool JsonReader::has(const std::string& key) {
  seen_.insert(key);
  return obj_.contains(key);
}

const nlohmann::json& JsonReader::at(const std::string& key) {
  seen_.insert(key);
  if (obj_.contains(key)) return obj_.at(key);
  std::vector<std::string> unread;
  for (auto it = obj_.begin(); it != obj_.end(); ++it)
    if (!seen_.count(it.key())) unread.push_back(it.key());
  const auto typo = nearest_key(key, unread);
  throw ConfigError(key_path(key), "required key is missing" +
                                       (typo ? "; is \"" + printable_key(*typo) + "\" a misspelling of it?" : std::string()));
}

double json_number(const nlohmann::json& v, const std::string& path) {
  if (!v.is_number()) throw ConfigError(path, "expected a number, got " + show(v));
  const double d = v.get<double>();
  if (!std::isfinite(d)) throw ConfigError(path, "value " + show(v) + " is not a finite number");
  return d;
}

double JsonReader::number(const std::string& key) { return json_number(at(key), key_path(key)); }

double JsonReader::number_or(const std::string& key, double fallback) { return has(key) ? number(key) : fallback; }

std::optional<double> JsonReader::optional_number(const std::string& key) {
  if (!has(key)) return std::nullopt;
  return number(key);
}

std::uint64_t JsonReader::integer(const std::string& key, std::uint64_t min, std::uint64_t max) {
  const nlohmann::json& v = at(key);
  const auto out_of_range = [&] {
    return ConfigError(key_path(key), "value " + show(v) + " is out of range; allowed: " + integer_range(min, max));
  };
  std::uint64_t n = 0;
  if (v.is_number_unsigned()) {
    n = v.get<std::uint64_t>();
  } else if (v.is_number_integer()) {  // signed: negative from a parsed text, either sign from code
    const std::int64_t i = v.get<std::int64_t>();
    if (i < 0) throw out_of_range();
    n = static_cast<std::uint64_t>(i);
  } else if (v.is_number_float()) {
    const double d = v.get<double>();
    if (d != std::floor(d)) throw ConfigError(key_path(key), "expected an integer, got " + show(v) + "; allowed: " + integer_range(min, max));
    if (!(d >= 0.0 && d < 18446744073709551616.0)) throw out_of_range();  // [0, 2^64)
    n = static_cast<std::uint64_t>(d);
  } else {
    throw ConfigError(key_path(key), "expected an integer, got " + show(v) + "; allowed: " + integer_range(min, max));
  }
  if (n < min || n > max) throw out_of_range();
  return n;
}

std::uint64_t JsonReader::integer_or(const std::string& key, std::uint64_t fallback, std::uint64_t min, std::uint64_t max) {
  return has(key) ? integer(key, min, max) : fallback;
}

std::string JsonReader::string(const std::string& key) {
  const nlohmann::json& v = at(key);
  if (!v.is_string()) throw ConfigError(key_path(key), "expected a string, got " + show(v));
  return v.get<std::string>();
}

std::string JsonReader::string_or(const std::string& key, const std::string& fallback) {
  return has(key) ? string(key) : fallback;
}

const nlohmann::json& JsonReader::array(const std::string& key) {
  const nlohmann::json& v = at(key);
  if (!v.is_array()) throw ConfigError(key_path(key), "expected an array, got " + show(v));
  return v;
}

const nlohmann::json& JsonReader::value(const std::string& key) { return at(key); }

JsonReader JsonReader::object(const std::string& key) { return JsonReader(at(key), key_path(key)); }

std::optional<JsonReader> JsonReader::optional_object(const std::string& key) {
  if (!has(key)) return std::nullopt;
  return object(key);
}

void JsonReader::only(const std::vector<std::string>& keys) {
  for (const auto& k : keys) allow(k);
  finish();
}

void JsonReader::finish() const {
  for (auto it = obj_.begin(); it != obj_.end(); ++it) {
    if (seen_.count(it.key())) continue;
    std::string allowed;
    for (const auto& k : seen_) allowed += (allowed.empty() ? "" : ", ") + k;
    const auto nearest = nearest_key(it.key(), {seen_.begin(), seen_.end()});
    throw ConfigError(key_path(it.key()), "unknown key; " + (nearest ? "did you mean \"" + *nearest + "\"? " : std::string()) +
                                              "allowed here: " + (allowed.empty() ? "(none)" : allowed));
  }
}

}  // namespace skipstone
