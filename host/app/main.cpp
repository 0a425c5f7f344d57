// The skipstone command line: dispatches to the subcommands and maps errors to exit codes
// (2 for bad input: usage or config; 1 for failures while running). Under MPI every rank runs
// this; only `run` may be started as several ranks.
#include <csignal>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "cli_args.hpp"
#include "commands.hpp"
#include "config_error.hpp"
#include "mpi_session.hpp"
#include "version.hpp"

namespace {

const char* const kMainHelp =
    "skipstone " SKIPSTONE_VERSION " - ensembles of no-slip and nonholonomic (rolling) billiards\n"
    "\n"
    "usage: skipstone COMMAND [args]\n"
    "\n"
    "commands:\n"
    "  run CONFIG.json --out DIR      run a scan; write NPY maps, PNG heat maps, meta.json\n"
    "  run ... --shard I/N            run shard I of N only and write a partial result\n"
    "  merge DIR... --out DIR         combine the shard results into the outputs of one run\n"
    "  trace CONFIG.json --out F.csv  write one trajectory's events as CSV\n"
    "  bench [--json F.json]          benchmark this machine on fixed workloads (help bench)\n"
    "  plot DIR [--format pdf]        publication figures of a run's maps (the Python module)\n"
    "  help COMMAND                   help for one command (also: COMMAND --help)\n"
    "\n"
    "Configs, systems and observables are described in docs/config.md; presets in examples/.\n";

}  // namespace

int main(int argc, char** argv) {
  // Beyond a file-size limit (ulimit -f) a write then fails with EFBIG, which the writers
  // report naming the file and clean up after, instead of the signal killing the process
  // with its temporary files in place.
  std::signal(SIGXFSZ, SIG_IGN);
  std::optional<skipstone::MpiSession> mpi;
  try {
    mpi.emplace(&argc, &argv);
  } catch (const std::exception& e) {
    std::cerr << "skipstone: " << e.what() << "\n";
    return 2;
  }
  std::vector<std::string> args(argv + 1, argv + argc);
  std::string command_line = "skipstone";
  for (const auto& a : args) command_line += " " + a;
  if (args.empty()) {
    std::cerr << "skipstone: a COMMAND is needed\n\n" << kMainHelp;
    return 2;
  }
  if (args[0] == "--help" || args[0] == "-h") {
    std::cout << kMainHelp;
    return 0;
  }
  if (args[0] == "--version") {
    std::cout << "skipstone " SKIPSTONE_VERSION "\n";
    return 0;
  }
  const std::string cmd = args[0];
  const std::vector<std::string> rest(args.begin() + 1, args.end());
  if (skipstone::MpiSession::job().distributed() && cmd != "run") {
    if (skipstone::MpiSession::job().rank == 0)
      std::cerr << "skipstone " << cmd << ": only skipstone run uses MPI; start " << cmd << " without mpirun\n";
    return 2;
  }
  try {
    if (cmd == "run") return skipstone::run_command(rest, command_line);
    if (cmd == "trace") return skipstone::trace_command(rest);
    if (cmd == "merge") return skipstone::merge_command(rest, command_line);
    if (cmd == "bench") return skipstone::bench_command(rest, command_line);
    if (cmd == "plot") return skipstone::plot_command(rest);
    if (cmd == "help") {
      const std::string what = rest.empty() ? "" : rest[0];
      if (what == "run") std::cout << skipstone::kRunHelp;
      else if (what == "trace") std::cout << skipstone::kTraceHelp;
      else if (what == "merge") std::cout << skipstone::kMergeHelp;
      else if (what == "bench") std::cout << skipstone::kBenchHelp;
      else if (what == "plot") return skipstone::plot_command({"--help"});
      else std::cout << kMainHelp;
      return 0;
    }
    std::cerr << "skipstone: unknown command '" << cmd << "'\n\n" << kMainHelp;
    return 2;
  } catch (const skipstone::ConfigError& e) {
    std::cerr << "skipstone: " << e.what() << "\n";
    return 2;
  } catch (const skipstone::UsageError& e) {
    std::cerr << "skipstone " << cmd << ": " << e.what() << " (see skipstone " << cmd << " --help)\n";
    return 2;
  } catch (const skipstone::PeerRankFailed&) {
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "skipstone " << cmd << ": error: " << e.what() << "\n";
    return 1;
  }
}
