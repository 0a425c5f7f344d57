// A scan range run by every rank of an MPI job (`mpirun -np N skipstone run ...`): rank 0
// keeps the work queue of chunks (chunk_queue.hpp) and the collector (result_collector.hpp),
// integrates chunks itself in a worker thread and hands the next chunk to whichever rank
// returns a finished one, so ranks that drew cheap trajectories take more chunks. Results
// travel bit for bit (range_codec.hpp) and are assembled in index order, so the outputs equal
// those of a single process. Only rank 0 saves checkpoints, reports progress and writes.
#pragma once
#include <optional>

#include "scan_runner.hpp"

namespace skipstone {

// On a job of one rank: run_scan_range. Otherwise, collective over all ranks: the whole range
// on rank 0, nothing on the others. `options.executors` holds this rank's single worker. A
// failure during the run ends every rank (MPI_Abort) after printing the error.
std::optional<RangeResult> run_scan_range_on_job(const RunConfig& rc, const BackendChoice& backend,
                                                 const ScanOptions& options);

}  // namespace skipstone
