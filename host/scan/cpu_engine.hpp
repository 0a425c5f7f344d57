// The CPU backend's chunk engine: a chunk runs on a thread of the engine's own, on all the
// OpenMP threads the submitting thread would use, into whole results that are then packed into
// the slot's columns; submit() returns before the chunk is done.
#pragma once
#include <memory>
#include <vector>

#include "chunk_engine.hpp"

namespace skipstone {

std::unique_ptr<ChunkEngine> make_cpu_engine(const ScanSpec& spec, const std::vector<ColumnRequest>& requests);

}  // namespace skipstone
