// test_state_file_driven.cpp — final_state and the start "state_file" of driven:disk and
// driven:ball (rolling/driven_run.hpp) end to end: a run to t = 5 ends where the run to 0.15
// (inside the drive's ramp) continued from its final states for 4.85 ends, the drive going on
// from the row's clock (the same rows on a clock set back to 0 take the drive again and end
// elsewhere); the continued run's t_end counts from its own start; rows fed back with a t_max of
// one rounding come back as they were (the ball's quaternion normalised); a ball row with q = 0
// is masked; a file of the other system's columns exits 2 naming initial.file.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "cli_support.hpp"
#include "npy_values.hpp"
#include "npy_writer.hpp"

namespace {

using namespace skipstone::testing;

// A run to 5 against the run to 0.15 continued for 4.85 (rtol = atol = 1e-12): the continued run
// takes other GBS steps than the single run's, so the two differ by the integrator's local errors.
constexpr double kContinueTolerance = 1e-9;
// A row fed back with t_max = 1e-300 (no step): the row as it was; the ball's q normalised, so
// it moves by its drift from the unit norm (gamma_drift, ~1e-13 over t = 0.15).
constexpr double kRoundTripTolerance = 1e-12;
// The drive taken again from a clock of 0 moves the final state by at least this.
constexpr double kDriveMatters = 1e-3;

struct Case {
  const char* name;
  std::string head;   // system, parameters
  std::string start;  // initial + scan of the first run
  std::size_t columns;
};

const Case kCases[] = {
    {"disk", R"("system": "driven:disk", "parameters": {"gamma": 1.0, "drive": 2.0})",
     R"("initial": {"start": "rolling", "phi": 0.2, "theta": -1.2},
        "scan": {"axes": [{"param": "speed", "min": -1.0, "max": 1.0, "n": 8}]})", 12},
    {"ball", R"("system": "driven:ball", "parameters": {"gamma": 1.0, "drive": 2.0, "d1_ratio": 0.7, "cm3": -0.1})",
     R"("initial": {"start": "rolling", "lean": 0.2, "wz": 0.5, "theta": -1.2},
        "scan": {"axes": [{"param": "wy", "min": -1.0, "max": 1.0, "n": 8}]})", 18},
};

std::string config(const Case& c, const std::string& start, double t_max) {
  char t[64];
  std::snprintf(t, sizeof t, "%.17g", t_max);
  return "{" + c.head + ", " + start + R"(, "stop": {"t_max": )" + t +
         R"(}, "observables": ["status", "t_end", "final_state"], "options": {"rtol": 1e-12, "atol": 1e-12}})";
}

// The largest difference of two final_state tables, relative to max(1, |value|).
double largest_difference(const std::vector<double>& a, const std::vector<double>& b) {
  double worst = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i)
    worst = std::max(worst, std::fabs(a[i] - b[i]) / std::max(1.0, std::fabs(a[i])));
  return worst;
}

class StateFileDrivenTest : public CliTest {};

TEST_F(StateFileDrivenTest, ARunContinuedFromItsFinalStatesOnTheDrivesClock) {
  for (const Case& c : kCases) {
    const std::string n = c.name;
    ASSERT_EQ(run(write_config(n + "_full.json", config(c, c.start, 5.0)), dir_ / (n + "_full"), "--backend cpu").rc, 0)
        << n;
    ASSERT_EQ(run(write_config(n + "_a.json", config(c, c.start, 0.15)), dir_ / (n + "_a"), "--backend cpu").rc, 0) << n;
    const fs::path rows = dir_ / (n + "_a") / "final_state.npy";
    const CliResult b = run(write_config(n + "_b.json", config(c, state_file_initial(rows), 4.85)), dir_ / (n + "_b"), "--backend cpu");
    ASSERT_EQ(b.rc, 0) << n << describe(b);
    std::vector<std::size_t> shape;
    const std::vector<double> full = npy_values<double>(dir_ / (n + "_full") / "final_state.npy", &shape);
    const std::vector<double> cont = npy_values<double>(dir_ / (n + "_b") / "final_state.npy");
    ASSERT_EQ(shape, (std::vector<std::size_t>{8, c.columns})) << n;
    ASSERT_EQ(full.size(), cont.size()) << n;
    for (std::size_t i = c.columns - 1; i < full.size(); i += c.columns) EXPECT_NEAR(full[i], 5.0, 1e-14) << n;
    const double worst = largest_difference(full, cont);
    EXPECT_LE(worst, kContinueTolerance) << n;
    for (double t : npy_values<double>(dir_ / (n + "_b") / "t_end.npy")) EXPECT_NEAR(t, 4.85, 1e-14) << n;
    char text[32];
    std::snprintf(text, sizeof text, "%.2e", worst);
    RecordProperty(n + "_largest_difference", text);

    // the same rows with the clock set back to 0: the drive acts again, the run ends elsewhere
    std::vector<double> reset = npy_values<double>(rows);
    for (std::size_t i = c.columns - 1; i < reset.size(); i += c.columns) reset[i] = 0.0;
    skipstone::io::write_npy(dir_ / (n + "_reset.npy"), reset, {8, c.columns});
    ASSERT_EQ(run(write_config(n + "_c.json", config(c, state_file_initial(dir_ / (n + "_reset.npy")), 4.85)), dir_ / (n + "_c"),
                  "--backend cpu")
                  .rc,
              0)
        << n;
    const double moved = largest_difference(full, npy_values<double>(dir_ / (n + "_c") / "final_state.npy"));
    EXPECT_GT(moved, kDriveMatters) << n;
    std::snprintf(text, sizeof text, "%.2e", moved);
    RecordProperty(n + "_clock_reset_moves", text);
  }
}

TEST_F(StateFileDrivenTest, RowsFedBackComeBackAsTheyWere) {
  for (const Case& c : kCases) {
    const std::string n = c.name;
    ASSERT_EQ(run(write_config(n + "_a.json", config(c, c.start, 0.15)), dir_ / (n + "_a"), "--backend cpu").rc, 0) << n;
    const fs::path rows = dir_ / (n + "_a") / "final_state.npy";
    const CliResult b = run(write_config(n + "_b.json", config(c, state_file_initial(rows), 1e-300)), dir_ / (n + "_b"), "--backend cpu");
    ASSERT_EQ(b.rc, 0) << n << describe(b);
    const std::vector<double> in = npy_values<double>(rows), out = npy_values<double>(dir_ / (n + "_b") / "final_state.npy");
    ASSERT_EQ(in.size(), out.size()) << n;
    EXPECT_LE(largest_difference(in, out), kRoundTripTolerance) << n;
  }
}

TEST_F(StateFileDrivenTest, ABallRowWithoutOrientationIsMasked) {
  std::vector<double> rows(2 * 18, 0.0);
  rows[2] = 1.0;  // row 0: q = (1, 0, 0, 0), upright; row 1: q = 0
  rows[7] = 0.5;  // row 0 rolls along e1 (wy)
  skipstone::io::write_npy(dir_ / "rows.npy", rows, {2, 18});
  const CliResult r = run(write_config("masked.json", config(kCases[1], state_file_initial(dir_ / "rows.npy"), 1.0)), dir_ / "out",
                          "--backend cpu");
  ASSERT_EQ(r.rc, 0) << describe(r);
  const std::vector<std::uint8_t> status = npy_values<std::uint8_t>(dir_ / "out" / "status.npy");
  ASSERT_EQ(status.size(), 2u);
  EXPECT_EQ(status[0], 0u);  // finished
  EXPECT_EQ(status[1], 7u);  // masked
  const std::vector<double> out = npy_values<double>(dir_ / "out" / "final_state.npy");
  EXPECT_GT(out[0], 0.1);  // the contact point moved along e1
  EXPECT_TRUE(std::isnan(out[18]));
}

TEST_F(StateFileDrivenTest, AFileOfTheOtherSystemsColumnsExits2) {
  skipstone::io::write_npy(dir_ / "disk_rows.npy", std::vector<double>(12, 0.0), {1, 12});
  const CliResult r =
      run(write_config("wrong.json", config(kCases[1], state_file_initial(dir_ / "disk_rows.npy"), 1.0)), dir_ / "out", "--backend cpu");
  EXPECT_EQ(r.rc, 2) << describe(r);
  EXPECT_NE(r.err.find("initial.file"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("q0"), std::string::npos) << r.err;  // the ball's columns are named
}

}  // namespace
