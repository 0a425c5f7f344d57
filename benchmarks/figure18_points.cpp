// skipstone_figure18_points: the skipstone side of the SciPy accuracy comparison
// (benchmarks/compare_figure18.py). Reads Figure-18 points {"v2", "S12"} (a top-level array, or
// an object with "points"), runs each as a single-trajectory roll4:disc-transversal config on
// this thread (1 warm-up pass, then --reps timed passes over the whole sample) and writes, per
// point, the status, exit time and side, with the rate in trajectories/s.
//   skipstone_figure18_points FILE.json [--rtol X] [--atol Y] [--reps N] [--out PATH]
// The throughput figures themselves come from `skipstone bench`.
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench_timing.hpp"
#include "bench_workloads.hpp"
#include "config.hpp"
#include "skipstone/simulate.hpp"

namespace {

using nlohmann::json;
using namespace skipstone;

struct Options {
  std::string points_path, out_path;
  double rtol = 1e-11, atol = 1e-11;
  int reps = 5;
};

[[noreturn]] void usage(const std::string& why) {
  std::cerr << "skipstone_figure18_points: " << why << "\n"
            << "usage: skipstone_figure18_points FILE.json [--rtol X] [--atol Y] [--reps N] [--out PATH]\n";
  std::exit(2);
}

double positive(const std::string& flag, const std::string& v) {
  char* end = nullptr;
  const double x = std::strtod(v.c_str(), &end);
  if (v.empty() || *end != '\0' || !(x > 0.0)) usage("bad value for " + flag + ": " + v);
  return x;
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--help" || a == "-h") usage("help");
    if (a.rfind("--", 0) != 0) {
      if (!o.points_path.empty()) usage("more than one points file: " + a);
      o.points_path = a;
      continue;
    }
    if (i + 1 >= argc) usage("missing value after " + a);
    const std::string v = argv[++i];
    if (a == "--rtol") o.rtol = positive(a, v);
    else if (a == "--atol") o.atol = positive(a, v);
    else if (a == "--reps") o.reps = static_cast<int>(positive(a, v));
    else if (a == "--out") o.out_path = v;
    else usage("unknown option " + a);
  }
  if (o.points_path.empty()) usage("missing the points file");
  return o;
}

int run(const Options& o) {
  std::ifstream in(o.points_path);
  if (!in) throw std::runtime_error("cannot open " + o.points_path);
  json doc;
  in >> doc;
  const json& pts = doc.is_array() ? doc : doc.at("points");
  std::vector<ScanSpec> specs;
  for (const json& p : pts) {
    json cfg = bench::figure18_base(o.rtol, o.atol);
    cfg["initial"] = {{"start", "rim_entry"}, {"speed", 1.0}, {"v2", p.at("v2").get<double>()},
                      {"S12", p.at("S12").get<double>()}};
    specs.push_back(parse_config(cfg).spec);
  }
  std::vector<TrajectoryResult> res(specs.size());
  const bench::Timing timing = bench::timed_reps(o.reps, [&] {
    DiscardSink sink;
    for (std::size_t i = 0; i < specs.size(); ++i) res[i] = simulate_trajectory(specs[i], 0, sink);
  });
  json out_points = json::array();
  for (std::size_t i = 0; i < specs.size(); ++i) {
    const TrajectoryResult& r = res[i];
    out_points.push_back({{"v2", pts[i].at("v2").get<double>()},
                          {"S12", pts[i].at("S12").get<double>()},
                          {"status", status_name(r.status)},
                          {"exit_time", r.exit_time},  // NaN (JSON null) unless exited
                          {"exit_side", r.exit_side},
                          {"t_end", r.t_end},
                          {"steps", r.steps},
                          {"energy_error", r.energy_error}});
  }
  const json result = {{"rtol", o.rtol},
                       {"atol", o.atol},
                       {"t_max", specs.empty() ? 0.0 : specs[0].t_max},
                       {"points", out_points},
                       {"reps", o.reps},
                       {"trajectories_per_second_1_thread",
                        bench::spread_json(timing.rate(static_cast<double>(specs.size())), "trajectories/s")}};
  if (o.out_path.empty()) {
    std::cout << result.dump(1) << "\n";
    return 0;
  }
  std::ofstream out(o.out_path);
  out << result.dump(1) << "\n";
  if (!out) throw std::runtime_error("cannot write " + o.out_path);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(parse(argc, argv));
  } catch (const std::exception& e) {
    std::cerr << "skipstone_figure18_points: " << e.what() << "\n";
    return 1;
  }
}
