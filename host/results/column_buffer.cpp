// Host packing of whole trajectory results into columns.
#include "column_buffer.hpp"

#include <utility>

namespace skipstone {

ColumnBuffer::ColumnBuffer(std::vector<ColumnRequest> requests)
    : requests_(std::move(requests)), data_(requests_.size()), columns_(requests_.size()) {}

ColumnsView ColumnBuffer::pack(const TrajectoryResult* results, std::uint64_t n) {
  status_.resize(n);
  events_.resize(n);
  for (std::size_t c = 0; c < requests_.size(); ++c) {
    data_[c].resize(n * static_cast<std::uint64_t>(requests_[c].length));
    columns_[c] = data_[c].data();
  }
  const int count = static_cast<int>(requests_.size());
  for (std::uint64_t i = 0; i < n; ++i)
    write_columns(results[i], i, count, requests_.data(), columns_.data(), status_.data(), events_.data());
  ColumnsView v;
  v.n = n;
  v.status = status_.data();
  v.events = events_.data();
  v.columns = columns_.data();
  return v;
}

}  // namespace skipstone
