// test_bench_cli.cpp — end-to-end tests of `skipstone bench`: the quick workloads and the quick
// scaling study write valid JSON with the documented keys and positive rates (the rolling tables
// also over the dedicated disc kernels' rates, timed side by side), --precision float adds the float
// run of every workload that has a float kernel with its accuracy cost, and bad options (unknown
// precision or backend, a bad count) are refused by name.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "cli_support.hpp"
#include "config.hpp"

namespace {

using namespace skipstone::testing;

void expect_positive_rate(const json& entry, const std::string& rate, const std::string& where) {
  ASSERT_TRUE(entry.contains(rate)) << where << " has no " << rate << ": " << entry.dump();
  for (const char* k : {"median", "min", "max"}) EXPECT_GT(entry[rate][k].get<double>(), 0.0) << where << " " << rate << " " << k;
  EXPECT_FALSE(entry[rate]["samples"].empty()) << where;
}

TEST_F(CliTest, BenchQuickWritesJsonWithPositiveRates) {
  const fs::path out = dir_ / "bench.json";
  const CliResult r = skipstone("bench --quick --backend cpu --json " + shell_quote(out.string()));
  ASSERT_EQ(r.rc, 0) << describe(r);
  const json j = read_json(out);
  for (const char* k : {"date", "backend", "precision", "reps", "warmup_runs", "loadavg_start", "machine", "benchmarks"})
    EXPECT_TRUE(j.contains(k)) << "missing " << k;
  EXPECT_EQ(j["precision"], "double");
  const json& m = j["machine"];
  EXPECT_FALSE(m["cpu_model"].get<std::string>().empty());
  EXPECT_GE(m["cores"].get<int>(), 1);
  EXPECT_GT(m["cpu_fp64_peak_measured"]["flops_1_thread"].get<double>(), 0.0);
  EXPECT_GT(j["flops_per_impact_disc"].get<double>(), 0.0);
  EXPECT_GT(j["flops_per_step_figure18"].get<double>(), 0.0);

  const json& b = j["benchmarks"];
  expect_positive_rate(b["disc"]["backend"], "impacts", "disc");
  expect_positive_rate(b["disc"]["scalar_loop_1_thread"], "impacts", "disc scalar loop");
  EXPECT_GT(b["disc"]["backend"]["fraction_of_fp64_peak"].get<double>(), 0.0);
  expect_positive_rate(b["cylinder_disc_gravity"]["backend"], "impacts", "cylinder");
  for (const char* rate : {"unmasked_points", "all_points", "steps"})
    expect_positive_rate(b["figure18"]["backend"], rate, "figure18");
  for (const char* rate : {"steps", "trajectories", "rim_passages"})
    expect_positive_rate(b["roll4_disc_gravity"]["backend"], rate, "roll4");
  expect_positive_rate(b["roll4_disc_gravity"]["scalar_loop_1_thread"], "steps", "roll4 scalar loop");
  for (const char* key : {"roll4_table_disc_gravity", "roll4_stadium_gravity", "roll4_ellipse_gravity"}) {
    for (const char* rate : {"steps", "trajectories", "rim_passages"}) expect_positive_rate(b[key]["backend"], rate, key);
    const json& over = b[key]["over_baseline"];
    EXPECT_EQ(over["baseline"], "roll4_disc_gravity") << key;
    for (const char* where : {"all_threads", "1_thread_side_by_side", "1_thread_side_by_side_over_scalar_loop"})
      EXPECT_GT(over[where]["steps"].get<double>(), 0.0) << key << " " << where;
  }
  // roll4:stadium with half_length 0 is the disc: the general model runs the same trajectories as
  // roll4:disc, so that their ratio is one of the cost of a step alone
  EXPECT_EQ(b["roll4_table_disc_gravity"]["events"], b["roll4_disc_gravity"]["events"]);
  EXPECT_EQ(b["roll4_table_disc_gravity"]["status_counts"], b["roll4_disc_gravity"]["status_counts"]);
  // the contact-force observables run off the lanes and leave the trajectories as they are
  EXPECT_EQ(b["roll4_disc_contact"]["events"], b["roll4_disc_gravity"]["events"]);
  EXPECT_EQ(b["roll4_disc_contact"]["over_baseline"]["baseline"], "roll4_disc_gravity");
  for (const char* key : {"roll3_stadium_gravity", "roll3_ellipse_gravity"})
    for (const char* rate : {"steps", "trajectories", "rim_passages"}) expect_positive_rate(b[key]["backend"], rate, key);
  for (const char* rate : {"unmasked_points", "all_points", "steps"})
    expect_positive_rate(b["roll3_stadium_rim_map"]["backend"], rate, "roll3 stadium map");
  for (const char* rate : {"steps", "trajectories"}) expect_positive_rate(b["rubber_sphere"]["backend"], rate, "rubber sphere");
  // the noisy Figure-18 map: the same pixels as the deterministic one, over it
  for (const char* rate : {"unmasked_points", "all_points", "steps"})
    expect_positive_rate(b["figure18_noisy"]["backend"], rate, "noisy Figure-18 map");
  EXPECT_EQ(b["figure18_noisy"]["unmasked"], b["figure18"]["unmasked"]);
  for (const char* key : {"roll3_stadium_gravity", "roll3_ellipse_gravity", "roll3_stadium_rim_map", "figure18_noisy"}) {
    EXPECT_EQ(b[key]["over_baseline"]["baseline"], "figure18") << key;
    EXPECT_GT(b[key]["over_baseline"]["1_thread_side_by_side"]["steps"].get<double>(), 0.0) << key;
  }
  // the rolling tables' lanes over one trajectory at a time, side by side on 1 thread
  for (const char* key : {"roll4_stadium_gravity", "roll4_ellipse_gravity", "roll3_stadium_gravity",
                          "roll3_ellipse_gravity", "roll3_stadium_rim_map"}) {
    expect_positive_rate(b[key]["scalar_loop_1_thread"], "steps", key);
    EXPECT_GT(b[key]["over_baseline"]["1_thread_side_by_side_over_own_scalar_loop"]["steps"].get<double>(), 0.0) << key;
  }
  // the ratios on 1 thread come from runs timed side by side, each reported with its rates
  for (const char* run : {"roll4_disc_gravity", "roll4_disc_gravity scalar_loop", "roll4_stadium_gravity", "figure18",
                          "roll3_stadium_rim_map"})
    expect_positive_rate(j["side_by_side_1_thread"][run], "steps", run);
  EXPECT_GT(b["roll3_stadium_rim_map"]["status_counts"]["exited"].get<std::uint64_t>(), 0u);
  // the tangent dynamics' cost: the Lyapunov run's impacts/s over the plain run of the same scan
  expect_positive_rate(b["cylinder_stadium_lyapunov"]["backend"], "impacts", "cylinder_stadium_lyapunov");
  EXPECT_EQ(b["cylinder_stadium_lyapunov"]["over_baseline"]["baseline"], "cylinder_stadium");
  for (const char* where : {"all_threads", "1_thread_side_by_side"})
    EXPECT_GT(b["cylinder_stadium_lyapunov"]["over_baseline"][where]["impacts"].get<double>(), 0.0) << where;
  EXPECT_EQ(b["cylinder_stadium_lyapunov"]["events"], b["cylinder_stadium"]["events"]);
  // the same for a rolling table: the Lyapunov run off the lanes over the plain run on them
  EXPECT_EQ(b["roll4_stadium_lyapunov"]["over_baseline"]["baseline"], "roll4_stadium_gravity");
  for (const char* where : {"all_threads", "1_thread_side_by_side"})
    EXPECT_GT(b["roll4_stadium_lyapunov"]["over_baseline"][where]["rim_passages"].get<double>(), 0.0) << where;
  EXPECT_EQ(b["roll4_stadium_lyapunov"]["events"], b["roll4_stadium_gravity"]["events"]);
  EXPECT_EQ(b["roll4_stadium_lyapunov"]["steps"], b["roll4_stadium_gravity"]["steps"]);
  // the rubber ball of the same starts, spins 0: every start crosses edges
  EXPECT_EQ(b["roll4_stadium_rubber"]["over_baseline"]["baseline"], "roll4_stadium_gravity");
  EXPECT_GT(b["roll4_stadium_rubber"]["over_baseline"]["1_thread_side_by_side"]["rim_passages"].get<double>(), 0.0);
  EXPECT_GT(b["roll4_stadium_rubber"]["events"].get<std::uint64_t>(), b["roll4_stadium_rubber"]["unmasked"].get<std::uint64_t>());
  // the same starts with a hole in the edge: some leave through it, on the SIMD lanes still
  EXPECT_EQ(b["roll4_stadium_escape"]["over_baseline"]["baseline"], "roll4_stadium_gravity");
  EXPECT_GT(b["roll4_stadium_escape"]["over_baseline"]["1_thread_side_by_side"]["rim_passages"].get<double>(), 0.0);
  EXPECT_GT(b["roll4_stadium_escape"]["status_counts"]["through_hole"].get<std::uint64_t>(), 0u);
  // and for the closed-form rolling systems: the tangent map's cost over the same scan
  for (const char* plain : {"roll3_strip", "roll4_planes", "inside_cylinder"}) {
    const std::string lyap = std::string(plain) + "_lyapunov";
    EXPECT_EQ(b[lyap]["over_baseline"]["baseline"], plain);
    EXPECT_GT(b[lyap]["over_baseline"]["all_threads"]["passages"].get<double>(), 0.0) << lyap;
    EXPECT_EQ(b[lyap]["events"], b[plain]["events"]) << lyap;
  }
  EXPECT_GT(b["figure18"]["steps"].get<std::uint64_t>(), b["figure18"]["unmasked"].get<std::uint64_t>());
  // the Figure-18 flop rate counts GBS steps (not exits or grid points)
  const double f18_flops = b["figure18"]["backend"]["fp64_flops"].get<double>();
  const double f18_steps = b["figure18"]["backend"]["steps"]["median"].get<double>();
  EXPECT_NEAR(f18_flops, f18_steps * j["flops_per_step_figure18"].get<double>(), 1e-9 * f18_flops);
  EXPECT_GT(b["disc"]["events"].get<std::uint64_t>(), 0u);
  EXPECT_NE(r.out.find("impacts/s"), std::string::npos) << r.out;
}

// The quick map is 32 x 32; float at rtol 1e-5 against double at 1e-11. The bounds
// are loose versions of the unit test's (test_rolling_transversal.cpp) for this smaller map.
constexpr double kQuickFloatSideDiffers = 0.05;
constexpr double kQuickFloatMedianExitTime = 1e-3;
// The quick no-slip runs are 64 trajectories x 2000 impacts: the float caustic radii stay within
// ~1e-5 of the double ones (test_noslip_physics.cpp measures the float kernel against theory).
constexpr double kQuickFloatMedianCausticRadius = 1e-4;

// A workload's float run as `bench --precision float` reports it, and its accuracy against double.
const json& expect_float_run(const json& b, const char* key, const std::vector<const char*>& observables,
                             const char* rate) {
  const json& f = b[key]["float"];
  EXPECT_EQ(f["precision"], "float") << key;
  expect_positive_rate(f["backend"], rate, key);
  EXPECT_FALSE(f["backend"].contains("fraction_of_fp64_peak")) << key << ": float operations are not FP64 ones";
  EXPECT_GT(f["throughput_float_over_double"].get<double>(), 0.0) << key;
  const json& a = f["accuracy_vs_double"];
  EXPECT_GE(a["trajectories_compared"].get<std::uint64_t>(), std::min<std::uint64_t>(50, b[key]["trajectories"].get<std::uint64_t>()))
      << key;
  for (const char* o : observables) {
    const json& d = a["observables"][o];
    EXPECT_GT(d["compared"].get<std::uint64_t>(), 0u) << key << " " << o;
    EXPECT_GE(d["abs_diff_max"].get<double>(), d["abs_diff_median"].get<double>()) << key << " " << o;
  }
  return a;
}

TEST_F(CliTest, BenchPrecisionFloatReportsTheAccuracyCost) {
  const fs::path out = dir_ / "bench_float.json";
  const CliResult r = skipstone("bench --quick --reps 1 --backend cpu --precision float --json " + shell_quote(out.string()));
  ASSERT_EQ(r.rc, 0) << describe(r);
  const json j = read_json(out);
  EXPECT_EQ(j["precision"], "double and float");
  const json& b = j["benchmarks"];

  const json& f18 = expect_float_run(b, "figure18", {"exit_time"}, "unmasked_points");
  EXPECT_GT(f18["trajectories_compared"].get<std::uint64_t>(), 500u);
  EXPECT_LE(f18["outcome_differs_fraction"].get<double>(), kQuickFloatSideDiffers);
  EXPECT_LT(f18["observables"]["exit_time"]["abs_diff_median"].get<double>(), kQuickFloatMedianExitTime);

  for (const char* key : {"disc", "cylinder_disc_gravity"}) {
    const bool cylinder = std::string(key) == "cylinder_disc_gravity";
    std::vector<const char*> obs = {"rho_even", "rho_odd"};
    if (cylinder) obs.push_back("z_drift");
    const json& a = expect_float_run(b, key, obs, "impacts");
    EXPECT_EQ(a["outcome_differs"].get<std::uint64_t>(), 0u) << key << ": every run ends at its event budget";
    EXPECT_LT(a["observables"]["rho_even"]["abs_diff_median"].get<double>(), kQuickFloatMedianCausticRadius) << key;
    EXPECT_GT(a["energy_error_max_float"].get<double>(), 0.0) << key;
    EXPECT_LT(a["energy_error_max_float"].get<double>(), skipstone::kFloatEnergyTolerance) << key;
  }

  const json& r4 = expect_float_run(b, "roll4_disc_gravity", {"rho_even", "rho_odd", "z_drift"}, "steps");
  EXPECT_EQ(r4["trajectories_compared"].get<std::uint64_t>(), b["roll4_disc_gravity"]["trajectories"].get<std::uint64_t>());
  EXPECT_EQ(r4["outcome_differs"].get<std::uint64_t>(), 0u) << "every run ends at t_max";
  EXPECT_LT(r4["observables"]["rho_even"]["abs_diff_median"].get<double>(), kQuickFloatMedianCausticRadius);
  EXPECT_LT(r4["energy_error_max_float"].get<double>(), skipstone::kFloatEnergyTolerance);

  // the rolling tables under gravity in float: the same outcome, float-sized energy errors
  for (const char* key : {"roll4_stadium_gravity", "roll4_ellipse_gravity", "roll3_stadium_gravity",
                          "roll3_ellipse_gravity"}) {
    const json& a = expect_float_run(b, key, {"z_min", "z_drift"}, "steps");
    EXPECT_EQ(a["trajectories_compared"].get<std::uint64_t>(), b[key]["trajectories"].get<std::uint64_t>()) << key;
    EXPECT_GT(a["energy_error_max_float"].get<double>(), 0.0) << key;
    EXPECT_LT(a["energy_error_max_float"].get<double>(), skipstone::kFloatEnergyTolerance) << key;
  }
  // the workloads without a float run: their double runs alone, said so
  for (const char* key : {"roll4_table_disc_gravity", "roll3_stadium_rim_map"}) {
    EXPECT_TRUE(b[key]["float"].is_string()) << key << ": " << b[key]["float"].dump();
    expect_positive_rate(b[key]["backend"], "steps", key);
  }
}

TEST_F(CliTest, BenchScalingQuickCoversSizesAndThreads) {
  const fs::path out = dir_ / "scaling.json";
  const CliResult r =
      skipstone("bench --scaling --quick --reps 1 --backend cpu --json " + shell_quote(out.string()));
  ASSERT_EQ(r.rc, 0) << describe(r);
  const json s = read_json(out)["scaling"];
  ASSERT_EQ(s["trajectories"].size(), 2u) << s.dump();  // 1e3 and 1e4
  EXPECT_EQ(s["trajectories"][0]["trajectories"], 1000);
  for (const json& p : s["trajectories"]) expect_positive_rate(p, "impacts", "size scan");
  ASSERT_GE(s["threads"].size(), 1u);
  EXPECT_EQ(s["threads"][0]["threads"], 1);
  for (const json& p : s["threads"]) expect_positive_rate(p, "impacts", "thread scan");
}

TEST_F(CliTest, BenchRefusesBadOptionsByName) {
  const std::pair<const char*, const char*> cases[] = {{"--precision half", "--precision half"},
                                                       {"--backend gpu", "--backend gpu"},
                                                       {"--reps 0", "--reps 0"},
                                                       {"--max-trajectories 100", "--max-trajectories"}};
  for (const auto& [args, named] : cases) {
    const CliResult bad = skipstone(std::string("bench ") + args);
    EXPECT_EQ(bad.rc, 2) << describe(bad);
    EXPECT_NE(bad.err.find(named), std::string::npos) << bad.err;
  }
  const CliResult r = skipstone("bench --help");
  EXPECT_EQ(r.rc, 0) << describe(r);
  EXPECT_NE(r.out.find("--scaling"), std::string::npos) << r.out;
}

}  // namespace
