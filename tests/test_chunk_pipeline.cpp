// The chunk machinery shared by every backend: chunk sizing from a device's figures (an H200
// and a CPU), the double-buffered pipeline's in-order delivery when an engine finishes chunks
// out of order, the CPU engine (a chunk runs on a thread of its own: submit returns at once, a
// failure reaches wait), the CPU backend through the pipeline bit for bit equal to one
// whole-range reduction, and a run stopped between chunks and resumed from its checkpoint equal to an
// uninterrupted one.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <future>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

#include "checkpoint.hpp"
#include "chunk_pipeline.hpp"
#include "chunk_sizing.hpp"
#include "config.hpp"
#include "cpu_engine.hpp"
#include "scan_runner.hpp"
#include "statistics.hpp"

namespace {

namespace fs = std::filesystem;
using namespace skipstone;

// --- chunk sizing

constexpr std::uint64_t kGiB = std::uint64_t{1} << 30;

TEST(ChunkSizing, AnH200ChunkIsAFewWavesNotTheWholeMemory) {
  // 132 multiprocessors x 2048 threads, a quarter of 141 GB free, two slots of five columns
  const std::uint64_t resident = 132 * 2048;
  DeviceCapacity h200{141 * kGiB / 4, 2 * (9 + 5 * 8), resident};
  const std::uint64_t chunk = chunk_size_for(h200);
  EXPECT_EQ(chunk, kWavesPerChunk * resident);
  EXPECT_GE(chunk / resident, 4u) << "a chunk should be several waves, so that its tail is short next to it";
  EXPECT_LT(chunk * h200.bytes_per_trajectory, h200.memory_budget);
  // a 1e8-trajectory scan is many chunks: progress and checkpoints move
  EXPECT_GE(100000000 / chunk, 40u);
}

TEST(ChunkSizing, AGpuShortOfMemoryIsBoundByMemory) {
  DeviceCapacity small{64u << 20, 2 * (9 + 27 * 8), 132 * 2048};
  const std::uint64_t chunk = chunk_size_for(small);
  EXPECT_LE(chunk * small.bytes_per_trajectory, small.memory_budget);
  EXPECT_LT(chunk, kWavesPerChunk * small.resident_threads);
}

TEST(ChunkSizing, ACpuIsBoundByMemoryOnly) {
  // 256 MiB budget, whole results (152 B) plus two slots of one column
  DeviceCapacity cpu{256u << 20, 152 + 2 * (9 + 8), 0};
  EXPECT_EQ(chunk_size_for(cpu), (256u << 20) / (152 + 2 * (9 + 8)));
}

TEST(ChunkSizing, NeverBelowOneStatisticsBlock) {
  EXPECT_EQ(chunk_size_for(DeviceCapacity{1000, 152, 0}), kStatsBlock);
  EXPECT_EQ(chunk_size_for(DeviceCapacity{kGiB, 152, 16}), kStatsBlock);
  EXPECT_EQ(kMinChunk, kStatsBlock);
}

// --- pipeline with a fake engine

// Computes chunks on threads of its own, the chunk in slot 0 slower than the one in slot 1, so
// that chunk k + 1 finishes before chunk k; its one column holds the trajectory indices.
class OutOfOrderEngine final : public ChunkEngine {
 public:
  void submit(int slot, std::uint64_t first, std::uint64_t n, DoneCounter* done) override {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      events.push_back("submit " + std::to_string(first));
    }
    Slot& s = slots_[slot];
    s.n = n;
    s.status.assign(n, 0);
    s.events.resize(n);
    s.column.resize(n);
    s.work = std::async(std::launch::async, [this, &s, first, n, done, slot] {
      std::this_thread::sleep_for(std::chrono::milliseconds(slot == 0 ? 30 : 1));
      for (std::uint64_t i = 0; i < n; ++i) {
        s.events[i] = first + i;
        s.column[i] = static_cast<double>(first + i);
      }
      if (done) done->fetch_add(n);
      std::lock_guard<std::mutex> lock(mutex_);
      events.push_back("finish " + std::to_string(first));
    });
  }
  ColumnsView wait(int slot) override {
    Slot& s = slots_[slot];
    s.work.get();
    s.columns[0] = s.column.data();
    ColumnsView v;
    v.n = s.n;
    v.status = s.status.data();
    v.events = s.events.data();
    v.columns = s.columns;
    return v;
  }
  std::vector<std::string> events;  // submits and finishes, in the order they happened

 private:
  struct Slot {
    std::uint64_t n = 0;
    std::vector<std::uint8_t> status;
    std::vector<std::uint64_t> events;
    std::vector<double> column;
    const double* columns[1] = {nullptr};
    std::future<void> work;
  };
  std::mutex mutex_;
  Slot slots_[kSlots];
};

TEST(ChunkPipeline, DeliversInOrderWhatTheEngineFinishesOutOfOrder) {
  OutOfOrderEngine engine;
  std::vector<TrajectoryRange> chunks;
  for (std::uint64_t k = 0; k < 6; ++k) chunks.push_back({k * 100, k * 100 + 100});
  std::size_t taken = 0;
  std::vector<std::uint64_t> delivered;
  DoneCounter done{0};
  run_pipeline(
      engine, [&]() -> std::optional<TrajectoryRange> { return taken < chunks.size() ? std::optional(chunks[taken++]) : std::nullopt; },
      [&](TrajectoryRange r, const ColumnsView& v, double seconds) {
        EXPECT_GE(seconds, 0.0);
        ASSERT_EQ(v.n, r.size());
        for (std::uint64_t i = 0; i < v.n; ++i) {
          ASSERT_EQ(v.events[i], r.first + i) << "columns of another chunk delivered with " << r.first;
          ASSERT_EQ(v.columns[0][i], static_cast<double>(r.first + i));
        }
        delivered.push_back(r.first);
      },
      &done);
  EXPECT_EQ(delivered, (std::vector<std::uint64_t>{0, 100, 200, 300, 400, 500}));
  EXPECT_EQ(done.load(), 600u);
  // the engine did finish a later chunk first (else this test tests nothing) ...
  const auto at = [&](const std::string& e) {
    return std::find(engine.events.begin(), engine.events.end(), e) - engine.events.begin();
  };
  EXPECT_LT(at("finish 100"), at("finish 0")) << "the fake engine did not finish out of order";
  // ... and chunk k + 1 was submitted before chunk k was delivered (double buffering)
  EXPECT_LT(at("submit 100"), at("finish 0"));
}

// A failure while delivering stops the pipeline with the chunk in flight dropped.
TEST(ChunkPipeline, AFailedDeliveryStopsIt) {
  OutOfOrderEngine engine;
  std::uint64_t next_first = 0;
  int deliveries = 0;
  EXPECT_THROW(run_pipeline(
                   engine, [&]() -> std::optional<TrajectoryRange> { next_first += 10; return TrajectoryRange{next_first - 10, next_first}; },
                   [&](TrajectoryRange, const ColumnsView&, double) {
                     if (++deliveries == 3) throw std::runtime_error("disk full");
                   },
                   nullptr),
               std::runtime_error);
  EXPECT_EQ(deliveries, 3);
}

// --- the CPU backend through the pipeline

RunConfig scan_config() {
  // the disc in SIMD lanes with its default observables, over 5 statistics blocks and a ragged end
  return parse_config(nlohmann::json{
      {"system", "disc"},
      {"parameters", {{"gamma", 0.8}}},
      {"initial", {{"start", "boundary"}, {"spin", 0.2}}},
      {"scan", {{"type", "random"}, {"count", 5 * kStatsBlock + 123}, {"seed", 3}, {"axes", {{{"param", "angle"}, {"min", -1.4}, {"max", 1.4}}}}}},
      {"stop", {{"max_events", 60}}}});
}

void expect_identical(const RangeResult& a, const RangeResult& b) {
  ASSERT_EQ(a.range.first, b.range.first);
  ASSERT_EQ(a.range.end, b.range.end);
  EXPECT_EQ(a.status_counts, b.status_counts);
  EXPECT_EQ(a.total_events, b.total_events);
  for (const auto& [name, v] : a.values) {
    const std::vector<double>& w = b.values.at(name);
    ASSERT_EQ(v.size(), w.size()) << name;
    EXPECT_EQ(std::memcmp(v.data(), w.data(), v.size() * sizeof(double)), 0) << name << " differs in some bit";
  }
  for (const auto& [name, blocks] : a.block_stats) {
    const std::vector<RunningStats>& c = b.block_stats.at(name);
    ASSERT_EQ(blocks.size(), c.size()) << name;
    for (std::size_t k = 0; k < blocks.size(); ++k)
      EXPECT_TRUE(blocks[k].count == c[k].count && std::memcmp(&blocks[k].mean, &c[k].mean, sizeof(double)) == 0 &&
                  std::memcmp(&blocks[k].m2, &c[k].m2, sizeof(double)) == 0 && blocks[k].min == c[k].min &&
                  blocks[k].max == c[k].max)
          << name << " block " << k;
  }
}

RangeResult whole_range_at_once(const RunConfig& rc) {
  std::vector<TrajectoryResult> all(rc.spec.count);
  cpu::run_chunk(rc.spec, 0, rc.spec.count, all.data());
  return reduce_chunk(rc, 0, all.data(), rc.spec.count);
}

TEST(ChunkPipeline, CpuChunksThroughThePipelineEqualOneWholeReductionBitForBit) {
  const RunConfig rc = scan_config();
  const RangeResult reference = whole_range_at_once(rc);
  ASSERT_GT(reference.status_counts[static_cast<int>(Status::finished)], 0u);
  ScanOptions options;
  options.quiet = true;
  options.chunk_override = kStatsBlock;  // 6 chunks, through both slots several times
  const RangeResult piped = run_scan_range(rc, BackendChoice{Backend::cpu, "cpu"}, options);
  expect_identical(reference, piped);
}

// The CPU engine runs a chunk on a thread of its own: submit() returns before the chunk is done,
// so that the pipeline's reduction of one chunk overlaps the next one.
TEST(CpuEngine, SubmitReturnsBeforeTheChunkIsDone) {
  RunConfig rc = scan_config();
  rc.spec.count = 40 * kStatsBlock;  // long enough on one thread that the check below is not a race
  const int threads = cpu::max_threads();
  cpu::set_threads(1);
  const std::unique_ptr<ChunkEngine> engine = make_cpu_engine(rc.spec, column_requests(rc));
  DoneCounter done{0};
  engine->submit(0, 0, rc.spec.count, &done);
  const std::uint64_t done_at_return = done.load();
  const ColumnsView v = engine->wait(0);
  cpu::set_threads(threads);
  EXPECT_LT(done_at_return, rc.spec.count) << "submit() ran the whole chunk before returning";
  EXPECT_EQ(done.load(), rc.spec.count);
  EXPECT_EQ(v.n, rc.spec.count);
}

TEST(CpuEngine, AFailedChunkThrowsFromWaitAndTheEngineGoesOn) {
  const RunConfig rc = scan_config();
  const std::unique_ptr<ChunkEngine> engine = make_cpu_engine(rc.spec, column_requests(rc));
  engine->submit(0, 0, std::uint64_t{1} << 62, nullptr);  // no buffer holds this many results
  EXPECT_THROW(engine->wait(0), std::exception);
  engine->submit(0, 0, 10, nullptr);
  EXPECT_EQ(engine->wait(0).n, 10u);
  EXPECT_THROW(engine->wait(1), std::logic_error) << "a slot with no chunk";
}

TEST(CpuEngine, DestroyedWithChunksInFlightItStops) {
  const RunConfig rc = scan_config();
  for (int k = 0; k < 20; ++k) {
    const std::unique_ptr<ChunkEngine> engine = make_cpu_engine(rc.spec, column_requests(rc));
    engine->submit(0, 0, kStatsBlock, nullptr);
    engine->submit(1, kStatsBlock, kStatsBlock, nullptr);
    if (k % 2) engine->wait(0);
  }
}

// The chunk folders a checkpoint in `out` has saved so far.
std::size_t saved_chunk_dirs(const fs::path& out) {
  std::size_t n = 0;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(out / ".checkpoint", ec))
    if (e.is_directory() && e.path().filename().string().rfind("chunk_", 0) == 0) ++n;
  return n;
}

TEST(ChunkPipeline, ARunStoppedBetweenChunksAndResumedEqualsAnUninterruptedOne) {
  const RunConfig rc = scan_config();
  const RangeResult reference = whole_range_at_once(rc);
  const fs::path dir = fs::temp_directory_path() / ("skipstone_pipeline_resume_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const TrajectoryRange range{0, rc.spec.count};
  const BackendChoice cpu{Backend::cpu, "cpu"};
  {
    Checkpoint checkpoint(dir, rc, range, false);
    ScanOptions options;
    options.quiet = true;
    options.chunk_override = kStatsBlock;
    options.checkpoint = &checkpoint;
    int taken = 0;
    options.between_chunks = [&] {
      if (++taken < 4) return;
      // stop with chunk 3 in flight, once the saver thread has saved one of the chunks
      // delivered before (a failed run drops the chunks it has not started to save)
      for (int wait = 0; wait < 400 && saved_chunk_dirs(dir) == 0; ++wait)
        std::this_thread::sleep_for(std::chrono::milliseconds(25));
      throw std::runtime_error("stopped");
    };
    EXPECT_THROW(run_scan_range(rc, cpu, options), std::runtime_error);
  }
  Checkpoint checkpoint(dir, rc, range, true);
  const std::size_t saved = checkpoint.load_finished().size();
  EXPECT_GE(saved, 1u) << "nothing was saved before the stop";
  EXPECT_LE(saved, 3u);
  ScanOptions options;
  options.quiet = true;
  options.chunk_override = 2 * kStatsBlock;  // the rest in other chunks than the first run's
  options.checkpoint = &checkpoint;
  const RangeResult resumed = run_scan_range(rc, cpu, options);
  expect_identical(reference, resumed);
  fs::remove_all(dir);
}

}  // namespace
