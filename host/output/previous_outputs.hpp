// The outputs an earlier run left in an output folder. A run (or merge) into a folder that holds
// another run's outputs would leave that run's maps beside its own meta.json; so it is refused
// unless --overwrite, which removes exactly the files the earlier meta.json records (its maps,
// heat maps, axis files, shard range files and meta.json itself) just before the new outputs
// are written. Files that look like outputs (*.npy, *.png, meta.json, range.json) but are not
// recorded by a skipstone meta.json in the folder are refused even with --overwrite: they may be
// the user's, or the remains of an unfinished run, and are never deleted. Other files, folders
// and hidden entries (.checkpoint/, temporaries) are left alone.
#pragma once
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "shard.hpp"

namespace skipstone {

// The earlier run's files in the folder (meta.json first) and the files left alone.
struct PreviousOutputs {
  std::filesystem::path dir;
  std::vector<std::string> files;
  std::vector<std::string> others;
};

// What the new run is: its resolved config and, for `run --shard`, the shard. With `resume`,
// the outputs of this same run (a shard task started again after it had finished) are replaced
// without --overwrite.
struct NewRun {
  const nlohmann::json& config;
  std::optional<Shard> shard;
  bool resume = false;
};

// Inspects `dir` (existing). Throws UsageError naming the folder and the files when it holds
// outputs not recorded by a skipstone meta.json, or another run's outputs without `overwrite`.
// With `overwrite` and outputs to replace, says so on stderr (naming the files left alone).
PreviousOutputs check_previous_outputs(const std::filesystem::path& dir, const NewRun& run, bool overwrite);

// Removes the recorded files (meta.json first, so that the folder never describes a mix).
void remove_previous_outputs(const PreviousOutputs& previous);

}  // namespace skipstone
