// `skipstone bench`: the standard benchmark of a machine on skipstone's own fixed workloads
// (no-slip disc, no-slip cylinder:disc with gravity, the Figure-18 map, roll4:disc with
// gravity, and the general rolling tables: roll4:stadium and roll4:ellipse with gravity, the
// disc through the general model, roll3:stadium with in-plane gravity and its rim_entry exit
// map), each with a warm-up, repetitions, median and spread, on the chosen backend; with the
// machine described, a measured (CPU) or documented (GPU) FP64 peak and the fraction of it
// reached by the disc. The rolling tables' rates are also given over those of the dedicated disc
// kernel of the same block (roll4:disc, Figure 18) measured in the same run, and timed side by
// side with it on one thread (bench_side_by_side.hpp). --scaling measures
// throughput against ensemble size and threads instead. --precision float also runs every
// workload that has a float kernel in float and reports the accuracy cost against the double
// run of the same trajectories. bench_json gives the Python module the same JSON document.
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>

#include <fcntl.h>
#include <unistd.h>

#include "atomic_file.hpp"
#include "backend.hpp"
#include "backends.hpp"
#include "bench_accuracy.hpp"
#include "bench_report.hpp"
#include "bench_scaling.hpp"
#include "bench_side_by_side.hpp"
#include "bench_workloads.hpp"
#include "cli_args.hpp"
#include "commands.hpp"
#include "config.hpp"
#include "fma_peak.hpp"
#include "machine_info.hpp"
#include "version.hpp"

namespace skipstone {

const char* const kBenchHelp =
    "usage: skipstone bench [--backend auto|cpu|cuda] [--precision double|float]\n"
    "                       [--json FILE [--overwrite]] [--reps N] [--quick]\n"
    "                       [--scaling [--max-trajectories N]]\n"
    "\n"
    "Times fixed workloads, each with 1 warm-up run and N timed runs (default 5; median and\n"
    "min/max): no-slip disc (impacts/s), no-slip cylinder:disc with gravity (impacts/s),\n"
    "no-slip cylinder:stadium with gravity without and with the largest Lyapunov exponent (the\n"
    "tangent dynamics' cost: its rates over the plain run's, side by side too), the\n"
    "Figure-18 map of roll4:disc-transversal (trajectories/s, integrator steps/s; also with\n"
    "noisy constraints, a rough rim at noise_dt 1e-3, over the plain map),\n"
    "roll4:disc with gravity (steps/s, trajectories/s; also with the contact-force\n"
    "observables and with a rough rim, over the plain run) and, on the general rolling tables,\n"
    "roll4:stadium and roll4:ellipse in the same setting (roll4:stadium also with the largest\n"
    "Lyapunov exponent and with rough edges, over its plain run, and with a slipping contact, the\n"
    "faces stepped too, over the rough run), roll4:stadium with half_length 0 (the\n"
    "disc through the general model), roll3:stadium with in-plane gravity and its rim_entry exit\n"
    "map, driven:disk (trajectories/s, steps/s: the rolling robot's disk over speed and drive\n"
    "amplitude), driven:ball on the same grid (over driven:disk) and with an asymmetric, unbalanced\n"
    "ball (over driven:ball), the closed-form rolling systems roll3:strip, roll4:planes and\n"
    "roll3:inside-cylinder (each also with the largest Lyapunov exponent, and with a rough contact,\n"
    "the stochastic scheme: its passages/s over the closed form's). Each table's rates are also given over the dedicated kernel's (roll4:disc for roll4,\n"
    "the Figure-18 map for roll3): of the runs above and, on the CPU, of a second timing on 1\n"
    "thread with all of them side by side (one sample of each per round, samples of at least\n"
    "0.1 s), also over roll4:disc's scalar loop, and, side by side too, over their own scalar\n"
    "loop (the CPU backend's SIMD lanes over one trajectory at a time). On the CPU backend each\n"
    "runs on all threads and on 1, and the disc, roll4:disc and the rolling tables also as a\n"
    "scalar single-thread loop (one trajectory at a time); the flop rates of the disc and of the double Figure-18 map (hand counts per\n"
    "impact and per GBS step) are compared with a measured FMA peak (CPU) or the documented FP64\n"
    "peak (known GPUs). Workloads are larger on a GPU; --quick makes them tiny (a smoke test, 2\n"
    "runs unless --reps).\n"
    "\n"
    "--scaling: instead, disc throughput for 1e3, 1e4, ... trajectories up to\n"
    "--max-trajectories (default 1e8, about 2 minutes on 2 CPU cores; 1e4 with --quick) and, on\n"
    "the CPU, for 1, 2, ... threads; a sample repeats a short scan until it lasts 0.25 s, and\n"
    "the points are timed side by side, one sample of each per round.\n"
    "--precision float: every workload runs in double as above and, where it has a float run\n"
    "(disc, cylinder_disc_gravity, figure18, roll4_disc_gravity, roll4_stadium_gravity,\n"
    "roll4_ellipse_gravity, roll3_stadium_gravity, roll3_ellipse_gravity), in float, timed the same\n"
    "way (the rolling systems at rtol = atol = 1e-5: a float GBS cannot reach the double\n"
    "settings). Each reports its accuracy cost against the double run of the same trajectories:\n"
    "the fraction whose status (or exit side) differs, the float run's largest energy error,\n"
    "and max and median |float - double| of exit_time (Figure 18), rho_even and rho_odd (disc,\n"
    "cylinder:disc, roll4:disc; these two also z_drift), z_min and z_drift (the rolling tables).\n"
    "--reps N: 1 to 1000.\n"
    "--json FILE: everything measured, with the machine, backend, load averages and configs;\n"
    "- for standard output (the report then goes to standard error). An existing FILE is\n"
    "refused, before anything runs, unless --overwrite.\n";

namespace {

using nlohmann::json;
using namespace bench;

struct BenchOptions {
  std::string backend = "auto", json_path;
  int reps = 5;
  bool quick = false, scaling = false, with_float = false;
  std::uint64_t max_trajectories = 0;  // 0: by backend
};

constexpr std::uint64_t kMaxReps = 1000;
constexpr std::uint64_t kMaxScalingTrajectories = 1000000000000000;
// A side-by-side sample repeats a run until it lasts this long (not with --quick).
constexpr double kSideBySideSample = 0.1;

BenchOptions parse_bench_args(const ParsedArgs& a) {
  if (!a.positional.empty()) throw UsageError("unexpected argument " + a.positional[0]);
  BenchOptions o;
  o.quick = a.flags.count("--quick") > 0;
  o.scaling = a.flags.count("--scaling") > 0;
  if (o.quick) o.reps = 2;
  if (a.values.count("--backend")) o.backend = a.values.at("--backend");
  if (o.backend != "auto" && o.backend != "cpu" && o.backend != "cuda")
    throw UsageError("--backend " + o.backend + ": allowed values are auto, cpu, cuda");
  if (a.values.count("--json")) {
    o.json_path = path_option(a, "--json", "");
    check_output_file("--json", o.json_path, a.flags.count("--overwrite") > 0);
  } else if (a.flags.count("--overwrite")) {
    throw UsageError("--overwrite applies to --json FILE only");
  }
  o.reps = static_cast<int>(integer_option(a, "--reps", 1, kMaxReps, static_cast<std::uint64_t>(o.reps)));
  if (a.values.count("--max-trajectories")) {
    if (!o.scaling) throw UsageError("--max-trajectories applies to --scaling only");
    o.max_trajectories = integer_option(a, "--max-trajectories", 1, kMaxScalingTrajectories, 0);
  }
  if (a.values.count("--precision")) {
    const std::string p = a.values.at("--precision");
    if (p != "double" && p != "float") throw UsageError("--precision " + p + ": allowed values are double, float");
    o.with_float = p == "float";
    if (o.with_float && o.scaling) throw UsageError("--precision float applies to the workloads, not to --scaling");
  }
  return o;
}

struct Workload {
  std::string key, title;
  json config;
  std::vector<RateDef> rates;
  FlopCount flops;  // double kernel
  json float_config;        // the same workload for the float kernel; null: it has none
  std::vector<ComparedObservable> accuracy;  // compared between the float and double runs
  bool scalar_loop = false;  // also timed one trajectory at a time (CPU, 1 thread)
  std::string baseline;      // the workload (run earlier) whose rates this one's are given over
};

// A workload config run by the float kernel (its defaults: kFloatEnergyTolerance, ...).
json float_kernel_config(json config) {
  config["options"]["precision"] = "float";
  return config;
}

std::vector<Workload> workloads(const WorkloadSizes& z) {
  const RateDef impacts{"impacts", "impacts/s", &EnsembleTotals::events};
  const std::vector<ComparedObservable> caustics = {{"rho_even", &TrajectoryResult::rho_even},
                                                    {"rho_odd", &TrajectoryResult::rho_odd}};
  const std::vector<RateDef> roll_rates = {{"steps", "steps/s", &EnsembleTotals::steps},
                                           {"trajectories", "trajectories/s", &EnsembleTotals::trajectories},
                                           {"rim_passages", "passages/s", &EnsembleTotals::events}};
  const std::vector<RateDef> map_rates = {{"unmasked_points", "trajectories/s", &EnsembleTotals::unmasked},
                                          {"all_points", "trajectories/s", &EnsembleTotals::trajectories},
                                          {"steps", "steps/s", &EnsembleTotals::steps}};
  const std::vector<ComparedObservable> heights = {{"z_min", &TrajectoryResult::z_min},
                                                   {"z_drift", &TrajectoryResult::z_drift}};
  // a rolling table's workload, with its float run where `with_float`
  const auto roll_table = [&](const char* key, const char* title, const json& config, bool with_float,
                              const char* baseline) {
    return Workload{key, title, config, roll_rates, {}, with_float ? float_kernel_config(config) : json(nullptr),
                    with_float ? heights : std::vector<ComparedObservable>{}, true, baseline};
  };
  const auto roll4_table = [&](const char* key, const char* title, const char* system, const json& table,
                               bool with_float) {
    return roll_table(key, title, roll4_table_gravity_config(system, table, z.roll4_count, z.roll4_t_max), with_float,
                      "roll4_disc_gravity");
  };
  const auto roll3_table = [&](const char* key, const char* title, const char* system, const json& table) {
    return roll_table(key, title, roll3_table_gravity_config(system, table, z.roll4_count, z.roll4_t_max), true,
                      "figure18");
  };
  // a closed-form rolling system and the same scan with the Lyapunov exponent, over it (20 times
  // roll4's horizon: a trajectory is a few hundred closed-form segments per unit of roll4's)
  const std::vector<RateDef> closed_rates = {{"trajectories", "trajectories/s", &EnsembleTotals::trajectories},
                                             {"passages", "passages/s", &EnsembleTotals::events}};
  const auto closed_form = [&](const char* key, const char* system) {
    const double t_max = 20.0 * z.roll4_t_max;
    const std::string lyap = std::string(key) + "_lyapunov", noisy = std::string(key) + "_noisy";
    return std::vector<Workload>{
        {key, std::string(system) + ", random v1 and v2, closed form per segment",
         closed_form_rolling_config(system, z.roll4_count, t_max, false), closed_rates, {}, nullptr, {}, false, ""},
        {lyap, std::string(system) + " as above with the largest Lyapunov exponent (its closed-form tangent map)",
         closed_form_rolling_config(system, z.roll4_count, t_max, true), closed_rates, {}, nullptr, {}, false, key},
        {noisy,
         std::string(system) + " with a rough contact (noise 2, sigma 0.05, tau 0.2, noise_dt 1e-3: the stochastic "
                               "scheme), t_max 1/20 of " + key + "'s: compare passages/s",
         rough_edge_config(closed_form_rolling_config(system, z.roll4_count, z.roll4_t_max, false)), closed_rates, {},
         nullptr, {}, false, key}};
  };
  std::vector<Workload> all = {
      {"disc", "no-slip disc, gamma = sqrt(2/3), boundary start", disc_config(z.disc_count, z.disc_events),
       {impacts}, {kDiscFlopsPerImpact, &EnsembleTotals::events}, float_kernel_config(disc_config(z.disc_count, z.disc_events)),
       caustics, true, ""},
      {"disc_impulse_ratios", "no-slip disc as above, with impulse_ratio_max and impulse_ratio_mean (off the SIMD lanes)",
       disc_impulse_config(z.disc_count, z.disc_events), {impacts}, {}, nullptr, {}, false, "disc"},
      {"disc_holes", "no-slip disc with one hole in the wall (stop.holes), same setting",
       disc_holes_config(z.disc_count, z.disc_events), {impacts}, {}, nullptr, {}, false, "disc"},
      {"cylinder_disc_gravity", "no-slip cylinder:disc, g = 1, impact start",
       cylinder_config(z.cyl_count, z.cyl_events), {impacts}, {}, float_kernel_config(cylinder_config(z.cyl_count, z.cyl_events)),
       {caustics[0], caustics[1], {"z_drift", &TrajectoryResult::z_drift}}, false, ""},
      {"cylinder_stadium", "no-slip cylinder:stadium, g = 0.4, impact start",
       cylinder_stadium_config(z.cyl_count, z.cyl_events, false), {impacts}, {}, nullptr, {}, false, ""},
      {"cylinder_stadium_lyapunov", "the same with the largest Lyapunov exponent (tangent dynamics)",
       cylinder_stadium_config(z.cyl_count, z.cyl_events, true), {impacts}, {}, nullptr, {}, false, "cylinder_stadium"},
      {"figure18", "roll4:disc-transversal Figure-18 map, rtol = atol = 1e-11", figure18_grid_config(z.fig18_n),
       map_rates, {kFigure18FlopsPerStep, &EnsembleTotals::steps},
       float_kernel_config(figure18_grid_config(z.fig18_n, kFloatDefaultTolerance)),
       {{"exit_time", &TrajectoryResult::exit_time}}, false, ""},
      {"figure18_noisy", "the Figure-18 map with a rough rim (noise 2, sigma 0.2, tau 0.5, noise_dt 1e-3)",
       figure18_noisy_config(z.fig18_n), map_rates, {}, nullptr, {}, false, "figure18"},
      {"roll4_disc_gravity", "roll4:disc with gravity (Figure-20 setting)",
       roll4_gravity_config(z.roll4_count, z.roll4_t_max), roll_rates,
       {}, float_kernel_config(roll4_gravity_config(z.roll4_count, z.roll4_t_max)),
       {caustics[0], caustics[1], {"z_drift", &TrajectoryResult::z_drift}}, true, ""},
      {"roll4_disc_noisy", "roll4:disc as above with a rough rim (noise 2, sigma 0.05, tau 0.2, noise_dt 1e-3)",
       rough_edge_config(roll4_gravity_config(z.roll4_count, z.roll4_t_max)), roll_rates, {}, nullptr, {}, false,
       "roll4_disc_gravity"},
      {"roll4_disc_contact", "roll4:disc as above, with the contact-force observables (off the SIMD lanes)",
       roll4_contact_config(z.roll4_count, z.roll4_t_max), roll_rates, {}, nullptr, {}, false, "roll4_disc_gravity"},
      roll4_table("roll4_table_disc_gravity", "roll4:stadium, half_length 0 (the disc, general table model), same setting",
                  "roll4:stadium", {{"half_length", 0.0}, {"R", 1.0}}, false),
      roll4_table("roll4_stadium_gravity", "roll4:stadium, half_length 1, R 1, same setting", "roll4:stadium",
                  {{"half_length", 1.0}, {"R", 1.0}}, true),
      {"roll4_stadium_lyapunov", "roll4_stadium_gravity with the largest Lyapunov exponent (tangent dynamics, one trajectory per iteration)",
       roll4_stadium_lyapunov_config(z.roll4_count, z.roll4_t_max), roll_rates, {}, nullptr, {}, false,
       "roll4_stadium_gravity"},
      {"roll4_stadium_escape", "roll4_stadium_gravity with a hole in the edge (stop.holes [[0.30, 0.35]])",
       roll4_stadium_escape_config(z.roll4_count, z.roll4_t_max), roll_rates, {}, nullptr, {}, false,
       "roll4_stadium_gravity"},
      {"roll4_stadium_noisy", "roll4_stadium_gravity with rough edges (noise 2, sigma 0.05, tau 0.2, noise_dt 1e-3)",
       rough_edge_config(roll4_table_gravity_config("roll4:stadium", {{"half_length", 1.0}, {"R", 1.0}}, z.roll4_count,
                                                    z.roll4_t_max)),
       roll_rates, {}, nullptr, {}, false, "roll4_stadium_gravity"},
      {"roll4_stadium_slipping", "roll4_stadium_gravity with a slipping contact (noise 1, sigma 0.05, tau 0.2, noise_dt "
       "1e-3): the faces stepped too",
       slipping_contact_config(roll4_table_gravity_config("roll4:stadium", {{"half_length", 1.0}, {"R", 1.0}},
                                                          z.roll4_count, z.roll4_t_max)),
       roll_rates, {}, nullptr, {}, false, "roll4_stadium_noisy"},
      {"roll4_stadium_rubber", "roll4_stadium_gravity's starts as a rubber ball (no_twist 1, spins 0)",
       roll4_stadium_rubber_config(z.roll4_count, z.roll4_t_max), roll_rates, {}, nullptr, {}, false,
       "roll4_stadium_gravity"},
      roll4_table("roll4_ellipse_gravity", "roll4:ellipse, a 2, b 1, same setting", "roll4:ellipse",
                  {{"a", 2.0}, {"b", 1.0}}, true),
      roll3_table("roll3_stadium_gravity", "roll3:stadium with in-plane gravity g_effective 1", "roll3:stadium",
                  {{"half_length", 1.0}, {"R", 1.0}}),
      roll3_table("roll3_ellipse_gravity", "roll3:ellipse, a 2, b 1, same setting", "roll3:ellipse",
                  {{"a", 2.0}, {"b", 1.0}}),
      {"roll3_stadium_rim_map", "roll3:stadium rim_entry exit map, 8 wall points x v2 x S12",
       roll3_stadium_rim_map_config(z.roll3_map_n), map_rates, {}, nullptr, {}, true, "figure18"},
      {"rubber_sphere", "rubber:sphere, b in [0.5, 3] x theta, GBS to t_max",
       rubber_sphere_config(z.roll4_count, z.roll4_t_max),
       {{"steps", "steps/s", &EnsembleTotals::steps}, {"trajectories", "trajectories/s", &EnsembleTotals::trajectories}},
       {}, nullptr, {}, false, ""},
      {"driven_disk", "driven:disk, the document's rig over random speed and drive amplitude, t_max 20",
       driven_disk_config(z.roll4_count), map_rates, {}, nullptr, {}, true, ""},
      {"driven_ball", "driven:ball, the same rig and grid (wy for the speed), spin wz 0.5, t_max 20",
       driven_ball_config(z.roll4_count), map_rates, {}, nullptr, {}, true, "driven_disk"},
      {"driven_ball_asymmetric", "driven:ball, the same with an asymmetric, unbalanced ball (d1, d3, cm)",
       driven_ball_asymmetric_config(z.roll4_count), map_rates, {}, nullptr, {}, true, "driven_ball"},
  };
  for (const auto& [key, system] : {std::pair{"roll3_strip", "roll3:strip"}, std::pair{"roll4_planes", "roll4:planes"},
                                    std::pair{"inside_cylinder", "roll3:inside-cylinder"}})
    for (Workload& w : closed_form(key, system)) all.push_back(std::move(w));
  return all;
}

// The ratios of the medians of the rates two measurements both have (below 1: slower), printed.
json rate_ratios(const Workload& w, const json& mine, const json& base, const std::string& base_key,
                 const std::string& what) {
  json r = json::object();
  std::string line;
  for (const RateDef& rate : w.rates) {
    if (!base.contains(rate.name) || std::string(rate.unit) != base[rate.name]["unit"].get<std::string>()) continue;
    const double x = mine[rate.name]["median"].get<double>() / base[rate.name]["median"].get<double>();
    r[rate.name] = x;
    char part[96];
    std::snprintf(part, sizeof part, "%s%s %.3gx", line.empty() ? "" : ", ", rate.name, x);
    line += part;
  }
  std::printf("  %s over %s, %s: %s\n", w.key.c_str(), base_key.c_str(), what.c_str(), line.c_str());
  return r;
}

// A workload's rates over its baseline's: of their runs on the backend (all threads, timed one
// after the other) and, on the CPU, of their side-by-side runs on 1 thread, also over the
// baseline's scalar loop and over the workload's own scalar loop where it has one.
json over_baseline(const Workload& w, const json& benchmarks, const json& side_by_side) {
  json r = {{"baseline", w.baseline}};
  r["all_threads"] =
      rate_ratios(w, benchmarks[w.key]["backend"], benchmarks[w.baseline]["backend"], w.baseline, "all threads");
  if (side_by_side.contains(w.key)) {
    r["1_thread_side_by_side"] =
        rate_ratios(w, side_by_side[w.key], side_by_side[w.baseline], w.baseline, "1 thread side by side");
    const std::string scalar = w.baseline + " scalar_loop";
    if (side_by_side.contains(scalar))
      r["1_thread_side_by_side_over_scalar_loop"] =
          rate_ratios(w, side_by_side[w.key], side_by_side[scalar], scalar, "1 thread side by side");
    const std::string own = w.key + " scalar_loop";
    if (side_by_side.contains(own))
      r["1_thread_side_by_side_over_own_scalar_loop"] =
          rate_ratios(w, side_by_side[w.key], side_by_side[own], own, "1 thread side by side");
  }
  return r;
}

// The runs timed side by side: every workload that has a baseline (with its scalar loop where it
// has one), and each baseline (with its scalar loop where it has one) once, before them.
std::vector<SideBySideRun> side_by_side_runs(const std::vector<Workload>& ws) {
  std::vector<SideBySideRun> runs;
  const auto has = [&](const std::string& key) {
    for (const SideBySideRun& r : runs)
      if (r.key == key) return true;
    return false;
  };
  for (const Workload& w : ws) {
    if (w.baseline.empty()) continue;
    if (!has(w.baseline))
      for (const Workload& b : ws)
        if (b.key == w.baseline) {
          runs.push_back({b.key, b.config, b.rates, false});
          if (b.scalar_loop) runs.push_back({b.key, b.config, b.rates, true});
        }
    runs.push_back({w.key, w.config, w.rates, false});
    if (w.scalar_loop) runs.push_back({w.key, w.config, w.rates, true});
  }
  return runs;
}

// Times a workload in precision p; with a record, its warm-up run's outcomes are kept there.
json run_workload(const Workload& w, Backend b, int reps, const FmaPeak& cpu_peak, double gpu_peak, Precision p,
                  RunRecord* record) {
  const bool in_float = p == Precision::float32;
  const RunConfig rc = parse_config(in_float ? w.float_config : w.config);
  const ScanSpec& spec = rc.spec;
  const bool on_cpu = b == Backend::cpu;
  if (in_float)
    std::printf("%s, FLOAT kernel instead, at rtol %.0e, atol %.0e: %llu trajectories\n", w.title.c_str(), spec.rtol, spec.atol,
                static_cast<unsigned long long>(spec.count));
  else
    std::printf("%s: %llu trajectories\n", w.title.c_str(), static_cast<unsigned long long>(spec.count));
  EnsembleRunner runner(b, spec);
  runner.keep_next_run(record);
  json j = {{"title", w.title},
            {"precision", in_float ? "float" : "double"},
            {"config", rc.resolved},
            {"trajectories", spec.count},
            {"loadavg_before", loadavg()}};
  const auto on_backend = [&] { return runner.run(); };
  const int threads = on_cpu ? cpu::max_threads() : 0;
  const std::string label = on_cpu ? "CPU backend, " + std::to_string(threads) + " threads" : "CUDA backend";
  const FlopCount flops = in_float ? FlopCount{} : w.flops;  // float operations are not FP64 ones
  const Measured all = measure(label, w.rates, reps, threads, flops,
                               on_cpu ? cpu_peak.flops_all_threads : gpu_peak, on_backend);
  j["backend"] = all.json;
  j["events"] = all.totals.events;
  j["steps"] = all.totals.steps;
  j["unmasked"] = all.totals.unmasked;
  j["status_counts"] = status_json(all.totals);
  if (on_cpu && threads > 1) {
    cpu::set_threads(1);
    const Measured one = measure("CPU backend, 1 thread", w.rates, reps, 1, flops,
                                 cpu_peak.flops_1_thread, on_backend);
    cpu::set_threads(threads);
    j["backend_1_thread"] = one.json;
    j["scaling_all_over_1"] = all.first_rate / one.first_rate;
    std::printf("  %-56s %.2fx on %d threads\n", "scaling (median all / median 1)", j["scaling_all_over_1"].get<double>(),
                threads);
  }
  if (on_cpu && w.scalar_loop) {
    const Measured sc = measure("scalar loop (simulate_variant), 1 thread", w.rates, reps, 1, flops,
                                cpu_peak.flops_1_thread, [&] { return runner.scalar_loop(); });
    if (sc.totals.events != all.totals.events)
      throw std::runtime_error(w.key + ": the scalar loop and the backend disagree on the event count");
    j["scalar_loop_1_thread"] = sc.json;
    j["ratio_backend_over_scalar"] = all.first_rate / sc.first_rate;
    std::printf("  %-56s %.2fx\n", "ratio backend / scalar loop", j["ratio_backend_over_scalar"].get<double>());
  }
  j["loadavg_after"] = loadavg();
  std::printf("  status %s; load average before %s, after %s\n", j["status_counts"].dump().c_str(),
              j["loadavg_before"].get<std::string>().c_str(), j["loadavg_after"].get<std::string>().c_str());
  return j;
}

// The float run of a workload: timed like the double one, its throughput over the double run's
// (the same trajectories: the ratio of the median times of a run, whatever the number of steps
// each precision takes), and its accuracy cost pixel by pixel against the double run (both
// warm-up runs' outcomes).
json float_comparison(const Workload& w, Backend b, int reps, const FmaPeak& cpu_peak, double gpu_peak,
                      const json& double_run, const RunRecord& double_outcomes) {
  RunRecord float_outcomes(w.accuracy);
  json f = run_workload(w, b, reps, cpu_peak, gpu_peak, Precision::float32, &float_outcomes);
  f["throughput_float_over_double"] = double_run["backend"]["wall_seconds"]["median"].get<double>() /
                                      f["backend"]["wall_seconds"]["median"].get<double>();
  const RunDifference d = compare_runs(double_outcomes, float_outcomes);
  f["accuracy_vs_double"] = d.json();
  std::printf("  %-56s %.2fx\n", "throughput float / double (median)", f["throughput_float_over_double"].get<double>());
  std::printf("  float vs double over %llu trajectories: outcome (status%s) differs on %llu (%.3g%%); float energy\n"
              "  error max %.2e\n",
              static_cast<unsigned long long>(d.compared), w.key == "figure18" ? ", exit side" : "",
              static_cast<unsigned long long>(d.outcome_differs), d.compared ? 100.0 * d.outcome_differs / d.compared : 0.0,
              d.max_energy_error_b);
  for (std::size_t k = 0; k < d.names.size(); ++k)
    std::printf("  |%s float - double| over %llu trajectories ending alike: max %.3e, median %.3e\n", d.names[k].c_str(),
                static_cast<unsigned long long>(d.observables[k].compared), d.observables[k].max,
                d.observables[k].median);
  return f;
}

json machine_json(const BackendChoice& bc, const FmaPeak& peak) {
  json m = {{"cpu_model", cpu_model()},
            {"cores", cpu_cores()},
            {"omp_max_threads", cpu::max_threads()},
            {"cpu_fp64_peak_measured",
             {{"isa", peak.isa},
              {"lanes", peak.lanes},
              {"threads", peak.threads},
              {"flops_1_thread", peak.flops_1_thread},
              {"flops_all_threads", peak.flops_all_threads},
              {"method", "16 independent FMA chains per thread, best of 3 runs of ~0.1 s (host/fma_peak.cpp)"}}}};
  if (bc.backend == Backend::cuda) m["gpu"] = gpu_json(cuda::device_info());
  return m;
}

// The printed report sent elsewhere while the bench runs: to standard error with --json on
// standard output ("-", /dev/stdout), so that standard output holds the JSON document alone, or
// to /dev/null for a quiet bench (Python). `fd` < 0: left on standard output.
class ReportRedirect {
 public:
  explicit ReportRedirect(int fd) : saved_(-1) {
    if (fd < 0) return;
    std::fflush(stdout);
    std::cout.flush();
    saved_ = ::dup(STDOUT_FILENO);
    if (saved_ < 0 || ::dup2(fd, STDOUT_FILENO) < 0) throw std::runtime_error("cannot redirect the bench report");
  }
  ReportRedirect(const ReportRedirect&) = delete;
  ReportRedirect& operator=(const ReportRedirect&) = delete;
  // Standard output back, for the JSON document.
  void restore() {
    if (saved_ < 0) return;
    std::fflush(stdout);
    std::cout.flush();
    ::dup2(saved_, STDOUT_FILENO);
    ::close(saved_);
    saved_ = -1;
  }
  ~ReportRedirect() { restore(); }

 private:
  int saved_;
};

// The whole bench: its JSON document, its report printed on standard output meanwhile.
json run_bench(const BenchOptions& o, const std::string& command_line) {
  const BackendChoice bc = choose_backend(o.backend, 0);
  const bool gpu = bc.backend == Backend::cuda;
  const FmaPeak peak = measure_fma_peak(cpu::max_threads());
  json doc = {{"skipstone_version", SKIPSTONE_VERSION},
              {"command", command_line},
              {"date", utc_now()},
              {"backend", bc.description},
              {"precision", "double"},
              {"reps", o.reps},
              {"warmup_runs", 1},
              {"quick", o.quick},
              {"loadavg_start", loadavg()},
              {"machine", machine_json(bc, peak)}};
  if (o.with_float) doc["precision"] = "double and float";
  const double gpu_peak = gpu ? doc["machine"]["gpu"].value("fp64_peak_flops", 0.0) : 0.0;
  std::printf("skipstone bench  %s  %s; CPU %s, %d cores; 1 warm-up + %d runs each; load average %s\n",
              doc["date"].get<std::string>().c_str(), bc.description.c_str(), cpu_model().c_str(), cpu_cores(), o.reps,
              doc["loadavg_start"].get<std::string>().c_str());
  std::printf("measured CPU FP64 peak (%s): %.3e flop/s on 1 thread, %.3e on %d threads\n", peak.isa.c_str(),
              peak.flops_1_thread, peak.flops_all_threads, peak.threads);
  if (o.scaling) {
    const std::uint64_t max_n = o.max_trajectories ? o.max_trajectories : o.quick ? 10000 : 100000000;
    doc["scaling"] = run_scaling(bc.backend, o.reps, max_n, o.quick ? 10000 : 100000);
  } else {
    doc["flops_per_impact_disc"] = kDiscFlopsPerImpact;
    doc["flops_per_step_figure18"] = kFigure18FlopsPerStep;
    const std::vector<Workload> ws = workloads(workload_sizes(gpu, o.quick));
    for (const Workload& w : ws) {
      json& j = doc["benchmarks"][w.key];
      RunRecord double_outcomes(w.accuracy);
      const bool with_float = o.with_float && !w.float_config.is_null();
      j = run_workload(w, bc.backend, o.reps, peak, gpu_peak, Precision::float64, with_float ? &double_outcomes : nullptr);
      if (with_float) j["float"] = float_comparison(w, bc.backend, o.reps, peak, gpu_peak, j, double_outcomes);
      if (o.with_float && !with_float) {
        j["float"] = "none: this workload runs in double only";
        std::printf("  no float run for %s: double only\n", w.key.c_str());
      }
    }
    if (!gpu) doc["side_by_side_1_thread"] = time_side_by_side(side_by_side_runs(ws), o.reps, o.quick ? 0.0 : kSideBySideSample);
    for (const Workload& w : ws)
      if (!w.baseline.empty())
        doc["benchmarks"][w.key]["over_baseline"] = over_baseline(w, doc["benchmarks"], doc.value("side_by_side_1_thread", json::object()));
  }
  doc["loadavg_end"] = loadavg();
  return doc;
}

const std::set<std::string> kBenchValueOptions = {"--backend", "--precision", "--json", "--reps", "--max-trajectories"};
const std::set<std::string> kBenchFlags = {"--quick", "--scaling", "--help", "--overwrite"};

}  // namespace

json bench_json(const std::vector<std::string>& args, bool quiet, const std::string& command_line) {
  const BenchOptions o = parse_bench_args(parse_args(args, kBenchValueOptions, kBenchFlags));
  if (!o.json_path.empty()) throw UsageError("--json: the document is returned, not written");
  const int devnull = quiet ? ::open("/dev/null", O_WRONLY | O_CLOEXEC) : -1;
  if (quiet && devnull < 0) throw std::runtime_error("cannot open /dev/null for a quiet bench");
  json doc;
  try {
    ReportRedirect report(devnull);
    doc = run_bench(o, command_line);
  } catch (...) {
    if (devnull >= 0) ::close(devnull);
    throw;
  }
  if (devnull >= 0) ::close(devnull);
  return doc;
}

int bench_command(const std::vector<std::string>& args, const std::string& command_line) {
  const ParsedArgs a = parse_args(args, kBenchValueOptions, kBenchFlags);
  if (a.flags.count("--help")) {
    std::cout << kBenchHelp;
    return 0;
  }
  const BenchOptions o = parse_bench_args(a);
  const bool json_on_stdout = !o.json_path.empty() && io::writes_to_standard_output(o.json_path);
  ReportRedirect report(json_on_stdout ? STDERR_FILENO : -1);
  const json doc = run_bench(o, command_line);
  if (!o.json_path.empty()) {
    report.restore();
    io::write_text_atomically(o.json_path, doc.dump(2) + "\n");
    (json_on_stdout ? std::cerr : std::cout) << "wrote " << (o.json_path == "-" ? "standard output" : o.json_path) << "\n";
  }
  return 0;
}

}  // namespace skipstone
