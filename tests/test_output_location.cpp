// test_output_location.cpp — unusable output locations: a folder that cannot be created or
// written, or a file system without room for the maps, is an error naming the path before the
// run starts; a write that fails during the run (file size limit standing in for a full disk)
// is exit 1 naming the file and leaves no half-written file under a final name.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>

#include "cli_support.hpp"
#include "npy_writer.hpp"

namespace {

using namespace skipstone::testing;

void expect_clean_failure(const CliResult& r, const std::string& path) {
  EXPECT_TRUE(r.rc == 1 || r.rc == 2) << describe(r);
  EXPECT_NE(r.err.find(path), std::string::npos) << "the message does not name " << path << "\n" << describe(r);
}

TEST_F(CliTest, UnwritableOutputLocationsFailBeforeTheRun) {
  const fs::path cfg = write_config("grid.json", kDiscGrid130x100);
  for (const std::string out : {"/proc/skipstone-test-out", "/proc/self", "/proc/self/fd/sub"}) {
    SCOPED_TRACE(out);
    expect_clean_failure(run(cfg, out, "--backend cpu"), out);
    EXPECT_FALSE(fs::exists(fs::path(out) / "meta.json"));
  }
}

TEST_F(CliTest, ReadOnlyFolderFailsBeforeTheRun) {
  if (geteuid() == 0) GTEST_SKIP() << "running as root: permission bits do not stop writing";
  const fs::path cfg = write_config("grid.json", kDiscGrid130x100);
  const fs::path locked = dir_ / "locked";
  fs::create_directories(locked);
  ASSERT_EQ(chmod(locked.c_str(), 0555), 0);
  expect_clean_failure(run(cfg, locked, "--backend cpu"), locked.string());
  EXPECT_TRUE(fs::is_empty(locked));
  chmod(locked.c_str(), 0755);
}

TEST_F(CliTest, TooLittleFreeSpaceFailsBeforeTheRun) {
  // 1e12 trajectories: the .npy maps alone need about 1e14 bytes, more than any test machine has.
  const fs::path cfg = write_config("huge.json", R"({
    "system": "disc", "parameters": {"gamma": 0.8}, "initial": {"start": "boundary"},
    "scan": {"type": "grid", "axes": [{"param": "angle", "min": -1.2, "max": 1.2, "n": 1000000},
                                      {"param": "spin", "min": -1, "max": 1, "n": 1000000}]},
    "stop": {"max_events": 200}})");
  const fs::path out = dir_ / "out";
  const CliResult r = run(cfg, out, "--backend cpu");
  expect_clean_failure(r, out.string());
  EXPECT_NE(r.err.find("bytes free"), std::string::npos) << describe(r);
  EXPECT_TRUE(fs::is_empty(out));
}

// 2^63 - 1 trajectories in a shard: the byte count saturates instead of wrapping round to a
// size that fits, so the run stops at once naming the folder (it used to start and hang).
TEST_F(CliTest, AShardOfAnEnormousScanFailsBeforeTheRun) {
  const fs::path cfg = write_config("enormous.json", R"({
    "system": "disc", "parameters": {"gamma": 0.8}, "initial": {"start": "boundary"},
    "scan": {"type": "random", "count": 9223372036854775807, "seed": 1,
             "axes": [{"param": "angle", "min": -1.2, "max": 1.2}]},
    "stop": {"max_events": 200}})");
  const fs::path out = dir_ / "out";
  const CliResult r = run(cfg, out, "--backend cpu --shard 0/2");
  expect_clean_failure(r, out.string());
  EXPECT_NE(r.err.find("18446744073709551615"), std::string::npos) << describe(r);
}

// `skipstone run CONFIG --out OUT --quiet --backend cpu` under a file size limit.
CliResult run_with_file_size_limit(const fs::path& config, const fs::path& out, const fs::path& err_file) {
  const std::string cmd = "sh -c " + shell_quote("ulimit -f 100; trap '' XFSZ; exec " + shell_quote(SKIPSTONE_BINARY) +
                                                 " run " + shell_quote(config.string()) + " --out " +
                                                 shell_quote(out.string()) + " --quiet --backend cpu") +
                          " >/dev/null 2>" + shell_quote(err_file.string());
  const int st = std::system(cmd.c_str());
  CliResult r;
  r.rc = (st != -1 && WIFEXITED(st)) ? WEXITSTATUS(st) : -1;
  r.err = read_text(err_file);
  return r;
}

TEST_F(CliTest, WriteFailureDuringTheRunLeavesNoHalfWrittenFile) {
  // `ulimit -f 100` (at most 100 KiB in bash, 50 KiB in dash) with SIGXFSZ ignored: status.npy
  // (13 kB) can be written, events.npy (104 kB) cannot.
  const fs::path cfg = write_config("grid.json", kDiscGrid130x100);
  const fs::path out = dir_ / "out";
  const CliResult r = run_with_file_size_limit(cfg, out, dir_ / "stderr.txt");
  EXPECT_EQ(r.rc, 1) << describe(r);
  EXPECT_NE(r.err.find((out / "events.npy").string()), std::string::npos) << describe(r);
  EXPECT_NE(r.err.find(std::strerror(EFBIG)), std::string::npos) << "the OS reason is not named\n" << describe(r);
  EXPECT_FALSE(fs::exists(out / "meta.json")) << "meta.json marks a complete run";
  for (const auto& f : file_names(out)) {
    SCOPED_TRACE(f);
    EXPECT_EQ(f.find(".tmp."), std::string::npos) << "leftover temporary";
    if (fs::path(f).extension() == ".npy") {
      EXPECT_NO_THROW(skipstone::io::read_npy(out / f)) << "half-written";
    }
  }
}

}  // namespace
