// test_resume.cpp — checkpoint and --resume: a run killed with SIGKILL at a random moment
// (twice) and resumed produces the outputs of an uninterrupted run byte for byte (meta.json up
// to the run-specific fields); a checkpoint is never silently discarded or reused for another
// config.
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

class ResumeTest : public CliTest {
 protected:
  // Starts `skipstone run CONFIG --out OUT --quiet --chunk 8192 --resume` and kills it with
  // SIGKILL `delay` after it started or, with `after_first_chunk`, after the first chunk is in
  // OUT/.checkpoint; returns whether it was still running then.
  bool run_and_kill(const fs::path& config, const fs::path& out, std::chrono::milliseconds delay,
                    bool after_first_chunk) {
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
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    while (after_first_chunk && !has_chunk(out / ".checkpoint") && waitpid(pid, nullptr, WNOHANG) == 0 &&
           std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    std::this_thread::sleep_for(delay);
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
  const auto duration = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0);

  const unsigned seed = std::random_device{}();
  SCOPED_TRACE("kill moments drawn with seed " + std::to_string(seed));
  std::mt19937 rng(seed);
  std::uniform_int_distribution<long> moment(duration.count() / 10, duration.count() * 9 / 10);
  // First kill: at a random moment in the first ~tenth of the run once something is saved (the
  // reference run's duration may have been measured beside another test under ctest -j, so the
  // killed run can be several times faster: a later first kill missed it, seen once in ~60 runs);
  // second: at a random moment of the resumed run (it may also finish, or die while writing the
  // outputs).
  const auto first = std::chrono::milliseconds(moment(rng)) / 8, second = std::chrono::milliseconds(moment(rng));
  EXPECT_TRUE(run_and_kill(cfg, out, first, true)) << "the run finished before the kill";
  EXPECT_TRUE(has_chunk(out / ".checkpoint"));
  run_and_kill(cfg, out, second, false);

  const CliResult resumed = run(cfg, out, std::string("--backend cpu --resume --chunk ") + kChunk);
  ASSERT_EQ(resumed.rc, 0) << describe(resumed);
  EXPECT_FALSE(fs::exists(out / ".checkpoint")) << "the checkpoint is removed once the outputs are written";
  expect_same_outputs(reference, out);
}

TEST_F(ResumeTest, ACheckpointIsNeitherDiscardedNorReusedForAnotherConfig) {
  const fs::path cfg = write_config("slow.json", kSlowScan);
  const fs::path out = dir_ / "out";
  ASSERT_TRUE(run_and_kill(cfg, out, std::chrono::milliseconds(0), true));
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
