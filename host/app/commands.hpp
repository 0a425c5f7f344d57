// The skipstone subcommands. Each takes its own arguments (after the command name) and
// returns the process exit status: 0 success, 1 runtime failure, 2 bad input (usage or config).
#pragma once
#include <string>
#include <vector>

namespace skipstone {

int run_command(const std::vector<std::string>& args, const std::string& command_line);
int trace_command(const std::vector<std::string>& args);
int merge_command(const std::vector<std::string>& args, const std::string& command_line);
int bench_command(const std::vector<std::string>& args, const std::string& command_line);

extern const char* const kRunHelp;
extern const char* const kTraceHelp;
extern const char* const kMergeHelp;
extern const char* const kBenchHelp;

}  // namespace skipstone
