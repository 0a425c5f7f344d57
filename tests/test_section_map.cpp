// test_section_map.cpp — outputs.section, section_map and section_events end to end: the
// crossings of a horizontal plane by the no-slip cylinder's parabolic flights equal the closed
// form computed here from `skipstone trace`; a rolling table's first crossing is where its
// straight start flight meets the plane; the directions add up; chunks and shards + merge give
// the same files byte for byte; bad keys and systems without flights exit 2 naming the key.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <sstream>
#include <vector>

#include "cli_support.hpp"
#include "npy_values.hpp"

namespace {

using namespace skipstone::testing;

// 16 trajectories of cylinder:disc under gravity over the spin wz and the start height.
std::string cylinder_config(const std::string& outputs, const std::string& options = "{}") {
  return R"({"system": "cylinder:disc", "parameters": {"R": 1.0, "gamma": 0.6325, "g": 0.5},
  "initial": {"start": "interior", "x": 0.2, "y": 0.1, "vx": 1.0, "vy": 0.3, "vz": 0.4, "wx": 0.1},
  "scan": {"type": "grid", "axes": [{"param": "wz", "min": -1.0, "max": 1.0, "n": 4}, {"param": "z", "min": -0.3, "max": 0.3, "n": 4}]},
  "stop": {"t_max": 12.0}, "observables": ["status", "events"], "options": )" +
         options + R"(, "outputs": )" + outputs + "}";
}

std::string section(const std::string& direction) {
  return R"("section": {"normal": [0, 0, 1], "offset": -0.5, "direction": )" + direction + R"(, "coords": ["x", "y", "uz"]})";
}

const std::string kOutputs = "{" + section("\"both\"") + R"(, "section_map": {"bins": [8, 8, 6], "ranges": [[-1, 1], [-1, 1], [-1.5, 1.5]]},
  "section_events": {"every": 1, "max_events_per_trajectory": 200}})";

std::vector<std::vector<double>> csv_rows(const fs::path& csv) {
  std::istringstream in(read_text(csv));
  std::string line;
  std::getline(in, line);  // header
  std::vector<std::vector<double>> rows;
  while (std::getline(in, line)) {
    std::vector<double> row;
    std::istringstream cells(line);
    std::string cell;
    while (std::getline(cells, cell, ',')) row.push_back(std::stod(cell));
    rows.push_back(row);
  }
  return rows;
}

class SectionMapTest : public CliTest {};

// Between two traced events the centre flies z(t) = z0 + uz t - g t^2 / 2; it meets z = c at
// t = (uz -+ sqrt(uz^2 - 2 g (c - z0))) / g (the textbook form, not the kernel's). Every
// crossing of every flight, in order, must be a recorded row, to kCrossing in t, x, y, uz.
TEST_F(SectionMapTest, CylinderCrossingsEqualTheClosedFormOfTheTracedFlights) {
  constexpr double kCrossing = 1e-12, g = 0.5, c = -0.5;
  const fs::path cfg = write_config("cyl.json", cylinder_config(kOutputs));
  const CliResult r = run(cfg, dir_ / "out", "--backend cpu");
  ASSERT_EQ(r.rc, 0) << describe(r);
  std::vector<std::size_t> shape;
  const std::vector<double> rows = npy_values<double>(dir_ / "out" / "section_events.npy", &shape);
  ASSERT_EQ(shape.at(1), 8u);  // trajectory, wz, z, crossing, t, x, y, uz
  std::size_t k = 0;
  for (int i = 0; i < 16; ++i) {
    const fs::path csv = dir_ / ("t" + std::to_string(i) + ".csv");
    const CliResult t = skipstone("trace " + shell_quote(cfg.string()) + " --index " + std::to_string(i) + " --out " +
                                  shell_quote(csv.string()));
    ASSERT_EQ(t.rc, 0) << describe(t);
    // header: event,t,x,y,z,ux,uy,uz,wx,wy,wz,...
    const std::vector<std::vector<double>> ev = csv_rows(csv);
    int crossing = 0;
    for (std::size_t e = 0; e + 1 < ev.size(); ++e) {
      const double t0 = ev[e][1], tau = ev[e + 1][1] - t0, x0 = ev[e][2], y0 = ev[e][3], z0 = ev[e][4];
      const double ux = ev[e][5], uy = ev[e][6], uz = ev[e][7];
      const double d = uz * uz - 2.0 * g * (c - z0);
      if (d < 0.0) continue;
      for (double s : {-1.0, 1.0}) {
        const double tc = (uz + s * std::sqrt(d)) / g;
        if (!(tc > 1e-12 && tc <= tau)) continue;
        ++crossing;
        ASSERT_LT(k, shape[0]) << "trajectory " << i << " has more crossings than recorded";
        const double* row = &rows[8 * k++];
        EXPECT_EQ(row[0], i);
        EXPECT_EQ(row[3], crossing);
        EXPECT_NEAR(row[4], t0 + tc, kCrossing) << i << " crossing " << crossing;
        EXPECT_NEAR(row[5], x0 + ux * tc, kCrossing) << i;
        EXPECT_NEAR(row[6], y0 + uy * tc, kCrossing) << i;
        EXPECT_NEAR(row[7], uz - g * tc, kCrossing) << i;
      }
    }
    EXPECT_GT(crossing, 0) << i;
  }
  EXPECT_EQ(k, shape[0]);
  const auto meta = read_json(dir_ / "out" / "meta.json");
  EXPECT_EQ(meta.at("section_map").at("crossings").get<std::uint64_t>(), shape[0]);
}

// Every crossing is upward or downward: the counts of direction 1 and -1 add up to "both", bin by bin.
TEST_F(SectionMapTest, UpAndDownAddUpToBoth) {
  const auto outputs = [](const std::string& dir) {
    return "{" + section(dir) + R"(, "section_map": {"bins": [8, 8, 6], "ranges": [[-1, 1], [-1, 1], [-1.5, 1.5]]}})";
  };
  std::vector<std::vector<std::uint64_t>> maps;
  for (const char* dir : {"1", "-1", "\"both\""}) {
    const fs::path out = dir_ / ("out" + std::to_string(maps.size()));
    const CliResult r = run(write_config("c.json", cylinder_config(outputs(dir))), out, "--backend cpu");
    ASSERT_EQ(r.rc, 0) << describe(r);
    maps.push_back(npy_values<std::uint64_t>(out / "section_map.npy"));
  }
  std::uint64_t up = 0, down = 0;
  for (std::size_t b = 0; b < maps[2].size(); ++b) {
    EXPECT_EQ(maps[0][b] + maps[1][b], maps[2][b]) << b;
    up += maps[0][b], down += maps[1][b];
    // uz (the last coordinate, 6 bins over [-1.5, 1.5]) is positive upward, negative downward
    if (b % 6 < 3) {
      EXPECT_EQ(maps[0][b], 0u) << b;
    } else {
      EXPECT_EQ(maps[1][b], 0u) << b;
    }
  }
  EXPECT_GT(up, 0u);
  EXPECT_GT(down, 0u);
}

TEST_F(SectionMapTest, ChunksAndShardsGiveTheSameFiles) {
  const fs::path one = write_config("one.json", cylinder_config(kOutputs));
  const fs::path chunked = write_config("chunked.json", cylinder_config(kOutputs, R"({"chunk_size": 4})"));
  expect_same_files_over_chunks_and_shards(one, chunked, {"section_map.npy", "section_events.npy", "section_map.png"});
}

// roll4:stadium from (x1, x2) = (-0.5, 0.1) with velocity (1, v2) in the plate: the first
// crossing of x1 = 0 is the straight flat-part flight's, at t = 0.5, x2 = 0.1 + 0.5 v2 (the
// flight stays inside the plate for |v2| <= 0.8); every crossing lies on the plane and moves
// in the declared direction (v1 > 0).
TEST_F(SectionMapTest, RollingTableCrossesOnItsFlatParts) {
  constexpr double kFirstCrossing = 1e-12, kOnPlane = 1e-12;
  const fs::path cfg = write_config("roll4.json", R"({"system": "roll4:stadium",
      "parameters": {"half_length": 1.0, "R": 1.0, "r": 0.1, "eta": 0.5, "g_effective": 0.0},
      "initial": {"start": "plate", "x1": -0.5, "x2": 0.1, "z": 0.0, "v1": 1.0, "v3": 0.0, "S12": 0.3, "S13": 0.0, "S23": 0.0},
      "scan": {"type": "grid", "axes": [{"param": "v2", "min": -0.8, "max": 0.8, "n": 5}]},
      "stop": {"t_max": 30.0}, "observables": ["status", "events"],
      "outputs": {"section": {"normal": [1, 0, 0], "offset": 0.0, "direction": 1, "coords": ["x1", "x2", "v1"]},
                  "section_events": {"every": 1, "max_events_per_trajectory": 100}}})");
  const CliResult r = run(cfg, dir_ / "out", "--backend cpu");
  ASSERT_EQ(r.rc, 0) << describe(r);
  std::vector<std::size_t> shape;
  const std::vector<double> rows = npy_values<double>(dir_ / "out" / "section_events.npy", &shape);
  ASSERT_EQ(shape.at(1), 7u);  // trajectory, v2, crossing, t, x1, x2, v1
  std::vector<int> seen(5, 0);
  for (std::size_t k = 0; k < shape[0]; ++k) {
    const double* row = &rows[7 * k];
    EXPECT_NEAR(row[4], 0.0, kOnPlane);
    EXPECT_GT(row[6], 0.0);
    const int traj = static_cast<int>(row[0]);
    if (seen[traj]++ > 0) continue;
    EXPECT_NEAR(row[3], 0.5, kFirstCrossing) << traj;
    EXPECT_NEAR(row[5], 0.1 + 0.5 * row[1], kFirstCrossing) << traj;
  }
  for (int i = 0; i < 5; ++i) EXPECT_GT(seen[i], 1) << i;  // it comes back across the plate
}

// The 2D no-slip stadium (a 2D row: the plane in (x, y)) and the sphere (3D, no gravity): every
// recorded crossing lies on its plane to kOnPlane.
TEST_F(SectionMapTest, StadiumAndSphereCrossingsLieOnTheirPlanes) {
  constexpr double kOnPlane = 1e-12;
  struct Case {
    std::string name, system_keys, section;
    double n[3], c;
  };
  const std::vector<Case> cases = {
      {"stadium", R"("system": "stadium", "parameters": {"half_length": 1.0, "R": 1.0, "gamma": 0.8165},
         "initial": {"start": "boundary", "boundary_s": 0.1, "speed": 1.0},
         "scan": {"type": "grid", "axes": [{"param": "angle", "min": -1.2, "max": 1.2, "n": 4}, {"param": "spin", "min": -0.5, "max": 0.5, "n": 3}]},
         "stop": {"max_events": 200})",
       R"({"normal": [1, 2], "offset": 0.3, "direction": -1, "coords": ["x", "y", "ux"]})", {1, 2, 0}, 0.3},
      {"sphere", R"("system": "sphere", "parameters": {"R": 1.0, "gamma": 0.6325},
         "initial": {"start": "interior", "x": 0.5, "y": 0.0, "z": 0.0, "vx": 0.0, "vy": 1.0, "vz": 0.0, "wx": 0.0},
         "scan": {"type": "grid", "axes": [{"param": "wy", "min": -1.0, "max": 1.0, "n": 4}, {"param": "wz", "min": -1.0, "max": 1.0, "n": 3}]},
         "stop": {"max_events": 200})",
       R"({"normal": [0, 0.6, 0.8], "offset": 0.1, "direction": -1, "coords": ["y", "z", "uy"]})", {0, 0.6, 0.8}, 0.1},
  };
  for (const Case& k : cases) {
    const fs::path cfg = write_config(k.name + ".json", "{" + k.system_keys + R"(, "observables": ["status"],
        "outputs": {"section": )" + k.section + R"(, "section_events": {"every": 1, "max_events_per_trajectory": 1000}}})");
    const CliResult r = run(cfg, dir_ / k.name, "--backend cpu");
    ASSERT_EQ(r.rc, 0) << describe(r);
    std::vector<std::size_t> shape;
    const std::vector<double> rows = npy_values<double>(dir_ / k.name / "section_events.npy", &shape);
    ASSERT_EQ(shape.at(1), 8u);  // trajectory, two axes, crossing, t, three coordinates
    EXPECT_GT(shape[0], 12u) << k.name;
    for (std::size_t i = 0; i < shape[0]; ++i) {
      const double* row = &rows[8 * i];
      // the stadium's coordinates are (x, y, ux), the sphere's (y, z, uy): the plane's terms
      const double on = k.name == "stadium" ? k.n[0] * row[5] + k.n[1] * row[6] : k.n[1] * row[5] + k.n[2] * row[6];
      EXPECT_NEAR(on, k.c, kOnPlane) << k.name << " row " << i;
    }
  }
}

TEST_F(SectionMapTest, BadKeysExitTwoNamingTheKey) {
  const std::string map = R"("section_map": {"bins": [4, 4], "ranges": [[-1, 1], [-1, 1]]})";
  const std::string plane = R"("section": {"normal": [0, 0, 1], "coords": ["x", "y"]})";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"{" + map + "}", "outputs.section"},
      {"{" + plane + "}", "outputs.section"},
      {R"({"section": {"normal": [0, 1], "coords": ["x", "y"]}, )" + map + "}", "outputs.section.normal"},
      {R"({"section": {"normal": [0, 0, 0], "coords": ["x", "y"]}, )" + map + "}", "outputs.section.normal"},
      {R"({"section": {"normal": [0, 0, 1], "coords": ["x", "q"]}, )" + map + "}", "outputs.section.coords[1]"},
      {R"({"section": {"normal": [0, 0, 1], "coords": ["x"]}, )" + map + "}", "outputs.section.coords"},
      {R"({"section": {"normal": [0, 0, 1], "direction": 2, "coords": ["x", "y"]}, )" + map + "}", "outputs.section.direction"},
      {"{" + plane + R"(, "section_map": {"bins": [4, 4]}})", "outputs.section_map.ranges"},
      {"{" + plane + R"(, "section_map": {"bins": [4], "ranges": [[-1, 1], [-1, 1]]}})", "outputs.section_map.bins"},
      {"{" + plane + R"(, "section_events": {"indices": [16]}})", "outputs.section_events.indices[0]"},
  };
  for (const auto& [outputs, key] : cases) {
    const fs::path cfg = write_config("bad.json", cylinder_config(outputs));
    const CliResult r = run(cfg, dir_ / "bad");
    EXPECT_EQ(r.rc, 2) << outputs << "\n" << describe(r);
    EXPECT_NE(r.err.find(key), std::string::npos) << key << "\n" << describe(r);
    EXPECT_FALSE(fs::exists(dir_ / "bad")) << outputs;
  }
  // rubber:sphere reports no flights
  const fs::path planes = write_config("rubber.json", R"({"system": "rubber:sphere", "parameters": {"a": 1.0, "I1": 1.0, "I2": 1.5, "I3": 2.0, "mu": 1.0},
      "initial": {"start": "body", "phi": 0.5, "wx": 1.0, "wy": 0.0, "wz": 0.0},
      "scan": {"type": "grid", "axes": [{"param": "b", "min": 0.5, "max": 1, "n": 2}]},
      "stop": {"t_max": 5.0}, "observables": ["status"],
      "outputs": {"section": {"normal": [0, 1, 0], "coords": ["x", "y"]}, "section_events": {"every": 1}}})");
  const CliResult p = run(planes, dir_ / "planes");
  EXPECT_EQ(p.rc, 2) << describe(p);
  EXPECT_NE(p.err.find("outputs.section"), std::string::npos) << describe(p);
}

}  // namespace
