// `skipstone trace CONFIG.json --out FILE.csv [--index I]`: one trajectory's events as CSV.
#include <iostream>

#include "atomic_file.hpp"
#include "cli_args.hpp"
#include "commands.hpp"
#include "config.hpp"
#include "skipstone/simulate.hpp"
#include "trace_recorder.hpp"

namespace skipstone {

const char* const kTraceHelp =
    "usage: skipstone trace CONFIG.json --out FILE.csv [--index I]\n"
    "\n"
    "Runs trajectory number I (default 0) of the scan in CONFIG.json on the host and writes\n"
    "one CSV row per event: no-slip models give time, position, velocity, spin and the\n"
    "contact point a - r nu; roll3:strip and roll4:planes give every segment end (flat part or\n"
    "rim passage); the Figure-18 system gives every accepted integrator step.\n";

int trace_command(const std::vector<std::string>& args) {
  const ParsedArgs a = parse_args(args, {"--out", "--index"}, {"--help"});
  if (a.flags.count("--help")) {
    std::cout << kTraceHelp;
    return 0;
  }
  if (a.positional.size() != 1) throw UsageError("trace needs exactly one CONFIG.json argument");
  if (!a.values.count("--out")) throw UsageError("trace needs --out FILE.csv");
  std::uint64_t index = 0;
  if (a.values.count("--index")) {
    const std::string& s = a.values.at("--index");
    if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos)
      throw UsageError("--index " + s + ": expected an integer >= 0");
    index = std::stoull(s);
  }
  const RunConfig rc = load_config_file(a.positional[0]);
  if (index >= rc.spec.count)
    throw UsageError("--index " + std::to_string(index) + ": the scan has " + std::to_string(rc.spec.count) + " trajectories");
  const ScanPoint pt = scan_point(rc.spec, index);
  TraceRecorder rec(pt.p[P_BALL_R]);
  const TrajectoryResult r = simulate_trajectory(rc.spec, index, rec);
  io::write_text_atomically(a.values.at("--out"), rec.csv());
  std::cout << "wrote " << rec.rows() << " rows to " << a.values.at("--out") << " (status " << status_name(r.status)
            << ", " << r.events << " events, t_end " << r.t_end << ")\n";
  return 0;
}

}  // namespace skipstone
