// Owned columns (skipstone/observable_columns.hpp) of a chunk, packed on the host from whole
// trajectory results: what the CPU backend's kernels produce, turned into what the CUDA kernel
// writes, so that one reduction (reduce_columns) serves both backends.
#pragma once
#include <cstdint>
#include <vector>

#include "skipstone/observable_columns.hpp"

namespace skipstone {

class ColumnBuffer {
 public:
  explicit ColumnBuffer(std::vector<ColumnRequest> requests);
  // The columns of results[0 .. n), valid until the next pack.
  ColumnsView pack(const TrajectoryResult* results, std::uint64_t n);

 private:
  std::vector<ColumnRequest> requests_;
  std::vector<std::uint8_t> status_;
  std::vector<std::uint64_t> events_;
  std::vector<std::vector<double>> data_;
  std::vector<double*> columns_;
};

}  // namespace skipstone
