// Saving, validating and loading the checkpoint chunks of a run.
#include "checkpoint.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <regex>
#include <stdexcept>

#include "atomic_file.hpp"
#include "config_error.hpp"
#include "config_hash.hpp"
#include "config_override.hpp"
#include "range_files.hpp"
#include "version.hpp"

namespace skipstone {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

bool is_chunk_dir(const fs::directory_entry& e) {
  return e.is_directory() && e.path().filename().string().rfind("chunk_", 0) == 0;
}

std::size_t count_chunks(const fs::path& dir) {
  std::size_t n = 0;
  for (const auto& e : fs::directory_iterator(dir))
    if (is_chunk_dir(e)) ++n;
  return n;
}

// Temporary names of io::write_file_atomically (".<name>.tmp.<pid>.<n>") and of unfinished chunks.
bool is_leftover_temporary(const std::string& name) {
  static const std::regex temp(R"(^\..+\.tmp\.[0-9]+\.[0-9]+$|^\.tmp\.chunk_.*)");
  return std::regex_match(name, temp);
}

void remove_leftover_temporaries(const fs::path& dir) {
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (is_leftover_temporary(e.path().filename().string())) fs::remove_all(e.path(), ec);
}

void fsync_directory(const fs::path& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  (void)::fsync(fd);
  (void)::close(fd);
}

// The overrides are recorded only when there are any: a checkpoint of a run without them
// reads as before.
json manifest_json(const RunConfig& rc, TrajectoryRange range) {
  json m = {{"format", "skipstone-checkpoint-1"}, {"skipstone_version", SKIPSTONE_VERSION},
            {"config_hash", config_hash(rc.resolved)}, {"first", range.first}, {"end", range.end}};
  if (!rc.overrides.empty()) m["overrides"] = rc.overrides;
  return m;
}

}  // namespace

Checkpoint::Checkpoint(fs::path out_dir, const RunConfig& rc, TrajectoryRange range, bool resume)
    : out_dir_(std::move(out_dir)), dir_(out_dir_ / ".checkpoint"), rc_(rc), range_(range), resume_(resume) {
  if (resume_) remove_leftover_temporaries(out_dir_);
  if (!fs::is_directory(dir_)) return;
  const std::size_t chunks = count_chunks(dir_);
  if (!resume_ && chunks > 0)
    throw UsageError(dir_.string() + " holds " + std::to_string(chunks) +
                     " finished chunks of an unfinished run: add --resume to continue it, or remove " + dir_.string() +
                     " to start over");
  if (chunks == 0) {  // nothing to resume (e.g. killed before the first chunk was saved)
    fs::remove_all(dir_);
    return;
  }
  const fs::path manifest = dir_ / "manifest.json";
  std::ifstream in(manifest);
  json m;
  try {
    if (in) m = json::parse(in);
  } catch (const json::exception&) {
    m = nullptr;  // a manifest is written atomically: unreadable means foreign; reported below
  }
  const json recorded = m.is_object() ? m.value("overrides", json::array()) : json::array();
  if (in && recorded != rc_.overrides)
    throw UsageError(dir_.string() + " belongs to a run started with " + set_arguments_text(recorded) +
                     ", but this run has " + set_arguments_text(rc_.overrides) +
                     ": resume with the same --set values, or remove " + dir_.string() + " to start over");
  if (!in || m != manifest_json(rc_, range_))
    throw UsageError(manifest.string() + " does not belong to this run (another config, --shard, skipstone version, "
                     "or no manifest): remove " + dir_.string() + " to start over");
  manifest_written_ = true;
  remove_leftover_temporaries(dir_);
}

std::vector<RangeResult> Checkpoint::load_finished() const {
  std::vector<RangeResult> chunks;
  if (!resume_ || !fs::is_directory(dir_)) return chunks;
  for (const auto& e : fs::directory_iterator(dir_))
    if (is_chunk_dir(e)) chunks.push_back(read_range_files(e.path(), rc_));
  std::sort(chunks.begin(), chunks.end(), [](const RangeResult& a, const RangeResult& b) { return a.range.first < b.range.first; });
  std::uint64_t covered = range_.first;
  for (const RangeResult& c : chunks) {
    if (c.range.first < covered || c.range.end > range_.end || (c.range.end % kStatsBlock != 0 && c.range.end != range_.end))
      throw std::runtime_error(dir_.string() + ": chunk " + std::to_string(c.range.first) + " to " +
                               std::to_string(c.range.end) + " overlaps another or lies outside the run");
    covered = c.range.end;
  }
  return chunks;
}

void Checkpoint::write_manifest() const {
  io::write_text_atomically(dir_ / "manifest.json", manifest_json(rc_, range_).dump(2) + "\n");
}

void Checkpoint::save(const RangeResult& chunk) {
  std::error_code ec;
  fs::create_directories(dir_, ec);
  if (ec) throw std::runtime_error("cannot create checkpoint folder " + dir_.string() + ": " + ec.message());
  if (!manifest_written_) {
    write_manifest();
    manifest_written_ = true;
  }
  const std::string name = "chunk_" + std::to_string(chunk.range.first) + "_" + std::to_string(chunk.range.end);
  const fs::path tmp = dir_ / (".tmp." + name + "." + std::to_string(::getpid()));
  fs::remove_all(tmp, ec);
  fs::create_directories(tmp, ec);
  if (ec) throw std::runtime_error("cannot create checkpoint folder " + tmp.string() + ": " + ec.message());
  try {
    write_range_files(tmp, rc_, chunk);
  } catch (...) {
    fs::remove_all(tmp, ec);  // a failed write (disk full, file-size limit) leaves no half chunk
    throw;
  }
  fs::rename(tmp, dir_ / name, ec);
  if (ec) throw std::runtime_error("cannot rename checkpoint " + tmp.string() + ": " + ec.message());
  fsync_directory(dir_);
}

void Checkpoint::remove() {
  std::error_code ec;
  fs::remove_all(dir_, ec);
}

}  // namespace skipstone
