// Comparison of two output folders of skipstone for the shard, merge and resume tests: the
// same file names, every .npy and .png byte for byte, and meta.json equal except the fields
// that describe one process rather than the result (README "Shards and merge").
#pragma once
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "cli_support.hpp"

namespace skipstone::testing {

// meta.json fields that may differ between runs with identical results.
inline const std::vector<nlohmann::json::json_pointer>& run_specific_meta_fields() {
  static const std::vector<nlohmann::json::json_pointer> fields = {
      nlohmann::json::json_pointer("/created"), nlohmann::json::json_pointer("/command"),
      nlohmann::json::json_pointer("/wall_time_s"), nlohmann::json::json_pointer("/throughput/wall_seconds"),
      nlohmann::json::json_pointer("/throughput/computed_trajectories_per_s"),
      nlohmann::json::json_pointer("/throughput/points_per_s"), nlohmann::json::json_pointer("/throughput/events_per_s")};
  return fields;
}

inline nlohmann::json without_run_specific_fields(nlohmann::json meta) {
  for (const auto& f : run_specific_meta_fields()) {
    EXPECT_TRUE(meta.contains(f)) << "meta.json lacks " << f.to_string();
    const auto parent = f.parent_pointer();
    meta[parent].erase(f.back());
  }
  return meta;
}

inline void expect_same_outputs(const fs::path& expected, const fs::path& actual) {
  const auto names = file_names(expected);
  EXPECT_EQ(file_names(actual), names) << actual << " and " << expected << " hold different files";
  for (const auto& f : names) {
    if (f == "meta.json") continue;
    EXPECT_TRUE(read_text(expected / f) == read_text(actual / f)) << f << " differs between " << expected << " and " << actual;
  }
  EXPECT_EQ(without_run_specific_fields(read_json(expected / "meta.json")),
            without_run_specific_fields(read_json(actual / "meta.json")));
}

}  // namespace skipstone::testing
