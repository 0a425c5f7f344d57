// Built instead of ensemble_cuda.cu when the CUDA toolkit is absent or disabled
// (SKIPSTONE_CUDA=OFF): the CUDA backend reports itself unavailable with the reason.
#include <stdexcept>

#include "backends.hpp"
#include "chunk_engine.hpp"

namespace skipstone::cuda {

bool available(std::string* why) {
  if (why) *why = "this skipstone was built without the CUDA backend (SKIPSTONE_CUDA=OFF or no CUDA toolkit)";
  return false;
}
int device_count() { return 0; }
void set_device(int) { throw std::runtime_error("CUDA backend not built"); }
int current_device() { throw std::runtime_error("CUDA backend not built"); }
std::string device_description() { return "none"; }
DeviceInfo device_info() { throw std::runtime_error("CUDA backend not built"); }
std::uint64_t free_device_memory() { return 0; }
void run_chunk(const ScanSpec&, std::uint64_t, std::uint64_t, TrajectoryResult*, DoneCounter*) {
  throw std::runtime_error("CUDA backend not built");
}
ResultChunks::~ResultChunks() = default;
const TrajectoryResult* ResultChunks::run(const ScanSpec&, std::uint64_t, std::uint64_t) {
  throw std::runtime_error("CUDA backend not built");
}
std::unique_ptr<ChunkEngine> make_engine(const ScanSpec&, const std::vector<ColumnRequest>&) {
  throw std::runtime_error("CUDA backend not built");
}
std::uint64_t resident_threads() { return 0; }

}  // namespace skipstone::cuda
