// test_shards.cpp — `skipstone run --shard I/N` and `skipstone merge`: shards merged in any
// order give the outputs of the plain run byte for byte (meta.json up to the run-specific
// fields), and merge refuses incomplete, duplicated or foreign sets of shards.
#include <gtest/gtest.h>

#include <string>

#include "cli_support.hpp"
#include "run_comparison.hpp"

namespace {

using namespace skipstone::testing;

// kDiscGrid130x100 (cli_support.hpp) has 4 statistics blocks, so 3 shards hold 1, 1 and 2 blocks.

const char* const kRandom = R"({
  "system": "disc", "parameters": {"gamma": 0.8}, "initial": {"start": "boundary", "spin": 0.2},
  "scan": {"type": "random", "count": 9000, "seed": 5, "axes": [{"param": "angle", "min": -1.2, "max": 1.2}]},
  "stop": {"max_events": 100}
})";

class ShardTest : public CliTest {
 protected:
  // Runs shards 0..n-1 of `config` into dir_/shard<I>; returns their folders, quoted, in `order`.
  std::string run_shards(const fs::path& config, int n, const std::vector<int>& order) {
    for (int i = 0; i < n; ++i) {
      const CliResult r = run(config, dir_ / ("shard" + std::to_string(i)),
                              "--backend cpu --shard " + std::to_string(i) + "/" + std::to_string(n));
      EXPECT_EQ(r.rc, 0) << describe(r);
    }
    std::string dirs;
    for (int i : order) dirs += " " + shell_quote((dir_ / ("shard" + std::to_string(i))).string());
    return dirs;
  }
  CliResult merge(const std::string& dirs, const fs::path& out) {
    return skipstone("merge" + dirs + " --out " + shell_quote(out.string()) + " --quiet");
  }
};

TEST_F(ShardTest, ThreeShardsMergedEqualThePlainRun) {
  for (const char* text : {kDiscGrid130x100, kRandom}) {
    const fs::path cfg = write_config("scan.json", text);
    const fs::path plain = dir_ / "plain", merged = dir_ / "merged";
    const CliResult r = run(cfg, plain, "--backend cpu");
    ASSERT_EQ(r.rc, 0) << describe(r);
    const CliResult m = merge(run_shards(cfg, 3, {2, 0, 1}), merged);
    ASSERT_EQ(m.rc, 0) << describe(m);
    expect_same_outputs(plain, merged);
    const json part = read_json(dir_ / "shard1" / "meta.json");
    EXPECT_EQ(part.at("partial").at("shard"), 1);
    EXPECT_EQ(part.at("partial").at("shards"), 3);
    EXPECT_EQ(part.at("config"), read_json(plain / "meta.json").at("config"));
    EXPECT_EQ(part.at("config_hash").get<std::string>().rfind("fnv1a64:", 0), 0u);
    // The next scan is another run: its outputs go to empty folders (a folder holding another
    // run's outputs is refused without --overwrite).
    fs::remove_all(plain);
    fs::remove_all(merged);
    for (int i = 0; i < 3; ++i) fs::remove_all(dir_ / ("shard" + std::to_string(i)));
  }
}

TEST_F(ShardTest, MoreShardsThanBlocksLeavesSomeEmpty) {
  const fs::path cfg = write_config("scan.json", kRandom);  // 3 blocks
  const fs::path plain = dir_ / "plain", merged = dir_ / "merged";
  ASSERT_EQ(run(cfg, plain, "--backend cpu").rc, 0);
  const CliResult m = merge(run_shards(cfg, 5, {0, 1, 2, 3, 4}), merged);
  ASSERT_EQ(m.rc, 0) << describe(m);
  expect_same_outputs(plain, merged);
}

TEST_F(ShardTest, MergeRefusesIncompleteDuplicateOrForeignShards) {
  const fs::path grid = write_config("grid.json", kDiscGrid130x100);
  const std::string all = run_shards(grid, 3, {0, 1, 2});
  const std::string s0 = shell_quote((dir_ / "shard0").string()), s1 = shell_quote((dir_ / "shard1").string()),
                    s2 = shell_quote((dir_ / "shard2").string());
  const fs::path other = dir_ / "other";
  ASSERT_EQ(run(write_config("random.json", kRandom), other, "--backend cpu --shard 2/3").rc, 0);
  const fs::path plain = dir_ / "plain";
  ASSERT_EQ(run(grid, plain, "--backend cpu").rc, 0);
  struct Case {
    std::string dirs, needle;
  };
  const std::vector<Case> cases = {
      {" " + s0 + " " + s1, "shard 2/3 is missing"},
      {" " + s0 + " " + s1 + " " + s1 + " " + s2, "given twice"},
      {" " + s0 + " " + s1 + " " + shell_quote(other.string()), "differs"},
      {" " + s0 + " " + s1 + " " + shell_quote(plain.string()), "not a shard output"},
      {" " + s0 + " " + s1 + " " + shell_quote((dir_ / "nowhere").string()), "nowhere"},
      {"", "SHARD_DIR"},
  };
  const fs::path out = dir_ / "merged";
  for (const auto& c : cases) {
    SCOPED_TRACE("merge" + c.dirs);
    const CliResult r = merge(c.dirs, out);
    EXPECT_EQ(r.rc, 2) << describe(r);
    EXPECT_NE(r.err.find(c.needle), std::string::npos) << describe(r);
    EXPECT_FALSE(fs::exists(out));
  }
  EXPECT_EQ(merge(all, out).rc, 0);
}

TEST_F(ShardTest, BadShardOptionIsAUsageError) {
  const fs::path cfg = write_config("grid.json", kDiscGrid130x100);
  for (const char* bad : {"3/3", "1", "a/3", "1/0", "-1/3", "1/3/4"}) {
    SCOPED_TRACE(bad);
    const CliResult r = run(cfg, dir_ / "out", std::string("--shard ") + bad);
    EXPECT_EQ(r.rc, 2) << describe(r);
    EXPECT_NE(r.err.find("--shard"), std::string::npos) << describe(r);
    EXPECT_FALSE(fs::exists(dir_ / "out"));
  }
}

TEST_F(ShardTest, HelpDescribesShardAndMerge) {
  const CliResult a = skipstone("help merge"), b = skipstone("merge --help");
  EXPECT_EQ(a.rc, 0) << describe(a);
  EXPECT_EQ(a.out, b.out);
  EXPECT_NE(a.out.find("SHARD_DIR... --out DIR"), std::string::npos) << a.out;
  EXPECT_NE(skipstone("run --help").out.find("--shard I/N"), std::string::npos);
  EXPECT_NE(skipstone("--help").out.find("merge"), std::string::npos);
}

}  // namespace
