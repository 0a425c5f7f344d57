// A run of a scan from typed options: set-up checks, the scan, the outputs.
#include "run_session.hpp"

#include <algorithm>
#include <iostream>
#include <thread>

#include "backends.hpp"
#include "config_error.hpp"
#include "executors.hpp"
#include "memory_check.hpp"
#include "mpi_scan.hpp"
#include "output_location.hpp"
#include "output_writer.hpp"
#include "partial_output.hpp"

namespace skipstone {

namespace {

// The backend of this process. Under MPI the CPU threads default to the node's cores divided
// among its ranks, and a rank that may use CUDA takes GPU (node-local rank mod GPUs).
BackendChoice choose_run_backend(const RunRequest& r, const MpiJob& job) {
  const std::string& name = r.backend;
  int threads = r.threads;
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
std::vector<Executor> run_executors(const RunRequest& r, BackendChoice& backend, const MpiJob& job) {
  if (backend.backend != Backend::cuda || job.distributed()) {
    if (r.devices)
      throw UsageError(std::string("--devices: ") + (job.distributed() ? "under MPI each rank uses one GPU (its node-local rank)"
                                                                       : "applies to the CUDA backend only"));
    return executors_for(backend, {});
  }
  std::vector<int> list;
  if (r.devices) {
    list = parse_devices(*r.devices, cuda::device_count());
  } else {
    for (int d = 0; d < cuda::device_count(); ++d) list.push_back(d);
  }
  if (list.size() > 1) backend.description += " and " + std::to_string(list.size() - 1) + " more devices";
  return executors_for(backend, list);
}

}  // namespace

void set_up_run(RunRequest request, RunConfig config, const MpiJob& job, RunSetup& s) {
  s.request = std::move(request);
  s.config.emplace(std::move(config));
  const RunRequest& r = s.request;
  const RunConfig& rc = *s.config;
  s.options.chunk_override = r.chunk;
  s.options.between_chunks = r.between_chunks;
  s.backend = choose_run_backend(r, job);
  s.options.executors = run_executors(r, s.backend, job);
  s.options.quiet = r.quiet || job.rank != 0;
  s.options.workers = s.options.executors.size() * static_cast<std::uint64_t>(job.size);
  if (r.shard) s.options.range = shard_range(rc.spec.count, *r.shard);
  // Fixed once (it depends on the free memory): the run and meta.json use the same size.
  s.options.chunk_override = scan_chunk_size(rc, s.backend, s.options);
  if (job.rank != 0) return;  // only rank 0 writes
  const std::uint64_t trajectories = r.shard ? s.options.range->size() : rc.spec.count;
  if (r.out)
    prepare_output_dir(*r.out, r.shard ? estimated_partial_bytes(rc, trajectories) : estimated_output_bytes(rc));
  check_memory(rc, trajectories);
  if (!r.out) return;
  s.previous = check_previous_outputs(*r.out, {rc.resolved, r.shard, r.resume}, r.overwrite);
  if (r.checkpoint) {
    s.checkpoint.emplace(*r.out, rc, s.options.range.value_or(TrajectoryRange{0, rc.spec.count}), r.resume);
    s.options.checkpoint = &*s.checkpoint;
  }
}

RunOutcome finish_run(RunSetup& s, const MpiJob& job) {
  const RunRequest& r = s.request;
  const RunConfig& rc = *s.config;
  const ScanOptions& options = s.options;
  if (!options.quiet)
    std::cerr << "skipstone run: " << rc.system.name << ", " << rc.spec.count << " trajectories on " << s.backend.description
              << (job.distributed() ? " x " + std::to_string(job.size) + " MPI ranks" : "") << "\n";
  std::optional<RangeResult> range = run_scan_range_on_job(rc, s.backend, options);
  RunOutcome outcome;
  if (job.rank != 0) return outcome;
  const std::uint64_t chunk_size = options.chunk_override;
  if (r.shard) {
    outcome.meta = partial_metadata(rc, *range, *r.shard, s.backend, chunk_size, r.command_line);
    if (job.distributed()) outcome.meta["mpi_ranks"] = job.size;
    outcome.shard = std::move(*range);
  } else {
    outcome.result = scan_result(std::move(*range), chunk_size, rc);
    outcome.meta = run_metadata(rc, *outcome.result, s.backend, r.command_line);
    if (job.distributed()) outcome.meta["mpi_ranks"] = job.size;
  }
  if (!r.out) return outcome;
  remove_previous_outputs(s.previous);
  if (r.shard) write_partial(*r.out, rc, *outcome.shard, outcome.meta);
  else write_outputs(*r.out, rc, *outcome.result, outcome.meta);
  if (s.checkpoint) s.checkpoint->remove();
  return outcome;
}

RunOutcome run_in_process(RunRequest request, RunConfig config) {
  static const MpiJob single;
  RunSetup setup;
  set_up_run(std::move(request), std::move(config), single, setup);
  return finish_run(setup, single);
}

}  // namespace skipstone
