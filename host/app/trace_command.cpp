// `skipstone trace CONFIG.json --out FILE.csv [--index I] [--sample DT]`: one trajectory's events
// as CSV, or (--sample) its state every DT for smooth figure curves
// (recorded by trace_session.hpp); this file reads the command line and writes the file.
#include <cstdint>
#include <iostream>

#include "atomic_file.hpp"
#include "cli_args.hpp"
#include "commands.hpp"
#include "config.hpp"
#include "trace_session.hpp"

namespace skipstone {

const char* const kTraceHelp =
    "usage: skipstone trace CONFIG.json --out FILE.csv [--index I] [--sample DT] [--max-rows N]\n"
    "                       [--overwrite] [--set KEY=VALUE]...\n"
    "\n"
    "Runs trajectory number I (default 0) of the scan in CONFIG.json on the host, in the\n"
    "scan's precision (options.precision), and writes to FILE.csv (- for standard output) a\n"
    "header row and one CSV row per event: no-slip models give time, position, velocity, spin and the\n"
    "contact point a - r nu; roll3:strip and roll4:planes give every segment end (flat part or\n"
    "rim passage), roll3:inside-cylinder every turn about the axis; the Figure-18 system and\n"
    "rubber:sphere give every accepted integrator step (rubber:sphere: Omega and gamma, body frame).\n"
    "\n"
    "--sample DT (every system): instead of the events, one row at each t = 0, DT, 2 DT, ... up\n"
    "to the end of the run, and the final state when the run ends between samples. Exact on the\n"
    "no-slip flights (straight lines, parabolas) and the closed-form rolling models; for the\n"
    "integrated ones (the Figure-18 system, the rolling tables) each sample is an integrator step\n"
    "stopped at that time, as accurate as the trajectory's own steps (rtol/atol). Rows as in the\n"
    "event trace.\n"
    "\n"
    "A masked start (outside the allowed set) gives the header only, with a note on stderr.\n"
    "\n"
    "--max-rows N (default 1000000): the rows are held in memory until FILE.csv is written; a\n"
    "trajectory with more rows stops the trace (exit 2, nothing written).\n"
    "--set KEY=VALUE: set one config value first, as for skipstone run (repeatable).\n"
    "--overwrite: replace FILE.csv when it exists (a link's target); without it an existing\n"
    "file is refused. Standard output, devices and FIFOs are written, not replaced.\n";

int trace_command(const std::vector<std::string>& args) {
  const ParsedArgs a = parse_args(args, {"--out", "--index", "--sample", "--max-rows"}, {"--help", "--overwrite"}, {"--set"});
  if (a.flags.count("--help")) {
    std::cout << kTraceHelp;
    return 0;
  }
  if (a.positional.size() != 1) throw UsageError("trace needs exactly one CONFIG.json argument");
  const std::string out = path_option(a, "--out", "trace needs --out FILE.csv");
  const std::uint64_t index = integer_option(a, "--index", 0, UINT64_MAX, 0);
  const double dt = positive_number_option(a, "--sample", 0.0);
  const std::uint64_t max_rows = integer_option(a, "--max-rows", 1, kMaxRowsLimit, kDefaultMaxRows);
  check_output_file("--out", out, a.flags.count("--overwrite") > 0);
  const RunConfig rc = config_with_set_options(a, a.positional[0]);
  check_trace_index(rc, index, "--index");
  const Trace trace = record_trace(rc, index, dt, max_rows);
  const TrajectoryResult& r = trace.result;
  // With the CSV on standard output, the summary goes to standard error.
  std::ostream& summary = io::writes_to_standard_output(out) ? std::cerr : std::cout;
  io::write_text_atomically(out, trace.csv);
  summary << "wrote " << trace.rows << " rows to " << (out == "-" ? "standard output" : out) << " (status "
          << status_name(r.status) << ", " << r.events << " events, t_end " << r.t_end << ")\n";
  if (r.status == Status::masked)
    std::cerr << "skipstone trace: trajectory " << index << " is masked (its start lies outside the allowed set, "
              << "see the system's parameters in docs/config.md): the CSV holds the header only\n";
  return 0;
}

}  // namespace skipstone
