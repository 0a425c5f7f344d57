// `skipstone trace CONFIG.json --out FILE.csv [--index I] [--sample DT]`: one trajectory's events
// as CSV, or (--sample, rolling models with plates) its state every DT for smooth figure curves:
// the closed-form models by runs stopped at t_max = k DT, the rolling tables (roll4:disc,
// roll3:<table>, roll4:<table>) in one run that stops off to the side at each sample time
// (include/skipstone/rolling/disc_output.hpp).
#include <cmath>
#include <cstdint>
#include <iostream>
#include <type_traits>

#include "atomic_file.hpp"
#include "cli_args.hpp"
#include "commands.hpp"
#include "config.hpp"
#include "skipstone/simulate.hpp"
#include "trace_recorder.hpp"

namespace skipstone {

const char* const kTraceHelp =
    "usage: skipstone trace CONFIG.json --out FILE.csv [--index I] [--sample DT] [--max-rows N]\n"
    "                       [--overwrite]\n"
    "\n"
    "Runs trajectory number I (default 0) of the scan in CONFIG.json on the host, in the\n"
    "scan's precision (options.precision), and writes to FILE.csv (- for standard output) a\n"
    "header row and one CSV row per event: no-slip models give time, position, velocity, spin and the\n"
    "contact point a - r nu; roll3:strip and roll4:planes give every segment end (flat part or\n"
    "rim passage), roll3:inside-cylinder every turn about the axis; the Figure-18 system gives\n"
    "every accepted integrator step.\n"
    "\n"
    "--sample DT (the rolling models: roll3:strip, roll4:planes, roll3:inside-cylinder, roll4:disc,\n"
    "roll3:<table>, roll4:<table>): instead of the events, one row at each t = 0, DT, 2 DT, ... up\n"
    "to the end of the run, and the final state when the run ends between samples. Exact for the\n"
    "closed-form models; for the rolling tables each sample inside an edge passage is an\n"
    "integrator step stopped at that time, as accurate as the trajectory's own steps (rtol/atol).\n"
    "Rows as in the event trace.\n"
    "\n"
    "A masked start (outside the allowed set) gives the header only, with a note on stderr.\n"
    "\n"
    "--max-rows N (default 1000000): the rows are held in memory until FILE.csv is written; a\n"
    "trajectory with more rows stops the trace (exit 2, nothing written).\n"
    "--overwrite: replace FILE.csv when it exists (a link's target); without it an existing\n"
    "file is refused. Standard output, devices and FIFOs are written, not replaced.\n";

namespace {

// The sampled trace: run k stops at t_max = k DT, exactly there for the closed-form models, and
// its last event is the state at k DT; only that one reaches the recorder.
struct FinalEventFilter {
  TraceRecorder* rec;
  double t_target;
  template <class V, class S>
  void on_event(double t, V x, const S& s, V nu) {
    if (t >= t_target) rec->on_event(t, x, s, nu);
  }
  template <class T>
  void on_step(T, const T*) {}
};

constexpr double kMaxSamples = 1e6;
// The rows a trace holds in memory: 1e6 rows of the widest CSV are about 300 MB.
constexpr std::uint64_t kDefaultMaxRows = 1000000;
constexpr std::uint64_t kMaxRowsLimit = 1000000000;

// roll4:disc: the model emits on_sample rows at k DT (disc_output.hpp); the last event is kept
// so that a run ending between two samples (max_events, a failure) ends on its final state.
struct DiscSampleSink {
  DiscSampleSink(TraceRecorder* r, double step) : rec(r), dt(step) {}
  TraceRecorder* rec;
  double dt;
  double k = 0.0;
  double last_sample = -INFINITY;
  bool have_event = false;
  double event_t = 0.0;
  Vec3 event_x, event_nu;
  State3D event_state;

  double next_sample() const { return k * dt; }
  void on_sample(double t, Vec3 x, const State3D& s, Vec3 nu) {
    if (k > kMaxSamples) throw UsageError("--sample: more than 1e6 samples before the run stops");
    rec->on_event(t, x, s, nu);
    last_sample = t;
    k += 1.0;
  }
  template <class V, class S>
  void on_event(double t, V x, const S& s, V nu) {
    if constexpr (std::is_same_v<V, Vec3> && std::is_same_v<S, State3D>) {
      have_event = true;
      event_t = t;
      event_x = x;
      event_state = s;
      event_nu = nu;
    }
  }
  template <class T>
  void on_step(T, const T*) {}
  void finish() {
    if (have_event && event_t > last_sample) rec->on_event(event_t, event_x, event_state, event_nu);
  }
};

void record_samples(const RunConfig& rc, std::uint64_t index, double dt, TraceRecorder& rec) {
  const Sampling sampling = rc.system.traits.sampling;
  if (sampling == Sampling::none)
    throw UsageError("--sample applies to " +
                     systems_with([](const SystemTraits& t) { return t.sampling != Sampling::none; }) + " only");
  if (std::isfinite(rc.spec.t_max) && rc.spec.t_max / dt > kMaxSamples) throw UsageError("--sample: more than 1e6 samples up to t_max");
  if (sampling == Sampling::sink) {
    DiscSampleSink sink(&rec, dt);
    simulate_trajectory(rc.spec, index, sink);
    sink.finish();
    return;
  }
  for (double k = 0.0;; k += 1.0) {
    if (k > kMaxSamples) throw UsageError("--sample: more than 1e6 samples before the run stops");
    ScanSpec spec = rc.spec;
    const double target = std::fmin(k * dt, rc.spec.t_max);
    spec.t_max = target > 0.0 ? target : 0.0;
    FinalEventFilter sink{&rec, target};
    const TrajectoryResult r = simulate_trajectory(spec, index, sink);
    if (r.t_end < target) {  // stopped early (max_events, ...): its final state is the last row
      if (r.t_end > (k - 1.0) * dt) {
        FinalEventFilter last{&rec, r.t_end};
        simulate_trajectory(spec, index, last);
      }
      return;
    }
    if (target == rc.spec.t_max || r.status != Status::finished) return;
  }
}

}  // namespace

int trace_command(const std::vector<std::string>& args) {
  const ParsedArgs a = parse_args(args, {"--out", "--index", "--sample", "--max-rows"}, {"--help", "--overwrite"});
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
  const RunConfig rc = load_config_file(a.positional[0]);
  if (index >= rc.spec.count)
    throw UsageError("--index " + std::to_string(index) + ": expected an integer in [0, " + std::to_string(rc.spec.count - 1) +
                     "] (the scan has " + std::to_string(rc.spec.count) + " trajectories)");
  const ScanPoint pt = scan_point(rc.spec, index);
  TraceRecorder rec(rc.system.traits, pt.p[P_BALL_R], max_rows);
  if (dt > 0.0) record_samples(rc, index, dt, rec);
  DiscardSink none;
  const TrajectoryResult r = dt > 0.0 ? simulate_trajectory(rc.spec, index, none) : simulate_trajectory(rc.spec, index, rec);
  // With the CSV on standard output, the summary goes to standard error.
  std::ostream& summary = io::writes_to_standard_output(out) ? std::cerr : std::cout;
  io::write_text_atomically(out, rec.csv());
  summary << "wrote " << rec.rows() << " rows to " << (out == "-" ? "standard output" : out) << " (status "
          << status_name(r.status) << ", " << r.events << " events, t_end " << r.t_end << ")\n";
  if (r.status == Status::masked)
    std::cerr << "skipstone trace: trajectory " << index << " is masked (its start lies outside the allowed set, "
              << "see the system's parameters in docs/config.md): the CSV holds the header only\n";
  return 0;
}

}  // namespace skipstone
