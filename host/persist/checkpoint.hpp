// Checkpoints of a running scan in DIR/.checkpoint/, so that `skipstone run ... --resume`
// after a crash or kill -9 finishes the scan with outputs identical to an uninterrupted run.
// Every finished chunk but the last is saved as a folder chunk_<first>_<end>/ in the range-file
// form (range_files.hpp: values and unmerged block statistics, exact), written under a
// temporary name and renamed, so that at any moment the folder holds only whole chunks;
// manifest.json records the config hash, version and trajectory range it belongs to. The
// folder is removed once the final outputs are written.
#pragma once
#include <filesystem>
#include <vector>

#include "config.hpp"
#include "range_result.hpp"

namespace skipstone {

class Checkpoint {
 public:
  // Without `resume`, a checkpoint of an unfinished run in out_dir is an error (UsageError:
  // add --resume or remove it). With `resume`, one made for another config, version or range is
  // an error, and temporary files left by the interrupted run are removed.
  Checkpoint(std::filesystem::path out_dir, const RunConfig& rc, TrajectoryRange range, bool resume);

  // The saved chunks, ordered by first (empty unless resuming).
  std::vector<RangeResult> load_finished() const;
  void save(const RangeResult& chunk);
  // Called after the final outputs are written.
  void remove();

  const std::filesystem::path& dir() const { return dir_; }

 private:
  void write_manifest() const;
  std::filesystem::path out_dir_, dir_;
  const RunConfig& rc_;
  TrajectoryRange range_;
  bool resume_;
  bool manifest_written_ = false;
};

}  // namespace skipstone
