// Minimal option parsing for the subcommands: one positional argument and --key value flags.
#pragma once
#include <map>
#include <set>
#include <string>
#include <vector>

#include "config_error.hpp"

namespace skipstone {

struct ParsedArgs {
  std::vector<std::string> positional;
  std::map<std::string, std::string> values;  // --key value
  std::set<std::string> flags;                // --flag
};

// `with_value` lists the options taking a value, `flags` the bare ones; anything else, and an
// option given twice (`--out a --out b`: which one was meant?), is a UsageError naming the option.
ParsedArgs parse_args(const std::vector<std::string>& args, const std::set<std::string>& with_value,
                      const std::set<std::string>& flags);

}  // namespace skipstone
