// Work queue of scan chunks.
#include "chunk_queue.hpp"

#include <algorithm>

#include "statistics.hpp"

namespace skipstone {

ChunkQueue::ChunkQueue(TrajectoryRange range, std::uint64_t chunk, const std::vector<TrajectoryRange>& done) {
  std::uint64_t at = range.first;
  std::size_t d = 0;
  while (at < range.end) {
    if (d < done.size() && done[d].first == at) {
      at = done[d++].end;
      continue;
    }
    const std::uint64_t stop = d < done.size() ? done[d].first : range.end;
    const std::uint64_t n = std::min(chunk, stop - at);
    chunks_.push_back({at, at + n});
    at += n;
  }
}

std::optional<TrajectoryRange> ChunkQueue::next() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (next_ >= chunks_.size()) return std::nullopt;
  return chunks_[next_++];
}

void ChunkQueue::cancel() {
  std::lock_guard<std::mutex> lock(mutex_);
  next_ = chunks_.size();
}

std::uint64_t balanced_chunk_size(std::uint64_t base, std::uint64_t range_size, std::uint64_t workers) {
  if (workers <= 1) return base;
  constexpr std::uint64_t kChunksPerWorker = 8;
  const std::uint64_t share = (range_size + kChunksPerWorker * workers - 1) / (kChunksPerWorker * workers);
  const std::uint64_t blocks = std::max<std::uint64_t>(1, (share + kStatsBlock - 1) / kStatsBlock);
  return std::min(base, blocks * kStatsBlock);
}

}  // namespace skipstone
