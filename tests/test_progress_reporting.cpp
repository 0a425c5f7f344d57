// Progress reported from inside chunks: the CPU kernels advance the collector's counter of
// finished trajectories while one chunk runs (on each of the three CPU paths: rim lanes, no-slip
// lanes, one trajectory per iteration), and the monitor thread turns that counter into a
// progress line at least once a second, even while the counter stands still.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#include "backends.hpp"
#include "progress.hpp"
#include "progress_monitor.hpp"
#include "scan_runner.hpp"
#include "test_support.hpp"

namespace skipstone {
namespace {

int count_of(const std::string& text, const std::string& what) {
  int n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// A two-axis grid of `system` with n x n trajectories, one chunk for all of them.
RunConfig grid(const std::string& system_json, int n) {
  nlohmann::json j = nlohmann::json::parse(system_json);
  j["scan"]["axes"][0]["n"] = n;
  j["scan"]["axes"][1]["n"] = n;
  return testing::config_from(j);
}

// Runs the whole scan as a single chunk on one CPU thread (the caller restores the thread
// count) while another thread samples the collector's counter; returns how many samples lay
// strictly between 0 and the scan's count.
int samples_inside_one_chunk(const RunConfig& rc, std::uint64_t* final_count) {
  cpu::set_threads(1);
  const BackendChoice backend{Backend::cpu, "cpu"};
  ScanOptions options;
  options.quiet = true;
  options.chunk_override = rc.spec.count;
  RangeRun run(rc, backend, options);
  EXPECT_EQ(run.queue().next().has_value(), true);  // one chunk ...
  EXPECT_EQ(run.queue().next().has_value(), false);  // ... only
  std::atomic<bool> running{true};
  int inside = 0;
  std::thread watcher([&] {
    while (running.load()) {
      const std::uint64_t d = run.collector().done().load();
      if (d > 0 && d < rc.spec.count) ++inside;
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
  });
  const std::unique_ptr<ChunkEngine> engine = make_engine(Executor{Backend::cpu, -1}, rc);
  run.collector().add(integrate_chunk(*engine, rc, TrajectoryRange{0, rc.spec.count}, &run.collector().done()));
  running = false;
  watcher.join();
  *final_count = run.collector().done().load();
  run.finish();
  return inside;
}

void expect_counted_while_running(const std::string& system_json, int n) {
  const RunConfig rc = grid(system_json, n);
  const int threads = cpu::max_threads();
  std::uint64_t final_count = 0;
  const int inside = samples_inside_one_chunk(rc, &final_count);
  cpu::set_threads(threads);
  EXPECT_EQ(final_count, rc.spec.count);
  EXPECT_GT(inside, 0) << "the counter of finished trajectories only moved when the chunk ended";
}

TEST(ProgressReporting, RimLanesCountTrajectoriesInsideAChunk) {
  expect_counted_while_running(R"({"system": "roll4:disc",
      "parameters": {"R": 1.0, "r": 0.1, "eta": 0.5, "g_effective": 1.0},
      "initial": {"start": "plate", "x2": 0.0, "z": 0.0, "v1": -2.0, "v2": 1.0, "v3": 0.0, "S13": 0.0, "S23": -1.0},
      "scan": {"type": "grid", "axes": [{"param": "x1", "min": -0.95, "max": 0.95, "n": 2},
                                        {"param": "S12", "min": -2.0, "max": 2.0, "n": 2}]},
      "stop": {"t_max": 20.0}, "observables": ["status"]})",
                               32);
}

TEST(ProgressReporting, NoSlipLanesCountTrajectoriesInsideAChunk) {
  expect_counted_while_running(R"({"system": "disc", "parameters": {"R": 1.0, "gamma": 0.816496580927726},
      "initial": {"start": "boundary", "boundary_s": 0.0, "speed": 1.0},
      "scan": {"type": "grid", "axes": [{"param": "angle", "min": -1.5, "max": 1.5, "n": 2},
                                        {"param": "spin", "min": -1.0, "max": 1.0, "n": 2}]},
      "stop": {"max_events": 2000}, "observables": ["status"]})",
                               64);
}

TEST(ProgressReporting, OneTrajectoryKernelCountsTrajectoriesInsideAChunk) {
  expect_counted_while_running(R"({"system": "stadium", "parameters": {"half_length": 1.0, "R": 1.0, "gamma": 0.8165},
      "initial": {"start": "boundary", "speed": 1.0, "spin": 0.0},
      "scan": {"type": "grid", "axes": [{"param": "boundary_s", "min": 0.0, "max": 1.0, "n": 2},
                                        {"param": "angle", "min": -1.5, "max": 1.5, "n": 2}]},
      "stop": {"max_events": 200}, "observables": ["status"]})",
                               64);
}

// Off a terminal (CaptureStderr) the line comes at least once a second, also while the counter
// stands still (a chunk between two counts), and reports the counter, not finished chunks.
TEST(ProgressReporting, MonitorPrintsTheCounterEverySecond) {
  ::testing::internal::CaptureStderr();
  {
    Progress progress("run", 10, false);
    DoneCounter done{3};
    ProgressMonitor monitor(progress, done);
    std::this_thread::sleep_for(std::chrono::milliseconds(2500));
    monitor.stop();
  }
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_GE(count_of(err, " 30.0%  3/10"), 2) << err;
  EXPECT_EQ(count_of(err, "100.0%"), 0) << err;
}

TEST(ProgressReporting, QuietRunStartsNoMonitorOutput) {
  const RunConfig rc = grid(R"({"system": "disc", "parameters": {"R": 1.0, "gamma": 0.816496580927726},
      "initial": {"start": "boundary", "boundary_s": 0.0, "speed": 1.0},
      "scan": {"type": "grid", "axes": [{"param": "angle", "min": -1.5, "max": 1.5, "n": 2},
                                        {"param": "spin", "min": -1.0, "max": 1.0, "n": 2}]},
      "stop": {"max_events": 20}, "observables": ["status"]})",
                            8);
  ::testing::internal::CaptureStderr();
  run_scan(rc, BackendChoice{Backend::cpu, "cpu"}, 0, true);
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
}

// Resuming: trajectories loaded from a checkpoint count as done, not towards the rate, so the
// time left is that of the work still to do at this run's own pace.
TEST(ProgressReporting, SkippedTrajectoriesLeaveTheRateAlone) {
  ::testing::internal::CaptureStderr();
  {
    Progress progress("run", 100, false, 50);
    std::this_thread::sleep_for(std::chrono::milliseconds(1100));
    progress.update(60);  // 10 in about a second: about 4 s left for the other 40
  }
  const std::string err = ::testing::internal::GetCapturedStderr();
  const std::size_t traj = err.find(" traj/s");
  ASSERT_NE(traj, std::string::npos) << err;
  const double rate = std::stod(err.substr(err.rfind(' ', traj - 1) + 1));
  EXPECT_LT(rate, 10.0) << err;  // 60 / 1.1 s if the skipped 50 were counted
  EXPECT_GT(rate, 4.0) << err;
}

}  // namespace
}  // namespace skipstone
