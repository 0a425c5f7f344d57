// Shard outputs of `skipstone run --shard I/N` and their reading by `skipstone merge`: the
// shard's range files (range_files.hpp) plus DIR/meta.json, written last, which marks the
// folder partial ("partial": shard, shards, first, end) and holds the resolved config, its
// hash, the version, backend, device and chunk size.
#pragma once
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "backend.hpp"
#include "config.hpp"
#include "range_result.hpp"
#include "shard.hpp"

namespace skipstone {

nlohmann::json partial_metadata(const RunConfig& rc, const RangeResult& r, const Shard& shard,
                                const BackendChoice& backend, std::uint64_t chunk_size, const std::string& command_line);

void write_partial(const std::filesystem::path& dir, const RunConfig& rc, const RangeResult& r, const nlohmann::json& meta);

// DIR/meta.json of a shard output; throws std::runtime_error naming the file when it is
// missing, unreadable or not the meta.json of a shard.
nlohmann::json read_partial_metadata(const std::filesystem::path& dir);

}  // namespace skipstone
