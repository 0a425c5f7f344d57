// Writing shard outputs and reading their metadata back.
#include "partial_output.hpp"

#include <fstream>
#include <stdexcept>

#include "atomic_file.hpp"
#include "config_hash.hpp"
#include "iso_time.hpp"
#include "range_files.hpp"
#include "version.hpp"

namespace skipstone {

using nlohmann::json;

json partial_metadata(const RunConfig& rc, const RangeResult& r, const Shard& shard, const BackendChoice& backend,
                      std::uint64_t chunk_size, const std::string& command_line) {
  json counts = json::object();
  for (int s = 0; s < kStatusCount; ++s) counts[status_name(static_cast<Status>(s))] = r.status_counts[s];
  return {{"partial", {{"shard", shard.index}, {"shards", shard.count}, {"first", r.range.first}, {"end", r.range.end}}},
          {"skipstone_version", SKIPSTONE_VERSION},
          {"created", iso_time_now()},
          {"command", command_line},
          {"config_hash", config_hash(rc.resolved)},
          {"config", rc.resolved},
          {"overrides", rc.overrides},
          {"system", rc.system.name},
          {"backend", backend.backend == Backend::cuda ? "cuda" : "cpu"},
          {"device", backend.description},
          {"trajectories", rc.spec.count},
          {"chunk_size", chunk_size},
          {"wall_time_s", r.wall_seconds},
          {"status_counts", counts}};
}

void write_partial(const std::filesystem::path& dir, const RunConfig& rc, const RangeResult& r, const json& meta) {
  write_range_files(dir, rc, r);
  io::write_text_atomically(dir / "meta.json", meta.dump(2) + "\n");
}

json read_partial_metadata(const std::filesystem::path& dir) {
  const std::filesystem::path file = dir / "meta.json";
  std::ifstream in(file);
  if (!in) throw std::runtime_error(file.string() + ": cannot open (not a finished shard output?)");
  json meta;
  try {
    meta = json::parse(in);
  } catch (const json::exception& e) {
    throw std::runtime_error(file.string() + ": not valid JSON: " + e.what());
  }
  if (!meta.is_object() || !meta.contains("partial"))
    throw std::runtime_error(file.string() + ": not a shard output (no \"partial\" section; made without --shard?)");
  return meta;
}

}  // namespace skipstone
