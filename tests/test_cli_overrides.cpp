// test_cli_overrides.cpp — `skipstone run CONFIG --set KEY=VALUE`: a run with --set equals a
// run of the config edited by hand (every output file, and meta.json up to the overrides it
// records and the command), and `skipstone trace` takes them too; the values are JSON or plain
// strings; bad keys and values are
// rejected like the config's own (exit 2, nothing written); --resume needs the same --set
// values, and a resumed run with them equals an uninterrupted one.
#include <gtest/gtest.h>

#include <string>

#include "cli_support.hpp"
#include "run_comparison.hpp"

namespace {

using namespace skipstone::testing;

// 8192 disc trajectories: two statistics blocks, so that a shard of half of them can stand in
// for the first chunk of an interrupted run.
const char* const kDisc = R"({
  "system": "disc", "parameters": {"gamma": 0.8}, "initial": {"start": "boundary"},
  "scan": {"type": "grid", "axes": [{"param": "angle", "min": -1.2, "max": 1.2, "n": 128},
                                    {"param": "spin", "min": -1, "max": 1, "n": 64}]},
  "stop": {"max_events": 50}
})";
// kDisc with what the --set arguments below change.
const char* const kDiscEdited = R"({
  "system": "disc", "parameters": {"gamma": 0.5}, "initial": {"start": "boundary"},
  "description": "gamma one half",
  "scan": {"type": "grid", "axes": [{"param": "angle", "min": -1.2, "max": 1.2, "n": 256},
                                    {"param": "spin", "min": -1, "max": 1, "n": 64}]},
  "stop": {"max_events": 50}
})";
const char* const kSets = "--set scan.axes[0].n=256 --set parameters.gamma=0.5 --set 'description=gamma one half'";

class CliOverrides : public CliTest {};

TEST_F(CliOverrides, SetEqualsEditingTheConfigAndIsRecorded) {
  const fs::path edited = dir_ / "edited", set = dir_ / "set";
  const CliResult a = run(write_config("edited.json", kDiscEdited), edited, "--backend cpu");
  ASSERT_EQ(a.rc, 0) << describe(a);
  const CliResult b = run(write_config("disc.json", kDisc), set, std::string("--backend cpu ") + kSets);
  ASSERT_EQ(b.rc, 0) << describe(b);
  json meta = read_json(set / "meta.json");
  const json expected = json::parse(R"([{"key": "scan.axes[0].n", "value": 256}, {"key": "parameters.gamma", "value": 0.5},
                                        {"key": "description", "value": "gamma one half"}])");
  EXPECT_EQ(meta.at("overrides"), expected);
  EXPECT_EQ(read_json(edited / "meta.json").at("overrides"), json::array());
  EXPECT_EQ(meta.at("config_hash"), read_json(edited / "meta.json").at("config_hash"));
  EXPECT_NE(meta.at("command").get<std::string>().find("--set parameters.gamma=0.5"), std::string::npos);
  // Apart from the overrides recorded, the outputs are those of the edited config.
  const fs::path moved = dir_ / "set_without_record";
  fs::create_directories(moved);
  for (const auto& f : file_names(set)) fs::copy(set / f, moved / f);
  meta["overrides"] = json::array();
  write_text(moved / "meta.json", meta.dump(2));
  expect_same_outputs(edited, moved);
}

TEST_F(CliOverrides, BadKeysAndValuesAreRejectedBeforeAnythingIsWritten) {
  const fs::path cfg = write_config("disc.json", kDisc), out = dir_ / "out";
  const struct {
    const char* set;
    const char* message;
  } cases[] = {
      {"scan.axes[0].n=abc", "scan.axes[0].n"},                  // a string where a count belongs
      {"scan.axes[0].n=0", "scan.axes[0].n"},                    // out of range, as in a file
      {"scan.axes[5].n=3", "index 5 is outside scan.axes"},      // no such axis
      {"parameters.gama=0.5", "parameters.gama"},                // unknown key, as in a file
      {"system.x=1", "system is string, not an object"},         // a path through a string
      {"scan.axes[0].n", "expected KEY=VALUE"},                  // no value
      {"=3", "empty key path"},
  };
  for (const auto& c : cases) {
    const CliResult r = run(cfg, out, std::string("--backend cpu --set ") + shell_quote(c.set));
    EXPECT_EQ(r.rc, 2) << c.set << "\n" << describe(r);
    EXPECT_NE(r.err.find(c.message), std::string::npos) << c.set << "\n" << describe(r);
    EXPECT_FALSE(fs::exists(out / "meta.json")) << c.set;
  }
}

TEST_F(CliOverrides, TraceTakesSetToo) {
  const fs::path edited = write_config("edited.json", kDiscEdited), disc = write_config("disc.json", kDisc);
  const CliResult a = skipstone("trace " + shell_quote(edited.string()) + " --index 300 --out -");
  const CliResult b = skipstone("trace " + shell_quote(disc.string()) + " --index 300 --out - " + kSets);
  const CliResult c = skipstone("trace " + shell_quote(disc.string()) + " --index 300 --out -");
  ASSERT_EQ(a.rc, 0) << describe(a);
  ASSERT_EQ(b.rc, 0) << describe(b);
  EXPECT_EQ(a.out, b.out);
  EXPECT_NE(a.out, c.out) << "the --set values change trajectory 300";
}

// A checkpoint of a run with --set (its first 4096 trajectories: shard 0 of 2 has the form of a
// checkpoint chunk) is resumed only with the same --set values.
TEST_F(CliOverrides, ResumeNeedsTheSameSetValues) {
  const fs::path cfg = write_config("disc.json", kDisc);
  const std::string sets = "--set parameters.gamma=0.5";
  const fs::path reference = dir_ / "reference", shard = dir_ / "shard", out = dir_ / "out";
  CliResult r = run(cfg, reference, "--backend cpu " + sets);
  ASSERT_EQ(r.rc, 0) << describe(r);
  r = run(cfg, shard, "--backend cpu --shard 0/2 " + sets);
  ASSERT_EQ(r.rc, 0) << describe(r);
  const json partial = read_json(shard / "meta.json");
  const fs::path chunk = out / ".checkpoint" / "chunk_0_4096";
  fs::create_directories(chunk);
  for (const auto& f : file_names(shard))
    if (f != "meta.json") fs::copy(shard / f, chunk / f);
  const json manifest = {{"format", "skipstone-checkpoint-1"}, {"skipstone_version", partial.at("skipstone_version")},
                         {"config_hash", partial.at("config_hash")}, {"first", 0}, {"end", 8192},
                         {"overrides", partial.at("overrides")}};
  write_text(out / ".checkpoint" / "manifest.json", manifest.dump(2));

  for (const std::string other : {"", "--set parameters.gamma=0.6"}) {
    r = run(cfg, out, "--backend cpu --resume " + other);
    EXPECT_EQ(r.rc, 2) << other << "\n" << describe(r);
    EXPECT_NE(r.err.find("started with --set parameters.gamma=0.5"), std::string::npos) << describe(r);
    EXPECT_NE(r.err.find("resume with the same --set values"), std::string::npos) << describe(r);
    EXPECT_TRUE(fs::exists(chunk)) << "a refused resume keeps the checkpoint";
  }
  r = run(cfg, out, "--backend cpu --resume " + sets);
  ASSERT_EQ(r.rc, 0) << describe(r);
  EXPECT_FALSE(fs::exists(out / ".checkpoint"));
  expect_same_outputs(reference, out);
}

// Shards run with --set merge into the outputs of one run with it, overrides recorded.
TEST_F(CliOverrides, ShardsWithSetMerge) {
  const fs::path cfg = write_config("disc.json", kDisc);
  const fs::path reference = dir_ / "reference", merged = dir_ / "merged";
  CliResult r = run(cfg, reference, std::string("--backend cpu ") + kSets);
  ASSERT_EQ(r.rc, 0) << describe(r);
  for (const char* s : {"0", "1"}) {
    r = run(cfg, dir_ / (std::string("s") + s), std::string("--backend cpu --shard ") + s + "/2 " + kSets);
    ASSERT_EQ(r.rc, 0) << describe(r);
  }
  r = skipstone("merge " + shell_quote((dir_ / "s0").string()) + " " + shell_quote((dir_ / "s1").string()) + " --out " +
                shell_quote(merged.string()) + " --quiet");
  ASSERT_EQ(r.rc, 0) << describe(r);
  expect_same_outputs(reference, merged);
}

}  // namespace
