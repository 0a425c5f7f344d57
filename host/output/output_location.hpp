// Checks of the output folder before a run starts, so that an unusable location is an error
// naming the path instead of a failure after hours of computing: the folder is created, a
// probe file is created and removed in it (this catches read-only file systems and missing
// permissions, also for root), and its free space is compared with the size of the .npy maps.
#pragma once
#include <cstdint>
#include <filesystem>

#include "config.hpp"

namespace skipstone {

// Bytes of the .npy maps and axis files a run of rc writes (PNG heat maps are compressed and
// smaller; not counted).
std::uint64_t estimated_output_bytes(const RunConfig& rc);
// Bytes of the partial result of `trajectories` trajectories (every value as float64).
std::uint64_t estimated_partial_bytes(const RunConfig& rc, std::uint64_t trajectories);

// Throws std::runtime_error naming `dir` when it cannot be created or written, or when its
// file system has fewer than `bytes_needed` bytes available.
void prepare_output_dir(const std::filesystem::path& dir, std::uint64_t bytes_needed);

}  // namespace skipstone
