// `skipstone run CONFIG.json --out DIR`: validate, run the scan (or one shard of it) in this
// process, on several CUDA devices or over the ranks of an MPI job, write maps and metadata
// (or the shard's partial result). The run itself is run_session.hpp's; this file reads the
// command line and prints the summary.
#include <iostream>
#include <optional>

#include "cli_args.hpp"
#include "commands.hpp"
#include "config.hpp"
#include "mpi_session.hpp"
#include "run_session.hpp"

namespace skipstone {

const char* const kRunHelp =
    "usage: skipstone run CONFIG.json --out DIR [options]\n"
    "\n"
    "Runs the scan described by CONFIG.json (format: docs/config.md) and writes\n"
    "DIR/meta.json, DIR/<observable>.npy for every observable and, for two-axis grids,\n"
    "DIR/<observable>.png heat maps. Nothing is written when the config is rejected.\n"
    "\n"
    "options:\n"
    "  --out DIR          output folder (created if missing); one that holds another run's\n"
    "                     outputs is refused unless --overwrite\n"
    "  --overwrite        replace the outputs of the earlier run in DIR: the files its\n"
    "                     meta.json records are removed just before the new ones are written\n"
    "  --backend NAME     auto (default: CUDA when a device is present), cpu or cuda\n"
    "  --threads N        CPU threads, 1 to 4096 (default: all cores; under MPI: the cores\n"
    "                     of the node divided among its ranks)\n"
    "  --devices LIST     CUDA devices to share the chunks, e.g. 0,1 (default: all visible;\n"
    "                     under MPI each rank uses one GPU chosen by its node-local rank)\n"
    "  --chunk N          trajectories per chunk, 1 to 1e9 (default: from free memory and,\n"
    "                     on a GPU, 8 waves of its resident threads)\n"
    "  --shard I/N        run only shard I of N (0 <= I < N: whole blocks of 4096 trajectories)\n"
    "                     and write a partial result to DIR; combine with skipstone merge\n"
    "  --resume           continue an interrupted run from DIR/.checkpoint (same config and\n"
    "                     options); the outputs are identical to an uninterrupted run\n"
    "  --no-checkpoint    do not save finished chunks to DIR/.checkpoint (saved by default when\n"
    "                     the scan has more than one chunk; removed when the run completes)\n"
    "  --set KEY=VALUE    set one config value before the config is checked, e.g.\n"
    "                     --set scan.axes[0].n=256 --set parameters.eta=0.25 (repeatable;\n"
    "                     VALUE is JSON, else a plain string; KEY is a key path as the error\n"
    "                     messages write them); recorded in meta.json, and --resume needs the\n"
    "                     same --set values\n"
    "  --quiet            no progress on stderr\n"
    "\n"
    "Under MPI (mpirun -np N skipstone run ...; built with SKIPSTONE_MPI) the ranks share the\n"
    "chunks through a work queue on rank 0, which alone writes DIR; the outputs are identical\n"
    "to a single-process run.\n";

namespace {

void print_summary(const RunConfig& rc, const ScanResult& res, const std::filesystem::path& dir) {
  std::cout << "wrote " << rc.observables.size() << " observables for " << rc.spec.count << " trajectories to "
            << dir.string() << "/ (meta.json, *.npy" << (!rc.spec.random && rc.axes.size() == 2 ? ", *.png" : "")
            << ") in " << res.wall_seconds << " s\nstatus:";
  for (int s = 0; s < kStatusCount; ++s)
    if (res.status_counts[s]) std::cout << " " << status_name(static_cast<Status>(s)) << "=" << res.status_counts[s];
  std::cout << "\n";
}

// The command line as a request; the config is read after the options, so that a bad option
// is reported before a bad config.
void set_up(const ParsedArgs& a, const std::string& command_line, const MpiJob& job, RunSetup& s) {
  if (a.positional.size() != 1) throw UsageError("run needs exactly one CONFIG.json argument");
  RunRequest r;
  r.out = folder_option(a, "--out", "run needs --out DIR");
  r.threads = static_cast<int>(integer_option(a, "--threads", 1, kMaxRunThreads, 0));
  r.chunk = integer_option(a, "--chunk", 1, kMaxRunChunk, 0);
  if (a.values.count("--shard")) r.shard = parse_shard(a.values.at("--shard"));
  if (a.flags.count("--resume") && a.flags.count("--no-checkpoint"))
    throw UsageError("--resume and --no-checkpoint exclude each other");
  if (a.values.count("--backend")) r.backend = a.values.at("--backend");
  if (a.values.count("--devices")) r.devices = a.values.at("--devices");
  r.overwrite = a.flags.count("--overwrite") > 0;
  r.resume = a.flags.count("--resume") > 0;
  r.checkpoint = a.flags.count("--no-checkpoint") == 0;
  r.quiet = a.flags.count("--quiet") > 0;
  r.command_line = command_line;
  RunConfig config = config_with_set_options(a, a.positional[0]);  // ConfigError -> exit 2 in main
  set_up_run(std::move(r), std::move(config), job, s);
}

}  // namespace

int run_command(const std::vector<std::string>& args, const std::string& command_line) {
  const MpiJob& job = MpiSession::job();
  RunSetup setup;
  // Collective under MPI: when set-up fails on some ranks, the lowest of them reports its
  // error and every other rank stops quietly.
  try {
    const ParsedArgs a = parse_args(args, {"--out", "--backend", "--threads", "--chunk", "--shard", "--devices"},
                                    {"--quiet", "--help", "--resume", "--no-checkpoint", "--overwrite"}, {"--set"});
    if (a.flags.count("--help")) {
      if (job.rank == 0) std::cout << kRunHelp;
      return 0;
    }
    set_up(a, command_line, job, setup);
  } catch (...) {
    if (MpiSession::first_failed_rank(false) != job.rank) throw PeerRankFailed();
    throw;
  }
  if (MpiSession::first_failed_rank(true) >= 0) throw PeerRankFailed();
  const RunOutcome outcome = finish_run(setup, job);
  if (job.rank != 0) return 0;
  const std::filesystem::path& dir = *setup.request.out;
  if (const std::optional<Shard>& shard = setup.request.shard) {
    std::cout << "wrote shard " << shard->index << "/" << shard->count << " (trajectories " << outcome.shard->range.first
              << " to " << outcome.shard->range.end << " of " << setup.config->spec.count << ") to " << dir.string()
              << "/; combine the shards with skipstone merge\n";
  } else {
    print_summary(*setup.config, *outcome.result, dir);
  }
  return 0;
}

}  // namespace skipstone
