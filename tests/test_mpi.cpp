// test_mpi.cpp — distributed runs: the byte encoding of range results is exact, the chunk
// queue skips saved chunks, and `mpirun -np N skipstone run` with 1, 2 and 3 ranks (and with
// --shard) writes outputs identical to the plain run, with bad input reported once. The mpirun
// tests skip, saying why, when skipstone was built without MPI or mpirun is missing. CI runs
// as root on 2 cores: mpirun gets --allow-run-as-root and --oversubscribe.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "chunk_queue.hpp"
#include "cli_support.hpp"
#include "range_codec.hpp"
#include "run_comparison.hpp"

namespace {

using namespace skipstone;
using namespace skipstone::testing;

TEST(RangeCodec, RoundTripIsBitwise) {
  RangeResult r;
  r.range = {8192, 12000};
  r.values["z_drift"] = {1.5, std::numeric_limits<double>::quiet_NaN(), -0.0, 1e-300};
  r.values["annulus_axis"] = {1, 2, 3};
  RunningStats s;
  s.add(0.25);
  s.add(-3.0);
  r.block_stats["z_drift"] = {s, RunningStats{}};
  r.status_counts[1] = 7;
  r.total_events = 123456789012345ull;
  r.wall_seconds = 0.125;
  const RangeResult back = decode_range(encode_range(r));
  EXPECT_EQ(back.range.first, r.range.first);
  EXPECT_EQ(back.range.end, r.range.end);
  EXPECT_EQ(back.status_counts, r.status_counts);
  EXPECT_EQ(back.total_events, r.total_events);
  EXPECT_EQ(back.wall_seconds, r.wall_seconds);
  ASSERT_EQ(back.values.size(), 2u);
  for (const auto& [name, v] : r.values)
    EXPECT_EQ(0, std::memcmp(v.data(), back.values.at(name).data(), v.size() * sizeof(double))) << name;
  EXPECT_EQ(back.block_stats.count("annulus_axis"), 0u);
  ASSERT_EQ(back.block_stats.at("z_drift").size(), 2u);
  EXPECT_EQ(0, std::memcmp(&back.block_stats.at("z_drift")[0], &s, sizeof s));
}

TEST(RangeCodec, RejectsTruncatedBuffers) {
  RangeResult r;
  r.values["events"] = {1, 2, 3};
  std::vector<char> bytes = encode_range(r);
  bytes.resize(bytes.size() - 3);
  EXPECT_THROW(decode_range(bytes), std::runtime_error);
  EXPECT_THROW(decode_range(std::vector<char>(8, 'x')), std::runtime_error);
}

TEST(ChunkQueue, SplitsTheGapsBetweenSavedChunks) {
  ChunkQueue q({0, 20000}, 8192, {{4096, 8192}, {16384, 20000}});
  std::vector<std::pair<std::uint64_t, std::uint64_t>> got;
  while (auto c = q.next()) got.push_back({c->first, c->end});
  const std::vector<std::pair<std::uint64_t, std::uint64_t>> want = {{0, 4096}, {8192, 16384}};
  EXPECT_EQ(got, want);
}

TEST(ChunkQueue, BalancedChunksGiveEveryWorkerSeveralChunks) {
  EXPECT_EQ(balanced_chunk_size(1u << 20, 1u << 20, 1), 1u << 20);
  const std::uint64_t c = balanced_chunk_size(1u << 20, 1u << 20, 2);
  EXPECT_EQ(c % kStatsBlock, 0u);
  EXPECT_EQ((1u << 20) / c, 16u);
  EXPECT_EQ(balanced_chunk_size(1u << 20, 5000, 3), kStatsBlock);
}

// 130 x 100 = 13000 trajectories: four statistics blocks.
const char* const kGrid = R"({
  "system": "disc", "parameters": {"gamma": 0.8}, "initial": {"start": "boundary"},
  "scan": {"type": "grid", "axes": [{"param": "angle", "min": -1.2, "max": 1.2, "n": 130},
                                    {"param": "spin", "min": -1, "max": 1, "n": 100}]},
  "stop": {"max_events": 200}
})";

class MpiRunTest : public CliTest {
 protected:
  void SetUp() override {
    CliTest::SetUp();
#ifndef SKIPSTONE_TEST_WITH_MPI
    GTEST_SKIP() << "skipstone was built without MPI (SKIPSTONE_MPI=OFF or no MPI library)";
#endif
    if (std::system("command -v mpirun >/dev/null 2>&1") != 0) GTEST_SKIP() << "mpirun is not installed";
    session_ = fs::temp_directory_path() / ("skmpi." + std::to_string(::getpid()));
    fs::create_directories(session_);
  }
  void TearDown() override {
    std::error_code ec;
    if (!session_.empty()) fs::remove_all(session_, ec);
    CliTest::TearDown();
  }
  // Open MPI keeps its session files under $TMPDIR/ompi.<host>.<uid>: two tests' mpirun at once
  // (ctest -j) race to create that folder there, so each test process gets a TMPDIR of its own
  // (short: the session holds Unix sockets, whose paths are limited to about 100 characters).
  CliResult mpirun(int ranks, const std::string& args) {
    const std::string cmd = "TMPDIR=" + shell_quote(session_.string()) +
                            " mpirun --allow-run-as-root --oversubscribe -np " + std::to_string(ranks) + " " +
                            shell_quote(SKIPSTONE_BINARY) + " " + args;
    const fs::path out = dir_ / "mpirun.out", err = dir_ / "mpirun.err";
    const int st = std::system((cmd + " >" + shell_quote(out.string()) + " 2>" + shell_quote(err.string())).c_str());
    CliResult r;
    r.rc = (st != -1 && WIFEXITED(st)) ? WEXITSTATUS(st) : -1;
    r.out = read_text(out);
    r.err = read_text(err);
    return r;
  }
  fs::path session_;
};

// meta.json of a distributed run differs from the plain run only in the run-specific fields
// and in those describing the process layout.
void expect_same_distributed_outputs(const fs::path& plain, const fs::path& distributed) {
  const auto names = file_names(plain);
  EXPECT_EQ(file_names(distributed), names);
  for (const auto& f : names) {
    if (f == "meta.json") continue;
    EXPECT_TRUE(read_text(plain / f) == read_text(distributed / f)) << f << " differs from the plain run";
  }
  json a = without_run_specific_fields(read_json(plain / "meta.json"));
  json b = without_run_specific_fields(read_json(distributed / "meta.json"));
  for (const char* layout : {"device", "chunk_size", "mpi_ranks"}) {
    a.erase(layout);
    b.erase(layout);
  }
  EXPECT_EQ(a, b);
}

TEST_F(MpiRunTest, OneTwoAndThreeRanksEqualThePlainRun) {
  const fs::path cfg = write_config("scan.json", kGrid);
  const fs::path plain = dir_ / "plain";
  ASSERT_EQ(run(cfg, plain, "--backend cpu").rc, 0);
  for (int ranks : {1, 2, 3}) {
    const fs::path out = dir_ / ("ranks" + std::to_string(ranks));
    const CliResult r = mpirun(ranks, "run " + shell_quote(cfg.string()) + " --out " + shell_quote(out.string()) +
                                          " --backend cpu --threads 1 --chunk 4096 --quiet");
    ASSERT_EQ(r.rc, 0) << ranks << " ranks: " << describe(r);
    expect_same_distributed_outputs(plain, out);
    if (ranks > 1) {
      EXPECT_EQ(read_json(out / "meta.json").at("mpi_ranks"), ranks);
    }
  }
}

TEST_F(MpiRunTest, ShardsUnderMpiMergeToThePlainRun) {
  const fs::path cfg = write_config("scan.json", kGrid);
  const fs::path plain = dir_ / "plain", merged = dir_ / "merged";
  ASSERT_EQ(run(cfg, plain, "--backend cpu").rc, 0);
  std::string dirs;
  for (int i = 0; i < 2; ++i) {
    const fs::path out = dir_ / ("shard" + std::to_string(i));
    const CliResult r = mpirun(2, "run " + shell_quote(cfg.string()) + " --out " + shell_quote(out.string()) +
                                      " --backend cpu --threads 1 --chunk 4096 --quiet --shard " + std::to_string(i) + "/2");
    ASSERT_EQ(r.rc, 0) << describe(r);
    dirs += " " + shell_quote(out.string());
  }
  const CliResult m = skipstone("merge" + dirs + " --out " + shell_quote(merged.string()) + " --quiet");
  ASSERT_EQ(m.rc, 0) << describe(m);
  expect_same_distributed_outputs(plain, merged);
}

TEST_F(MpiRunTest, BadInputIsReportedOnceAndNothingIsWritten) {
  const fs::path cfg = write_config("bad.json", R"({"system": "no-such-table"})");
  const fs::path out = dir_ / "out";
  const CliResult r = mpirun(3, "run " + shell_quote(cfg.string()) + " --out " + shell_quote(out.string()));
  EXPECT_NE(r.rc, 0);
  const std::size_t first = r.err.find("no-such-table");
  ASSERT_NE(first, std::string::npos) << describe(r);
  EXPECT_EQ(r.err.find("no-such-table", first + 13), std::string::npos) << "reported more than once:\n" << r.err;
  EXPECT_FALSE(fs::exists(out));
  const CliResult t = mpirun(2, "trace " + shell_quote(cfg.string()) + " --out " + shell_quote((dir_ / "t.csv").string()));
  EXPECT_EQ(t.rc, 2);
  EXPECT_NE(t.err.find("only skipstone run uses MPI"), std::string::npos) << describe(t);
}

}  // namespace
