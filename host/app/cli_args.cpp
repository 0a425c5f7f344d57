// Option parsing for subcommands and the strict readers of option values.
#include "cli_args.hpp"

#include <cmath>
#include <cstdlib>

#include "atomic_file.hpp"
#include "config_override.hpp"

namespace skipstone {

ParsedArgs parse_args(const std::vector<std::string>& args, const std::set<std::string>& with_value,
                      const std::set<std::string>& flags, const std::set<std::string>& repeatable) {
  ParsedArgs p;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a.rfind("--", 0) == 0) {
      if (p.flags.count(a) || p.values.count(a)) throw UsageError("option " + a + " given more than once");
      if (flags.count(a)) {
        p.flags.insert(a);
      } else if (with_value.count(a) || repeatable.count(a)) {
        // "--out --quiet": the next option is not the folder; a path that starts with "--"
        // can be given as ./--name.
        if (i + 1 >= args.size() || args[i + 1].rfind("--", 0) == 0) throw UsageError("option " + a + " needs a value");
        if (repeatable.count(a)) p.repeated[a].push_back(args[++i]);
        else p.values[a] = args[++i];
      } else {
        throw UsageError("unknown option " + a);
      }
    } else if (a.size() > 1 && a[0] == '-') {
      throw UsageError("unknown option " + a + " (options are spelled --name)");
    } else {
      p.positional.push_back(a);
    }
  }
  return p;
}

RunConfig config_with_set_options(const ParsedArgs& a, const std::string& path) {
  std::vector<ConfigOverride> overrides;
  if (a.repeated.count("--set"))
    for (const std::string& s : a.repeated.at("--set")) overrides.push_back(parse_set_argument(s));
  return parse_config_with_overrides(read_config_json(path), overrides);
}

namespace {

// Digits only, without overflow; false for anything else (empty, sign, space, > 2^64 - 1).
bool parse_digits(const std::string& s, std::uint64_t& v) {
  if (s.empty()) return false;
  v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    const std::uint64_t d = static_cast<std::uint64_t>(c - '0');
    if (v > (UINT64_MAX - d) / 10) return false;
    v = v * 10 + d;
  }
  return true;
}

// "123" or "1e7": false when malformed or beyond 2^64 - 1.
bool parse_integer_text(const std::string& s, std::uint64_t& v) {
  const std::size_t e = s.find_first_of("eE");
  if (e == std::string::npos) return parse_digits(s, v);
  std::uint64_t exponent = 0;
  if (!parse_digits(s.substr(0, e), v) || !parse_digits(s.substr(e + 1), exponent)) return false;
  for (std::uint64_t k = 0; k < exponent && v != 0; ++k) {
    if (v > UINT64_MAX / 10) return false;
    v *= 10;
  }
  return true;
}

}  // namespace

std::uint64_t integer_option(const ParsedArgs& a, const std::string& key, std::uint64_t min, std::uint64_t max,
                             std::uint64_t fallback) {
  const auto it = a.values.find(key);
  if (it == a.values.end()) return fallback;
  std::uint64_t v = 0;
  if (!parse_integer_text(it->second, v) || v < min || v > max)
    throw UsageError(key + " " + it->second + ": expected an integer in [" + std::to_string(min) + ", " +
                     std::to_string(max) + "]");
  return v;
}

double positive_number_option(const ParsedArgs& a, const std::string& key, double fallback) {
  const auto it = a.values.find(key);
  if (it == a.values.end()) return fallback;
  const std::string& s = it->second;
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  // no space, sign, "inf" or hexadecimal: a plain decimal number
  const bool plain = !s.empty() && (s[0] == '.' || (s[0] >= '0' && s[0] <= '9')) && s.find_first_of("xX") == std::string::npos;
  if (!plain || *end != '\0' || !(v > 0.0) || !std::isfinite(v))
    throw UsageError(key + " " + s + ": expected a finite number > 0");
  return v;
}

std::string path_option(const ParsedArgs& a, const std::string& key, const std::string& needed_message) {
  const auto it = a.values.find(key);
  if (it == a.values.end()) throw UsageError(needed_message);
  if (it->second.empty()) throw UsageError(key + ": empty path");
  return it->second;
}

std::string folder_option(const ParsedArgs& a, const std::string& key, const std::string& needed_message) {
  std::string path = path_option(a, key, needed_message);
  if (path == "-")
    throw UsageError(key + " -: the outputs are a folder, not standard output; allowed: a folder path (./- for a folder named -)");
  return path;
}

void check_output_file(const std::string& key, const std::string& path, bool overwrite) {
  switch (io::write_target(path)) {
    case io::WriteTarget::folder: throw UsageError(key + " " + path + ": a folder; allowed: a file name, - for standard output");
    case io::WriteTarget::existing_file:
      if (!overwrite) throw UsageError(key + " " + path + ": the file exists; add --overwrite to replace it");
      break;
    case io::WriteTarget::new_file:
    case io::WriteTarget::in_place: break;
  }
}

}  // namespace skipstone
