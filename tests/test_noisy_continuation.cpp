// test_noisy_continuation.cpp — the noise process in the state rows of noisy runs (observable
// final_state, initial.start "state_file"; docs/config.md): a noisy scan's final_state has the
// noise columns noise_n1, noise_n2 after the state's (slip's process everywhere; roughness's
// inside an edge passage, NaN on a face; NaN at a noise-0 point of a scan over noise), a run
// continued from them goes on with the process where the first run left it (the run to 2T and
// the run to T continued for T agree where the process barely moves, and disagree by the
// process's size when the columns are left out), also from a contact held at a polygon's corner,
// and bad noise columns are refused.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "cli_support.hpp"
#include "npy_values.hpp"

namespace {

using namespace skipstone::testing;

struct Case {
  const char* name;
  std::string head;   // system and parameters, without the noise keys
  std::string start;  // initial + scan
  std::size_t state;  // columns of the state before the noise columns
  double half;        // T, a whole number of noise_dt steps
};

const Case kCases[] = {
    {"roll3_stadium", R"("system": "roll3:stadium", "parameters": {"half_length": 1.0, "R": 1.0, "r": 0.1, "gamma": 0.6325, "g": 1.0)",
     R"("initial": {"start": "plate", "x1": 0.0, "x2": 0.0, "v2": 0.0, "S12": 0.3},
        "scan": {"axes": [{"param": "v1", "min": -2.0, "max": 2.0, "n": 16}]})", 8, 3.3},
    {"roll4_disc", R"("system": "roll4:disc", "parameters": {"R": 1.0, "r": 0.1, "eta": 0.5, "g_effective": 1.0)",
     R"("initial": {"start": "plate", "x1": 0.3, "x2": 0.0, "z": 0.0, "v1": 0.2, "v2": 1.0, "v3": 0.3, "S13": 0.0, "S23": 0.1},
        "scan": {"axes": [{"param": "S12", "min": -1.0, "max": 1.0, "n": 16}]})", 12, 3.1},
    {"roll3_strip", R"("system": "roll3:strip", "parameters": {"L": 1.0, "r": 0.3, "eta": 0.6, "g_effective": 0.8)",
     R"("initial": {"start": "plate", "x1": 0.4, "z": 0.0, "v1": 1.0, "spin": 0.0},
        "scan": {"axes": [{"param": "v2", "min": -1.0, "max": 1.0, "n": 16}]})", 5, 4.3},
    {"roll3_inside_cylinder", R"("system": "roll3:inside-cylinder", "parameters": {"R": 1.0, "r": 0.2, "gamma": 0.6325, "g": 1.0)",
     R"("initial": {"start": "wall", "angle": 0.0, "z": 0.0, "v1": 1.0, "spin": 0.0},
        "scan": {"axes": [{"param": "v2", "min": -1.0, "max": 1.0, "n": 16}]})", 9, 5.2},
};

std::string config(const Case& c, const std::string& noise, const std::string& start, double t_max) {
  char t[64];
  std::snprintf(t, sizeof t, "%.17g", t_max);
  return "{" + c.head + noise + "}, " + start + R"(, "stop": {"t_max": )" + t +
         R"(}, "observables": ["status", "events", "final_state"],
         "options": {"rtol": 1e-12, "atol": 1e-12, "max_steps": 100000000, "energy_tolerance": 1e-8}})";
}

// noise `kind` with amplitude 0.1 and correlation time tau, on steps of 1e-4.
std::string noise_keys(const char* kind, const char* tau) {
  return std::string(R"(, "noise": )") + kind + R"(, "noise_sigma": 0.1, "noise_dt": 1e-4, "noise_tau": )" + tau;
}

class NoisyContinuationTest : public CliTest {
 protected:
  std::vector<double> final_states(const std::string& name, std::vector<std::size_t>* shape = nullptr) {
    return npy_values<double>(dir_ / name / "final_state.npy", shape);
  }
  void run_ok(const std::string& name, const std::string& text) {
    const CliResult r = run(write_config(name + ".json", text), dir_ / name, "--backend cpu");
    ASSERT_EQ(r.rc, 0) << name << describe(r);
  }
};

// Largest difference of two tables of `cols` columns, relative to max(1, |value|), over the
// columns from `first` to `last` (exclusive); NaN must meet NaN. The rolling tables' face must
// agree exactly and psi (column cols - 2 of a table's state) is compared modulo 2 pi.
double largest_difference(const std::vector<double>& a, const std::vector<double>& b, std::size_t cols, std::size_t first,
                          std::size_t last, bool table) {
  double worst = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const std::size_t c = i % cols;
    if (c < first || c >= last) continue;
    if (std::isnan(a[i]) || std::isnan(b[i])) {
      if (std::isnan(a[i]) != std::isnan(b[i])) return INFINITY;
      continue;
    }
    if (table && c == 0 && a[i] != b[i]) return INFINITY;
    double d = a[i] - b[i];
    if (table && c == last - 2) d = std::remainder(d, 6.283185307179586);
    worst = std::max(worst, std::fabs(d) / std::max(1.0, std::fabs(a[i])));
  }
  return worst;
}

// The columns: noise_n1, noise_n2 after the state's in a noisy scan (meta.json names them), none
// without noise. Slip's process is in every row; roughness's n1 inside an edge passage (face 0)
// and NaN on a face, n2 NaN; on the inside cylinder, where roughness acts all the time, n1 in
// every row. Each has the process's size: |n| < 6 sigma.
TEST_F(NoisyContinuationTest, ANoisyRunsFinalStateHoldsItsNoiseProcess) {
  for (const Case& c : kCases) {
    const bool table = c.state == 8 || c.state == 12;
    run_ok(std::string(c.name) + "_plain", config(c, "", c.start, c.half));
    std::vector<std::size_t> plain_shape;
    final_states(std::string(c.name) + "_plain", &plain_shape);
    EXPECT_EQ(plain_shape.back(), c.state) << c.name;
    for (const char* kind : {"1", "2"}) {
      const std::string n = std::string(c.name) + "_noise" + kind;
      run_ok(n, config(c, noise_keys(kind, "0.2"), c.start, c.half));
      const json meta = read_json(dir_ / n / "meta.json");
      const auto columns = meta["observables"]["final_state"]["columns"].get<std::vector<std::string>>();
      ASSERT_EQ(columns.size(), c.state + 2) << n;
      EXPECT_EQ(columns[c.state], "noise_n1");
      EXPECT_EQ(columns[c.state + 1], "noise_n2");
      std::vector<std::size_t> shape;
      const std::vector<double> rows = final_states(n, &shape);
      ASSERT_EQ(shape.back(), c.state + 2) << n;
      int on_edge = 0;
      for (std::size_t i = 0; i < rows.size(); i += shape.back()) {
        const double n1 = rows[i + c.state], n2 = rows[i + c.state + 1];
        const bool edge = table && rows[i] == 0.0;
        on_edge += edge;
        const bool rough = std::string(kind) == "2";
        if (rough && table && !edge) {
          EXPECT_TRUE(std::isnan(n1)) << n << " row " << i / shape.back() << ": roughness on a face";
        } else if (rough && c.state == 5) {  // the strip's rows say where they are by sigma only
          EXPECT_TRUE(std::isnan(n1) || std::fabs(n1) < 0.6) << n << " row " << i / shape.back();
        } else {
          EXPECT_LT(std::fabs(n1), 0.6) << n << " row " << i / shape.back();
        }
        if (rough) {
          EXPECT_TRUE(std::isnan(n2)) << n;
        } else {
          EXPECT_LT(std::fabs(n2), 0.6) << n << " row " << i / shape.back();
        }
      }
      if (table) {
        EXPECT_GE(on_edge, 1) << n;
      }
    }
  }
  // A scan over noise: the points without noise have no process (NaN), the others theirs.
  const Case& c = kCases[0];
  Case scanned = c;
  scanned.start = R"("initial": {"start": "plate", "x1": 0.0, "x2": 0.0, "v1": 1.0, "v2": 0.3, "S12": 0.3},
        "scan": {"axes": [{"param": "noise", "min": 0, "max": 1, "n": 2}]})";
  run_ok("scanned", config(scanned, R"(, "noise_sigma": 0.1, "noise_dt": 1e-4)", scanned.start, c.half));
  const std::vector<double> rows = final_states("scanned");
  ASSERT_EQ(rows.size(), 2 * (c.state + 2));
  EXPECT_TRUE(std::isnan(rows[c.state]) && std::isnan(rows[c.state + 1])) << "noise 0";
  EXPECT_TRUE(std::isfinite(rows[2 * c.state + 2]) && std::isfinite(rows[2 * c.state + 3])) << "slip";
}

// A run continued with a process that barely moves against the uninterrupted run: the scheme
// restarting its steps at T (sigma = 0 gives 6e-15 to 1.2e-8: test_state_file_rolling.cpp) and
// the other increments after T. Measured: 6.9e-12 (roughness in a stadium passage) to 3.2e-8
// (slip on roll3:stadium); the noise columns 5e-11 to 1.5e-8; a contact held at a corner 4.2e-11.
constexpr double kFrozenNoiseContinue = 1e-6;
// The same without the noise columns (the process drawn afresh). Measured: 0.012 (roughness over
// dT = 0.03) to 1.8; the tables' rows end on other faces or passages (the difference infinite).
constexpr double kFreshNoise = 1e-3;

// `rows` (`cols` columns each) without their noise columns: the first `state` of each row.
std::vector<double> without_noise_columns(const std::vector<double>& rows, std::size_t cols, std::size_t state) {
  std::vector<double> cut;
  for (std::size_t i = 0; i < rows.size(); ++i)
    if (i % cols < state) cut.push_back(rows[i]);
  return cut;
}

// The run to 2T against the run to T continued for T from its final states, with a process that
// barely moves (tau = 1e16: its increments over the run are ~1e-8 sigma), so that the two runs,
// which draw other increments after T, follow one path only if the continued run starts its
// process where the first left it: with the noise columns they agree to the scheme's accuracy
// (kFrozenNoiseContinue), without them (the columns cut off: the process drawn afresh from its
// stationary law) they differ by the process's effect (more than kFreshNoise). Slip on every
// model; roughness on the inside cylinder (one process all the time) and on the stadium over a
// short continuation dT = 0.03 inside the passage a row is in at T (a new passage draws its own).
TEST_F(NoisyContinuationTest, TheNoiseProcessGoesOnAcrossAContinuation) {
  struct Split {
    const Case& c;
    const char* kind;
    double second;  // the continuation's length
  };
  const Split splits[] = {{kCases[0], "1", kCases[0].half}, {kCases[1], "1", kCases[1].half},
                          {kCases[2], "1", kCases[2].half}, {kCases[3], "1", kCases[3].half},
                          {kCases[3], "2", kCases[3].half}, {kCases[0], "2", 0.03}};
  for (const Split& s : splits) {
    const Case& c = s.c;
    const bool table = c.state == 8 || c.state == 12;
    const std::string n = std::string(c.name) + "_noise" + s.kind, noise = noise_keys(s.kind, "1e16");
    run_ok(n + "_whole", config(c, noise, c.start, c.half + s.second));
    run_ok(n + "_a", config(c, noise, c.start, c.half));
    std::vector<std::size_t> shape;
    const std::vector<double> at_t = final_states(n + "_a", &shape);
    const std::size_t cols = shape.back(), rows = at_t.size() / cols;
    ASSERT_EQ(cols, c.state + 2) << n;
    skipstone::io::write_npy(dir_ / (n + "_cut.npy"), without_noise_columns(at_t, cols, c.state), {rows, c.state});
    run_ok(n + "_b", config(c, noise, state_file_initial(dir_ / (n + "_a") / "final_state.npy"), s.second));
    run_ok(n + "_fresh", config(c, noise, state_file_initial(dir_ / (n + "_cut.npy")), s.second));
    std::vector<double> whole = final_states(n + "_whole"), b = final_states(n + "_b"), fresh = final_states(n + "_fresh");
    if (s.second < c.half) {  // only the rows inside one passage from T to T + dT
      const std::vector<std::int64_t> events_a = npy_values<std::int64_t>(dir_ / (n + "_a") / "events.npy");
      const std::vector<std::int64_t> events_whole = npy_values<std::int64_t>(dir_ / (n + "_whole") / "events.npy");
      std::vector<double> w2, b2, f2;
      int kept = 0;
      for (std::size_t r = 0; r < rows; ++r) {
        if (!(at_t[r * cols] == 0.0 && whole[r * cols] == 0.0 && events_whole[r] == events_a[r])) continue;
        ++kept;
        for (std::size_t k = 0; k < cols; ++k) {
          w2.push_back(whole[r * cols + k]);
          b2.push_back(b[r * cols + k]);
          f2.push_back(fresh[r * cols + k]);
        }
      }
      ASSERT_GE(kept, 1) << n << ": no row stays in its passage";
      whole = w2, b = b2, fresh = f2;
    }
    const double state = largest_difference(whole, b, cols, 0, c.state, table);
    const double process = largest_difference(whole, b, cols, c.state, cols, false);
    const double without = largest_difference(whole, fresh, cols, 0, c.state, table);
    std::printf("%s (second part %g): continued %.2g (process %.2g), without the noise columns %.2g\n", n.c_str(), s.second,
                state, process, without);
    EXPECT_LE(state, kFrozenNoiseContinue) << n;
    EXPECT_LE(process, kFrozenNoiseContinue) << n;
    EXPECT_GT(without, kFreshNoise) << n;
  }
}

// A slipping contact held at a polygon's corner (noisy_passages.hpp: the slip drives it into the
// corner, the vertex piece's rolling back) has no flag in the state row: its row is the edge
// piece's, the contact at the vertex, and a run from it starts unheld and must hold again at
// once. The row below is such a contact (examples/roll3_polygon.json's pentagon, trajectory
// 1415 of its grid at t 1.1 under slip with sigma 0.1, noise_dt 1e-3: held at the vertex
// (-0.951057, 0.309017) on the edge whose normal is at -2.8274 rad), run on with a process that
// barely moves (tau 1e16): held at T = 0.006 (the contact at the vertex, the edge's angle), it
// is released at t 0.0137 and goes on along the edge. The run to 0.05 and the run to T continued
// for 0.044 agree (measured 4.2e-11, the process 3.3e-10); without the noise columns the
// continued run ends 0.05 away.
TEST_F(NoisyContinuationTest, AContactHeldAtAPolygonsCornerGoesOnHeld) {
  constexpr double kAtTheVertex = 1e-12;
  constexpr double kVertexX = -0.951057, kVertexY = 0.309017, kEdgeAngle = -2.8274327957538596;
  const std::vector<double> held = {0.0, -0.951057, 0.309017, 0.9034414373380137, 0.04003403433051627,
                                    -0.7382708693412843, kEdgeAngle, 0.34349512532577653, 0.027945523706968026,
                                    -0.3432401447336556};
  skipstone::io::write_npy(dir_ / "held.npy", held, {1, 10});
  const auto pentagon = [](const fs::path& rows, double t_max) {
    char t[64];
    std::snprintf(t, sizeof t, "%.17g", t_max);
    return std::string(R"({"system": "roll3:polygon", "parameters": {"vertices": [[0.0, 1.0], [-0.951057, 0.309017],
        [-0.587785, -0.809017], [0.587785, -0.809017], [0.951057, 0.309017]], "r": 0.1, "gamma": 0.6324555320336759,
        "g": 1.0, "noise": 1, "noise_sigma": 0.1, "noise_dt": 1e-3, "noise_tau": 1e16}, )") +
           state_file_initial(rows) + R"(, "stop": {"t_max": )" + t +
           R"(}, "observables": ["status", "final_state"], "options": {"max_steps": 100000000}})";
  };
  run_ok("held_a", pentagon(dir_ / "held.npy", 0.006));
  run_ok("held_whole", pentagon(dir_ / "held.npy", 0.05));
  const std::vector<double> at_t = final_states("held_a");
  ASSERT_EQ(at_t.size(), 10u);
  EXPECT_EQ(npy_values<std::int8_t>(dir_ / "held_a" / "status.npy").at(0), 0);
  EXPECT_EQ(at_t[0], 0.0) << "on the edge";
  EXPECT_LT(std::hypot(at_t[1] - kVertexX, at_t[2] - kVertexY), kAtTheVertex) << "held at the vertex at T";
  EXPECT_NEAR(at_t[6], kEdgeAngle, kAtTheVertex) << "on the edge piece, not rolling round the corner";
  skipstone::io::write_npy(dir_ / "held_cut.npy", without_noise_columns(at_t, 10, 8), {1, 8});
  run_ok("held_b", pentagon(dir_ / "held_a" / "final_state.npy", 0.044));
  run_ok("held_fresh", pentagon(dir_ / "held_cut.npy", 0.044));
  const std::vector<double> whole = final_states("held_whole"), b = final_states("held_b"), fresh = final_states("held_fresh");
  EXPECT_GT(std::hypot(whole[1] - kVertexX, whole[2] - kVertexY), 1e-3) << "released by the end";
  const double state = largest_difference(whole, b, 10, 0, 8, true);
  const double process = largest_difference(whole, b, 10, 8, 10, false);
  const double without = largest_difference(whole, fresh, 10, 0, 8, true);
  std::printf("held at a corner: continued %.2g (process %.2g), without the noise columns %.2g\n", state, process, without);
  EXPECT_LE(state, kFrozenNoiseContinue);
  EXPECT_LE(process, kFrozenNoiseContinue);
  EXPECT_GT(without, kFreshNoise);
}

// A state file's noise columns: a file with them starts a run without noise too (they are not
// used), one without them a noisy run (the process from its stationary law); a value that is not
// finite other than NaN, or a width that is neither, exits 2 naming initial.file; a system
// without noisy constraints takes no noise columns.
TEST_F(NoisyContinuationTest, NoiseColumnsInAStateFile) {
  const Case& c = kCases[0];
  run_ok("noisy", config(c, noise_keys("1", "0.2"), c.start, 0.5));
  const fs::path noisy_rows = dir_ / "noisy" / "final_state.npy";
  run_ok("plain_from_noisy", config(c, "", state_file_initial(noisy_rows), 0.5));
  // a slip process needs both components: one NaN, and it starts from its stationary law
  std::vector<double> row = {1.0, 0.0, 0.0, 1.0, 0.0, 0.3, 0.0, 0.0, 0.05, NAN};
  skipstone::io::write_npy(dir_ / "ten.npy", row, {1, 10});
  run_ok("noisy_from_nan", config(c, noise_keys("1", "0.2"), state_file_initial(dir_ / "ten.npy"), 0.5));
  EXPECT_EQ(npy_values<std::int8_t>(dir_ / "noisy_from_nan" / "status.npy").at(0), 0);
  std::vector<double> infinite = row;
  infinite[9] = INFINITY;
  skipstone::io::write_npy(dir_ / "infinite.npy", infinite, {1, 10});
  skipstone::io::write_npy(dir_ / "nine.npy", std::vector<double>(row.begin(), row.end() - 1), {1, 9});
  std::vector<double> nan_state = row;
  nan_state[1] = NAN;
  skipstone::io::write_npy(dir_ / "nan_state.npy", nan_state, {1, 10});
  struct Bad {
    fs::path file;
    std::string says;
  };
  const Bad bad[] = {
      {dir_ / "infinite.npy", "row 0 has a value that is not finite (column noise_n2)"},
      {dir_ / "nan_state.npy", "row 0 has a value that is not finite (column x1)"},
      {dir_ / "nine.npy", "shape (1, 9); allowed: a float64 .npy of shape (rows, 8)"},
      {dir_ / "nine.npy", "or with 10 columns, the noise columns noise_n1, noise_n2 after them"},
  };
  for (const Bad& b : bad) {
    const CliResult r = run(write_config("bad.json", config(c, "", state_file_initial(b.file), 0.5)), dir_ / "bad", "--backend cpu");
    EXPECT_EQ(r.rc, 2) << b.file;
    EXPECT_NE(r.err.find("initial.file"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(b.says), std::string::npos) << r.err;
  }
  // the disc (no-slip, 5 columns) has no noise: 7 columns are refused, and the message offers none
  skipstone::io::write_npy(dir_ / "disc7.npy", std::vector<double>{0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0}, {1, 7});
  const CliResult r = run(write_config("disc.json", R"({"system": "disc", "parameters": {"gamma": 0.8}, )" +
                                                        state_file_initial(dir_ / "disc7.npy") + R"(, "stop": {"max_events": 3}})"),
                          dir_ / "disc", "--backend cpu");
  EXPECT_EQ(r.rc, 2);
  EXPECT_NE(r.err.find("shape (1, 7)"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("noise_n1"), std::string::npos) << r.err;
}

}  // namespace
