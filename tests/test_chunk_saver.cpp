// The checkpoint saving thread (host/chunk_saver.*): every chunk is saved before it is passed
// on, in order; drain() waits for all of them; a failed save reaches the caller instead of
// being lost on the thread; at most max_pending chunks wait.
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <vector>

#include "backends.hpp"
#include "checkpoint.hpp"
#include "chunk_saver.hpp"
#include "config.hpp"
#include "statistics.hpp"

namespace {

namespace fs = std::filesystem;
using namespace skipstone;

RunConfig small_config() {
  return parse_config(nlohmann::json{{"system", "disc"},
                                     {"parameters", {{"gamma", 0.8}}},
                                     {"initial", {{"start", "boundary"}}},
                                     {"scan", {{"type", "grid"}, {"axes", {{{"param", "angle"}, {"min", -1.0}, {"max", 1.0}, {"n", 3 * kStatsBlock}}}}}},
                                     {"stop", {{"max_events", 20}}}});
}

RangeResult chunk_of(const RunConfig& rc, std::uint64_t first, std::uint64_t n) {
  std::vector<TrajectoryResult> res(n);
  cpu::run_chunk(rc.spec, first, n, res.data());
  return reduce_chunk(rc, first, res.data(), n);
}

class ChunkSaverTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("skipstone_chunk_saver_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_F(ChunkSaverTest, SavesEveryChunkThenPassesItOnInOrder) {
  const RunConfig rc = small_config();
  Checkpoint cp(dir_, rc, {0, rc.spec.count}, false);
  std::vector<std::uint64_t> passed;
  ChunkSaver saver(cp, [&](RangeResult&& r) {
    EXPECT_TRUE(fs::is_directory(cp.dir() / ("chunk_" + std::to_string(r.range.first) + "_" + std::to_string(r.range.end))))
        << "passed on before its save";
    passed.push_back(r.range.first);
  }, 1);
  for (std::uint64_t first = 0; first < rc.spec.count; first += kStatsBlock) saver.enqueue(chunk_of(rc, first, kStatsBlock));
  saver.drain();
  EXPECT_EQ(passed, (std::vector<std::uint64_t>{0, kStatsBlock, 2 * kStatsBlock}));
  EXPECT_EQ(cp.load_finished().size(), 0u) << "load_finished() reads a resumed checkpoint only";
  std::size_t saved = 0;
  for (const auto& e : fs::directory_iterator(cp.dir())) saved += e.path().filename().string().rfind("chunk_", 0) == 0;
  EXPECT_EQ(saved, 3u);
}

TEST_F(ChunkSaverTest, AFailedSaveIsRethrownAndNothingIsPassedOn) {
  const RunConfig rc = small_config();
  Checkpoint cp(dir_, rc, {0, rc.spec.count}, false);
  std::ofstream(cp.dir()).put('x');  // a regular file where the checkpoint folder must go
  std::atomic<int> passed{0};
  ChunkSaver saver(cp, [&](RangeResult&&) { ++passed; });
  saver.enqueue(chunk_of(rc, 0, kStatsBlock));
  EXPECT_THROW(saver.drain(), std::runtime_error);
  EXPECT_THROW(saver.enqueue(chunk_of(rc, kStatsBlock, kStatsBlock)), std::runtime_error);
  EXPECT_EQ(passed.load(), 0);
}

}  // namespace
