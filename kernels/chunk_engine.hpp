// A backend's engine for the chunks of one scan: it integrates a chunk of trajectories into the
// requested observables' columns (skipstone/observable_columns.hpp) in one of kSlots slots,
// so that the host can reduce one chunk while the next one runs (host/scan/chunk_pipeline.hpp).
// submit() may return before the chunk is done (CUDA: queued on the slot's stream); wait()
// returns its columns, which stay valid until the slot is submitted again.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "backends.hpp"
#include "skipstone/observable_columns.hpp"
#include "skipstone/scan_spec.hpp"

namespace skipstone {

class ChunkEngine {
 public:
  static constexpr int kSlots = 2;
  virtual ~ChunkEngine() = default;
  // Starts trajectories [first, first + n) into `slot`; `done`, when given, is advanced by n
  // once the chunk has finished.
  virtual void submit(int slot, std::uint64_t first, std::uint64_t n, DoneCounter* done) = 0;
  // Blocks until the chunk of `slot` has finished; its columns.
  virtual ColumnsView wait(int slot) = 0;
  // The collecting path, for runs whose events feed outputs (backends.hpp: BoundaryCollect):
  // trajectories [first, first + n) of `spec` into whole results out[0 .. n) and `collect`, at
  // once (not through the slots). An engine on the host runs the CPU backend's collecting kernel.
  virtual void collect(const ScanSpec& spec, std::uint64_t first, std::uint64_t n, TrajectoryResult* out,
                       BoundaryCollect& collect, DoneCounter* done) {
    cpu::run_chunk_collecting(spec, first, n, out, collect, done);
  }
};

// Bytes per trajectory of the columns of `requests` (with the status and the event count).
inline std::uint64_t column_bytes_per_trajectory(const std::vector<ColumnRequest>& requests) {
  std::uint64_t b = sizeof(std::uint8_t) + sizeof(std::uint64_t);
  for (const ColumnRequest& r : requests) b += sizeof(double) * static_cast<std::uint64_t>(r.length);
  return b;
}

namespace cuda {
// An engine on the current device: device and pinned host buffers per slot, reused across
// chunks (grown when a chunk is larger), one stream per slot. Throws std::runtime_error without
// a usable device or a CUDA build.
std::unique_ptr<ChunkEngine> make_engine(const ScanSpec& spec, const std::vector<ColumnRequest>& requests);
// Resident threads of the current device (multiprocessors x threads per multiprocessor).
std::uint64_t resident_threads();
}  // namespace cuda

}  // namespace skipstone
