// The workers of one process that integrate chunks from a ChunkQueue: the CPU backend (one
// worker using all its OpenMP threads) or one worker per CUDA device (`--devices 0,1,...`,
// each in its own host thread with its device made current). Each worker integrates chunks
// through its chunk engine, reduces them (reduce_columns) and hands them to the ResultCollector.
#pragma once
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "backend.hpp"
#include "chunk_engine.hpp"
#include "chunk_queue.hpp"
#include "config.hpp"
#include "result_collector.hpp"

namespace skipstone {

struct Executor {
  Backend backend = Backend::cpu;
  int device = -1;  // CUDA device index; -1 for the CPU backend
};

// Parses "0,1,3" (distinct non-negative device indices below device_count); throws
// UsageError naming --devices, the value and the devices present otherwise.
std::vector<int> parse_devices(const std::string& text, int device_count);

// The workers for a backend: CPU: one; CUDA: one per entry of `devices`, or the current
// device when `devices` is empty.
std::vector<Executor> executors_for(const BackendChoice& backend, const std::vector<int>& devices);

// Makes the executor's device current for the calling thread (nothing for the CPU).
void bind_to_device(const Executor& e);

// The chunk engine of the executor for the columns of rc (its device already bound).
std::unique_ptr<ChunkEngine> make_engine(const Executor& e, const RunConfig& rc);

// Integrates and reduces trajectories `chunk` on the engine, alone (no pipelining);
// wall_seconds is the time this took. `done`, when given, is advanced as trajectories finish
// (for the progress line).
RangeResult integrate_chunk(ChunkEngine& engine, const RunConfig& rc, TrajectoryRange chunk, DoneCounter* done = nullptr);

// Runs the chunks that `next` hands out on `engine` and passes each, reduced, to `deliver` in the
// order taken: one at a time on the CPU collecting path where the run collects events
// (integrate_chunk), else through the double-buffered pipeline (chunk_pipeline.hpp). `done`, when
// given, is advanced as trajectories finish.
void run_chunks(ChunkEngine& engine, const RunConfig& rc, const std::function<std::optional<TrajectoryRange>()>& next,
                const std::function<void(RangeResult)>& deliver, DoneCounter* done = nullptr);

// Runs chunks from `queue` on every executor until it is empty: in the calling thread for a
// single executor, else in one thread each; each executor runs its chunks through its own
// engine and pipeline (chunk_pipeline.hpp) and hands them to `collector` in the order taken. The first failure cancels the queue and is
// rethrown here once every thread has stopped. `between_chunks` (optional) is called by each
// worker before it takes a chunk: an exception from it stops the run like a failure (the
// Python module's check for Ctrl-C; in the calling thread when there is one executor).
void run_queue(const std::vector<Executor>& executors, const RunConfig& rc, ChunkQueue& queue, ResultCollector& collector,
               const std::function<void()>& between_chunks = {});

}  // namespace skipstone
