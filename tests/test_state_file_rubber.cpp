// test_state_file_rubber.cpp — final_state and the start "state_file" of rubber:sphere
// (rolling/rubber_sphere.hpp: rows wx wy wz theta phi, the start "body"'s keys) end to end: a run
// to 2T ends where the run to T continued from its final states for T ends, outside, inside and
// around the fixed sphere (the equator crossings counted once); rows fed back with a t_max of
// one rounding come back as they were; a row starts as the body start of the same keys does, bit
// for bit; the parameters come from the config, not the rows (the same rows at another b end
// elsewhere); a file of another system's columns exits 2 naming initial.file and the columns.
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

// A run to 2T against the run to T continued for T (GBS, rtol = atol = 1e-12): the continued
// run takes other steps after T than the single run's and starts from gamma normalised and Omega
// projected (the first run's drifts, ~1e-13, dropped), so the two differ by the integrator's
// local errors carried through T. Measured in Omega and gamma: see the test's properties.
constexpr double kContinueTolerance = 1e-10;
// A row fed back with t_max = 1e-300: Omega projected onto the plane orthogonal to gamma (the
// first run's twist drift removed) and the angles through sin/cos and atan2 again.
constexpr double kRoundTripTolerance = 1e-11;
// The same rows at another b (another kappa, another Atilde) end at least this far away.
constexpr double kParametersMatter = 1e-2;

struct Case {
  const char* name;
  double b;  // a = 1: outside (b > 0), inside (-1 < b < 0), around (b < -1)
};
const Case kCases[] = {{"outside", 2.0}, {"inside", -0.4}, {"around", -2.6}};

std::string config(double b, const std::string& start, double t_max) {
  char text[512];
  std::snprintf(text, sizeof text,
                R"({"system": "rubber:sphere", "parameters": {"a": 1.0, "b": %.17g, "I1": 1.0, "I2": 1.4, "I3": 2.1, "mu": 0.7}, %s,
                   "stop": {"t_max": %.17g}, "observables": ["status", "events", "t_end", "final_state"],
                   "options": {"rtol": 1e-12, "atol": 1e-12, "max_steps": 10000000}})",
                b, start.c_str(), t_max);
  return text;
}

const std::string kBodyScan = R"("initial": {"start": "body", "phi": 0.4, "wx": 0.3, "wy": 1.1, "wz": -0.6},
    "scan": {"axes": [{"param": "theta", "min": 0.2, "max": 2.9, "n": 8}]})";

// Omega and gamma of every row of a final_state table (6 per row).
std::vector<double> omega_gamma(const std::vector<double>& rows) {
  std::vector<double> out;
  for (std::size_t i = 0; i + 5 <= rows.size(); i += 5) {
    const double theta = rows[i + 3], phi = rows[i + 4];
    out.insert(out.end(), {rows[i], rows[i + 1], rows[i + 2], std::sin(theta) * std::cos(phi),
                           std::sin(theta) * std::sin(phi), std::cos(theta)});
  }
  return out;
}

double largest_difference(const std::vector<double>& a, const std::vector<double>& b) {
  const std::vector<double> x = omega_gamma(a), y = omega_gamma(b);
  double worst = x.size() == y.size() ? 0.0 : INFINITY;
  for (std::size_t i = 0; i < x.size() && i < y.size(); ++i) worst = std::max(worst, std::fabs(x[i] - y[i]));
  return worst;
}

class StateFileRubberTest : public CliTest {};

TEST_F(StateFileRubberTest, TMaxSplitInTwoContinuesTheRun) {
  const double half = 7.5;
  for (const Case& c : kCases) {
    const std::string n = c.name;
    ASSERT_EQ(run(write_config(n + "_full.json", config(c.b, kBodyScan, 2.0 * half)), dir_ / (n + "_full"), "--backend cpu").rc, 0) << n;
    ASSERT_EQ(run(write_config(n + "_a.json", config(c.b, kBodyScan, half)), dir_ / (n + "_a"), "--backend cpu").rc, 0) << n;
    const CliResult b = run(write_config(n + "_b.json", config(c.b, state_file_initial(dir_ / (n + "_a") / "final_state.npy"), half)),
                            dir_ / (n + "_b"), "--backend cpu");
    ASSERT_EQ(b.rc, 0) << n << describe(b);
    std::vector<std::size_t> shape;
    const std::vector<double> full = npy_values<double>(dir_ / (n + "_full") / "final_state.npy", &shape);
    const std::vector<double> first = npy_values<double>(dir_ / (n + "_a") / "final_state.npy");
    const std::vector<double> cont = npy_values<double>(dir_ / (n + "_b") / "final_state.npy");
    ASSERT_EQ(shape, (std::vector<std::size_t>{8, 5})) << n;
    for (std::uint8_t s : npy_values<std::uint8_t>(dir_ / (n + "_b") / "status.npy")) EXPECT_EQ(s, 0u) << n;
    const double worst = largest_difference(full, cont);
    EXPECT_LE(worst, kContinueTolerance) << n;
    EXPECT_GT(largest_difference(full, first), 0.1) << n;  // the second half moved
    const std::vector<std::uint64_t> ev_full = npy_values<std::uint64_t>(dir_ / (n + "_full") / "events.npy");
    const std::vector<std::uint64_t> ev_a = npy_values<std::uint64_t>(dir_ / (n + "_a") / "events.npy");
    const std::vector<std::uint64_t> ev_b = npy_values<std::uint64_t>(dir_ / (n + "_b") / "events.npy");
    std::uint64_t crossings = 0;
    for (std::size_t i = 0; i < ev_full.size(); ++i) {
      EXPECT_EQ(ev_full[i], ev_a[i] + ev_b[i]) << n << " trajectory " << i;
      crossings += ev_full[i];
    }
    EXPECT_GT(crossings, 8u) << n;  // the contact crosses the ball's equator
    char text[32];
    std::snprintf(text, sizeof text, "%.2e", worst);
    RecordProperty(n + "_largest_difference", text);
    std::printf("%s: largest difference %s\n", c.name, text);
  }
}

TEST_F(StateFileRubberTest, RowsFedBackComeBackAsTheyWere) {
  for (const Case& c : kCases) {
    const std::string n = c.name;
    ASSERT_EQ(run(write_config(n + "_a.json", config(c.b, kBodyScan, 7.5)), dir_ / (n + "_a"), "--backend cpu").rc, 0) << n;
    const fs::path rows = dir_ / (n + "_a") / "final_state.npy";
    const CliResult b = run(write_config(n + "_b.json", config(c.b, state_file_initial(rows), 1e-300)), dir_ / (n + "_b"), "--backend cpu");
    ASSERT_EQ(b.rc, 0) << n << describe(b);
    const std::vector<double> in = npy_values<double>(rows), out = npy_values<double>(dir_ / (n + "_b") / "final_state.npy");
    const double worst = largest_difference(in, out);
    EXPECT_LE(worst, kRoundTripTolerance) << n;
    std::printf("%s: round trip %.2g\n", c.name, worst);
  }
}

TEST_F(StateFileRubberTest, ARowStartsAsTheBodyStartOfItsKeys) {
  const std::vector<double> row = {0.3, 1.1, -0.6, 1.3, 0.4};
  skipstone::io::write_npy(dir_ / "row.npy", row, {1, 5});
  const std::string body = R"("initial": {"start": "body", "wx": 0.3, "wy": 1.1, "wz": -0.6, "theta": 1.3, "phi": 0.4})";
  ASSERT_EQ(run(write_config("body.json", config(2.0, body, 6.0)), dir_ / "body", "--backend cpu").rc, 0);
  ASSERT_EQ(run(write_config("row.json", config(2.0, state_file_initial(dir_ / "row.npy"), 6.0)), dir_ / "row", "--backend cpu").rc, 0);
  for (const char* f : {"final_state.npy", "events.npy", "status.npy"})
    EXPECT_EQ(read_text(dir_ / "body" / f), read_text(dir_ / "row" / f)) << f;
  // the same row at another b: the parameters are the config's
  ASSERT_EQ(run(write_config("row_b.json", config(-2.6, state_file_initial(dir_ / "row.npy"), 6.0)), dir_ / "row_b", "--backend cpu").rc, 0);
  EXPECT_GT(largest_difference(npy_values<double>(dir_ / "row" / "final_state.npy"),
                               npy_values<double>(dir_ / "row_b" / "final_state.npy")),
            kParametersMatter);
}

TEST_F(StateFileRubberTest, AFileOfAnotherSystemsColumnsExits2) {
  skipstone::io::write_npy(dir_ / "sphere_rows.npy", std::vector<double>(9, 0.0), {1, 9});
  const CliResult r = run(write_config("wrong.json", config(2.0, state_file_initial(dir_ / "sphere_rows.npy"), 1.0)), dir_ / "out",
                          "--backend cpu");
  EXPECT_EQ(r.rc, 2) << describe(r);
  EXPECT_NE(r.err.find("initial.file"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("(rows, 5) or (n1, ..., 5), columns wx, wy, wz, theta, phi"), std::string::npos) << r.err;
}

}  // namespace
