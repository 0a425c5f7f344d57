// `skipstone run CONFIG.json --out DIR`: validate, run the scan (or one shard of it), write
// maps and metadata (or the shard's partial result).
#include <cstdio>
#include <iostream>
#include <optional>

#include "atomic_file.hpp"
#include "backend.hpp"
#include "checkpoint.hpp"
#include "cli_args.hpp"
#include "commands.hpp"
#include "config.hpp"
#include "output_location.hpp"
#include "output_writer.hpp"
#include "partial_output.hpp"
#include "scan_runner.hpp"
#include "shard.hpp"

namespace skipstone {

const char* const kRunHelp =
    "usage: skipstone run CONFIG.json --out DIR [options]\n"
    "\n"
    "Runs the scan described by CONFIG.json (format: README, \"Config format\") and writes\n"
    "DIR/meta.json, DIR/<observable>.npy for every observable and, for two-axis grids,\n"
    "DIR/<observable>.png heat maps. Nothing is written when the config is rejected.\n"
    "\n"
    "options:\n"
    "  --out DIR          output folder (created if missing)\n"
    "  --backend NAME     auto (default: CUDA when a device is present), cpu or cuda\n"
    "  --threads N        CPU threads (default: all cores)\n"
    "  --chunk N          trajectories per chunk (default: from free device memory)\n"
    "  --shard I/N        run only shard I of N (0 <= I < N: whole blocks of 4096 trajectories)\n"
    "                     and write a partial result to DIR; combine with skipstone merge\n"
    "  --resume           continue an interrupted run from DIR/.checkpoint (same config and\n"
    "                     options); the outputs are identical to an uninterrupted run\n"
    "  --no-checkpoint    do not save finished chunks to DIR/.checkpoint (saved by default when\n"
    "                     the scan has more than one chunk; removed when the run completes)\n"
    "  --quiet            no progress on stderr\n";

namespace {

int parse_positive_int(const ParsedArgs& a, const std::string& key, long long fallback) {
  const auto it = a.values.find(key);
  if (it == a.values.end()) return static_cast<int>(fallback);
  try {
    std::size_t used = 0;
    const long long v = std::stoll(it->second, &used);
    if (used != it->second.size() || v < 1) throw std::invalid_argument("");
    return static_cast<int>(v);
  } catch (const std::exception&) {
    throw UsageError(key + " " + it->second + ": expected a positive integer");
  }
}

void print_summary(const RunConfig& rc, const ScanResult& res, const std::filesystem::path& dir) {
  std::cout << "wrote " << rc.observables.size() << " observables for " << rc.spec.count << " trajectories to "
            << dir.string() << "/ (meta.json, *.npy" << (!rc.spec.random && rc.axes.size() == 2 ? ", *.png" : "")
            << ") in " << res.wall_seconds << " s\nstatus:";
  for (int s = 0; s < kStatusCount; ++s)
    if (res.status_counts[s]) std::cout << " " << status_name(static_cast<Status>(s)) << "=" << res.status_counts[s];
  std::cout << "\n";
}

}  // namespace

int run_command(const std::vector<std::string>& args, const std::string& command_line) {
  const ParsedArgs a = parse_args(args, {"--out", "--backend", "--threads", "--chunk", "--shard"},
                                  {"--quiet", "--help", "--resume", "--no-checkpoint"});
  if (a.flags.count("--help")) {
    std::cout << kRunHelp;
    return 0;
  }
  if (a.positional.size() != 1) throw UsageError("run needs exactly one CONFIG.json argument");
  if (!a.values.count("--out")) throw UsageError("run needs --out DIR");
  const std::filesystem::path dir = a.values.at("--out");
  const bool quiet = a.flags.count("--quiet") > 0;
  const int threads = parse_positive_int(a, "--threads", 0);
  const std::uint64_t chunk = static_cast<std::uint64_t>(parse_positive_int(a, "--chunk", 0));
  const std::optional<Shard> shard =
      a.values.count("--shard") ? std::optional<Shard>(parse_shard(a.values.at("--shard"))) : std::nullopt;
  if (a.flags.count("--resume") && a.flags.count("--no-checkpoint"))
    throw UsageError("--resume and --no-checkpoint exclude each other");

  const RunConfig rc = load_config_file(a.positional[0]);  // ConfigError -> exit 2 in main
  BackendChoice backend;
  try {
    backend = choose_backend(a.values.count("--backend") ? a.values.at("--backend") : "auto", threads);
  } catch (const std::exception& e) {
    throw UsageError(e.what());
  }
  ScanOptions options;
  options.chunk_override = chunk;
  options.quiet = quiet;
  if (shard) options.range = shard_range(rc.spec.count, *shard);
  prepare_output_dir(dir, shard ? estimated_partial_bytes(rc, options.range->size()) : estimated_output_bytes(rc));
  std::optional<Checkpoint> checkpoint;
  if (!a.flags.count("--no-checkpoint")) {
    checkpoint.emplace(dir, rc, options.range.value_or(TrajectoryRange{0, rc.spec.count}), a.flags.count("--resume") > 0);
    options.checkpoint = &*checkpoint;
  }
  if (!quiet) std::cerr << "skipstone run: " << rc.system.name << ", " << rc.spec.count << " trajectories on " << backend.description << "\n";
  RangeResult range = run_scan_range(rc, backend, options);
  const std::uint64_t chunk_size = scan_chunk_size(rc, backend, chunk);
  if (shard) {
    write_partial(dir, rc, range, partial_metadata(rc, range, *shard, backend, chunk_size, command_line));
    std::cout << "wrote shard " << shard->index << "/" << shard->count << " (trajectories " << range.range.first << " to "
              << range.range.end << " of " << rc.spec.count << ") to " << dir.string()
              << "/; combine the shards with skipstone merge\n";
  } else {
    const ScanResult res = scan_result(std::move(range), chunk_size);
    write_outputs(dir, rc, res, run_metadata(rc, res, backend, command_line));
    print_summary(rc, res, dir);
  }
  if (checkpoint) checkpoint->remove();
  return 0;
}

}  // namespace skipstone
