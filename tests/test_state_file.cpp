// test_state_file.cpp — the final_state observable and the start "state_file" end to end: a run
// to t_max = T continued from its final states for another T ends where one run to 2T ends (to
// kContinueTolerance: the restart is exact per flight or segment, but not bit for bit, since the
// continued run flies from the state at T instead of from the last event before it); chunked
// runs and shards + merge give the same final_state.npy byte for byte; a grid's final states
// continue in trajectory order; bad state files exit 2 naming initial.file and what is allowed.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "cli_support.hpp"
#include "npy_values.hpp"

namespace {

using namespace skipstone::testing;

// Largest difference between a run to 2T and the run to T continued for T, relative to the
// state's size (about 1): a few roundings per flight or segment, well above the measured
// 3.8e-15 (cylinder:disc with gravity), 2.3e-15 (roll4:planes), 4.4e-16 (roll3:strip),
// 1.8e-15 (roll3:inside-cylinder).
constexpr double kContinueTolerance = 1e-12;

struct Case {
  const char* name;
  std::string head;  // system, parameters
  std::string start;  // initial + scan of the first run
  double half;       // T
};

std::string config(const Case& c, const std::string& start, double t_max) {
  return "{" + c.head + ", " + start + R"(, "stop": {"t_max": )" + std::to_string(t_max) +
         R"(}, "observables": ["status", "final_state"]})";
}

const Case kCases[] = {
    {"cylinder", R"("system": "cylinder:disc", "parameters": {"R": 1.0, "gamma": 0.6325, "g": 0.5})",
     R"("initial": {"x": 0.2, "y": 0.1, "vx": 1.0, "vy": 0.3, "vz": 0.4, "wx": 0.1},
        "scan": {"axes": [{"param": "wz", "min": -1.0, "max": 1.0, "n": 8}]})", 2.5},
    {"disc", R"("system": "disc", "parameters": {"R": 1.0, "gamma": 0.6325})",
     R"("initial": {"x": 0.2, "y": 0.1, "speed": 1.0, "spin": 0.3},
        "scan": {"axes": [{"param": "angle", "min": 0.1, "max": 3.0, "n": 8}]})", 3.7},
    {"planes", R"("system": "roll4:planes", "parameters": {"L": 1.0, "r": 0.1, "gamma": 0.6325, "g": 1.0})",
     R"("initial": {"x1": 0.1, "v1": 1.0, "v3": 0.5, "S12": 0.2, "S13": 0.1, "S23": 0.3},
        "scan": {"axes": [{"param": "v2", "min": -1.0, "max": 1.0, "n": 8}]})", 3.65},
    {"strip", R"("system": "roll3:strip", "parameters": {"L": 1.0, "r": 0.1, "gamma": 0.6325, "g": 1.0})",
     R"("initial": {"x1": 0.1, "v1": 1.0, "spin": 0.2},
        "scan": {"axes": [{"param": "v2", "min": -1.0, "max": 1.0, "n": 8}]})", 2.5},
    {"inside", R"("system": "roll3:inside-cylinder", "parameters": {"R": 1.0, "r": 0.1, "gamma": 0.6325, "g": 1.0})",
     R"("initial": {"start": "wall", "angle": 0.3, "z": 0.0, "v1": 1.0, "spin": 0.2},
        "scan": {"axes": [{"param": "v2", "min": -1.0, "max": 1.0, "n": 8}]})", 2.5},
};

class StateFileTest : public CliTest {};

TEST_F(StateFileTest, TMaxSplitInTwoContinuesTheRun) {
  for (const Case& c : kCases) {
    const std::string n = c.name;
    ASSERT_EQ(run(write_config(n + "_full.json", config(c, c.start, 2.0 * c.half)), dir_ / (n + "_full"), "--backend cpu").rc, 0) << n;
    ASSERT_EQ(run(write_config(n + "_a.json", config(c, c.start, c.half)), dir_ / (n + "_a"), "--backend cpu").rc, 0) << n;
    const std::string from = state_file_initial(dir_ / (n + "_a") / "final_state.npy");
    const CliResult b = run(write_config(n + "_b.json", config(c, from, c.half)), dir_ / (n + "_b"), "--backend cpu");
    ASSERT_EQ(b.rc, 0) << n << describe(b);
    std::vector<std::size_t> shape;
    const std::vector<double> full = npy_values<double>(dir_ / (n + "_full") / "final_state.npy", &shape);
    const std::vector<double> cont = npy_values<double>(dir_ / (n + "_b") / "final_state.npy");
    ASSERT_EQ(shape.size(), 2u);
    EXPECT_EQ(shape[0], 8u) << n;
    ASSERT_EQ(full.size(), cont.size()) << n;
    for (std::size_t i = 0; i < full.size(); ++i) EXPECT_NEAR(full[i], cont[i], kContinueTolerance) << n << " value " << i;
    // the half run really moved: its final states differ from the full run's
    const std::vector<double> half = npy_values<double>(dir_ / (n + "_a") / "final_state.npy");
    double moved = 0.0;
    for (std::size_t i = 0; i < full.size(); ++i) moved = std::max(moved, std::fabs(full[i] - half[i]));
    EXPECT_GT(moved, 1e-3) << n;
  }
}

TEST_F(StateFileTest, ChunksAndShardsGiveTheSameFinalStates) {
  const Case& c = kCases[0];
  const std::string start = R"("initial": {"x": 0.2, "y": 0.1, "vx": 1.0, "vy": 0.3, "vz": 0.4},
     "scan": {"axes": [{"param": "wz", "min": -1.0, "max": 1.0, "n": 100}, {"param": "wx", "min": -1.0, "max": 1.0, "n": 90}]})";
  const fs::path cfg = write_config("grid.json", config(c, start, 3.0));
  ASSERT_EQ(run(cfg, dir_ / "one", "--backend cpu").rc, 0);
  ASSERT_EQ(run(cfg, dir_ / "chunked", "--backend cpu --chunk 4096").rc, 0);
  std::string shards;
  for (int i = 0; i < 2; ++i) {
    const fs::path d = dir_ / ("shard" + std::to_string(i));
    ASSERT_EQ(run(cfg, d, "--backend cpu --shard " + std::to_string(i) + "/2").rc, 0);
    shards += " " + shell_quote(d.string());
  }
  const CliResult m = skipstone("merge" + shards + " --out " + shell_quote((dir_ / "merged").string()) + " --quiet");
  ASSERT_EQ(m.rc, 0) << describe(m);
  const std::string one = read_text(dir_ / "one" / "final_state.npy");
  EXPECT_EQ(one, read_text(dir_ / "chunked" / "final_state.npy"));
  EXPECT_EQ(one, read_text(dir_ / "merged" / "final_state.npy"));
}

// The final_state.npy of a grid over two axes, shape (n1, n0, columns), starts the continued run
// with its trajectories in index order: row k continues the grid's trajectory k.
TEST_F(StateFileTest, AGridsFinalStatesContinueInTrajectoryOrder) {
  const Case& c = kCases[0];
  const std::string start = R"("initial": {"x": 0.2, "y": 0.1, "vx": 1.0, "vy": 0.3, "vz": 0.4},
     "scan": {"axes": [{"param": "wz", "min": -1.0, "max": 1.0, "n": 3}, {"param": "wx", "min": -1.0, "max": 1.0, "n": 4}]})";
  ASSERT_EQ(run(write_config("grid_full.json", config(c, start, 2.0 * c.half)), dir_ / "grid_full", "--backend cpu").rc, 0);
  ASSERT_EQ(run(write_config("grid_a.json", config(c, start, c.half)), dir_ / "grid_a", "--backend cpu").rc, 0);
  std::vector<std::size_t> grid_shape;
  npy_values<double>(dir_ / "grid_a" / "final_state.npy", &grid_shape);
  ASSERT_EQ(grid_shape, (std::vector<std::size_t>{4, 3, 9}));
  const std::string from = state_file_initial(dir_ / "grid_a" / "final_state.npy");
  const CliResult b = run(write_config("grid_b.json", config(c, from, c.half)), dir_ / "grid_b", "--backend cpu");
  ASSERT_EQ(b.rc, 0) << describe(b);
  std::vector<std::size_t> shape;
  const std::vector<double> cont = npy_values<double>(dir_ / "grid_b" / "final_state.npy", &shape);
  EXPECT_EQ(shape, (std::vector<std::size_t>{12, 9}));
  const std::vector<double> full = npy_values<double>(dir_ / "grid_full" / "final_state.npy");
  ASSERT_EQ(full.size(), cont.size());
  for (std::size_t i = 0; i < full.size(); ++i) EXPECT_NEAR(full[i], cont[i], kContinueTolerance) << "value " << i;
}

TEST_F(StateFileTest, BadStateFilesExit2NamingTheKey) {
  const Case& c = kCases[0];
  const auto start_from = [&](const std::string& file) {
    const std::string from = state_file_initial(file);
    return run(write_config("bad.json", config(c, from, 1.0)), dir_ / "bad", "--backend cpu");
  };
  const auto write = [&](const std::string& name, const std::vector<double>& v, const std::vector<std::size_t>& shape) {
    skipstone::io::write_npy(dir_ / name, v, shape);
    return (dir_ / name).string();
  };
  std::vector<double> nine(18, 0.1);
  nine[3] = 1.0;
  struct Bad {
    std::string file, says;
  };
  std::vector<double> nan_row = nine;
  nan_row[13] = std::nan("");
  skipstone::io::write_npy(dir_ / "f4.npy", std::vector<float>(18, 0.1f), {2, 9});
  const Bad bad[] = {
      {(dir_ / "missing.npy").string(), "no such file"},
      {write("cols.npy", std::vector<double>(10, 0.1), {2, 5}), "shape (2, 5)"},
      {write("flat.npy", nine, {18}), "shape (18,)"},
      {write("grid_cols.npy", std::vector<double>(12, 0.1), {2, 3, 2}), "shape (2, 3, 2)"},
      {(dir_ / "f4.npy").string(), "dtype \"<f4\""},
      {write("nan.npy", nan_row, {2, 9}), "row 1 has a value that is not finite (column uy)"},
  };
  for (const Bad& b : bad) {
    const CliResult r = start_from(b.file);
    EXPECT_EQ(r.rc, 2) << b.file;
    EXPECT_NE(r.err.find("initial.file"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(b.says), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("allowed: "), std::string::npos) << r.err;
  }
  // the good file runs
  EXPECT_EQ(start_from(write("good.npy", nine, {2, 9})).rc, 0);
  // a system without a state start names the systems that have one
  const CliResult r = run(write_config("disc4.json", R"({"system": "roll4:disc-transversal", "parameters": {"R": 1.0, "r": 0.1, "gamma": 0.6},
     "initial": {"start": "state_file"}})"), dir_ / "bad2", "--backend cpu");
  EXPECT_EQ(r.rc, 2);
  EXPECT_NE(r.err.find("initial.start"), std::string::npos) << r.err;
}

}  // namespace
