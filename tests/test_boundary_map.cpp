// test_boundary_map.cpp — outputs.boundary_map and outputs.boundary_events end to end: the map
// equals a histogram built here from `skipstone trace` of every trajectory; chunks and
// shards + merge give the same files byte for byte; the specular disc keeps p along each
// trajectory; coordinates lie in their ranges; bad keys exit 2 naming the key.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <sstream>
#include <vector>

#include "cli_support.hpp"
#include "npy_values.hpp"

namespace {

using namespace skipstone::testing;

// 24 trajectories of the no-slip disc from the wall, over the launch angle and the spin.
std::string disc_config(double gamma, const std::string& outputs, const std::string& options = "{}") {
  return R"({"system": "disc", "parameters": {"R": 1.0, "gamma": )" + std::to_string(gamma) +
         R"(}, "initial": {"start": "boundary", "boundary_s": 0.3, "speed": 1.0},
  "scan": {"type": "grid", "axes": [{"param": "angle", "min": -1.4, "max": 1.3, "n": 6}, {"param": "spin", "min": -0.7, "max": 0.9, "n": 4}]},
  "stop": {"max_events": 60}, "observables": ["status", "events"], "options": )" + options +
         R"(, "outputs": )" + outputs + "}";
}

const char* const kMap = R"({"boundary_map": {"coords": ["s", "p", "spin"], "bins": [16, 8, 4], "ranges": [[0, 1], [-1, 1], [-2, 2]]},
  "boundary_events": {"every": 1, "max_events_per_trajectory": 100}})";

// The bin of x among n bins over [lo, hi] (the last closed), or -1 outside.
long bin_of(double x, double lo, double hi, long n) {
  if (!(x >= lo && x <= hi)) return -1;
  const long i = static_cast<long>((x - lo) / (hi - lo) * static_cast<double>(n));
  return i < n ? i : n - 1;
}

class BoundaryMapTest : public CliTest {};

TEST_F(BoundaryMapTest, MapEqualsAHistogramOfTheTracedImpacts) {
  const fs::path cfg = write_config("disc.json", disc_config(0.8, kMap));
  const CliResult r = run(cfg, dir_ / "out", "--backend cpu");
  ASSERT_EQ(r.rc, 0) << describe(r);
  std::vector<std::uint64_t> expected(16 * 8 * 4, 0);
  std::uint64_t impacts = 0;
  for (int i = 0; i < 24; ++i) {
    const fs::path csv = dir_ / ("t" + std::to_string(i) + ".csv");
    const CliResult t = skipstone("trace " + shell_quote(cfg.string()) + " --index " + std::to_string(i) + " --out " +
                                  shell_quote(csv.string()));
    ASSERT_EQ(t.rc, 0) << describe(t);
    std::istringstream in(read_text(csv));
    std::string line;
    std::getline(in, line);  // header: event,t,x,y,ux,uy,spin,contact_x,contact_y
    while (std::getline(in, line)) {
      double f[9];
      char comma;
      std::istringstream row(line);
      row >> f[0];
      for (int k = 1; k < 9; ++k) row >> comma >> f[k];
      if (f[0] == 0.0) continue;  // the start on the wall; max_events ends the run at an impact
      // the disc of centres: s = angle / 2 pi, inward normal -x / |x|
      double s = std::atan2(f[3], f[2]) / (2.0 * M_PI);
      s -= std::floor(s);
      const double rx = std::hypot(f[2], f[3]), nux = -f[2] / rx, nuy = -f[3] / rx;
      const double speed = std::hypot(f[4], f[5]);
      const double p = (f[4] * nuy - f[5] * nux) / speed, spin = f[6] / speed;
      const long a = bin_of(s, 0, 1, 16), b = bin_of(p, -1, 1, 8), c = bin_of(spin, -2, 2, 4);
      ++impacts;
      if (a >= 0 && b >= 0 && c >= 0) ++expected[static_cast<std::size_t>((a * 8 + b) * 4 + c)];
    }
  }
  std::vector<std::size_t> shape;
  const std::vector<std::uint64_t> counts = npy_values<std::uint64_t>(dir_ / "out" / "boundary_map.npy", &shape);
  EXPECT_EQ(shape, (std::vector<std::size_t>{16, 8, 4}));
  EXPECT_EQ(counts, expected);
  EXPECT_EQ(impacts, 24u * 60u);  // max_events impacts each
  EXPECT_EQ(read_json(dir_ / "out" / "meta.json").at("boundary_map").at("impacts"), impacts);
}

TEST_F(BoundaryMapTest, ChunksAndShardsGiveTheSameFiles) {
  const fs::path one = write_config("one.json", disc_config(0.5, kMap));
  const fs::path chunked = write_config("chunked.json", disc_config(0.5, kMap, R"({"chunk_size": 8})"));
  expect_same_files_over_chunks_and_shards(one, chunked, {"boundary_map.npy", "boundary_events.npy", "boundary_map.png"});
}

// gamma = 0: no coupling of spin and velocity, the specular disc: every impact has the same
// angle to the normal, so p is one value along each trajectory.
TEST_F(BoundaryMapTest, SpecularDiscKeepsPAlongEachTrajectory) {
  constexpr double kPTolerance = 1e-12;
  const fs::path cfg = write_config("disc.json", disc_config(0.0, kMap));
  ASSERT_EQ(run(cfg, dir_ / "out", "--backend cpu").rc, 0);
  std::vector<std::size_t> shape;
  const std::vector<double> rows = npy_values<double>(dir_ / "out" / "boundary_events.npy", &shape);
  ASSERT_EQ(shape, (std::vector<std::size_t>{24 * 60, 8}));  // trajectory, angle, spin, event, t, s, p, spin/speed
  for (std::size_t k = 1; k < shape[0]; ++k) {
    const double* row = &rows[8 * k];
    const double* prev = row - 8;
    if (row[0] == prev[0]) {
      EXPECT_NEAR(row[6], prev[6], kPTolerance) << "trajectory " << row[0] << " event " << row[3];
    }
  }
}

TEST_F(BoundaryMapTest, CoordinatesLieInTheirRanges) {
  const fs::path cfg = write_config("disc.json", disc_config(0.8, kMap));
  ASSERT_EQ(run(cfg, dir_ / "out", "--backend cpu").rc, 0);
  std::vector<std::size_t> shape;
  const std::vector<double> rows = npy_values<double>(dir_ / "out" / "boundary_events.npy", &shape);
  ASSERT_EQ(shape.at(1), 8u);
  for (std::size_t k = 0; k < shape[0]; ++k) {
    const double* row = &rows[8 * k];
    EXPECT_GE(row[5], 0.0);
    EXPECT_LT(row[5], 1.0);
    EXPECT_LE(std::fabs(row[6]), 1.0);
    EXPECT_TRUE(std::isfinite(row[7]));
    EXPECT_EQ(row[3], static_cast<double>(k % 60 + 1));  // impacts numbered from 1 in each trajectory
  }
}

// A rolling table records its edge entries: the first one of a flight from (x0, y0) with
// velocity (1, v2) is where the straight chord meets the circle, s = its angle / 2 pi and
// p = v2 / |v| in the wall's frame (the tangent counterclockwise), computed here from the chord;
// every trajectory has one entry per completed passage, and one more when it ends on the edge.
TEST_F(BoundaryMapTest, RollingDiscRecordsItsEdgeEntries) {
  constexpr double kFirstEntry = 1e-12, kX0 = 0.2, kY0 = -0.1, kS12 = 0.3;
  const fs::path cfg = write_config("roll3.json", R"({"system": "roll3:disc",
      "parameters": {"R": 1.0, "r": 0.1, "eta": 0.5},
      "initial": {"x1": 0.2, "x2": -0.1, "v1": 1.0, "S12": 0.3},
      "scan": {"type": "grid", "axes": [{"param": "v2", "min": -0.8, "max": 0.8, "n": 5}]},
      "stop": {"max_events": 12, "t_max": 40.0}, "observables": ["status", "events"],
      "outputs": {"boundary_map": {"coords": ["s", "p"], "bins": [8, 4]},
                  "boundary_events": {"every": 1, "max_events_per_trajectory": 100}}})");
  ASSERT_EQ(run(cfg, dir_ / "out", "--backend cpu").rc, 0);
  std::vector<std::size_t> shape;
  const std::vector<double> rows = npy_values<double>(dir_ / "out" / "boundary_events.npy", &shape);
  ASSERT_EQ(shape.at(1), 7u);  // trajectory, v2, event, t, s, p, spin/speed
  const std::vector<std::uint64_t> events = npy_values<std::uint64_t>(dir_ / "out" / "events.npy");
  const std::vector<std::uint64_t> counts = npy_values<std::uint64_t>(dir_ / "out" / "boundary_map.npy");
  std::uint64_t binned = 0;
  for (std::uint64_t c : counts) binned += c;
  EXPECT_EQ(binned, shape[0]);  // every entry inside the map's default ranges
  std::vector<int> entries(5, 0);
  for (std::size_t k = 0; k < shape[0]; ++k) {
    const double* row = &rows[7 * k];
    const int traj = static_cast<int>(row[0]);
    if (entries[traj]++ > 0) continue;
    const double v2 = row[1], uu = 1.0 + v2 * v2, b = kX0 + kY0 * v2, c = 1.0 - kX0 * kX0 - kY0 * kY0;
    const double t = (std::sqrt(b * b + uu * c) - b) / uu;
    const double px = kX0 + t, py = kY0 + v2 * t;
    double s = std::atan2(py, px) / (2.0 * M_PI);
    if (s < 0.0) s += 1.0;
    EXPECT_NEAR(row[3], t, kFirstEntry) << traj;
    EXPECT_NEAR(row[4], s, kFirstEntry) << traj;
    EXPECT_NEAR(row[5], (px * v2 - py * 1.0) / std::sqrt(uu), kFirstEntry) << traj;
    EXPECT_NEAR(row[6], kS12 / std::sqrt(uu), kFirstEntry) << traj;
  }
  for (int i = 0; i < 5; ++i) {
    EXPECT_GE(static_cast<std::uint64_t>(entries[i]), events[i]) << i;
    EXPECT_LE(static_cast<std::uint64_t>(entries[i]), events[i] + 1) << i;
    EXPECT_GT(events[i], 0u) << i;
  }
}

TEST_F(BoundaryMapTest, BadKeysExitTwoNamingTheKey) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"({"boundary_map": {"coords": ["s", "q"], "bins": [4, 4]}})", "outputs.boundary_map.coords"},
      {R"({"boundary_map": {"coords": ["s", "p"], "bins": [4]}})", "outputs.boundary_map.bins"},
      {R"({"boundary_map": {"coords": ["s", "p", "spin"], "bins": [4, 4, 4]}})", "outputs.boundary_map.ranges"},
      {R"({"boundary_map": {"coords": ["s", "p"], "bins": [4, 0]}})", "outputs.boundary_map.bins[1]"},
      {R"({"boundary_map": {"coords": ["s", "p"], "bins": [4, 4], "colour": 1}})", "outputs.boundary_map.colour"},
      {R"({"boundary_events": {"every": 1, "indices": [0]}})", "outputs.boundary_events"},
      {R"({"boundary_events": {"indices": [0, 24]}})", "outputs.boundary_events.indices[1]"},
      {R"({"boundary_events": {"every": 1, "max_events_per_trajectory": 100000000000}})",
       "outputs.boundary_events.max_events_per_trajectory"},
      {R"({"boundary_mapp": {}})", "outputs.boundary_mapp"},
  };
  for (const auto& [outputs, key] : cases) {
    const fs::path cfg = write_config("bad.json", disc_config(0.8, outputs));
    const CliResult r = run(cfg, dir_ / "bad");
    EXPECT_EQ(r.rc, 2) << outputs << "\n" << describe(r);
    EXPECT_NE(r.err.find(key), std::string::npos) << key << "\n" << describe(r);
    EXPECT_FALSE(fs::exists(dir_ / "bad")) << outputs;
  }
}

}  // namespace
