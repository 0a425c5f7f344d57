// The host side of a worker's chunks, one code for every backend: chunk k + 1 is submitted to
// the engine's other slot before chunk k is waited for, so that the device computes the next
// chunk while the host reduces, checkpoints and delivers this one (double buffering), and the
// chunks are delivered in the order they were taken whatever order the engine finishes them in.
#pragma once
#include <functional>
#include <optional>

#include "chunk_engine.hpp"
#include "range_result.hpp"

namespace skipstone {

// Takes chunks from next() until it returns nothing and hands each one's columns to deliver(),
// in the order taken, with the seconds since the previous delivery (or the start). An exception
// from next() or deliver() stops the pipeline; a chunk still in the engine is dropped.
void run_pipeline(ChunkEngine& engine, const std::function<std::optional<TrajectoryRange>()>& next,
                  const std::function<void(TrajectoryRange, const ColumnsView&, double)>& deliver, DoneCounter* done);

}  // namespace skipstone
