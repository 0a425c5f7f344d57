// test_state_file_rolling.cpp — final_state and the start "state_file" of roll3:<table>,
// roll4:<table> and roll4:disc (rolling/table_state_row.hpp) end to end: a run to t_max = 2T ends where the run
// to T continued from its final states for another T ends, with some of the states at T inside
// an edge passage (face 0), and the passages counted once (events add up); rows fed back with a
// t_max of one rounding come back as they were; the CPU backend's lanes (a run without
// final_state) start from edge rows as the one-trajectory kernel does, bit for bit; chunks give
// the same final_state.npy; the Lyapunov exponents start from edge rows too (finite on every
// row, the face rows' as from a file of those rows alone, the final states those of the plain
// run); bad rows exit 2 naming initial.file; a noisy run from a file draws noise of its own (the
// key folds in the row); a noisy run writes its final states in the same layout and goes on from
// them, edge rows included (at sigma = 0 the run split in two is the whole run to the noisy
// integrator's accuracy); the preset pair continue_roll3_stadium_a/_b runs.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "cli_support.hpp"
#include "npy_values.hpp"

namespace {

using namespace skipstone::testing;

// Largest difference between a run to 2T and the run to T continued for T, relative to the
// state's size (about 1). A state on a face continues exactly (its flight in closed form); one
// inside an edge passage goes on with other GBS steps than the full run's (rtol = atol = 1e-12),
// so the two differ by the integrator's local errors, carried through the passages after T
// and grown as any perturbation grows on a chaotic table (roll3:sinai at T = 2.9: 2e-9, where a
// change of 1e-15 in the start moves the state at 2T by 3e-7; hence its shorter T). Measured:
// 3.5e-13 (roll3:stadium with in-plane gravity), 9.7e-13 (roll4:polygon, over its corners),
// 8.3e-13 (roll3:sinai), 2.0e-13 (roll4:ellipse), 3.8e-13 (roll4:disc).
constexpr double kContinueTolerance = 1e-10;
// A row fed back with t_max = 1e-300 (one step that moves nothing): the row rebuilt from the
// state it starts (angles through atan2 and back, the edge projected onto its invariants).
// Measured: 4.4e-16.
constexpr double kRoundTripTolerance = 1e-14;
constexpr double kTwoPi = 6.283185307179586;

struct Case {
  const char* name;
  std::string head;   // system, parameters
  std::string start;  // initial + scan of the first run
  double half;        // T
};

const std::string kOptions = R"("options": {"rtol": 1e-12, "atol": 1e-12, "max_steps": 1000000, "energy_tolerance": 1e-8})";

const Case kCases[] = {
    {"roll3_stadium", R"("system": "roll3:stadium", "parameters": {"half_length": 1.0, "R": 1.0, "r": 0.1, "gamma": 0.6325, "g": 1.0})",
     R"("initial": {"start": "plate", "x1": 0.0, "x2": 0.0, "v2": 0.0, "S12": 0.3},
        "scan": {"axes": [{"param": "v1", "min": -2.0, "max": 2.0, "n": 16}]})", 3.3},
    {"roll4_polygon", R"("system": "roll4:polygon", "parameters": {"vertices": [[0.0, 1.0], [-0.951057, 0.309017], [-0.587785, -0.809017],
        [0.587785, -0.809017], [0.951057, 0.309017]], "r": 0.1, "eta": 0.5, "g_effective": 1.0})",
     R"("initial": {"start": "plate", "x1": 0.1, "x2": 0.0, "z": 0.0, "v1": 1.0, "v2": 0.4, "v3": 0.2, "S13": 0.1, "S23": 0.2},
        "scan": {"axes": [{"param": "S12", "min": -1.0, "max": 1.0, "n": 16}]})", 2.7},
    {"roll3_sinai", R"("system": "roll3:sinai", "parameters": {"side": 1.0, "radius": 0.3, "r": 0.1, "gamma": 0.6325})",
     R"("initial": {"start": "plate", "x1": 0.5, "x2": 0.1, "v1": 1.0, "S12": 0.2},
        "scan": {"axes": [{"param": "v2", "min": -1.0, "max": 1.0, "n": 16}]})", 1.6},
    {"roll4_ellipse", R"("system": "roll4:ellipse", "parameters": {"a": 2.0, "b": 1.0, "r": 0.1, "eta": 0.5, "g_effective": 1.0})",
     R"("initial": {"start": "plate", "x1": 0.3, "x2": 0.0, "z": 0.0, "v1": 0.2, "v2": 1.0, "v3": 0.3, "S13": 0.0, "S23": 0.1},
        "scan": {"axes": [{"param": "S12", "min": -1.0, "max": 1.0, "n": 16}]})", 3.1},
    {"roll4_disc", R"("system": "roll4:disc", "parameters": {"R": 1.0, "r": 0.1, "eta": 0.5, "g_effective": 1.0})",
     R"("initial": {"start": "plate", "x1": 0.3, "x2": 0.0, "z": 0.0, "v1": 0.2, "v2": 1.0, "v3": 0.3, "S13": 0.0, "S23": 0.1},
        "scan": {"axes": [{"param": "S12", "min": -1.0, "max": 1.0, "n": 16}]})", 3.1},
};

std::string config(const Case& c, const std::string& start, double t_max,
                   const std::string& observables = R"(["status", "events", "z_final", "final_state"])") {
  char t[64];
  std::snprintf(t, sizeof t, "%.17g", t_max);
  return "{" + c.head + ", " + start + R"(, "stop": {"t_max": )" + t + R"(}, "observables": )" + observables + ", " +
         kOptions + "}";
}

// The largest difference of two final_state tables of `cols` columns (face must agree exactly,
// psi is compared modulo 2 pi), relative to max(1, |value|).
double largest_difference(const std::vector<double>& a, const std::vector<double>& b, std::size_t cols) {
  double worst = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const std::size_t c = i % cols;
    if (c == 0 && a[i] != b[i]) return INFINITY;
    double d = a[i] - b[i];
    if (c == cols - 2) d = std::remainder(d, kTwoPi);
    worst = std::max(worst, std::fabs(d) / std::max(1.0, std::fabs(a[i])));
  }
  return worst;
}

// The state columns of a noisy run's final_state table (`cols` columns: the state's, then the
// noise columns noise_n1, noise_n2, which test_noisy_continuation.cpp tests).
std::vector<double> state_part(const std::vector<double>& table, std::size_t cols) {
  std::vector<double> state;
  for (std::size_t i = 0; i < table.size(); ++i)
    if (i % cols < cols - 2) state.push_back(table[i]);
  return state;
}

class StateFileRollingTest : public CliTest {};

TEST_F(StateFileRollingTest, TMaxSplitInTwoContinuesTheRunThroughEdgePassages) {
  for (const Case& c : kCases) {
    const std::string n = c.name;
    ASSERT_EQ(run(write_config(n + "_full.json", config(c, c.start, 2.0 * c.half)), dir_ / (n + "_full"), "--backend cpu").rc, 0) << n;
    ASSERT_EQ(run(write_config(n + "_a.json", config(c, c.start, c.half)), dir_ / (n + "_a"), "--backend cpu").rc, 0) << n;
    const CliResult b = run(write_config(n + "_b.json", config(c, state_file_initial(dir_ / (n + "_a") / "final_state.npy"), c.half)),
                            dir_ / (n + "_b"), "--backend cpu");
    ASSERT_EQ(b.rc, 0) << n << describe(b);
    std::vector<std::size_t> shape;
    const std::vector<double> full = npy_values<double>(dir_ / (n + "_full") / "final_state.npy", &shape);
    const std::vector<double> half = npy_values<double>(dir_ / (n + "_a") / "final_state.npy");
    const std::vector<double> cont = npy_values<double>(dir_ / (n + "_b") / "final_state.npy");
    ASSERT_EQ(shape.size(), 2u);
    ASSERT_EQ(shape[0], 16u) << n;
    const std::size_t cols = shape[1];
    EXPECT_EQ(cols, n.rfind("roll3", 0) == 0 ? 8u : 12u) << n;
    ASSERT_EQ(full.size(), cont.size()) << n;
    int on_edge = 0;  // states at T inside a passage: the continuation starts on the edge
    for (std::size_t i = 0; i < half.size(); i += cols) on_edge += half[i] == 0.0;
    EXPECT_GE(on_edge, 2) << n;
    const double worst = largest_difference(full, cont, cols);
    EXPECT_LE(worst, kContinueTolerance) << n;
    std::printf("%s: %d of 16 on the edge at T, largest difference %.2g\n", c.name, on_edge, worst);
    // the passages are counted once: those going on at T complete in the continued run
    const std::vector<std::int64_t> ev_full = npy_values<std::int64_t>(dir_ / (n + "_full") / "events.npy");
    const std::vector<std::int64_t> ev_a = npy_values<std::int64_t>(dir_ / (n + "_a") / "events.npy");
    const std::vector<std::int64_t> ev_b = npy_values<std::int64_t>(dir_ / (n + "_b") / "events.npy");
    for (std::size_t i = 0; i < ev_full.size(); ++i) EXPECT_EQ(ev_full[i], ev_a[i] + ev_b[i]) << n << " trajectory " << i;
    // the half run really moved
    double moved = 0.0;
    for (std::size_t i = 0; i < full.size(); ++i)
      if (i % cols) moved = std::max(moved, std::fabs(full[i] - half[i]));
    EXPECT_GT(moved, 1e-3) << n;
  }
}

TEST_F(StateFileRollingTest, RowsFedBackComeBackAsTheyWere) {
  for (const Case& c : {kCases[0], kCases[1], kCases[4]}) {
    const std::string n = c.name;
    ASSERT_EQ(run(write_config(n + "_a.json", config(c, c.start, c.half)), dir_ / (n + "_a"), "--backend cpu").rc, 0) << n;
    const fs::path rows = dir_ / (n + "_a") / "final_state.npy";
    const CliResult b = run(write_config(n + "_b.json", config(c, state_file_initial(rows), 1e-300)), dir_ / (n + "_b"), "--backend cpu");
    ASSERT_EQ(b.rc, 0) << n << describe(b);
    std::vector<std::size_t> shape;
    const std::vector<double> in = npy_values<double>(rows, &shape);
    const std::vector<double> out = npy_values<double>(dir_ / (n + "_b") / "final_state.npy");
    ASSERT_EQ(in.size(), out.size());
    EXPECT_LE(largest_difference(in, out, shape[1]), kRoundTripTolerance) << n;
  }
}

TEST_F(StateFileRollingTest, LanesStartFromEdgeRowsAsTheOneTrajectoryKernel) {
  for (const Case& c : {kCases[0], kCases[1], kCases[4]}) {
    const std::string n = c.name;
    ASSERT_EQ(run(write_config(n + "_a.json", config(c, c.start, c.half)), dir_ / (n + "_a"), "--backend cpu").rc, 0) << n;
    const std::string from = state_file_initial(dir_ / (n + "_a") / "final_state.npy");
    // without final_state the CPU backend runs the rows in SIMD lanes; with it, one at a time
    ASSERT_EQ(run(write_config(n + "_lanes.json", config(c, from, c.half, R"(["status", "events", "z_final", "z_min"])")),
                  dir_ / (n + "_lanes"), "--backend cpu").rc, 0) << n;
    ASSERT_EQ(run(write_config(n + "_one.json", config(c, from, c.half)), dir_ / (n + "_one"), "--backend cpu").rc, 0) << n;
    for (const char* f : {"status.npy", "events.npy", "z_final.npy"})
      EXPECT_EQ(read_text(dir_ / (n + "_lanes") / f), read_text(dir_ / (n + "_one") / f)) << n << " " << f;
  }
}

TEST_F(StateFileRollingTest, ChunksGiveTheSameFinalStates) {
  const Case& c = kCases[1];
  const std::string start = R"("initial": {"start": "plate", "x1": 0.1, "x2": 0.0, "z": 0.0, "v1": 1.0, "v3": 0.2, "S13": 0.1, "S23": 0.2},
     "scan": {"axes": [{"param": "S12", "min": -1.0, "max": 1.0, "n": 12}, {"param": "v2", "min": -1.0, "max": 1.0, "n": 10}]})";
  const fs::path one = write_config("one.json", config(c, start, 2.0));
  std::string text = config(c, start, 2.0);
  text.replace(text.find("\"options\": {"), 12, "\"options\": {\"chunk_size\": 7, ");
  expect_same_files_over_chunks_and_shards(one, write_config("chunked.json", text), {"final_state.npy", "events.npy"});
}

TEST_F(StateFileRollingTest, BadRowsExit2NamingTheKey) {
  const Case& c = kCases[0];  // roll3: 8 columns
  const auto start_from = [&](const fs::path& file) {
    return run(write_config("bad.json", config(c, state_file_initial(file), 1.0)), dir_ / "bad", "--backend cpu");
  };
  std::vector<double> row = {1.0, 0.0, 0.0, 1.0, 0.0, 0.3, 0.0, 0.0};
  skipstone::io::write_npy(dir_ / "good.npy", row, {1, 8});
  EXPECT_EQ(start_from(dir_ / "good.npy").rc, 0);
  // a roll4 row (12 columns) for a roll3 system
  skipstone::io::write_npy(dir_ / "roll4.npy", std::vector<double>(12, 0.0), {1, 12});
  std::vector<double> half_face = row;
  half_face[0] = 0.5;
  skipstone::io::write_npy(dir_ / "face.npy", half_face, {1, 8});
  struct Bad {
    fs::path file;
    std::string says;
  };
  const Bad bad[] = {
      {dir_ / "roll4.npy", "shape (1, 12); allowed: a float64 .npy of shape (rows, 8) or (n1, ..., 8), columns face, x1, x2, v1, v2, S12, psi, phi"},
      {dir_ / "face.npy", "row 0 has face 0.5; allowed: face 1 (on N+), -1 (on N-) or 0 (on the edge)"},
  };
  for (const Bad& b : bad) {
    const CliResult r = start_from(b.file);
    EXPECT_EQ(r.rc, 2) << b.file;
    EXPECT_NE(r.err.find("initial.file"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(b.says), std::string::npos) << r.err;
  }
  // an edge row (face 0): the Lyapunov exponents start there
  std::vector<double> edge_row = {1.0, 0.0, 0.0, 1.0, 0.0, 0.3, 0.0, 0.0, 0.0, 1.05, 0.0, 0.7, 0.2, 0.3, 0.0, 1.2};
  skipstone::io::write_npy(dir_ / "edge.npy", edge_row, {2, 8});
  const CliResult lyap = run(write_config("edge_lyapunov.json", config(c, state_file_initial(dir_ / "edge.npy"), 1.0, R"(["status", "lyapunov"])")),
                             dir_ / "edge_lyapunov", "--backend cpu");
  EXPECT_EQ(lyap.rc, 0) << describe(lyap);
}

// A run's final states, some inside an edge passage, continued with the Lyapunov exponents
// (RollLyapunovRun::go_on_edge for the edge rows): every row has a finite exponent; the face
// rows' are those of a file of the face rows alone, bit for bit; the final states and events are
// the plain continuation's (the tangent vector rides along the same steps).
TEST_F(StateFileRollingTest, TheLyapunovExponentsContinueFromEdgeRows) {
  const std::string observables = R"(["status", "events", "lyapunov", "lyapunov_per_event", "final_state"])";
  for (const Case& c : {kCases[0], kCases[3], kCases[4]}) {
    const std::string n = c.name;
    ASSERT_EQ(run(write_config(n + "_a.json", config(c, c.start, c.half)), dir_ / (n + "_a"), "--backend cpu").rc, 0) << n;
    const fs::path rows = dir_ / (n + "_a") / "final_state.npy";
    const CliResult b = run(write_config(n + "_b.json", config(c, state_file_initial(rows), c.half, observables)), dir_ / (n + "_b"),
                            "--backend cpu");
    ASSERT_EQ(b.rc, 0) << n << describe(b);
    ASSERT_EQ(run(write_config(n + "_plain.json", config(c, state_file_initial(rows), c.half)), dir_ / (n + "_plain"), "--backend cpu").rc, 0)
        << n;
    std::vector<std::size_t> shape;
    const std::vector<double> in = npy_values<double>(rows, &shape);
    const std::size_t cols = shape[1];
    const std::vector<double> lyap = npy_values<double>(dir_ / (n + "_b") / "lyapunov.npy");
    const std::vector<double> per_event = npy_values<double>(dir_ / (n + "_b") / "lyapunov_per_event.npy");
    const std::vector<std::int64_t> events = npy_values<std::int64_t>(dir_ / (n + "_b") / "events.npy");
    ASSERT_EQ(lyap.size(), shape[0]) << n;
    std::vector<double> face_rows;
    std::vector<double> face_lyap;
    int on_edge = 0;
    for (std::size_t i = 0; i < shape[0]; ++i) {
      EXPECT_TRUE(std::isfinite(lyap[i])) << n << " row " << i;
      if (events[i] > 0) {
        EXPECT_TRUE(std::isfinite(per_event[i])) << n << " row " << i;
      }
      if (in[i * cols] == 0.0) {
        ++on_edge;
        continue;
      }
      face_rows.insert(face_rows.end(), in.begin() + i * cols, in.begin() + (i + 1) * cols);
      face_lyap.push_back(lyap[i]);
    }
    EXPECT_GE(on_edge, 2) << n;
    skipstone::io::write_npy(dir_ / (n + "_faces.npy"), face_rows, {face_lyap.size(), cols});
    ASSERT_EQ(run(write_config(n + "_f.json", config(c, state_file_initial(dir_ / (n + "_faces.npy")), c.half, observables)),
                  dir_ / (n + "_f"), "--backend cpu").rc, 0) << n;
    EXPECT_EQ(npy_values<double>(dir_ / (n + "_f") / "lyapunov.npy"), face_lyap) << n;
    for (const char* f : {"final_state.npy", "events.npy", "status.npy"})
      EXPECT_EQ(read_text(dir_ / (n + "_b") / f), read_text(dir_ / (n + "_plain") / f)) << n << " " << f;
  }
}

// A noisy run started from a file of states draws noise of its own (the key folds in the row),
// not the noise a grid run draws from its first passage: the file holds the grid's own start
// states (the grid fed through t_max = 1e-300, kRoundTripTolerance), so that without noise the
// file run is the grid run (kContinueTolerance) while with roughness noise (sigma 0.3) most
// trajectories end elsewhere (kOtherNoise); the same file gives the same noise again, bit for bit.
TEST_F(StateFileRollingTest, ANoisyRunFromAFileDrawsNoiseOfItsOwn) {
  constexpr double kOtherNoise = 1e-4;
  const Case& c = kCases[4];  // roll4:disc
  for (const char* sigma : {"0.0", "0.3"}) {
    const std::string n = std::string("sigma_") + sigma;
    Case noisy = c;
    noisy.head = R"("system": "roll4:disc", "parameters": {"R": 1.0, "r": 0.1, "eta": 0.5, "g_effective": 1.0,
        "noise": 2, "noise_tau": 0.2, "noise_dt": 1e-3, "noise_sigma": )" + std::string(sigma) + "}";
    ASSERT_EQ(run(write_config(n + "_grid.json", config(noisy, c.start, c.half)), dir_ / (n + "_grid"), "--backend cpu").rc, 0);
    ASSERT_EQ(run(write_config(n + "_rows.json", config(c, c.start, 1e-300)), dir_ / (n + "_rows"), "--backend cpu").rc, 0);
    const std::string from = state_file_initial(dir_ / (n + "_rows") / "final_state.npy");
    for (const char* again : {"_file", "_again"}) {
      const CliResult r = run(write_config(n + again + ".json", config(noisy, from, c.half)), dir_ / (n + again), "--backend cpu");
      ASSERT_EQ(r.rc, 0) << describe(r);
    }
    EXPECT_EQ(read_text(dir_ / (n + "_file") / "final_state.npy"), read_text(dir_ / (n + "_again") / "final_state.npy")) << n;
    std::vector<std::size_t> shape;
    std::vector<double> grid = npy_values<double>(dir_ / (n + "_grid") / "final_state.npy", &shape);
    std::vector<double> file = npy_values<double>(dir_ / (n + "_file") / "final_state.npy");
    const std::vector<std::int64_t> events = npy_values<std::int64_t>(dir_ / (n + "_grid") / "events.npy");
    grid = state_part(grid, shape[1]);
    file = state_part(file, shape[1]);
    const std::size_t cols = shape[1] - 2;
    int other = 0, with_passages = 0;
    for (std::size_t i = 0; i < shape[0]; ++i) {
      const std::vector<double> a(grid.begin() + i * cols, grid.begin() + (i + 1) * cols);
      const std::vector<double> b(file.begin() + i * cols, file.begin() + (i + 1) * cols);
      const double d = largest_difference(a, b, cols);
      if (std::string(sigma) == "0.0") {
        EXPECT_LE(d, kContinueTolerance) << "trajectory " << i;
      }
      with_passages += events[i] > 0;
      other += d > kOtherNoise;
    }
    std::printf("%s: %d of %zu trajectories end elsewhere from the file (%d with an edge passage)\n", n.c_str(), other, shape[0],
                with_passages);
    if (std::string(sigma) == "0.3") {
      EXPECT_GE(with_passages, 12);
      EXPECT_GE(other, with_passages);
    }
  }
}

// A noisy run's final states are state rows as the deterministic run writes them (face, point,
// velocities, spins, psi, phi; some inside an edge passage at T), and a noisy run goes on from
// them, edge rows included. At sigma = 0 the noise vanishes whatever is drawn, so the run to 2T
// and the run to T continued for T are one model integrated on two time grids (the second
// restarts its fixed steps at T): they agree to the stochastic Heun scheme's accuracy
// (kSigmaZeroContinue), and the run to T agrees with the deterministic run to T (kSigmaZeroState).
TEST_F(StateFileRollingTest, ANoisyRunGoesOnFromItsOwnFinalStatesEdgeRowsIncluded) {
  // noise_dt = 1e-4 with r = 0.1: Heun's error against the GBS passages, ~(noise_dt |v| / r)^2
  // per step, summed over the passages and grown through the flights after them. Measured:
  // 4.6e-6 (roll3:stadium), 9.0e-6 (roll4:polygon), 1.8e-6 (roll4:disc), slip and roughness alike.
  constexpr double kSigmaZeroState = 5e-5;
  // T a whole number of steps: the continued run's grid is the whole run's, the passages going
  // on at T restart their steps there. Measured: 1.2e-8 (roll4:polygon, roughness, whose
  // passages are projected onto their invariants), 6e-15 to 6e-11 elsewhere.
  constexpr double kSigmaZeroContinue = 1e-6;
  for (const Case& c : {kCases[0], kCases[1], kCases[4]}) {
    for (const char* kind : {"1", "2"}) {
      const std::string n = std::string(c.name) + "_noise" + kind;
      Case noisy = c;
      noisy.head.replace(noisy.head.rfind('}'), 1, std::string(R"(, "noise": )") + kind + R"(, "noise_sigma": 0.0, "noise_dt": 1e-4})");
      ASSERT_EQ(run(write_config(n + "_full.json", config(noisy, c.start, 2.0 * c.half)), dir_ / (n + "_full"), "--backend cpu").rc, 0) << n;
      ASSERT_EQ(run(write_config(n + "_a.json", config(noisy, c.start, c.half)), dir_ / (n + "_a"), "--backend cpu").rc, 0) << n;
      ASSERT_EQ(run(write_config(n + "_plain.json", config(c, c.start, c.half)), dir_ / (n + "_plain"), "--backend cpu").rc, 0) << n;
      const CliResult b = run(write_config(n + "_b.json", config(noisy, state_file_initial(dir_ / (n + "_a") / "final_state.npy"), c.half)),
                              dir_ / (n + "_b"), "--backend cpu");
      ASSERT_EQ(b.rc, 0) << n << describe(b);
      std::vector<std::size_t> shape;
      const std::vector<double> noisy_half = npy_values<double>(dir_ / (n + "_a") / "final_state.npy", &shape);
      const std::vector<double> half = state_part(noisy_half, shape[1]);
      const std::vector<double> plain = npy_values<double>(dir_ / (n + "_plain") / "final_state.npy");
      const std::vector<double> full = state_part(npy_values<double>(dir_ / (n + "_full") / "final_state.npy"), shape[1]);
      const std::vector<double> cont = state_part(npy_values<double>(dir_ / (n + "_b") / "final_state.npy"), shape[1]);
      const std::size_t cols = shape[1] - 2;  // the state's, before the noise columns
      ASSERT_EQ(cols, std::string(c.name).rfind("roll3", 0) == 0 ? 8u : 12u) << n;
      int on_edge = 0;
      for (std::size_t i = 0; i < half.size(); i += cols) on_edge += half[i] == 0.0;
      EXPECT_GE(on_edge, 2) << n;
      const double state = largest_difference(plain, half, cols), split = largest_difference(full, cont, cols);
      EXPECT_LE(state, kSigmaZeroState) << n;
      EXPECT_LE(split, kSigmaZeroContinue) << n;
      std::printf("%s: %d of 16 on the edge at T; against the deterministic run %.2g, split in two %.2g\n", n.c_str(),
                  on_edge, state, split);
      for (const std::int8_t st : npy_values<std::int8_t>(dir_ / (n + "_b") / "status.npy")) EXPECT_EQ(st, 0) << n;
    }
  }
}

// The preset pair: `a` writes final_state.npy, `b` (its file path pointed at a's output, as
// running both from one folder with --out out/continue_roll3_a does) continues it.
TEST_F(StateFileRollingTest, ThePresetPairContinuesARun) {
  const fs::path examples = fs::path(SKIPSTONE_SOURCE_DIR) / "examples";
  ASSERT_EQ(run(examples / "continue_roll3_stadium_a.json", dir_ / "a", "--backend cpu").rc, 0);
  std::string b = read_text(examples / "continue_roll3_stadium_b.json");
  const std::string rel = "out/continue_roll3_a/final_state.npy";
  ASSERT_NE(b.find(rel), std::string::npos);
  b.replace(b.find(rel), rel.size(), (dir_ / "a" / "final_state.npy").string());
  const CliResult r = run(write_config("b.json", b), dir_ / "b", "--backend cpu");
  ASSERT_EQ(r.rc, 0) << describe(r);
  std::vector<std::size_t> shape;
  npy_values<double>(dir_ / "b" / "final_state.npy", &shape);
  EXPECT_EQ(shape, (std::vector<std::size_t>{64, 8}));
}

}  // namespace
