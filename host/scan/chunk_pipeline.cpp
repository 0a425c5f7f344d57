// Double-buffered, in-order chunk pipeline over an engine's two slots.
#include "chunk_pipeline.hpp"

#include <chrono>

namespace skipstone {

void run_pipeline(ChunkEngine& engine, const std::function<std::optional<TrajectoryRange>()>& next,
                  const std::function<void(TrajectoryRange, const ColumnsView&, double)>& deliver, DoneCounter* done) {
  static_assert(ChunkEngine::kSlots == 2, "the pipeline alternates between two slots");
  std::optional<TrajectoryRange> in_slot[2];
  const auto take = [&](int slot) {
    in_slot[slot] = next();
    if (in_slot[slot]) engine.submit(slot, in_slot[slot]->first, in_slot[slot]->size(), done);
  };
  auto last = std::chrono::steady_clock::now();
  int slot = 0;
  take(slot);
  while (in_slot[slot]) {
    take(1 - slot);  // runs while this slot's chunk is reduced and delivered
    const ColumnsView columns = engine.wait(slot);
    const auto now = std::chrono::steady_clock::now();
    deliver(*in_slot[slot], columns, std::chrono::duration<double>(now - last).count());
    last = now;
    slot = 1 - slot;
  }
}

}  // namespace skipstone
