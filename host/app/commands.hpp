// The skipstone subcommands. Each takes its own arguments (after the command name) and
// returns the process exit status: 0 success, 1 runtime failure, 2 bad input (usage or config).
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace skipstone {

int run_command(const std::vector<std::string>& args, const std::string& command_line);
int trace_command(const std::vector<std::string>& args);
int merge_command(const std::vector<std::string>& args, const std::string& command_line);
int bench_command(const std::vector<std::string>& args, const std::string& command_line);
// Replaces the process by `python3 -m skipstone.plot ARGS` (its options and help are there).
int plot_command(const std::vector<std::string>& args);

// The bench `skipstone bench ARGS` runs (ARGS without --json), its JSON document returned
// instead of written; `quiet`: its printed report discarded (for the Python module).
nlohmann::json bench_json(const std::vector<std::string>& args, bool quiet, const std::string& command_line);

extern const char* const kRunHelp;
extern const char* const kTraceHelp;
extern const char* const kMergeHelp;
extern const char* const kBenchHelp;

}  // namespace skipstone
