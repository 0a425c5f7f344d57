// The CPU backend's chunk engine: a chunk runs in submit() on all the OpenMP threads of the
// calling thread, into whole results that are then packed into the slot's columns.
#pragma once
#include <memory>
#include <vector>

#include "chunk_engine.hpp"

namespace skipstone {

std::unique_ptr<ChunkEngine> make_cpu_engine(const ScanSpec& spec, const std::vector<ColumnRequest>& requests);

}  // namespace skipstone
