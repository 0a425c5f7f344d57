// skipstone_throughput: throughput benchmarks of the CPU backend (Thrust/OpenMP), written as a
// plain std::chrono program. Workloads (configs built in code and resolved by parse_config):
//   disc      no-slip disc, boundary start, random angle/spin, 20000 impacts each -> impacts/s
//   cylinder  no-slip cylinder:disc with gravity g = 1, impact start             -> impacts/s
//   figure18  roll4:disc-transversal 256 x 256 grid over (v2, S12), t_max 200     -> trajectories/s
// each with all threads and with 1 thread, plus a scalar single-thread loop over
// simulate_trajectory (no Thrust) for the disc. Every measurement is one warm-up run and then
// --reps repetitions; the median and the min/max spread are printed and written to --json,
// with the CPU utilisation (process CPU time / (wall x threads)) and load averages, which show
// when other jobs shared the cores.
//
// Second mode, for the accuracy comparison with SciPy (benchmarks/compare_figure18.py):
//   skipstone_throughput --figure18-points FILE.json [--rtol X] [--atol Y] [--out PATH]
// reads points {"v2", "S12"} (a top-level array, or an object with "points") and writes, per
// point, the exit time and side from a single-trajectory config with v2 and S12 in "initial".
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <functional>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "backends.hpp"
#include "config.hpp"
#include "skipstone/simulate.hpp"

namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;
using skipstone::TrajectoryResult;

constexpr double kGammaSolidBall = 0.8164965809;  // sqrt(2/3)

// ---------------------------------------------------------------- options

struct Options {
  std::string json_path;
  int reps = 5;
  std::uint64_t disc_count = 2048;
  std::uint64_t disc_events = 20000;
  std::uint64_t cyl_count = 2048;
  std::uint64_t cyl_events = 20000;
  std::uint64_t fig18_n = 256;
  bool single_thread = true;  // also measure with 1 thread
  // --figure18-points mode
  std::string points_path;
  std::string points_out;
  double rtol = 1e-11, atol = 1e-11;
};

[[noreturn]] void usage(const std::string& why) {
  std::cerr << "skipstone_throughput: " << why << "\n"
            << "usage: skipstone_throughput [--json PATH] [--reps N] [--disc-count N] [--disc-events N]\n"
            << "                            [--cyl-count N] [--cyl-events N] [--fig18-n N] [--no-single-thread]\n"
            << "       skipstone_throughput --figure18-points FILE.json [--rtol X] [--atol Y] [--out PATH]\n";
  std::exit(2);
}

Options parse_args(int argc, char** argv) {
  Options o;
  auto value = [&](int& i) -> std::string {
    if (i + 1 >= argc) usage(std::string("missing value after ") + argv[i]);
    return argv[++i];
  };
  auto count = [&](int& i) -> std::uint64_t {
    const std::string flag = argv[i];
    const std::string v = value(i);
    char* end = nullptr;
    const unsigned long long n = std::strtoull(v.c_str(), &end, 10);
    if (v.empty() || *end != '\0' || n == 0) usage("bad value for " + flag + ": " + v);
    return n;
  };
  auto real = [&](int& i) -> double {
    const std::string flag = argv[i];
    const std::string v = value(i);
    char* end = nullptr;
    const double x = std::strtod(v.c_str(), &end);
    if (v.empty() || *end != '\0' || !(x > 0.0)) usage("bad value for " + flag + ": " + v);
    return x;
  };
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--json") o.json_path = value(i);
    else if (a == "--reps") o.reps = static_cast<int>(count(i));
    else if (a == "--disc-count") o.disc_count = count(i);
    else if (a == "--disc-events") o.disc_events = count(i);
    else if (a == "--cyl-count") o.cyl_count = count(i);
    else if (a == "--cyl-events") o.cyl_events = count(i);
    else if (a == "--fig18-n") o.fig18_n = count(i);
    else if (a == "--no-single-thread") o.single_thread = false;
    else if (a == "--figure18-points") o.points_path = value(i);
    else if (a == "--out") o.points_out = value(i);
    else if (a == "--rtol") o.rtol = real(i);
    else if (a == "--atol") o.atol = real(i);
    else if (a == "--help" || a == "-h") usage("help");
    else usage("unknown argument " + a);
  }
  return o;
}

// ---------------------------------------------------------------- configs

json disc_config(const Options& o) {
  return {{"system", "disc"},
          {"parameters", {{"R", 1.0}, {"gamma", kGammaSolidBall}}},
          {"initial", {{"start", "boundary"}, {"boundary_s", 0.0}, {"speed", 1.0}}},
          {"scan",
           {{"type", "random"},
            {"count", o.disc_count},
            {"seed", 1},
            {"axes", {{{"param", "angle"}, {"min", -1.4}, {"max", 1.4}}, {{"param", "spin"}, {"min", -1.0}, {"max", 1.0}}}}}},
          {"stop", {{"max_events", o.disc_events}}}};
}

json cylinder_config(const Options& o) {
  return {{"system", "cylinder:disc"},
          {"parameters", {{"R", 1.0}, {"gamma", kGammaSolidBall}, {"g", 1.0}}},
          {"initial", {{"start", "impact"}, {"boundary_s", 0.0}, {"speed", 1.0}, {"vz", 0.0}}},
          {"scan",
           {{"type", "random"},
            {"count", o.cyl_count},
            {"seed", 2},
            {"axes", {{{"param", "angle"}, {"min", 0.8}, {"max", 1.5}}, {{"param", "slip"}, {"min", -0.2}, {"max", 0.2}}}}}},
          {"stop", {{"max_events", o.cyl_events}}}};
}

json figure18_base(double rtol, double atol) {
  return {{"system", "roll4:disc-transversal"},
          {"parameters", {{"R", 1.0}, {"r", 1.0}, {"eta", 0.5}}},
          {"stop", {{"t_max", 200.0}}},
          {"options", {{"rtol", rtol}, {"atol", atol}}}};
}

json figure18_grid_config(const Options& o) {
  json j = figure18_base(1e-11, 1e-11);
  j["initial"] = {{"start", "rim_entry"}, {"speed", 1.0}};
  j["scan"] = {{"type", "grid"},
               {"axes", {{{"param", "v2"}, {"min", -1.0}, {"max", 1.0}, {"n", o.fig18_n}},
                         {{"param", "S12"}, {"min", -1.0}, {"max", 1.0}, {"n", o.fig18_n}}}}};
  return j;
}

// ---------------------------------------------------------------- timing

struct Spread {
  double median = 0, min = 0, max = 0;
  std::vector<double> samples;
};

Spread spread_of(std::vector<double> v) {
  Spread s;
  s.samples = v;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  s.min = v.front();
  s.max = v.back();
  s.median = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
  return s;
}

json spread_json(const Spread& s, const std::string& unit) {
  return {{"median", s.median}, {"min", s.min}, {"max", s.max}, {"unit", unit}, {"samples", s.samples}};
}

double process_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

struct Timing {
  std::vector<double> wall;  // seconds per timed run
  std::vector<double> cpu;   // process CPU seconds per timed run (all threads)
  // Median of cpu / (wall * threads): near 1 when every thread had a core to itself; lower
  // when other jobs shared the cores (or threads idled waiting for each other).
  double utilisation(int threads) const {
    std::vector<double> u;
    for (std::size_t i = 0; i < wall.size(); ++i) u.push_back(cpu[i] / (wall[i] * threads));
    return spread_of(u).median;
  }
};

// One warm-up call of `run`, then `reps` timed calls.
Timing timed_reps(int reps, const std::function<void()>& run) {
  run();
  Timing t;
  for (int r = 0; r < reps; ++r) {
    const double c0 = process_cpu_seconds();
    const auto t0 = Clock::now();
    run();
    t.wall.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
    t.cpu.push_back(process_cpu_seconds() - c0);
  }
  return t;
}

std::vector<double> rates(double work, const std::vector<double>& wall) {
  std::vector<double> r;
  for (double w : wall) r.push_back(work / w);
  return r;
}

std::string sci(double x, int prec = 3) {
  std::ostringstream os;
  os.precision(prec);
  os << std::scientific << x;
  return os.str();
}

void print_line(const std::string& what, const Spread& s, const std::string& unit, double utilisation) {
  std::printf("  %-44s median %s %s  (min %s, max %s)  cpu use %.0f%%\n", what.c_str(), sci(s.median).c_str(),
              unit.c_str(), sci(s.min).c_str(), sci(s.max).c_str(), 100.0 * utilisation);
  std::fflush(stdout);
}

struct EnsembleRun {
  std::vector<TrajectoryResult> out;
  std::uint64_t events = 0;
  std::array<std::uint64_t, skipstone::kStatusCount> status{};
  std::uint64_t unmasked = 0;
};

void backend_run(const skipstone::ScanSpec& spec, EnsembleRun& r) {
  r.out.resize(spec.count);
  skipstone::cpu::run_chunk(spec, 0, spec.count, r.out.data());
  r.events = 0;
  r.status.fill(0);
  for (const auto& t : r.out) {
    r.events += t.events;
    ++r.status[static_cast<int>(t.status)];
  }
  r.unmasked = spec.count - r.status[static_cast<int>(skipstone::Status::masked)];
}

json status_json(const EnsembleRun& r) {
  json j = json::object();
  for (int k = 0; k < skipstone::kStatusCount; ++k)
    if (r.status[k]) j[skipstone::status_name(static_cast<skipstone::Status>(k))] = r.status[k];
  return j;
}

// ---------------------------------------------------------------- machine description

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos) {
        std::string m = line.substr(colon + 1);
        m.erase(0, m.find_first_not_of(" \t"));
        return m;
      }
    }
  }
  return "unknown";
}

int nproc_count() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) == 0) return CPU_COUNT(&set);
  return static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN));
}

// 1-, 5- and 15-minute load averages: other jobs on the same cores show up here.
std::string loadavg() {
  std::ifstream in("/proc/loadavg");
  std::string a, b, c;
  in >> a >> b >> c;
  return in ? a + " " + b + " " + c : "unknown";
}

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

// ---------------------------------------------------------------- benchmarks

// No-slip workloads (disc, cylinder): impacts/s with all threads and with 1 thread.
json noslip_benchmark(const std::string& name, const json& cfg, const Options& o, int threads, bool scalar_loop) {
  const skipstone::RunConfig rc = skipstone::parse_config(cfg);
  const skipstone::ScanSpec& spec = rc.spec;
  std::printf("%s: %llu trajectories, max_events %llu\n", name.c_str(), static_cast<unsigned long long>(spec.count),
              static_cast<unsigned long long>(spec.max_events));
  EnsembleRun run;
  json j = {{"config", rc.resolved}, {"trajectories", spec.count}, {"loadavg_before", loadavg()}};

  skipstone::cpu::set_threads(threads);
  const auto wall_all = timed_reps(o.reps, [&] { backend_run(spec, run); });
  const double impacts = static_cast<double>(run.events);
  const Spread all = spread_of(rates(impacts, wall_all.wall));
  j["impacts"] = run.events;
  j["status_counts"] = status_json(run);
  j["backend_all_threads"] = spread_json(all, "impacts/s");
  j["backend_all_threads"]["threads"] = threads;
  j["backend_all_threads"]["cpu_utilisation"] = wall_all.utilisation(threads);
  std::printf("  impacts per run %.0f, status %s\n", impacts, status_json(run).dump().c_str());
  print_line("CPU backend, " + std::to_string(threads) + " threads", all, "impacts/s", wall_all.utilisation(threads));

  if (o.single_thread) {
    skipstone::cpu::set_threads(1);
    const auto wall_one = timed_reps(o.reps, [&] { backend_run(spec, run); });
    skipstone::cpu::set_threads(threads);
    const Spread one = spread_of(rates(impacts, wall_one.wall));
    j["backend_1_thread"] = spread_json(one, "impacts/s");
    j["backend_1_thread"]["cpu_utilisation"] = wall_one.utilisation(1);
    j["scaling_all_over_1"] = all.median / one.median;
    print_line("CPU backend, 1 thread", one, "impacts/s", wall_one.utilisation(1));
    std::printf("  %-44s %.2fx on %d threads\n", "scaling (median all / median 1)", all.median / one.median, threads);
  }

  if (scalar_loop) {
    // Our scalar baseline: the same trajectories through simulate_trajectory in a plain loop.
    std::uint64_t events = 0;
    const auto wall_scalar = timed_reps(o.reps, [&] {
      skipstone::DiscardSink sink;
      std::uint64_t e = 0;
      for (std::uint64_t i = 0; i < spec.count; ++i) e += skipstone::simulate_trajectory(spec, i, sink).events;
      events = e;
    });
    if (events != run.events) throw std::runtime_error(name + ": scalar loop and backend disagree on the impact count");
    const Spread sc = spread_of(rates(impacts, wall_scalar.wall));
    j["scalar_loop_1_thread"] = spread_json(sc, "impacts/s");
    j["scalar_loop_1_thread"]["cpu_utilisation"] = wall_scalar.utilisation(1);
    j["ratio_backend_over_scalar"] = all.median / sc.median;
    print_line("scalar loop (simulate_trajectory), 1 thread", sc, "impacts/s", wall_scalar.utilisation(1));
    std::printf("  %-44s %.2fx\n", "ratio backend (all threads) / scalar", all.median / sc.median);
  }
  j["loadavg_after"] = loadavg();
  std::printf("  load average before %s, after %s\n", j["loadavg_before"].get<std::string>().c_str(),
              j["loadavg_after"].get<std::string>().c_str());
  return j;
}

json figure18_benchmark(const Options& o, int threads) {
  const skipstone::RunConfig rc = skipstone::parse_config(figure18_grid_config(o));
  const skipstone::ScanSpec& spec = rc.spec;
  std::printf("figure18: %llu x %llu grid (v2, S12), t_max %g, rtol %g, atol %g\n",
              static_cast<unsigned long long>(o.fig18_n), static_cast<unsigned long long>(o.fig18_n), spec.t_max,
              spec.rtol, spec.atol);
  EnsembleRun run;
  json j = {{"config", rc.resolved}, {"trajectories", spec.count}, {"loadavg_before", loadavg()}};
  auto measure = [&](int nthreads, const std::string& key) {
    skipstone::cpu::set_threads(nthreads);
    const Timing wall = timed_reps(o.reps, [&] { backend_run(spec, run); });
    const Spread over_all = spread_of(rates(static_cast<double>(spec.count), wall.wall));
    const Spread over_unmasked = spread_of(rates(static_cast<double>(run.unmasked), wall.wall));
    j[key] = {{"threads", nthreads},
              {"cpu_utilisation", wall.utilisation(nthreads)},
              {"all_points", spread_json(over_all, "trajectories/s")},
              {"unmasked_points", spread_json(over_unmasked, "trajectories/s")}};
    const std::string label = nthreads == 1 ? "1 thread" : std::to_string(nthreads) + " threads";
    print_line("CPU backend, " + label + ", all grid points", over_all, "traj/s", wall.utilisation(nthreads));
    print_line("CPU backend, " + label + ", unmasked points", over_unmasked, "traj/s", wall.utilisation(nthreads));
    return over_all.median;
  };
  const double all = measure(threads, "backend_all_threads");
  j["unmasked"] = run.unmasked;
  j["status_counts"] = status_json(run);
  std::printf("  unmasked %llu of %llu, status %s\n", static_cast<unsigned long long>(run.unmasked),
              static_cast<unsigned long long>(spec.count), status_json(run).dump().c_str());
  if (o.single_thread) {
    const double one = measure(1, "backend_1_thread");
    j["scaling_all_over_1"] = all / one;
    std::printf("  %-44s %.2fx on %d threads\n", "scaling (median all / median 1)", all / one, threads);
  }
  skipstone::cpu::set_threads(threads);
  j["loadavg_after"] = loadavg();
  std::printf("  load average before %s, after %s\n", j["loadavg_before"].get<std::string>().c_str(),
              j["loadavg_after"].get<std::string>().c_str());
  return j;
}

int run_benchmarks(const Options& o) {
  const int threads = skipstone::cpu::max_threads();
  json doc;
  doc["date"] = utc_now();
  doc["machine"] = {{"cpu_model", cpu_model()}, {"nproc", nproc_count()}, {"omp_max_threads", threads}};
  doc["reps"] = o.reps;
  doc["warmup_runs"] = 1;
  std::printf("skipstone_throughput  %s  CPU: %s, nproc %d, OpenMP threads %d; 1 warm-up + %d reps each\n",
              doc["date"].get<std::string>().c_str(), doc["machine"]["cpu_model"].get<std::string>().c_str(),
              nproc_count(), threads, o.reps);
  doc["benchmarks"]["disc"] = noslip_benchmark("disc (no-slip, gamma=sqrt(2/3), boundary start)", disc_config(o), o,
                                               threads, true);
  doc["benchmarks"]["cylinder_disc_gravity"] =
      noslip_benchmark("cylinder:disc (no-slip, g=1, impact start)", cylinder_config(o), o, threads, false);
  doc["benchmarks"]["figure18"] = figure18_benchmark(o, threads);
  if (!o.json_path.empty()) {
    std::ofstream out(o.json_path);
    out << doc.dump(2) << "\n";
    if (!out) throw std::runtime_error("cannot write " + o.json_path);
    std::printf("wrote %s\n", o.json_path.c_str());
  }
  return 0;
}

// ---------------------------------------------------------------- Figure-18 points

int run_points(const Options& o) {
  std::ifstream in(o.points_path);
  if (!in) throw std::runtime_error("cannot open " + o.points_path);
  json doc;
  in >> doc;
  const json& pts = doc.is_array() ? doc : doc.at("points");
  std::vector<skipstone::ScanSpec> specs;
  for (const json& p : pts) {
    json cfg = figure18_base(o.rtol, o.atol);
    cfg["initial"] = {{"start", "rim_entry"}, {"speed", 1.0}, {"v2", p.at("v2").get<double>()},
                      {"S12", p.at("S12").get<double>()}};
    specs.push_back(skipstone::parse_config(cfg).spec);
  }
  // The whole sample one trajectory at a time on this thread: 1 warm-up pass, then --reps timed.
  std::vector<TrajectoryResult> res(specs.size());
  const Timing timing = timed_reps(o.reps, [&] {
    skipstone::DiscardSink sink;
    for (std::size_t i = 0; i < specs.size(); ++i) res[i] = skipstone::simulate_trajectory(specs[i], 0, sink);
  });
  const Spread rate = spread_of(rates(static_cast<double>(specs.size()), timing.wall));
  json out_points = json::array();
  for (std::size_t i = 0; i < specs.size(); ++i) {
    const TrajectoryResult& r = res[i];
    out_points.push_back({{"v2", pts[i].at("v2").get<double>()},
                          {"S12", pts[i].at("S12").get<double>()},
                          {"status", skipstone::status_name(r.status)},
                          {"exit_time", r.exit_time},  // NaN (JSON null) unless exited
                          {"exit_side", r.exit_side},
                          {"t_end", r.t_end},
                          {"energy_error", r.energy_error}});
  }
  const json result = {{"rtol", o.rtol},
                       {"atol", o.atol},
                       {"t_max", 200.0},
                       {"points", out_points},
                       {"reps", o.reps},
                       {"trajectories_per_second_1_thread", spread_json(rate, "trajectories/s")}};
  if (o.points_out.empty()) {
    std::cout << result.dump(1) << "\n";
  } else {
    std::ofstream out(o.points_out);
    out << result.dump(1) << "\n";
    if (!out) throw std::runtime_error("cannot write " + o.points_out);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const Options o = parse_args(argc, argv);
    return o.points_path.empty() ? run_benchmarks(o) : run_points(o);
  } catch (const std::exception& e) {
    std::cerr << "skipstone_throughput: " << e.what() << "\n";
    return 1;
  }
}
