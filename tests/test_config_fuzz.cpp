// test_config_fuzz.cpp — replays the config fuzzer's seed corpus (examples/*.json) and its
// regression inputs (tests/fuzz/regressions/: edge cases and inputs the fuzzer or review
// found) through the fuzzer's property (tests/fuzz/config_property.hpp), in the ordinary
// build; plus the regression for control characters in key paths.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "config_property.hpp"

namespace fs = std::filesystem;

namespace {

std::vector<fs::path> replay_inputs() {
  std::vector<fs::path> files;
  for (const char* dir : {"examples", "tests/fuzz/regressions"})
    for (const auto& e : fs::directory_iterator(fs::path(SKIPSTONE_SOURCE_DIR) / dir))
      if (e.is_regular_file()) files.push_back(e.path());
  return files;
}

TEST(ConfigFuzz, SeedCorpusAndRegressionsSatisfyTheProperty) {
  const std::vector<fs::path> files = replay_inputs();
  EXPECT_GE(files.size(), 20u);
  for (const fs::path& f : files) {
    std::ifstream in(f, std::ios::binary);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_EQ(skipstone::fuzz::config_property_violation(text), "") << f;
  }
}

TEST(ConfigFuzz, ControlCharactersInKeysAreEscapedInTheMessage) {
  const std::string text = R"({"system": "disc", "parameters": {"gamma": 0.8, "R\u0000x": 1}, "stop": {"max_events": 10}})";
  try {
    skipstone::parse_config_text(text);
    FAIL() << "an unknown key was accepted";
  } catch (const skipstone::ConfigError& e) {
    EXPECT_EQ(e.key(), "parameters.R\\u0000x");
    EXPECT_EQ(std::string(e.what()).rfind("config error: parameters.R\\u0000x: unknown key", 0), 0u) << e.what();
  }
}

}  // namespace
