// CPU chunk engine: cpu::run_chunk into a reused buffer, packed per slot.
#include "cpu_engine.hpp"

#include <array>

#include "column_buffer.hpp"

namespace skipstone {

namespace {

class CpuEngine final : public ChunkEngine {
 public:
  CpuEngine(const ScanSpec& spec, const std::vector<ColumnRequest>& requests)
      : spec_(spec), slots_{ColumnBuffer(requests), ColumnBuffer(requests)} {}
  void submit(int slot, std::uint64_t first, std::uint64_t n, DoneCounter* done) override {
    results_.resize(n);
    cpu::run_chunk(spec_, first, n, results_.data(), done);
    views_.at(static_cast<std::size_t>(slot)) = slots_.at(static_cast<std::size_t>(slot)).pack(results_.data(), n);
  }
  ColumnsView wait(int slot) override { return views_.at(static_cast<std::size_t>(slot)); }

 private:
  ScanSpec spec_;
  std::vector<TrajectoryResult> results_;
  std::array<ColumnBuffer, kSlots> slots_;
  std::array<ColumnsView, kSlots> views_{};
};

}  // namespace

std::unique_ptr<ChunkEngine> make_cpu_engine(const ScanSpec& spec, const std::vector<ColumnRequest>& requests) {
  return std::make_unique<CpuEngine>(spec, requests);
}

}  // namespace skipstone
