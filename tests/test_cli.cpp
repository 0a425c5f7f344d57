// test_cli.cpp — end-to-end tests of the `skipstone` executable: `run` and `trace` are started
// as child processes on small configs, and their exit status, messages and output folders
// (meta.json, .npy maps, PNG heat maps, trace CSV) are checked against the README.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_support.hpp"
#include "npy_writer.hpp"

namespace {

using namespace skipstone::testing;
namespace fs = std::filesystem;
using nlohmann::json;

// Status names in the order of their codes in status.npy (README "Observables and status").
const std::vector<std::string> kStatusNames = {"finished",   "exited",       "escaped",            "corner",
                                               "non_finite", "energy_drift", "integrator_failure", "masked",
                                               "through_hole"};

std::string expected_descr(const std::string& observable) {
  if (observable == "status") return "|i1";
  if (observable == "events") return "<u8";
  return "<f8";
}

std::size_t item_size(const std::string& descr) { return descr == "|i1" ? 1 : 8; }

// The two-axis grid of test 1: 17 x 9 boundary starts in the disc.
const char* const kGridConfig = R"({
  "system": "disc",
  "parameters": {"gamma": 0.8},
  "initial": {"start": "boundary"},
  "scan": {"type": "grid", "axes": [{"param": "angle", "min": -1.2, "max": 1.2, "n": 17},
                                    {"param": "spin", "min": -1, "max": 1, "n": 9}]},
  "stop": {"max_events": 200}
})";

const char* const kRandomConfig = R"({
  "system": "disc",
  "parameters": {"gamma": 0.8},
  "initial": {"start": "boundary", "spin": 0.2},
  "scan": {"type": "random", "count": 1000, "seed": 5,
           "axes": [{"param": "angle", "min": -1.2, "max": 1.2}]},
  "stop": {"max_events": 100}
})";

// ---------------------------------------------------------------- 1. grid scan

TEST_F(CliTest, GridScanWritesMetadataMapsAndHeatmaps) {
  const fs::path cfg = write_config("grid.json", kGridConfig);
  const fs::path out = dir_ / "out";
  const CliResult r = run(cfg, out, "--backend cpu");
  ASSERT_EQ(r.rc, 0) << describe(r);

  ASSERT_TRUE(fs::is_regular_file(out / "meta.json"));
  const json meta = read_json(out / "meta.json");

  EXPECT_EQ(meta.at("system"), "disc");
  EXPECT_EQ(meta.at("backend"), "cpu");
  EXPECT_EQ(meta.at("trajectories"), 153);
  EXPECT_EQ(meta.at("shape"), json::array({9, 17}));

  const json& moi = meta.at("moment_of_inertia");
  const double gamma = moi.at("gamma").get<double>();
  EXPECT_DOUBLE_EQ(gamma, 0.8);
  EXPECT_NEAR(moi.at("eta").get<double>(), gamma / std::sqrt(1.0 + gamma * gamma), 1e-13);
  EXPECT_NEAR(moi.at("beta").get<double>(), 2.0 * std::atan(gamma), 1e-13);

  const json& counts = meta.at("status_counts");
  ASSERT_TRUE(counts.is_object());
  std::uint64_t count_sum = 0;
  for (const auto& name : kStatusNames) {
    ASSERT_TRUE(counts.contains(name)) << "status_counts lacks " << name;
    count_sum += counts.at(name).get<std::uint64_t>();
  }
  EXPECT_EQ(counts.size(), kStatusNames.size());
  EXPECT_EQ(count_sum, 153u);

  const json& axes = meta.at("axes");
  ASSERT_EQ(axes.size(), 2u);
  EXPECT_EQ(axes[0].at("param"), "angle");
  EXPECT_EQ(axes[1].at("param"), "spin");
  ASSERT_EQ(axes[0].at("values").size(), 17u);
  ASSERT_EQ(axes[1].at("values").size(), 9u);
  EXPECT_DOUBLE_EQ(axes[0]["values"][0].get<double>(), -1.2);
  EXPECT_DOUBLE_EQ(axes[0]["values"][16].get<double>(), 1.2);
  EXPECT_DOUBLE_EQ(axes[1]["values"][0].get<double>(), -1.0);
  EXPECT_DOUBLE_EQ(axes[1]["values"][4].get<double>(), 0.0);
  EXPECT_DOUBLE_EQ(axes[1]["values"][8].get<double>(), 1.0);

  const json& tp = meta.at("throughput");
  ASSERT_TRUE(tp.is_object());
  EXPECT_GT(tp.at("computed_trajectories_per_s").get<double>(), 0.0);
  EXPECT_GT(tp.at("points_per_s").get<double>(), 0.0);
  EXPECT_GE(tp.at("events_per_s").get<double>(), 0.0);
  const std::uint64_t total_events = tp.at("total_events").get<std::uint64_t>();

  const json& obs = meta.at("observables");
  ASSERT_TRUE(obs.is_object());
  ASSERT_FALSE(obs.empty());
  EXPECT_TRUE(obs.contains("status"));
  EXPECT_TRUE(obs.contains("events"));

  static const unsigned char kPngSignature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  for (auto it = obs.begin(); it != obs.end(); ++it) {
    const std::string name = it.key();
    SCOPED_TRACE("observable " + name);
    const json& stats = it.value().at("stats");
    for (const char* k : {"count", "mean", "std", "min", "max"}) EXPECT_TRUE(stats.contains(k)) << k;
    const std::uint64_t n_ok = stats.at("count").get<std::uint64_t>();
    EXPECT_LE(n_ok, 153u);
    if (n_ok > 0 && stats.at("min").is_number() && stats.at("max").is_number()) {
      EXPECT_LE(stats.at("min").get<double>(), stats.at("mean").get<double>() + 1e-12);
      EXPECT_LE(stats.at("mean").get<double>(), stats.at("max").get<double>() + 1e-12);
    }

    const fs::path npy = out / (name + ".npy");
    ASSERT_TRUE(fs::is_regular_file(npy)) << npy;
    const skipstone::io::NpyArray a = skipstone::io::read_npy(npy);
    EXPECT_EQ(a.shape, (std::vector<std::size_t>{9, 17}));
    EXPECT_EQ(a.descr, expected_descr(name));
    ASSERT_EQ(a.bytes.size(), 153 * item_size(a.descr));

    if (name == "status") {
      std::vector<std::uint64_t> hist(kStatusNames.size(), 0);
      for (char c : a.bytes) {
        const int s = static_cast<std::int8_t>(c);
        ASSERT_GE(s, 0);
        ASSERT_LT(s, static_cast<int>(kStatusNames.size()));
        hist[static_cast<std::size_t>(s)]++;
      }
      for (std::size_t s = 0; s < kStatusNames.size(); ++s)
        EXPECT_EQ(hist[s], counts.at(kStatusNames[s]).get<std::uint64_t>()) << kStatusNames[s];
    }
    if (name == "events") {
      std::uint64_t sum = 0;
      for (std::size_t i = 0; i < 153; ++i) {
        std::uint64_t e;
        std::memcpy(&e, a.bytes.data() + 8 * i, 8);
        EXPECT_LE(e, 200u);
        sum += e;
      }
      EXPECT_EQ(sum, total_events);
    }

    const fs::path png = out / (name + ".png");
    ASSERT_TRUE(fs::is_regular_file(png)) << png;
    const std::string head = read_text(png).substr(0, 8);
    ASSERT_EQ(head.size(), 8u);
    EXPECT_EQ(std::memcmp(head.data(), kPngSignature, 8), 0) << "not a PNG signature";
  }

  for (const auto& f : file_names(out)) EXPECT_EQ(f.find(".tmp."), std::string::npos) << "leftover temporary " << f;
}

TEST_F(CliTest, GridMapsLoadWithNumpy) {
  const std::string probe = "/usr/bin/python3 -c 'import numpy' >/dev/null 2>&1";
  if (::access("/usr/bin/python3", X_OK) != 0 || std::system(probe.c_str()) != 0)
    GTEST_SKIP() << "/usr/bin/python3 with numpy is not available; skipping the numpy.load check";
  const fs::path out = dir_ / "out";
  const CliResult r = run(write_config("grid.json", kGridConfig), out, "--backend cpu");
  ASSERT_EQ(r.rc, 0) << describe(r);
  for (const char* name : {"status", "events", "t_end"}) {
    const std::string script =
        "import sys, numpy\n"
        "a = numpy.load(sys.argv[1])\n"
        "assert a.shape == (9, 17), a.shape\n";
    const std::string cmd = "/usr/bin/python3 -c " + shell_quote(script) + " " +
                            shell_quote((out / (std::string(name) + ".npy")).string());
    EXPECT_EQ(std::system(cmd.c_str()), 0) << "numpy.load check failed for " << name;
  }
}

// A small Figure-18 map over (v2, S12) in [-1, 1]^2: n x n pixels up to t_max, with `rest`
// (further top-level keys, e.g. observables) appended.
std::string small_figure18(int n, double t_max, const std::string& rest) {
  const std::string axis = R"(, "min": -1, "max": 1, "n": )" + std::to_string(n) + "}";
  return R"({"system": "roll4:disc-transversal", "parameters": {"eta": 0.5, "r": 1.0},
             "initial": {"start": "rim_entry"},
             "scan": {"type": "grid", "axes": [{"param": "v2")" + axis + R"(, {"param": "S12")" + axis + R"(]},
             "stop": {"t_max": )" + std::to_string(t_max) + "}, " + rest + "}";
}

// A small Figure-18 map: pixels outside the unit disc of (v2, S12) are masked, and in
// exit_side.npy they are NaN (like every floating observable of a masked trajectory), not 0,
// which means "no exit by t_max" and stays 0 for finished trajectories.
TEST_F(CliTest, Figure18MaskedPixelsAreNanInExitSide) {
  const fs::path cfg = write_config("fig18.json", small_figure18(15, 10, R"("observables": ["status", "exit_side"])"));
  const fs::path out = dir_ / "out";
  const CliResult r = run(cfg, out, "--backend cpu");
  ASSERT_EQ(r.rc, 0) << describe(r);
  const skipstone::io::NpyArray side = skipstone::io::read_npy(out / "exit_side.npy");
  const skipstone::io::NpyArray status = skipstone::io::read_npy(out / "status.npy");
  ASSERT_EQ(side.descr, "<f8");
  ASSERT_EQ(side.shape, (std::vector<std::size_t>{15, 15}));
  ASSERT_EQ(side.bytes.size(), 225u * 8u);
  ASSERT_EQ(status.bytes.size(), 225u);
  std::vector<std::size_t> seen(4, 0);  // masked, -1, 0, +1
  std::size_t nan_count = 0;
  for (std::size_t i = 0; i < 225; ++i) {
    double v;
    std::memcpy(&v, side.bytes.data() + 8 * i, 8);
    const int st = static_cast<std::int8_t>(status.bytes[i]);
    SCOPED_TRACE("pixel " + std::to_string(i) + ", status " + kStatusNames.at(static_cast<std::size_t>(st)));
    const std::string& name = kStatusNames.at(static_cast<std::size_t>(st));
    if (name != "finished" && name != "exited" && name != "escaped") {  // masked or failed
      EXPECT_TRUE(std::isnan(v)) << v;
      seen[0] += name == "masked";
      nan_count++;
      continue;
    }
    ASSERT_TRUE(v == -1.0 || v == 0.0 || v == 1.0) << v;
    if (name == "finished") {
      EXPECT_EQ(v, 0.0);
    }
    seen[static_cast<std::size_t>(v + 2.0)]++;
  }
  EXPECT_GT(seen[0], 0u) << "the corners of the grid lie outside the unit disc";
  EXPECT_GT(seen[2], 0u) << "t_max = 10 leaves some trajectories on the rim";
  EXPECT_GT(seen[1], 0u) << "some trajectories exit on the opposite side";
  EXPECT_GT(seen[3], 0u) << "some trajectories exit on the entry side";
  const json meta = read_json(out / "meta.json");
  EXPECT_EQ(meta.at("observables").at("exit_side").at("stats").at("count").get<std::size_t>(), 225u - nan_count);
  EXPECT_NE(meta.at("observables").at("exit_side").at("description").get<std::string>().find("NaN"),
            std::string::npos);
}

// meta.json's throughput counts masked points apart: they are not integrated, and a rate over
// every grid point would overstate the integration rate by the masked share.
TEST_F(CliTest, ThroughputCountsMaskedPointsApartFromComputedTrajectories) {
  const fs::path cfg = write_config("fig18.json", small_figure18(15, 10, R"("observables": ["status"])"));
  const fs::path out = dir_ / "out";
  const CliResult r = run(cfg, out, "--backend cpu");
  ASSERT_EQ(r.rc, 0) << describe(r);
  const json meta = read_json(out / "meta.json");
  const json& tp = meta.at("throughput");
  const std::uint64_t masked = meta.at("status_counts").at("masked").get<std::uint64_t>();
  ASSERT_GT(masked, 0u) << "the corners of the grid lie outside the unit disc";
  EXPECT_EQ(tp.at("masked_points").get<std::uint64_t>(), masked);
  EXPECT_EQ(tp.at("computed_trajectories").get<std::uint64_t>(), 225u - masked);
  EXPECT_FALSE(tp.contains("trajectories_per_s")) << "the old rate over every point, masked ones included";
  const double wall = tp.at("wall_seconds").get<double>();
  EXPECT_EQ(wall, meta.at("wall_time_s").get<double>());
  ASSERT_GT(wall, 0.0);
  const double rel = 1e-12;  // the rates are plain quotients of these numbers
  EXPECT_NEAR(tp.at("computed_trajectories_per_s").get<double>() * wall, 225.0 - static_cast<double>(masked),
              rel * 225.0);
  EXPECT_NEAR(tp.at("points_per_s").get<double>() * wall, 225.0, rel * 225.0);
}

// options.precision = "float" runs the float Figure-18 kernel from the config: meta.json says
// so with the float default tolerance, and the map agrees with the double run to float accuracy
// (the kernel-level comparison with its tolerances is in test_rolling_transversal).
TEST_F(CliTest, Figure18FloatPrecisionFromTheConfigAgreesWithDouble) {
  const std::string observables = R"("observables": ["exit_side", "exit_time"])";
  const fs::path cfg_d = write_config("double.json", small_figure18(15, 10, observables));
  const fs::path cfg_f = write_config("float.json", small_figure18(15, 10, observables + R"(, "options": {"precision": "float"})"));
  const CliResult rd = run(cfg_d, dir_ / "double", "--backend cpu");
  const CliResult rf = run(cfg_f, dir_ / "float", "--backend cpu");
  ASSERT_EQ(rd.rc, 0) << describe(rd);
  ASSERT_EQ(rf.rc, 0) << describe(rf);
  const json meta = read_json(dir_ / "float" / "meta.json");
  const json& options = meta.at("config").at("options");
  EXPECT_EQ(options.at("precision"), "float");
  EXPECT_EQ(options.at("rtol").get<double>(), 1e-5);
  EXPECT_EQ(read_json(dir_ / "double" / "meta.json").at("config").at("options").at("precision"), "double");
  const auto values = [](const fs::path& file) {
    const skipstone::io::NpyArray a = skipstone::io::read_npy(file);
    std::vector<double> v(a.bytes.size() / 8);
    std::memcpy(v.data(), a.bytes.data(), a.bytes.size());
    return v;
  };
  const std::vector<double> side_d = values(dir_ / "double" / "exit_side.npy");
  const std::vector<double> side_f = values(dir_ / "float" / "exit_side.npy");
  const std::vector<double> time_d = values(dir_ / "double" / "exit_time.npy");
  const std::vector<double> time_f = values(dir_ / "float" / "exit_time.npy");
  std::size_t side_differs = 0;
  std::vector<double> dt;
  for (std::size_t i = 0; i < side_d.size(); ++i) {
    ASSERT_EQ(std::isnan(side_d[i]), std::isnan(side_f[i])) << "pixel " << i << ": the mask is the same";
    if (std::isnan(side_d[i])) continue;
    side_differs += side_d[i] != side_f[i];
    if (side_d[i] == side_f[i] && side_d[i] != 0.0) dt.push_back(std::fabs(time_d[i] - time_f[i]));
  }
  EXPECT_EQ(side_differs, 0u);
  ASSERT_GT(dt.size(), 50u);
  std::nth_element(dt.begin(), dt.begin() + dt.size() / 2, dt.end());
  EXPECT_LT(dt[dt.size() / 2], 1e-4) << "median |exit_time float - double|";
  EXPECT_GT(dt[dt.size() / 2], 0.0) << "the float run is a different kernel, not the double one";
}

// Declared-bin histograms (config `histograms`) in meta.json: bin counts as numpy.histogram
// would give from the .npy values (last bin closed), underflow and overflow, NaN (failed or
// masked) not counted; the same counts whatever the chunk size.
TEST_F(CliTest, DeclaredHistogramsCountTheMapValues) {
  const fs::path cfg = write_config("hist.json", small_figure18(40, 20, R"("observables": ["status", "exit_time"],
    "histograms": {"exit_time": {"min": 2.0, "max": 8.0, "bins": 12}})"));
  const CliResult r1 = run(cfg, dir_ / "a", "--backend cpu");
  const CliResult r2 = run(cfg, dir_ / "b", "--backend cpu --chunk 4096");
  ASSERT_EQ(r1.rc, 0) << describe(r1);
  ASSERT_EQ(r2.rc, 0) << describe(r2);
  const json h = read_json(dir_ / "a" / "meta.json").at("observables").at("exit_time").at("histogram");
  EXPECT_EQ(h, read_json(dir_ / "b" / "meta.json").at("observables").at("exit_time").at("histogram"));
  const skipstone::io::NpyArray a = skipstone::io::read_npy(dir_ / "a" / "exit_time.npy");
  std::vector<double> t(a.bytes.size() / 8);
  std::memcpy(t.data(), a.bytes.data(), a.bytes.size());
  std::vector<std::uint64_t> counts(12, 0);
  std::uint64_t under = 0, over = 0, finite = 0;
  for (double v : t) {
    if (std::isnan(v)) continue;
    ++finite;
    if (v < 2.0) {
      ++under;
    } else if (v > 8.0) {
      ++over;
    } else {
      counts[std::min<std::size_t>(11, static_cast<std::size_t>((v - 2.0) / 0.5))]++;
    }
  }
  EXPECT_EQ(h.at("counts").get<std::vector<std::uint64_t>>(), counts);
  EXPECT_EQ(h.at("underflow").get<std::uint64_t>(), under);
  EXPECT_EQ(h.at("overflow").get<std::uint64_t>(), over);
  EXPECT_EQ(h.at("count").get<std::uint64_t>(), finite);
  EXPECT_EQ(h.at("bins").get<int>(), 12);
  EXPECT_GT(under + over, 0u) << "the bins were chosen to leave values on both sides";
  EXPECT_GT(finite, 1000u) << "most pixels of the unit disc exit by t = 20";
  EXPECT_EQ(read_json(dir_ / "a" / "meta.json").at("config").at("histograms").at("exit_time").at("bins").get<int>(), 12);
}

// ---------------------------------------------------------------- 2. random scan

TEST_F(CliTest, RandomScanIsReproducibleAcrossRunsThreadsAndChunks) {
  const fs::path cfg = write_config("random.json", kRandomConfig);
  const fs::path r1 = dir_ / "r1", r2 = dir_ / "r2", rc = dir_ / "chunk", rt = dir_ / "threads";
  for (const auto& [out, extra] : std::vector<std::pair<fs::path, std::string>>{
           {r1, "--backend cpu"}, {r2, "--backend cpu"}, {rc, "--backend cpu --chunk 4096"},
           {rt, "--backend cpu --threads 1"}}) {
    const CliResult r = run(cfg, out, extra);
    ASSERT_EQ(r.rc, 0) << extra << "\n" << describe(r);
  }

  const json meta = read_json(r1 / "meta.json");
  EXPECT_EQ(meta.at("shape"), json::array({1000}));
  EXPECT_EQ(meta.at("grid"), false);
  ASSERT_EQ(meta.at("axes").size(), 1u);
  EXPECT_EQ(meta["axes"][0].at("file"), "axis_angle.npy");

  const auto names = file_names(r1);
  EXPECT_TRUE(names.count("axis_angle.npy"));
  for (auto it = meta.at("observables").begin(); it != meta.at("observables").end(); ++it) {
    const std::string name = it.key();
    const skipstone::io::NpyArray a = skipstone::io::read_npy(r1 / (name + ".npy"));
    EXPECT_EQ(a.shape, (std::vector<std::size_t>{1000})) << name;
    EXPECT_EQ(a.descr, expected_descr(name)) << name;
  }
  for (const auto& f : names) EXPECT_EQ(fs::path(f).extension(), f == "meta.json" ? ".json" : ".npy") << f;

  const skipstone::io::NpyArray ax = skipstone::io::read_npy(r1 / "axis_angle.npy");
  EXPECT_EQ(ax.shape, (std::vector<std::size_t>{1000}));
  ASSERT_EQ(ax.descr, "<f8");
  ASSERT_EQ(ax.bytes.size(), 8000u);
  double lo = INFINITY, hi = -INFINITY;
  for (std::size_t i = 0; i < 1000; ++i) {
    double v;
    std::memcpy(&v, ax.bytes.data() + 8 * i, 8);
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  EXPECT_GE(lo, -1.2);
  EXPECT_LE(hi, 1.2);
  EXPECT_LT(lo, -1.0) << "1000 uniform samples should cover the interval";
  EXPECT_GT(hi, 1.0) << "1000 uniform samples should cover the interval";

  // Same config twice: every .npy identical, byte for byte.
  EXPECT_EQ(file_names(r2), names);
  for (const auto& f : names) {
    if (fs::path(f).extension() != ".npy") continue;
    EXPECT_EQ(read_text(r1 / f), read_text(r2 / f)) << f << " differs between runs";
  }
  // Chunking and thread count change nothing.
  for (const char* f : {"status.npy", "events.npy", "t_end.npy", "axis_angle.npy"}) {
    EXPECT_EQ(read_text(r1 / f), read_text(rc / f)) << f << " differs with --chunk 4096";
    EXPECT_EQ(read_text(r1 / f), read_text(rt / f)) << f << " differs with --threads 1";
  }
}

// ---------------------------------------------------------------- 3. trace

TEST_F(CliTest, TraceWritesOneRowPerEvent) {
  const int max_events = 25;
  const fs::path cfg = write_config("one.json", R"({
    "system": "disc",
    "parameters": {"gamma": 0.8},
    "initial": {"start": "boundary", "angle": 0.3, "spin": 0.1},
    "stop": {"max_events": )" + std::to_string(max_events) + "}}");
  const fs::path csv = dir_ / "trace.csv";
  const CliResult r = skipstone("trace " + shell_quote(cfg.string()) + " --out " + shell_quote(csv.string()));
  ASSERT_EQ(r.rc, 0) << describe(r);
  ASSERT_TRUE(fs::is_regular_file(csv));

  std::istringstream in(read_text(csv));
  std::string header;
  ASSERT_TRUE(std::getline(in, header));
  EXPECT_EQ(header.rfind("event,t,x,y", 0), 0u) << header;
  std::vector<std::string> rows;
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) rows.push_back(line);
  EXPECT_EQ(rows.size(), static_cast<std::size_t>(max_events + 1));
  double prev_t = -1.0;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    std::istringstream row(rows[i]);
    std::string event, t;
    std::getline(row, event, ',');
    std::getline(row, t, ',');
    EXPECT_EQ(event, std::to_string(i));
    const double tv = std::stod(t);
    EXPECT_GE(tv, prev_t) << "row " << i;
    prev_t = tv;
  }
  for (const auto& f : file_names(dir_)) EXPECT_EQ(f.find(".tmp."), std::string::npos) << "leftover temporary " << f;
}

// README: `initial`, `scan` and `options` may be left out (defaults; no scan = one trajectory).
TEST_F(CliTest, MinimalConfigWithoutOptionalSectionsRuns) {
  const fs::path cfg = write_config("minimal.json", R"({"system": "disc", "parameters": {"gamma": 0.8},
                                                        "stop": {"max_events": 10}})");
  const fs::path out = dir_ / "out";
  const CliResult r = run(cfg, out, "--backend cpu");
  ASSERT_EQ(r.rc, 0) << describe(r);
  const json meta = read_json(out / "meta.json");
  EXPECT_EQ(meta.at("trajectories"), 1);
  EXPECT_EQ(meta.at("shape"), json::array({1}));

  const CliResult t = skipstone("trace " + shell_quote(cfg.string()) + " --out " + shell_quote((dir_ / "t.csv").string()));
  EXPECT_EQ(t.rc, 0) << describe(t);
}

// trace --sample DT (every model): one row at each multiple of DT, the first and last equal to
// the event trace's start and end; a run stopped by max_events ends on its final state; the
// no-slip samples lie on the exact flight (a parabola under in-plane gravity) from the event
// before them; bad steps are usage errors.
std::vector<std::vector<std::string>> csv_rows(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream in(text);
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    std::vector<std::string> cells;
    std::istringstream row(line);
    for (std::string c; std::getline(row, c, ',');) cells.push_back(c);
    cells.erase(cells.begin());  // the row number
    rows.push_back(cells);
  }
  return rows;
}

// The rows (csv_rows) of `skipstone trace` of trajectory `index` of each named config.
template <class Skipstone>
std::map<std::string, std::vector<std::vector<std::string>>> trace_rows(
    Skipstone&& skipstone, const fs::path& dir, const std::vector<std::pair<std::string, fs::path>>& configs, int index) {
  std::map<std::string, std::vector<std::vector<std::string>>> out;
  for (const auto& [name, cfg] : configs) {
    const fs::path csv = dir / (name + ".csv");
    const CliResult r = skipstone("trace " + shell_quote(cfg.string()) + " --index " + std::to_string(index) + " --out " +
                                  shell_quote(csv.string()));
    EXPECT_EQ(r.rc, 0) << describe(r);
    out[name] = r.rc == 0 ? csv_rows(read_text(csv)) : std::vector<std::vector<std::string>>{};
  }
  return out;
}

// A float64 .npy file's values.
std::vector<double> npy_doubles(const fs::path& p) {
  const skipstone::io::NpyArray a = skipstone::io::read_npy(p);
  std::vector<double> v(a.bytes.size() / 8);
  std::memcpy(v.data(), a.bytes.data(), a.bytes.size());
  return v;
}

// trace follows the kernel of the config's precision: with options.precision float it records
// the float kernel's steps, whose last row is the float map's exit (to the bit), not the double one's.
TEST_F(CliTest, TraceOfAFloatConfigFollowsTheFloatKernel) {
  const std::string observables = R"("observables": ["exit_side", "exit_time"])";
  const fs::path cfg_f = write_config("float.json", small_figure18(5, 20, observables + R"(, "options": {"precision": "float"})"));
  const fs::path cfg_d = write_config("double.json", small_figure18(5, 20, observables));
  const CliResult rf = run(cfg_f, dir_ / "float", "--backend cpu");
  ASSERT_EQ(rf.rc, 0) << describe(rf);
  const std::vector<double> exit_time = npy_doubles(dir_ / "float" / "exit_time.npy");
  const int index = 12;  // v2 = S12 = 0
  ASSERT_TRUE(std::isfinite(exit_time[index])) << "the centre pixel exits before t_max";
  const auto rows = trace_rows([&](const std::string& args) { return skipstone(args); }, dir_,
                               {{"float", cfg_f}, {"double", cfg_d}}, index);
  std::map<std::string, double> last_t;
  for (const auto& [name, r] : rows) {
    ASSERT_GT(r.size(), 2u) << name;
    last_t[name] = std::stod(r.back().at(0));
  }
  EXPECT_EQ(last_t["float"], exit_time[index]);
  EXPECT_NE(last_t["float"], last_t["double"]);
  EXPECT_NEAR(last_t["float"], last_t["double"], 1e-3);
}

// The same for the float no-slip disc: the trace's last impact is the float run's final state.
TEST_F(CliTest, TraceOfAFloatDiscConfigFollowsTheFloatKernel) {
  const std::string disc = R"({"system": "disc", "parameters": {"gamma": 0.8},
      "initial": {"start": "boundary", "boundary_s": 0.1, "angle": 0.7, "speed": 1.0},
      "scan": {"type": "grid", "axes": [{"param": "spin", "min": -0.5, "max": 0.5, "n": 3}]},
      "stop": {"max_events": 300}, "observables": ["z_final", "t_end"])";
  const fs::path cfg_f = write_config("float.json", disc + R"(, "options": {"precision": "float"}})");
  const fs::path cfg_d = write_config("double.json", disc + "}");
  const CliResult rf = run(cfg_f, dir_ / "float", "--backend cpu");
  ASSERT_EQ(rf.rc, 0) << describe(rf);
  const std::vector<double> z_final = npy_doubles(dir_ / "float" / "z_final.npy");
  const std::vector<double> t_end = npy_doubles(dir_ / "float" / "t_end.npy");
  const int index = 2;
  const auto rows = trace_rows([&](const std::string& args) { return skipstone(args); }, dir_,
                               {{"float", cfg_f}, {"double", cfg_d}}, index);
  std::map<std::string, std::vector<std::string>> last;
  for (const auto& [name, r] : rows) {
    ASSERT_EQ(r.size(), 301u) << name;  // the start and 300 impacts
    last[name] = r.back();
  }
  // t, x, y, ... (csv_rows drops the event number): the float trace ends where the float scan's
  // trajectory ends, to the bit
  EXPECT_EQ(std::stod(last["float"].at(0)), t_end[index]);
  EXPECT_EQ(std::stod(last["float"].at(2)), z_final[index]);
  EXPECT_NE(last["float"].at(2), last["double"].at(2));
  // the rounded coefficients shift the rotation along the wall a little every impact
  EXPECT_NEAR(std::stod(last["float"].at(2)), std::stod(last["double"].at(2)), 1e-2);
}

TEST_F(CliTest, TraceSampleGivesTheStateEveryDt) {
  const fs::path cyl = write_config("cyl.json", R"({"system": "roll3:inside-cylinder",
      "parameters": {"R": 1.0, "r": 0.2, "eta": 0.5, "g": 9.81}, "initial": {"v1": 1.0, "v2": 0.3},
      "stop": {"t_max": 2.5}})");
  const fs::path planes = write_config("planes.json", R"({"system": "roll4:planes",
      "parameters": {"L": 1.0, "r": 0.5, "eta": 0.4, "g_effective": 5.0}, "initial": {"v1": 1.0, "v3": -1.0},
      "stop": {"max_events": 2}})");
  const fs::path disc4 = write_config("disc4.json", R"({"system": "roll4:disc",
      "parameters": {"R": 1.0, "r": 0.1, "eta": 0.5, "g_effective": 1.0},
      "initial": {"x1": 0.5, "v1": -0.8, "v2": 1.0, "v3": 0.2, "S12": 0.61, "S23": -1.0}, "stop": {"t_max": 2.5}})");
  // a noisy Figure-18 passage: one run, the samples on its steps' interpolant (noisy_disc_transversal.hpp)
  const fs::path noisy18 = write_config("noisy18.json", R"({"system": "roll4:disc-transversal",
      "parameters": {"R": 1.0, "r": 1.0, "eta": 0.5, "noise": 1, "noise_sigma": 0.3, "noise_tau": 0.5, "noise_dt": 0.001},
      "initial": {"start": "rim_entry", "speed": 1.0, "v2": 0.3, "S12": 0.3}, "stop": {"t_max": 2.5}})");
  // a noisy roll3:strip: the rolling tables' integrator on the strip's wall, its 2D rows
  const fs::path noisy_strip = write_config("noisy_strip.json", R"({"system": "roll3:strip",
      "parameters": {"L": 1.0, "r": 0.3, "eta": 0.6, "g_effective": 0.8, "noise": 2, "noise_sigma": 0.1, "noise_tau": 0.2},
      "initial": {"x1": 0.4, "v1": 1.0, "v2": 0.3}, "stop": {"t_max": 2.5}})");
  for (const auto& [cfg, n_rows] : {std::pair{cyl, 11u}, std::pair{planes, 0u}, std::pair{disc4, 11u},
                                    std::pair{noisy18, 11u}, std::pair{noisy_strip, 11u}}) {
    const fs::path ev = dir_ / "events.csv", sm = dir_ / "samples.csv";
    // the same two files for every config: --overwrite
    ASSERT_EQ(skipstone("trace " + shell_quote(cfg.string()) + " --out " + shell_quote(ev.string()) + " --overwrite").rc, 0);
    const CliResult r =
        skipstone("trace " + shell_quote(cfg.string()) + " --out " + shell_quote(sm.string()) + " --sample 0.25 --overwrite");
    ASSERT_EQ(r.rc, 0) << describe(r);
    const auto events = csv_rows(read_text(ev)), samples = csv_rows(read_text(sm));
    ASSERT_GE(samples.size(), 3u);
    if (n_rows) {
      EXPECT_EQ(samples.size(), n_rows);
    }
    for (std::size_t k = 0; k + 1 < samples.size(); ++k) EXPECT_EQ(std::stod(samples[k][0]), 0.25 * k) << cfg;
    EXPECT_EQ(samples.front(), events.front()) << cfg;
    EXPECT_EQ(samples.back(), events.back()) << cfg;  // t_max (cylinder) or the final event (planes)
  }
  for (const auto& [cfg, step] : {std::pair{cyl, "0"}, std::pair{cyl, "x"}}) {
    const CliResult r = skipstone("trace " + shell_quote(cfg.string()) + " --out " +
                                  shell_quote((dir_ / "t.csv").string()) + " --sample " + step);
    EXPECT_EQ(r.rc, 2) << describe(r);
    EXPECT_NE((r.out + r.err).find("--sample"), std::string::npos) << describe(r);
  }
}

TEST_F(CliTest, TraceSampleOfANoSlipTableLiesOnTheExactFlights) {
  constexpr double kDt = 0.1, kG = 1.0, kOnFlight = 1e-12;
  const fs::path cfg = write_config("stadium.json", R"({"system": "stadium", "parameters": {"gamma": 0.8, "g": 1.0},
      "initial": {"start": "boundary", "boundary_s": 0.1, "angle": 0.3, "speed": 1.5, "spin": 0.4},
      "stop": {"max_events": 20}})");
  const fs::path ev = dir_ / "events.csv", sm = dir_ / "samples.csv";
  ASSERT_EQ(skipstone("trace " + shell_quote(cfg.string()) + " --out " + shell_quote(ev.string())).rc, 0);
  const CliResult r = skipstone("trace " + shell_quote(cfg.string()) + " --out " + shell_quote(sm.string()) + " --sample 0.1");
  ASSERT_EQ(r.rc, 0) << describe(r);
  const auto events = csv_rows(read_text(ev)), samples = csv_rows(read_text(sm));
  ASSERT_EQ(events.size(), 21u);  // the start and 20 impacts
  ASSERT_GT(samples.size(), 100u);
  EXPECT_EQ(samples.back(), events.back());  // max_events: the last impact
  double worst = 0.0;
  std::size_t e = 0;
  for (std::size_t k = 0; k + 1 < samples.size(); ++k) {
    const double t = std::stod(samples[k][0]);
    EXPECT_EQ(t, kDt * k);
    while (e + 1 < events.size() && std::stod(events[e + 1][0]) <= t) ++e;
    // columns after the row number: t, x, y, ux, uy, spin, ...
    const double dt = t - std::stod(events[e][0]);
    const double x = std::stod(events[e][1]) + std::stod(events[e][3]) * dt;
    const double y = std::stod(events[e][2]) + std::stod(events[e][4]) * dt - 0.5 * kG * dt * dt;
    worst = std::max({worst, std::fabs(x - std::stod(samples[k][1])), std::fabs(y - std::stod(samples[k][2]))});
  }
  EXPECT_LT(worst, kOnFlight);
  // 3D no-slip and the Figure-18 system: rows at the multiples of DT, the last the trace's end
  const fs::path cyl = write_config("cyl.json", R"({"system": "cylinder:stadium", "parameters": {"gamma": 0.8, "g": 1.0},
      "initial": {"start": "boundary", "boundary_s": 0.1, "angle": 0.3, "speed": 1.5, "vz": 0.5, "wz": 0.4},
      "stop": {"t_max": 3.0}})");
  const fs::path fig18 = write_config("fig18.json", R"({"system": "roll4:disc-transversal",
      "parameters": {"R": 1.0, "r": 1.0, "eta": 0.5}, "initial": {"start": "rim_entry", "v2": 0.1, "S12": 0.3},
      "stop": {"t_max": 50.0}})");
  for (const fs::path& c : {cyl, fig18}) {
    ASSERT_EQ(skipstone("trace " + shell_quote(c.string()) + " --out " + shell_quote(ev.string()) + " --overwrite").rc, 0);
    const CliResult rc = skipstone("trace " + shell_quote(c.string()) + " --out " + shell_quote(sm.string()) +
                                   " --sample 0.25 --overwrite");
    ASSERT_EQ(rc.rc, 0) << describe(rc);
    const auto ev_rows = csv_rows(read_text(ev)), sm_rows = csv_rows(read_text(sm));
    ASSERT_GE(sm_rows.size(), 3u) << c;
    for (std::size_t k = 0; k + 1 < sm_rows.size(); ++k) EXPECT_EQ(std::stod(sm_rows[k][0]), 0.25 * k) << c;
    EXPECT_EQ(sm_rows.front(), ev_rows.front()) << c;
    EXPECT_EQ(sm_rows.back(), ev_rows.back()) << c;
  }
}

// ---------------------------------------------------------------- 4. rejected configs

struct BadConfig {
  std::string description;
  std::string json_text;
  std::vector<std::string> keys;  // the message must name one of these key paths
};

// Lets GoogleTest name a failing row by its description instead of dumping its bytes.
void PrintTo(const BadConfig& c, std::ostream* os) { *os << c.description; }

// A disc config with every section present, so that each row isolates one defect.
std::string disc_config(const std::string& parameters, const std::string& axes, const std::string& stop,
                        const std::string& extra = "") {
  std::string s = R"({"system": "disc", "parameters": )" + parameters +
                  R"(, "initial": {"start": "boundary"}, "scan": {"type": "grid", "axes": )" + axes +
                  R"(}, "options": {})";
  if (!stop.empty()) s += R"(, "stop": )" + stop;
  if (!extra.empty()) s += ", " + extra;
  return s + "}";
}

const std::string kGamma = R"({"gamma": 0.8})";
const std::string kAngle = R"([{"param": "angle", "min": -1, "max": 1, "n": 3}])";
const std::string kEvents = R"({"max_events": 10})";

std::vector<BadConfig> bad_configs() {
  return {
      {"unknown top-level key", disc_config(kGamma, kAngle, kEvents, R"("colour": 1)"), {"colour"}},
      {"unknown parameter key", disc_config(R"({"gamma": 0.8, "Radius": 1})", kAngle, kEvents), {"parameters.Radius"}},
      {"wrong type", disc_config(R"({"gamma": 0.8, "R": "1"})", kAngle, kEvents), {"parameters.R"}},
      {"negative size", disc_config(R"({"gamma": 0.8, "R": -1})", kAngle, kEvents), {"parameters.R"}},
      {"negative gamma", disc_config(R"({"gamma": -0.1})", kAngle, kEvents), {"parameters.gamma"}},
      {"eta not below 1 for roll4",
       R"({"system": "roll4:disc-transversal", "parameters": {"eta": 1.0, "r": 1.0},
           "initial": {"start": "rim_entry"}, "options": {},
           "scan": {"type": "grid", "axes": [{"param": "v2", "min": -0.5, "max": 0.5, "n": 3}]},
           "stop": {"t_max": 10}})",
       {"parameters.eta"}},
      {"moment given twice", disc_config(R"({"gamma": 0.8, "eta": 0.5})", kAngle, kEvents), {"parameters.eta"}},
      {"missing moment", disc_config(R"({"R": 1})", kAngle, kEvents), {"parameters.gamma"}},
      {"unknown system",
       R"({"system": "dsic", "parameters": {"gamma": 0.8}, "initial": {"start": "boundary"},
           "scan": {"type": "grid"}, "stop": {"max_events": 10}, "options": {}})",
       {"system"}},
      {"empty grid", disc_config(kGamma, R"([{"param": "angle", "min": -1, "max": 1, "n": 0}])", kEvents),
       {"scan.axes[0].n"}},
      {"axis max below min",
       disc_config(kGamma,
                   R"([{"param": "angle", "min": -1, "max": 1, "n": 3}, {"param": "spin", "min": 1, "max": 0, "n": 3}])",
                   kEvents),
       {"scan.axes[1].max"}},
      {"unknown scan parameter", disc_config(kGamma, R"([{"param": "nope", "min": 0, "max": 1, "n": 3}])", kEvents),
       {"scan.axes[0].param"}},
      {"parameter fixed and scanned",
       disc_config(R"({"gamma": 0.8, "R": 1})", R"([{"param": "R", "min": 0.5, "max": 1, "n": 3}])", kEvents),
       {"parameters.R", "scan.axes[0].param"}},
      {"axis end out of range", disc_config(kGamma, R"([{"param": "angle", "min": 0, "max": 2.0, "n": 3}])", kEvents),
       {"scan.axes[0].max"}},
      {"ball too large for sinai",
       R"({"system": "sinai", "parameters": {"gamma": 0.8, "radius": 0.25, "r": 0.3},
           "initial": {"start": "boundary"}, "options": {},
           "scan": {"type": "grid", "axes": [{"param": "angle", "min": -1, "max": 1, "n": 3}]},
           "stop": {"t_max": 10}})",
       {"parameters.r"}},
      {"gravity on sinai",
       R"({"system": "sinai", "parameters": {"gamma": 0.8, "g": 1},
           "initial": {"start": "boundary"}, "options": {},
           "scan": {"type": "grid", "axes": [{"param": "angle", "min": -1, "max": 1, "n": 3}]},
           "stop": {"t_max": 10}})",
       {"parameters.g"}},
      {"missing stop rule", disc_config(kGamma, kAngle, ""), {"stop"}},
      {"t_max not positive", disc_config(kGamma, kAngle, R"({"t_max": 0})"), {"stop.t_max"}},
      // nlohmann::json refuses 1e999 while parsing (number overflow): the key being read is named
      {"number overflow", disc_config(R"({"gamma": 0.8, "R": 1e999})", kAngle, kEvents), {"parameters.R"}},
      {"invalid JSON syntax", disc_config(R"({"gamma": 0.8,})", kAngle, kEvents), {"parameters"}},
      {"polygon not convex",
       R"({"system": "polygon", "parameters": {"gamma": 0.8, "vertices": [[0, 0], [1, 0], [0.2, 0.2], [0, 1]]},
           "initial": {"start": "boundary"}, "options": {},
           "scan": {"type": "grid", "axes": [{"param": "angle", "min": -1, "max": 1, "n": 3}]},
           "stop": {"max_events": 10}})",
       {"parameters.vertices[2]"}},
      {"unknown observable", disc_config(kGamma, kAngle, kEvents, R"("observables": ["colour", "status"])"),
       {"observables[0]"}},
      {"histogram of an observable not requested",
       disc_config(kGamma, kAngle, kEvents, R"("observables": ["status", "rho_even"], "histograms": {"t_end": {"min": 0, "max": 1, "bins": 4}})"),
       {"histograms.t_end"}},
      {"histogram max not above min",
       disc_config(kGamma, kAngle, kEvents, R"("histograms": {"rho_even": {"min": 1, "max": 1, "bins": 4}})"),
       {"histograms.rho_even.max"}},
      {"histogram without bins", disc_config(kGamma, kAngle, kEvents, R"("histograms": {"rho_even": {"min": 0, "max": 1}})"),
       {"histograms.rho_even.bins", "histograms.rho_even"}},
      {"histogram with zero bins",
       disc_config(kGamma, kAngle, kEvents, R"("histograms": {"rho_even": {"min": 0, "max": 1, "bins": 0}})"),
       {"histograms.rho_even.bins"}},
      {"histogram with an unknown key",
       disc_config(kGamma, kAngle, kEvents, R"("histograms": {"rho_even": {"min": 0, "max": 1, "bins": 3, "log": true}})"),
       {"histograms.rho_even.log", "histograms.rho_even"}},
      {"unknown precision",
       R"({"system": "disc", "parameters": {"gamma": 0.8}, "initial": {"start": "boundary"},
           "scan": {"type": "grid"}, "stop": {"max_events": 10}, "options": {"precision": "half"}})",
       {"options.precision"}},
      {"float on a model without a float kernel",
       R"({"system": "stadium", "parameters": {"gamma": 0.8}, "initial": {"start": "boundary"},
           "scan": {"type": "grid"}, "stop": {"max_events": 10}, "options": {"precision": "float"}})",
       {"options.precision"}},
      {"float on the cylinder over a table without a float kernel",
       R"({"system": "cylinder:ellipse", "parameters": {"gamma": 0.8}, "initial": {"start": "boundary"},
           "scan": {"type": "grid"}, "stop": {"max_events": 10}, "options": {"precision": "float"}})",
       {"options.precision"}},
      {"float below its resolvable tolerance",
       R"({"system": "roll4:disc-transversal", "parameters": {"eta": 0.5, "r": 1.0},
           "initial": {"start": "rim_entry"}, "options": {"precision": "float", "rtol": 1e-9},
           "scan": {"type": "grid", "axes": [{"param": "v2", "min": -0.5, "max": 0.5, "n": 3}]},
           "stop": {"t_max": 10}})",
       {"options.rtol"}},
  };
}

class BadConfigTest : public CliTest, public ::testing::WithParamInterface<BadConfig> {};

TEST_P(BadConfigTest, ExitsTwoNamingTheKeyAndWritesNothing) {
  const BadConfig& c = GetParam();
  const fs::path cfg = write_config("bad.json", c.json_text);
  const fs::path out = dir_ / "out";
  const CliResult r = run(cfg, out, "--backend cpu");
  EXPECT_EQ(r.rc, 2) << c.description << "\n" << describe(r);
  // README format: "config error: KEY: message"; the key path sits between ": " and ":".
  bool named = false;
  for (const auto& k : c.keys) named = named || r.err.find(": " + k + ":") != std::string::npos;
  std::string wanted;
  for (const auto& k : c.keys) wanted += (wanted.empty() ? "" : " or ") + k;
  EXPECT_TRUE(named) << "stderr does not name " << wanted << "\n" << describe(r);
  EXPECT_FALSE(fs::exists(out)) << "a rejected config created " << out;
}

INSTANTIATE_TEST_SUITE_P(Cli, BadConfigTest, ::testing::ValuesIn(bad_configs()),
                         [](const ::testing::TestParamInfo<BadConfig>& info) {
                           std::string n;
                           for (char ch : info.param.description)
                             n += std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_';
                           return n;
                         });

// ---------------------------------------------------------------- 5. usage

TEST_F(CliTest, UsageErrorsExitTwoWithAMessage) {
  const fs::path cfg = write_config("grid.json", kGridConfig);
  const std::string c = shell_quote(cfg.string());
  const fs::path out = dir_ / "out";
  const std::string o = shell_quote(out.string());
  struct Case {
    std::string args, needle;
  };
  const std::vector<Case> cases = {
      {"", "usage"},
      {"frobnicate", "frobnicate"},
      {"run " + c, "--out"},
      {"run --out " + o, "CONFIG.json"},
      {"run " + c + " --out " + o + " --frobnicate", "--frobnicate"},
      {"run " + c + " --out " + o + " --backend bogus", "bogus"},
      {"run " + c + " --out " + o + " --threads 0", "--threads"},
      {"run " + c + " --out " + o + " --chunk many", "--chunk"},
      {"run " + c + " --out", "--out"},
      {"trace " + c, "--out"},
      {"trace " + c + " --out " + shell_quote((dir_ / "t.csv").string()) + " --index 153", "--index"},
  };
  for (const auto& k : cases) {
    SCOPED_TRACE("skipstone " + k.args);
    const CliResult r = skipstone(k.args);
    EXPECT_EQ(r.rc, 2) << describe(r);
    EXPECT_NE((r.out + r.err).find(k.needle), std::string::npos) << "message lacks '" << k.needle << "'\n"
                                                                   << describe(r);
    EXPECT_FALSE(fs::exists(out));
    EXPECT_FALSE(fs::exists(dir_ / "t.csv"));
  }
}

TEST_F(CliTest, CudaBackendWithoutGpuIsAnError) {
  const fs::path out = dir_ / "out";
  const CliResult r = run(write_config("grid.json", kGridConfig), out, "--backend cuda");
  if (r.rc == 0) GTEST_SKIP() << "a usable CUDA device is present; nothing to check here";
  EXPECT_EQ(r.rc, 2) << describe(r);
  EXPECT_NE(r.err.find("CUDA"), std::string::npos) << describe(r);
  EXPECT_FALSE(fs::exists(out));
}

TEST_F(CliTest, HelpExitsZeroWithUsage) {
  for (const char* args : {"--help", "help", "help run", "run --help", "help trace", "trace --help"}) {
    SCOPED_TRACE(std::string("skipstone ") + args);
    const CliResult r = skipstone(args);
    EXPECT_EQ(r.rc, 0) << describe(r);
    EXPECT_NE(r.out.find("usage"), std::string::npos) << describe(r);
  }
  const CliResult a = skipstone("help run"), b = skipstone("run --help");
  EXPECT_EQ(a.out, b.out);
  EXPECT_NE(a.out.find("--out DIR"), std::string::npos);
  EXPECT_NE(a.out.find("--backend"), std::string::npos);
  EXPECT_NE(skipstone("trace --help").out.find("--index"), std::string::npos);
}

// One version string (host/version.hpp): `skipstone --version`, meta.json of a run, and
// meta.json and range.json of a shard all carry the project version, never the fallback.
TEST_F(CliTest, VersionIsTheSameEverywhere) {
  const CliResult v = skipstone("--version");
  ASSERT_EQ(v.rc, 0) << describe(v);
  ASSERT_EQ(v.out.rfind("skipstone ", 0), 0u) << v.out;
  const std::string version = v.out.substr(10, v.out.find('\n') - 10);
  EXPECT_NE(version, "unknown");
  EXPECT_FALSE(version.empty());
  const fs::path cfg = write_config("grid.json", kGridConfig);
  ASSERT_EQ(run(cfg, dir_ / "full", "--backend cpu").rc, 0);
  EXPECT_EQ(read_json(dir_ / "full" / "meta.json").at("skipstone_version"), version);
  ASSERT_EQ(run(cfg, dir_ / "shard", "--backend cpu --shard 0/2").rc, 0);
  EXPECT_EQ(read_json(dir_ / "shard" / "meta.json").at("skipstone_version"), version);
  EXPECT_EQ(read_json(dir_ / "shard" / "range.json").at("skipstone_version"), version);
}

// ---------------------------------------------------------------- 6. unwritable output

TEST_F(CliTest, OutputBelowARegularFileFailsCleanly) {
  const fs::path cfg = write_config("grid.json", kGridConfig);
  const fs::path blocker = dir_ / "file.txt";
  write_text(blocker, "not a folder\n");
  const auto before = file_names(dir_);
  const fs::path out = blocker / "sub";
  const CliResult r = run(cfg, out, "--backend cpu");
  EXPECT_TRUE(r.rc == 1 || r.rc == 2) << describe(r);
  EXPECT_NE(r.err.find(out.string()), std::string::npos) << "message does not name " << out << "\n" << describe(r);
  EXPECT_TRUE(fs::is_regular_file(blocker));
  EXPECT_EQ(read_text(blocker), "not a folder\n");
  EXPECT_EQ(file_names(dir_), before) << "the failed run created files";
}

}  // namespace
