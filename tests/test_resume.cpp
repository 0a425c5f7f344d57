// test_resume.cpp — checkpoint and --resume: a run killed with SIGKILL at a random moment
// (twice) and resumed produces the outputs of an uninterrupted run byte for byte (meta.json up
// to the run-specific fields); outputs half-written by a run killed while writing them are
// replaced on --resume; a checkpoint is never silently discarded or reused for another config.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <random>
#include <string>
#include <thread>

#include "cli_support.hpp"
#include "run_comparison.hpp"

namespace {

using namespace skipstone::testing;

// 100000 trajectories of up to 3000 impacts in chunks of 8192: 13 chunks, about a second on 2
// cores with the SIMD lanes (3e8 impacts/s).
const char* const kSlowScan = R"({
  "system": "disc", "parameters": {"gamma": 0.8}, "initial": {"start": "boundary", "spin": 0.2},
  "scan": {"type": "random", "count": 100000, "seed": 7, "axes": [{"param": "angle", "min": -1.2, "max": 1.2}]},
  "stop": {"max_events": 3000}
})";
const char* const kChunk = "8192";
// How long a run may take to save its first chunk before it is killed anyway (a loaded machine
// may be many times slower than the second the whole scan takes alone).
constexpr std::chrono::seconds kFirstChunkTimeout(300);

class ResumeTest : public CliTest {
 protected:
  using Seconds = std::chrono::duration<double>;

  // Starts `skipstone run CONFIG --out OUT --quiet --chunk 8192 --resume` and kills it with
  // SIGKILL `delay` after it started; returns whether it was still running then.
  bool run_and_kill(const fs::path& config, const fs::path& out, Seconds delay) {
    const pid_t pid = start_run(config, out);
    std::this_thread::sleep_for(delay);
    return kill_run(pid);
  }

  // The same, killed once the first chunk is in OUT/.checkpoint and `fraction` times the time
  // that first chunk took has passed since: a delay in units of this run's own speed, whatever
  // else the machine is doing.
  bool run_and_kill_after_first_chunk(const fs::path& config, const fs::path& out, double fraction) {
    const auto started = std::chrono::steady_clock::now();
    const pid_t pid = start_run(config, out);
    while (!has_chunk(out / ".checkpoint") && waitpid(pid, nullptr, WNOHANG) == 0 &&
           std::chrono::steady_clock::now() < started + kFirstChunkTimeout)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    std::this_thread::sleep_for(fraction * Seconds(std::chrono::steady_clock::now() - started));
    return kill_run(pid);
  }

  static pid_t start_run(const fs::path& config, const fs::path& out) {
    const pid_t pid = fork();
    if (pid == 0) {
      const int devnull = open("/dev/null", O_WRONLY);
      dup2(devnull, STDOUT_FILENO);
      dup2(devnull, STDERR_FILENO);
      execl(SKIPSTONE_BINARY, SKIPSTONE_BINARY, "run", config.c_str(), "--out", out.c_str(), "--quiet", "--backend",
            "cpu", "--chunk", kChunk, "--resume", static_cast<char*>(nullptr));
      _exit(127);
    }
    EXPECT_GT(pid, 0);
    return pid;
  }

  static bool kill_run(pid_t pid) {
    kill(pid, SIGKILL);
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
  }

  static bool has_chunk(const fs::path& checkpoint) {
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(checkpoint, ec))
      if (e.path().filename().string().rfind("chunk_", 0) == 0) return true;
    return false;
  }
};

TEST_F(ResumeTest, KilledTwiceAndResumedEqualsAnUninterruptedRun) {
  const fs::path cfg = write_config("slow.json", kSlowScan);
  const fs::path reference = dir_ / "reference", out = dir_ / "out";
  const auto t0 = std::chrono::steady_clock::now();
  const CliResult r = run(cfg, reference, std::string("--backend cpu --no-checkpoint --chunk ") + kChunk);
  ASSERT_EQ(r.rc, 0) << describe(r);
  const Seconds duration = std::chrono::steady_clock::now() - t0;

  const unsigned seed = std::random_device{}();
  SCOPED_TRACE("kill moments drawn with seed " + std::to_string(seed));
  std::mt19937 rng(seed);
  // First kill: at a random moment within the time the run's own first chunk took, after that
  // chunk (of 13, so about 11 are still to come whatever the load); second: at a random moment
  // of the resumed run, between a tenth and nine tenths of the reference run's duration (it may
  // also finish, or die while writing the outputs).
  const double first = std::uniform_real_distribution<double>(0.0, 1.0)(rng);
  const double second = std::uniform_real_distribution<double>(0.1, 0.9)(rng);
  EXPECT_TRUE(run_and_kill_after_first_chunk(cfg, out, first)) << "the run finished before the kill";
  EXPECT_TRUE(has_chunk(out / ".checkpoint"));
  run_and_kill(cfg, out, second * duration);

  const CliResult resumed = run(cfg, out, std::string("--backend cpu --resume --chunk ") + kChunk);
  ASSERT_EQ(resumed.rc, 0) << describe(resumed);
  EXPECT_FALSE(fs::exists(out / ".checkpoint")) << "the checkpoint is removed once the outputs are written";
  expect_same_outputs(reference, out);
}

// A run killed while it wrote its outputs leaves some of them beside its checkpoint and no
// meta.json (the random kill moments above reach this now and then): --resume takes them as its
// own and replaces them, while a run without --resume still refuses the folder.
TEST_F(ResumeTest, AResumeReplacesTheOutputsOfARunKilledWhileWritingThem) {
  const fs::path cfg = write_config("slow.json", kSlowScan);
  const fs::path reference = dir_ / "reference", out = dir_ / "out";
  ASSERT_EQ(run(cfg, reference, std::string("--backend cpu --no-checkpoint --chunk ") + kChunk).rc, 0);
  ASSERT_TRUE(run_and_kill_after_first_chunk(cfg, out, 0.0));
  for (const char* name : {"status.npy", "events.npy", "axis_angle.npy", "status.png"})
    write_text(out / name, "half-written");
  const CliResult plain = run(cfg, out, std::string("--backend cpu --chunk ") + kChunk);
  EXPECT_EQ(plain.rc, 2) << describe(plain);
  const CliResult resumed = run(cfg, out, std::string("--backend cpu --resume --chunk ") + kChunk);
  ASSERT_EQ(resumed.rc, 0) << describe(resumed);
  expect_same_outputs(reference, out);
  // a file this run does not write is still not taken for one of its outputs
  ASSERT_TRUE(run_and_kill_after_first_chunk(cfg, out / "again", 0.0));
  write_text(out / "again" / "mine.npy", "not an output of this run");
  const CliResult foreign = run(cfg, out / "again", std::string("--backend cpu --resume --chunk ") + kChunk);
  EXPECT_EQ(foreign.rc, 2) << describe(foreign);
  EXPECT_NE(foreign.err.find("mine.npy"), std::string::npos) << describe(foreign);
}

TEST_F(ResumeTest, ACheckpointIsNeitherDiscardedNorReusedForAnotherConfig) {
  const fs::path cfg = write_config("slow.json", kSlowScan);
  const fs::path out = dir_ / "out";
  ASSERT_TRUE(run_and_kill_after_first_chunk(cfg, out, 0.0));
  ASSERT_TRUE(has_chunk(out / ".checkpoint"));

  const CliResult again = run(cfg, out, std::string("--backend cpu --chunk ") + kChunk);
  EXPECT_EQ(again.rc, 2) << describe(again);
  EXPECT_NE(again.err.find("--resume"), std::string::npos) << describe(again);

  std::string other = kSlowScan;
  other.replace(other.find("\"seed\": 7"), 9, "\"seed\": 8");
  const CliResult foreign = run(write_config("other.json", other), out, std::string("--backend cpu --resume --chunk ") + kChunk);
  EXPECT_EQ(foreign.rc, 2) << describe(foreign);
  EXPECT_NE(foreign.err.find("does not belong to this run"), std::string::npos) << describe(foreign);
  EXPECT_TRUE(fs::exists(out / ".checkpoint"));
  EXPECT_FALSE(fs::exists(out / "meta.json"));
}

}  // namespace
