// Finding, refusing and removing the outputs of an earlier run in an output folder.
#include "previous_outputs.hpp"

#include <algorithm>
#include <fstream>
#include <iostream>
#include <set>

#include "config_error.hpp"

namespace skipstone {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

// meta.json of a skipstone run or shard, else null.
json read_skipstone_meta(const fs::path& file) {
  std::ifstream in(file);
  if (!in) return nullptr;
  const json meta = json::parse(in, nullptr, false);
  if (meta.is_discarded() || !meta.is_object() || !meta.contains("skipstone_version")) return nullptr;
  if (!(meta.contains("partial") || (meta.contains("observables") && meta["observables"].is_object()))) return nullptr;
  return meta;
}

// The file names a meta.json records: meta.json, per observable its map, heat map and shard range
// files, the axis files of random scans, range.json of a shard and the boundary and section outputs.
std::set<std::string> recorded_names(const json& meta) {
  std::set<std::string> names = {"meta.json"};
  std::set<std::string> observables;
  if (meta.contains("observables") && meta["observables"].is_object())
    for (const auto& [name, value] : meta["observables"].items()) observables.insert(name);
  if (meta.contains("config") && meta["config"].is_object() && meta["config"].contains("observables") &&
      meta["config"]["observables"].is_array())
    for (const json& name : meta["config"]["observables"])
      if (name.is_string()) observables.insert(name.get<std::string>());
  for (const std::string& o : observables)
    for (const char* suffix : {".npy", ".png", ".values.npy", ".block_stats.npy"}) names.insert(o + suffix);
  if (meta.contains("axes") && meta["axes"].is_array())
    for (const json& axis : meta["axes"])
      if (axis.is_object() && axis.contains("file") && axis["file"].is_string()) names.insert(axis["file"].get<std::string>());
  if (meta.contains("partial")) names.insert("range.json");
  // the boundary and section outputs' and the survival files (docs/config.md, "Outputs"), whatever the config asked for
  for (const char* kind : {"boundary", "section"})
    for (const char* f : {"_map.npy", "_map.png", "_map.counts.npy", "_events.npy", "_events.rows.npy"})
      names.insert(std::string(kind) + f);
  for (const char* f : {"survival.npy", "survival_times.npy", "survival.counts.npy"}) names.insert(f);
  return names;
}

bool looks_like_output(const std::string& name) {
  auto ends_with = [&](const std::string& suffix) {
    return name.size() >= suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
  };
  return name == "meta.json" || name == "range.json" || ends_with(".npy") || ends_with(".png");
}

// The same run: the same resolved config, and the same shard (or both whole).
bool same_run(const json& meta, const NewRun& run) {
  if (!meta.contains("config") || meta["config"] != run.config) return false;
  if (!meta.contains("partial")) return !run.shard;
  const json& p = meta["partial"];
  return run.shard && p.is_object() && p.value("shard", json()) == run.shard->index &&
         p.value("shards", json()) == run.shard->count;
}

std::string list(const std::vector<std::string>& names) {
  constexpr std::size_t kShown = 8;
  std::string out;
  for (std::size_t i = 0; i < names.size() && i < kShown; ++i) out += (i ? ", " : "") + names[i];
  if (names.size() > kShown) out += " and " + std::to_string(names.size() - kShown) + " more";
  return out;
}

// The names this run writes, as its meta.json will record them: what a run of the same config
// that was killed while writing its outputs (before its meta.json) left in the folder.
std::set<std::string> own_names(const NewRun& run) {
  json meta = {{"config", run.config}, {"axes", json::array()}};
  const json& scan = run.config.value("scan", json::object());
  if (scan.value("type", std::string()) == "random" && scan.contains("axes") && scan["axes"].is_array())
    for (const json& axis : scan["axes"])
      if (axis.is_object() && axis.contains("param") && axis["param"].is_string())
        meta["axes"].push_back({{"file", "axis_" + axis["param"].get<std::string>() + ".npy"}});
  if (run.shard) meta["partial"] = json::object();
  return recorded_names(meta);
}

}  // namespace

PreviousOutputs check_previous_outputs(const fs::path& dir, const NewRun& run, bool overwrite) {
  PreviousOutputs prev{dir, {}, {}};
  const json meta = read_skipstone_meta(dir / "meta.json");
  // --resume beside the checkpoint of a run killed while it wrote its outputs: they are its own
  // (the checkpoint is checked against this config before anything runs)
  const bool interrupted = meta.is_null() && run.resume && fs::is_directory(dir / ".checkpoint");
  const std::set<std::string> recorded =
      interrupted ? own_names(run) : meta.is_null() ? std::set<std::string>{} : recorded_names(meta);
  std::vector<std::string> strays;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (name.empty() || name[0] == '.') continue;  // .checkpoint/, temporaries of atomic writes
    if (e.symlink_status().type() == fs::file_type::directory) {
      prev.others.push_back(name + "/");
    } else if (recorded.count(name)) {
      prev.files.push_back(name);
    } else if (looks_like_output(name)) {
      strays.push_back(name);
    } else {
      prev.others.push_back(name);
    }
  }
  std::sort(prev.files.begin(), prev.files.end(), [](const std::string& a, const std::string& b) {
    return (a == "meta.json") != (b == "meta.json") ? a == "meta.json" : a < b;
  });
  std::sort(strays.begin(), strays.end());
  std::sort(prev.others.begin(), prev.others.end());
  if (!strays.empty())
    throw UsageError("output folder " + dir.string() + " holds " + list(strays) + ", which " +
                     (meta.is_null() ? "no skipstone meta.json there records" : "its meta.json does not record") +
                     " as outputs of a run (files of yours, or of a run that did not finish): move them away or "
                     "choose another folder (--overwrite replaces only the outputs a meta.json records)");
  if (prev.files.empty()) return prev;
  if (!overwrite && !interrupted && !(run.resume && same_run(meta, run))) {
    const std::string what = meta.contains("partial") ? "shard " + meta["partial"].value("shard", json()).dump() + "/" +
                                                            meta["partial"].value("shards", json()).dump() + " of a run"
                                                      : "a run";
    throw UsageError("output folder " + dir.string() + " holds the outputs of " + what + " of " +
                     meta.value("system", json("?")).dump() + " (" + list(prev.files) +
                     "): add --overwrite to replace them, or choose another folder");
  }
  std::cerr << "skipstone: replacing the " << prev.files.size() << " output files of the earlier run in " << dir.string()
            << (prev.others.empty() ? "" : "; keeping " + list(prev.others)) << "\n";
  return prev;
}

void remove_previous_outputs(const PreviousOutputs& previous) {
  for (const std::string& name : previous.files) {
    std::error_code ec;
    fs::remove(previous.dir / name, ec);
    if (ec) throw std::runtime_error("cannot remove " + (previous.dir / name).string() + ": " + ec.message());
  }
}

}  // namespace skipstone
