// Option parsing for the subcommands: positional arguments, --key value options and --flag
// flags, and the strict readers of option values (integers, time steps, paths) that every
// subcommand shares, so that each rejects a bad value the same way: exit 2 naming the option,
// the value and what is allowed.
#pragma once
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "config.hpp"
#include "config_error.hpp"

namespace skipstone {

struct ParsedArgs {
  std::vector<std::string> positional;
  std::map<std::string, std::string> values;  // --key value
  std::set<std::string> flags;                // --flag
  std::map<std::string, std::vector<std::string>> repeated;  // --key value, as often as given, in order
};

// `with_value` lists the options taking a value, `flags` the bare ones, `repeatable` the
// options taking a value that may be given several times; anything else, another option given twice (`--out a --out b`: which one was meant?), a single-dash token other than
// "-" (`-o`) and a value option followed by nothing or by another option (`--out --quiet`) is
// a UsageError naming the option.
ParsedArgs parse_args(const std::vector<std::string>& args, const std::set<std::string>& with_value,
                      const std::set<std::string>& flags, const std::set<std::string>& repeatable = {});

// The config file `path` with the --set KEY=VALUE options of `a` applied (config_override.hpp).
RunConfig config_with_set_options(const ParsedArgs& a, const std::string& path);

// The value of integer option `key`, `fallback` when it is absent. Allowed: decimal digits, or
// digits 'e' digits (1e7), with nothing around them (no sign, no space), in [min, max];
// anything else is a UsageError "KEY VALUE: expected an integer in [min, max]".
std::uint64_t integer_option(const ParsedArgs& a, const std::string& key, std::uint64_t min, std::uint64_t max,
                             std::uint64_t fallback);

// The value of option `key` as a finite number > 0 (a time step), `fallback` when absent;
// leading or trailing spaces are rejected like any other stray character.
double positive_number_option(const ParsedArgs& a, const std::string& key, double fallback);

// The value of path option `key`, which must be given ("COMMAND needs KEY WHAT") and not be
// empty ("KEY: empty path").
std::string path_option(const ParsedArgs& a, const std::string& key, const std::string& needed_message);

// As path_option, for an output folder: "-" (standard output, for the file outputs) is refused
// too, instead of making a folder named "-".
std::string folder_option(const ParsedArgs& a, const std::string& key, const std::string& needed_message);

// Refuses, before any work, a file output `path` of option `key` that write_file_atomically
// would not write as asked: a folder, or an existing regular file (or a link to one) when
// `overwrite` is false ("add --overwrite"). Standard output ("-"), devices and pipes are
// written in place, not replaced, and need no --overwrite.
void check_output_file(const std::string& key, const std::string& path, bool overwrite);

}  // namespace skipstone
