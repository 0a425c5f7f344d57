// The distributed run of a scan range over MPI ranks. Protocol (MPI_COMM_WORLD, only the main
// thread of each rank calls MPI): a worker rank asks for a chunk with kTagResult, carrying its
// last finished chunk encoded or nothing (its first two requests: it asks for the next chunk
// while one runs, chunk_pipeline.hpp); rank 0 answers kTagAssign with {first, count} of the
// next chunk, count 0 meaning "no more work". After that answer the worker finishes the chunk
// it still runs and sends kTagFinal, carrying that chunk encoded or nothing, and rank 0 answers
// nothing: it has served a worker when its kTagFinal arrived. Rank 0 polls for messages with
// short sleeps so that its own worker thread keeps its core.
#include "mpi_scan.hpp"

#include <mpi.h>

#include <chrono>
#include <climits>
#include <exception>
#include <iostream>
#include <thread>

#include "backends.hpp"
#include "chunk_pipeline.hpp"
#include "mpi_session.hpp"
#include "range_codec.hpp"

namespace skipstone {

namespace {

constexpr int kTagResult = 1, kTagAssign = 2, kTagFinal = 3;
constexpr auto kPollInterval = std::chrono::microseconds(200);

void send_result(const std::vector<char>& bytes, int tag) {
  if (bytes.size() > static_cast<std::size_t>(INT_MAX))
    throw std::runtime_error("a chunk result of " + std::to_string(bytes.size()) +
                             " bytes is too large for one MPI message: use a smaller --chunk");
  MPI_Send(bytes.data(), static_cast<int>(bytes.size()), MPI_BYTE, 0, tag, MPI_COMM_WORLD);
}

// Rank 0: serve the other ranks from the queue while a thread integrates chunks here too.
RangeResult coordinate(const RunConfig& rc, const BackendChoice& backend, const ScanOptions& options, const MpiJob& job) {
  RangeRun run(rc, backend, options);
  std::exception_ptr local_error;
  const int threads = cpu::max_threads();  // an OpenMP setting of this thread, which `local` starts without
  std::thread local([&] {
    try {
      cpu::set_threads(threads);
      run_queue(options.executors, rc, run.queue(), run.collector(), options.between_chunks);
    } catch (...) {
      local_error = std::current_exception();
      run.queue().cancel();
    }
  });
  try {
    std::vector<char> bytes;
    for (int serving = job.size - 1; serving > 0;) {
      int arrived = 0;
      MPI_Status st;
      MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &arrived, &st);
      if (!arrived) {
        std::this_thread::sleep_for(kPollInterval);
        continue;
      }
      int count = 0;
      MPI_Get_count(&st, MPI_BYTE, &count);
      bytes.resize(static_cast<std::size_t>(count));
      MPI_Recv(bytes.data(), count, MPI_BYTE, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      if (st.MPI_TAG == kTagFinal) {
        --serving;
      } else if (st.MPI_TAG == kTagResult) {
        const std::optional<TrajectoryRange> next = run.queue().next();
        std::uint64_t assign[2] = {next ? next->first : 0, next ? next->size() : 0};
        MPI_Send(assign, 2, MPI_UINT64_T, st.MPI_SOURCE, kTagAssign, MPI_COMM_WORLD);
      } else {
        throw std::logic_error("rank 0: a message with unknown tag " + std::to_string(st.MPI_TAG));
      }
      if (count > 0) run.collector().add_remote(decode_range(bytes));
    }
  } catch (...) {
    run.queue().cancel();
    local.join();
    throw;
  }
  local.join();
  if (local_error) std::rethrow_exception(local_error);
  return run.finish();
}

// Ranks 1..N-1: integrate the chunks rank 0 assigns until it says there are no more, through the
// engine's pipeline (the chunks of boundary outputs one at a time, on the CPU).
void serve(const RunConfig& rc, const Executor& e) {
  bind_to_device(e);
  std::vector<char> finished;  // the last chunk delivered and not yet sent; empty: none
  const auto next = [&]() -> std::optional<TrajectoryRange> {
    send_result(finished, kTagResult);
    finished.clear();
    std::uint64_t assign[2];
    MPI_Recv(assign, 2, MPI_UINT64_T, 0, kTagAssign, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (assign[1] == 0) return std::nullopt;
    return TrajectoryRange{assign[0], assign[0] + assign[1]};
  };
  const std::unique_ptr<ChunkEngine> engine = make_engine(e, rc);
  run_chunks(*engine, rc, next, [&](RangeResult part) { finished = encode_range(part); });
  send_result(finished, kTagFinal);
}

}  // namespace

std::optional<RangeResult> run_scan_range_on_job(const RunConfig& rc, const BackendChoice& backend,
                                                 const ScanOptions& options) {
  const MpiJob& job = MpiSession::job();
  if (!job.distributed()) return run_scan_range(rc, backend, options);
  if (options.executors.size() != 1) throw std::logic_error("run_scan_range_on_job: one worker per rank");
  try {
    if (job.rank == 0) return coordinate(rc, backend, options, job);
    serve(rc, options.executors[0]);
    return std::nullopt;
  } catch (const std::exception& e) {
    std::cerr << "skipstone run (rank " << job.rank << " of " << job.size << "): error: " << e.what() << "\n";
    MpiSession::abort(1);
  }
}

}  // namespace skipstone
