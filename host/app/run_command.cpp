// `skipstone run CONFIG.json --out DIR`: validate, run the scan (or one shard of it) in this
// process, on several CUDA devices or over the ranks of an MPI job, write maps and metadata
// (or the shard's partial result).
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <optional>
#include <thread>

#include "atomic_file.hpp"
#include "backend.hpp"
#include "checkpoint.hpp"
#include "cli_args.hpp"
#include "commands.hpp"
#include "backends.hpp"
#include "config.hpp"
#include "executors.hpp"
#include "memory_check.hpp"
#include "mpi_scan.hpp"
#include "mpi_session.hpp"
#include "output_location.hpp"
#include "output_writer.hpp"
#include "partial_output.hpp"
#include "previous_outputs.hpp"
#include "scan_runner.hpp"
#include "shard.hpp"

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
    "  --chunk N          trajectories per chunk, 1 to 1e9 (default: from free device memory)\n"
    "  --shard I/N        run only shard I of N (0 <= I < N: whole blocks of 4096 trajectories)\n"
    "                     and write a partial result to DIR; combine with skipstone merge\n"
    "  --resume           continue an interrupted run from DIR/.checkpoint (same config and\n"
    "                     options); the outputs are identical to an uninterrupted run\n"
    "  --no-checkpoint    do not save finished chunks to DIR/.checkpoint (saved by default when\n"
    "                     the scan has more than one chunk; removed when the run completes)\n"
    "  --quiet            no progress on stderr\n"
    "\n"
    "Under MPI (mpirun -np N skipstone run ...; built with SKIPSTONE_MPI) the ranks share the\n"
    "chunks through a work queue on rank 0, which alone writes DIR; the outputs are identical\n"
    "to a single-process run.\n";

namespace {

// Upper bounds of the integer options: far beyond any machine, low enough that no arithmetic
// on them (rounding a chunk up to whole blocks) can overflow.
constexpr std::uint64_t kMaxThreads = 4096;
constexpr std::uint64_t kMaxChunk = 1000000000;

// The backend of this process. Under MPI the CPU threads default to the node's cores divided
// among its ranks, and a rank that may use CUDA takes GPU (node-local rank mod GPUs).
BackendChoice choose_run_backend(const ParsedArgs& a, int threads, const MpiJob& job) {
  const std::string name = a.values.count("--backend") ? a.values.at("--backend") : "auto";
  if (job.distributed()) {
    if (threads == 0) threads = std::max(1, static_cast<int>(std::thread::hardware_concurrency()) / job.local_size);
    const int gpus = cuda::device_count();
    if (name != "cpu" && gpus > 0) cuda::set_device(job.local_rank % gpus);
  }
  try {
    return choose_backend(name, threads);
  } catch (const std::exception& e) {
    throw UsageError(e.what());
  }
}

// The workers of this process: one, or with CUDA one per device of --devices (default: all).
std::vector<Executor> run_executors(const ParsedArgs& a, BackendChoice& backend, const MpiJob& job) {
  const auto devices = a.values.find("--devices");
  if (backend.backend != Backend::cuda || job.distributed()) {
    if (devices != a.values.end())
      throw UsageError(std::string("--devices: ") + (job.distributed() ? "under MPI each rank uses one GPU (its node-local rank)"
                                                                       : "applies to the CUDA backend only"));
    return executors_for(backend, {});
  }
  std::vector<int> list;
  if (devices != a.values.end()) {
    list = parse_devices(devices->second, cuda::device_count());
  } else {
    for (int d = 0; d < cuda::device_count(); ++d) list.push_back(d);
  }
  if (list.size() > 1) backend.description += " and " + std::to_string(list.size() - 1) + " more devices";
  return executors_for(backend, list);
}

void print_summary(const RunConfig& rc, const ScanResult& res, const std::filesystem::path& dir) {
  std::cout << "wrote " << rc.observables.size() << " observables for " << rc.spec.count << " trajectories to "
            << dir.string() << "/ (meta.json, *.npy" << (!rc.spec.random && rc.axes.size() == 2 ? ", *.png" : "")
            << ") in " << res.wall_seconds << " s\nstatus:";
  for (int s = 0; s < kStatusCount; ++s)
    if (res.status_counts[s]) std::cout << " " << status_name(static_cast<Status>(s)) << "=" << res.status_counts[s];
  std::cout << "\n";
}

// Everything a run needs before its first chunk.
struct RunSetup {
  std::filesystem::path dir;
  std::optional<Shard> shard;
  std::optional<RunConfig> config;
  BackendChoice backend;
  ScanOptions options;
  std::optional<Checkpoint> checkpoint;
  PreviousOutputs previous;
};

void set_up(const ParsedArgs& a, const MpiJob& job, RunSetup& s) {
  if (a.positional.size() != 1) throw UsageError("run needs exactly one CONFIG.json argument");
  s.dir = folder_option(a, "--out", "run needs --out DIR");
  const int threads = static_cast<int>(integer_option(a, "--threads", 1, kMaxThreads, 0));
  s.options.chunk_override = integer_option(a, "--chunk", 1, kMaxChunk, 0);
  if (a.values.count("--shard")) s.shard = parse_shard(a.values.at("--shard"));
  if (a.flags.count("--resume") && a.flags.count("--no-checkpoint"))
    throw UsageError("--resume and --no-checkpoint exclude each other");
  s.config.emplace(load_config_file(a.positional[0]));  // ConfigError -> exit 2 in main
  const RunConfig& rc = *s.config;
  s.backend = choose_run_backend(a, threads, job);
  s.options.executors = run_executors(a, s.backend, job);
  s.options.quiet = a.flags.count("--quiet") > 0 || job.rank != 0;
  s.options.workers = s.options.executors.size() * static_cast<std::uint64_t>(job.size);
  if (s.shard) s.options.range = shard_range(rc.spec.count, *s.shard);
  // Fixed once (it depends on the free memory): the run and meta.json use the same size.
  s.options.chunk_override = scan_chunk_size(rc, s.backend, s.options);
  if (job.rank != 0) return;  // only rank 0 writes
  const std::uint64_t trajectories = s.shard ? s.options.range->size() : rc.spec.count;
  prepare_output_dir(s.dir, s.shard ? estimated_partial_bytes(rc, trajectories) : estimated_output_bytes(rc));
  check_memory(rc, trajectories);
  s.previous = check_previous_outputs(s.dir, {rc.resolved, s.shard, a.flags.count("--resume") > 0},
                                      a.flags.count("--overwrite") > 0);
  if (!a.flags.count("--no-checkpoint")) {
    s.checkpoint.emplace(s.dir, rc, s.options.range.value_or(TrajectoryRange{0, rc.spec.count}), a.flags.count("--resume") > 0);
    s.options.checkpoint = &*s.checkpoint;
  }
}

}  // namespace

int run_command(const std::vector<std::string>& args, const std::string& command_line) {
  const MpiJob& job = MpiSession::job();
  const bool writer = job.rank == 0;
  RunSetup setup;
  // Collective under MPI: when set-up fails on some ranks, the lowest of them reports its
  // error and every other rank stops quietly.
  try {
    const ParsedArgs a = parse_args(args, {"--out", "--backend", "--threads", "--chunk", "--shard", "--devices"},
                                    {"--quiet", "--help", "--resume", "--no-checkpoint", "--overwrite"});
    if (a.flags.count("--help")) {
      if (writer) std::cout << kRunHelp;
      return 0;
    }
    set_up(a, job, setup);
  } catch (...) {
    if (MpiSession::first_failed_rank(false) != job.rank) throw PeerRankFailed();
    throw;
  }
  if (MpiSession::first_failed_rank(true) >= 0) throw PeerRankFailed();
  const std::filesystem::path& dir = setup.dir;
  const std::optional<Shard>& shard = setup.shard;
  const BackendChoice& backend = setup.backend;
  const ScanOptions& options = setup.options;
  std::optional<Checkpoint>& checkpoint = setup.checkpoint;
  const RunConfig& rc = *setup.config;
  if (!options.quiet)
    std::cerr << "skipstone run: " << rc.system.name << ", " << rc.spec.count << " trajectories on " << backend.description
              << (job.distributed() ? " x " + std::to_string(job.size) + " MPI ranks" : "") << "\n";
  std::optional<RangeResult> range = run_scan_range_on_job(rc, backend, options);
  if (!writer) return 0;
  const std::uint64_t chunk_size = options.chunk_override;
  remove_previous_outputs(setup.previous);
  if (shard) {
    nlohmann::json meta = partial_metadata(rc, *range, *shard, backend, chunk_size, command_line);
    if (job.distributed()) meta["mpi_ranks"] = job.size;
    write_partial(dir, rc, *range, meta);
    std::cout << "wrote shard " << shard->index << "/" << shard->count << " (trajectories " << range->range.first << " to "
              << range->range.end << " of " << rc.spec.count << ") to " << dir.string()
              << "/; combine the shards with skipstone merge\n";
  } else {
    const ScanResult res = scan_result(std::move(*range), chunk_size, rc);
    nlohmann::json meta = run_metadata(rc, res, backend, command_line);
    if (job.distributed()) meta["mpi_ranks"] = job.size;
    write_outputs(dir, rc, res, meta);
    print_summary(rc, res, dir);
  }
  if (checkpoint) checkpoint->remove();
  return 0;
}

}  // namespace skipstone
