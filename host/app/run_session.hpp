// One run of a scan as `skipstone run` performs it, from typed options instead of a command
// line: the set-up checks (backend, devices, chunk size, memory, the output folder and an
// earlier run's outputs in it, the checkpoint), the scan, and the outputs (maps, heat maps,
// meta.json, or a shard's partial result). The CLI (run_command.cpp) and the Python module
// (python/) both run scans through it, so their results and output folders are the same.
#pragma once
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "backend.hpp"
#include "checkpoint.hpp"
#include "config.hpp"
#include "mpi_session.hpp"
#include "previous_outputs.hpp"
#include "scan_runner.hpp"
#include "shard.hpp"

namespace skipstone {

// Upper bounds of RunRequest::threads and ::chunk: far beyond any machine, low enough that no
// arithmetic on them (rounding a chunk up to whole blocks) can overflow.
constexpr std::uint64_t kMaxRunThreads = 4096;
constexpr std::uint64_t kMaxRunChunk = 1000000000;

// What to run and how; the defaults are those of `skipstone run` without options.
struct RunRequest {
  std::string backend = "auto";           // --backend: auto, cpu or cuda
  int threads = 0;                        // --threads; 0: all cores (under MPI: the node's share)
  std::uint64_t chunk = 0;                // --chunk; 0: from free memory
  std::optional<std::string> devices;     // --devices, e.g. "0,1"
  std::optional<Shard> shard;             // --shard I/N
  std::optional<std::filesystem::path> out;  // --out; absent: nothing is written (library use)
  bool overwrite = false;                 // --overwrite
  bool resume = false;                    // --resume
  bool checkpoint = true;                 // not --no-checkpoint
  bool quiet = false;                     // --quiet
  std::string command_line;               // recorded in meta.json
  std::function<void()> between_chunks;   // optional: called before each chunk; throws to stop the run
                                          // (the checkpoint keeps the finished chunks for --resume)
};

// Everything a run needs before its first chunk.
struct RunSetup {
  RunRequest request;
  std::optional<RunConfig> config;
  BackendChoice backend;
  ScanOptions options;
  std::optional<Checkpoint> checkpoint;
  PreviousOutputs previous;
};

// What a finished run gives back on the writing rank (rank 0).
struct RunOutcome {
  std::optional<ScanResult> result;  // the whole scan; absent for a shard and on other ranks
  std::optional<RangeResult> shard;  // a shard's partial result
  nlohmann::json meta;               // meta.json as written (or as it would be, without `out`)
};

// The set-up of a run of `config` on this rank: every check that can refuse it before any
// trajectory is computed (UsageError, ConfigError, std::runtime_error naming the problem).
// Under MPI the caller makes the outcome collective (MpiSession::first_failed_rank).
void set_up_run(RunRequest request, RunConfig config, const MpiJob& job, RunSetup& setup);

// Runs the scan that set_up_run prepared and, on rank 0 with an output folder, replaces an
// earlier run's outputs by the new ones and removes the checkpoint.
RunOutcome finish_run(RunSetup& setup, const MpiJob& job);

// Both, in a process that is not one of several MPI ranks.
RunOutcome run_in_process(RunRequest request, RunConfig config);

}  // namespace skipstone
