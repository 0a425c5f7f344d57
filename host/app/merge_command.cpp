// `skipstone merge DIR1 DIR2 ... --out DIR`: combines the shard outputs of `run --shard I/N`
// into the outputs of the single-process run. Checks that every shard comes from the same
// config and skipstone version and that the shards cover the scan exactly once, then appends
// them in block order, so maps, heat maps and statistics are bit for bit those of one run.
#include <algorithm>
#include <iostream>

#include "cli_args.hpp"
#include "commands.hpp"
#include "config.hpp"
#include "config_hash.hpp"
#include "memory_check.hpp"
#include "output_location.hpp"
#include "output_writer.hpp"
#include "partial_output.hpp"
#include "previous_outputs.hpp"
#include "range_files.hpp"
#include "scan_runner.hpp"

namespace skipstone {

const char* const kMergeHelp =
    "usage: skipstone merge SHARD_DIR... --out DIR [--overwrite] [--quiet]\n"
    "\n"
    "Combines the outputs of `skipstone run CONFIG.json --out SHARD_DIR --shard I/N` for\n"
    "I = 0 .. N-1 (in any order) into DIR: the same meta.json, .npy maps and PNG heat maps as\n"
    "one `skipstone run CONFIG.json --out DIR` (docs/hpc.md, \"Shards and merge\", lists\n"
    "the meta.json fields that differ). The shards must come from the same config and\n"
    "skipstone version and cover the scan exactly once; otherwise nothing is written (exit 2).\n"
    "\n"
    "options:\n"
    "  --out DIR          output folder (created if missing; not a shard folder); one that\n"
    "                     holds another run's outputs is refused unless --overwrite\n"
    "  --overwrite        replace the outputs of the earlier run in DIR (as for run)\n"
    "  --quiet            no summary on stdout\n";

namespace {

using nlohmann::json;
namespace fs = std::filesystem;

struct ShardInput {
  fs::path dir;
  json meta;
  Shard shard;
};

std::vector<ShardInput> read_shards(const std::vector<std::string>& dirs) {
  std::vector<ShardInput> shards;
  for (const auto& d : dirs) {
    if (d.empty()) throw UsageError("SHARD_DIR argument '': empty path");
    ShardInput s{d, {}, {}};
    try {
      s.meta = read_partial_metadata(s.dir);
      s.shard = {s.meta.at("partial").at("shard").get<std::uint64_t>(), s.meta.at("partial").at("shards").get<std::uint64_t>()};
      for (const char* key : {"config", "config_hash", "skipstone_version", "backend", "device", "chunk_size"})
        (void)s.meta.at(key);
    } catch (const json::exception& e) {
      throw UsageError((s.dir / "meta.json").string() + ": malformed shard metadata: " + e.what());
    } catch (const std::runtime_error& e) {
      throw UsageError(e.what());
    }
    shards.push_back(std::move(s));
  }
  return shards;
}

// Same config, version and shard count everywhere; every shard index exactly once.
void check_shards(std::vector<ShardInput>& shards) {
  const ShardInput& first = shards.front();
  for (const ShardInput& s : shards) {
    const std::string where = (s.dir / "meta.json").string();
    for (const char* key : {"config_hash", "config", "skipstone_version"})
      if (s.meta.at(key) != first.meta.at(key))
        throw UsageError(where + ": " + key + " differs from " + (first.dir / "meta.json").string() +
                         " (shards of different runs cannot be merged)");
    if (s.shard.count != first.shard.count)
      throw UsageError(where + ": shard " + std::to_string(s.shard.index) + "/" + std::to_string(s.shard.count) +
                       " belongs to a split into " + std::to_string(s.shard.count) + ", not " +
                       std::to_string(first.shard.count));
  }
  std::sort(shards.begin(), shards.end(), [](const ShardInput& a, const ShardInput& b) { return a.shard.index < b.shard.index; });
  for (std::size_t i = 0; i < shards.size(); ++i) {
    if (i > 0 && shards[i].shard.index == shards[i - 1].shard.index)
      throw UsageError("shard " + std::to_string(shards[i].shard.index) + "/" + std::to_string(first.shard.count) +
                       " is given twice: " + shards[i - 1].dir.string() + " and " + shards[i].dir.string());
  }
  const std::uint64_t n = shards.front().shard.count;
  std::size_t k = 0;
  for (std::uint64_t i = 0; i < n; ++i, ++k)
    if (k >= shards.size() || shards[k].shard.index != i)
      throw UsageError("shard " + std::to_string(i) + "/" + std::to_string(n) + " is missing");
}

// The shards' results appended in block order, each checked against the range its shard
// index stands for.
RangeResult merged_ranges(const std::vector<ShardInput>& shards, const RunConfig& rc) {
  RangeResult whole = empty_range_result(rc, 0);
  for (auto& [name, v] : whole.values) v.reserve(values_per_trajectory(rc, name) * rc.spec.count);
  for (const ShardInput& s : shards) {
    RangeResult part;
    try {
      part = read_range_files(s.dir, rc);
    } catch (const std::runtime_error& e) {
      throw UsageError(e.what());
    }
    const TrajectoryRange expected = shard_range(rc.spec.count, s.shard);
    if (part.range.first != expected.first || part.range.end != expected.end)
      throw UsageError((s.dir / "range.json").string() + ": holds trajectories " + std::to_string(part.range.first) +
                       " to " + std::to_string(part.range.end) + ", but shard " + std::to_string(s.shard.index) + "/" +
                       std::to_string(s.shard.count) + " is " + std::to_string(expected.first) + " to " +
                       std::to_string(expected.end));
    append_range(whole, std::move(part));
  }
  return whole;
}

}  // namespace

int merge_command(const std::vector<std::string>& args, const std::string& command_line) {
  const ParsedArgs a = parse_args(args, {"--out"}, {"--quiet", "--help", "--overwrite"});
  if (a.flags.count("--help")) {
    std::cout << kMergeHelp;
    return 0;
  }
  if (a.positional.empty()) throw UsageError("merge needs the shard folders (SHARD_DIR...)");
  const fs::path dir = folder_option(a, "--out", "merge needs --out DIR");

  // Every shard is read and checked before the output folder is created or touched, so that a
  // rejected merge leaves nothing behind.
  std::vector<ShardInput> shards = read_shards(a.positional);
  check_shards(shards);
  const json& meta0 = shards.front().meta;
  RunConfig rc = parse_config(meta0.at("config"));
  rc.overrides = meta0.value("overrides", json::array());
  if (config_hash(rc.resolved) != meta0.at("config_hash"))
    throw UsageError((shards.front().dir / "meta.json").string() + ": config does not resolve to its config_hash");
  for (const ShardInput& s : shards) {
    std::error_code ec;
    if (fs::equivalent(s.dir, dir, ec))
      throw UsageError("--out " + dir.string() + " is the shard folder " + s.dir.string() + ": choose another folder");
  }
  check_memory(rc, rc.spec.count);
  RangeResult whole = merged_ranges(shards, rc);
  prepare_output_dir(dir, estimated_output_bytes(rc));
  const PreviousOutputs previous = check_previous_outputs(dir, {rc.resolved, std::nullopt, false}, a.flags.count("--overwrite") > 0);
  const BackendChoice backend{meta0.at("backend") == "cuda" ? Backend::cuda : Backend::cpu, meta0.at("device").get<std::string>()};
  const ScanResult res = scan_result(std::move(whole), meta0.at("chunk_size").get<std::uint64_t>(), rc);
  remove_previous_outputs(previous);
  write_outputs(dir, rc, res, run_metadata(rc, res, backend, command_line));
  if (!a.flags.count("--quiet"))
    std::cout << "merged " << shards.size() << " shards (" << rc.spec.count << " trajectories) into " << dir.string() << "/\n";
  return 0;
}

}  // namespace skipstone
