// `skipstone run CONFIG.json --out DIR`: validate, run the scan, write maps and metadata.
#include <cstdio>
#include <iostream>

#include "atomic_file.hpp"
#include "backend.hpp"
#include "cli_args.hpp"
#include "commands.hpp"
#include "config.hpp"
#include "output_writer.hpp"
#include "scan_runner.hpp"

namespace skipstone {

const char* const kRunHelp =
    "usage: skipstone run CONFIG.json --out DIR [options]\n"
    "\n"
    "Runs the scan described by CONFIG.json (format: README, \"Config format\") and writes\n"
    "DIR/meta.json, DIR/<observable>.npy for every observable and, for two-axis grids,\n"
    "DIR/<observable>.png heat maps. Nothing is written when the config is rejected.\n"
    "\n"
    "options:\n"
    "  --out DIR          output folder (created if missing)\n"
    "  --backend NAME     auto (default: CUDA when a device is present), cpu or cuda\n"
    "  --threads N        CPU threads (default: all cores)\n"
    "  --chunk N          trajectories per chunk (default: from free device memory)\n"
    "  --quiet            no progress on stderr\n";

namespace {

int parse_positive_int(const ParsedArgs& a, const std::string& key, long long fallback) {
  const auto it = a.values.find(key);
  if (it == a.values.end()) return static_cast<int>(fallback);
  try {
    std::size_t used = 0;
    const long long v = std::stoll(it->second, &used);
    if (used != it->second.size() || v < 1) throw std::invalid_argument("");
    return static_cast<int>(v);
  } catch (const std::exception&) {
    throw UsageError(key + " " + it->second + ": expected a positive integer");
  }
}

}  // namespace

int run_command(const std::vector<std::string>& args, const std::string& command_line) {
  const ParsedArgs a = parse_args(args, {"--out", "--backend", "--threads", "--chunk"}, {"--quiet", "--help"});
  if (a.flags.count("--help")) {
    std::cout << kRunHelp;
    return 0;
  }
  if (a.positional.size() != 1) throw UsageError("run needs exactly one CONFIG.json argument");
  if (!a.values.count("--out")) throw UsageError("run needs --out DIR");
  const std::filesystem::path dir = a.values.at("--out");
  const bool quiet = a.flags.count("--quiet") > 0;
  const int threads = parse_positive_int(a, "--threads", 0);
  const std::uint64_t chunk = static_cast<std::uint64_t>(parse_positive_int(a, "--chunk", 0));

  const RunConfig rc = load_config_file(a.positional[0]);  // ConfigError -> exit 2 in main
  BackendChoice backend;
  try {
    backend = choose_backend(a.values.count("--backend") ? a.values.at("--backend") : "auto", threads);
  } catch (const std::exception& e) {
    throw UsageError(e.what());
  }
  prepare_output_dir(dir);
  if (!quiet) std::cerr << "skipstone run: " << rc.system.name << ", " << rc.spec.count << " trajectories on " << backend.description << "\n";
  const ScanResult res = run_scan(rc, backend, chunk, quiet);
  const nlohmann::json meta = run_metadata(rc, res, backend, command_line);
  write_outputs(dir, rc, res, meta);

  std::cout << "wrote " << rc.observables.size() << " observables for " << rc.spec.count << " trajectories to "
            << dir.string() << "/ (meta.json, *.npy" << (!rc.spec.random && rc.axes.size() == 2 ? ", *.png" : "")
            << ") in " << res.wall_seconds << " s\nstatus:";
  for (int s = 0; s < kStatusCount; ++s)
    if (res.status_counts[s]) std::cout << " " << status_name(static_cast<Status>(s)) << "=" << res.status_counts[s];
  std::cout << "\n";
  return 0;
}

}  // namespace skipstone
