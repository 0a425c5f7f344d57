// Recording one trajectory's rows: its events, or (sample_dt > 0) its state every DT for smooth
// figure curves: most systems by runs stopped at t_max = k DT (exact flights, or the integrator's
// last step shortened to k DT), the rolling tables (roll4:disc, roll3:<table>, roll4:<table>; and
// roll3:strip, roll4:planes with noise) in one run that stops off to the side at each sample time
// (include/skipstone/rolling/disc_output.hpp; a noisy run on its steps' interpolant),
// a noisy roll4:disc-transversal run in one run on its steps' interpolant (a run stopped at k DT
// would end on a shortened step whose Wiener increment is another noise path's).
#include "trace_session.hpp"

#include <cmath>
#include <type_traits>

#include "config_error.hpp"
#include "skipstone/rolling/noisy_transversal.hpp"
#include "skipstone/sinks.hpp"
#include "trace_recorder.hpp"

namespace skipstone {

namespace {

// The sampled trace: run k stops at t_max = k DT, exactly there (the closed-form flights and the
// no-slip models' exact flights stop there, the Figure-18 system's integrator shortens its last
// step to it), and its last event (or integrator step) is the state at k DT; only that one
// reaches the recorder.
struct FinalEventFilter {
  TraceRecorder* rec;
  double t_target;
  template <class V, class S>
  void on_event(double t, V x, const S& s, V nu) {
    if (t >= t_target) rec->on_event(t, x, s, nu);
  }
  template <class T>
  void on_step(T t, const T* y) {
    if (t >= T(t_target)) rec->on_step(t, y);
  }
};

constexpr double kMaxSamples = 1e6;

// The clock of a sampled run: next_sample() = k DT; taken(t) after each sample.
struct SampleClock {
  explicit SampleClock(double step) : dt(step) {}
  double dt;
  double k = 0.0;
  double last_sample = -INFINITY;

  double next_sample() const { return k * dt; }
  void check_room() const {
    if (k > kMaxSamples) throw UsageError("--sample: more than 1e6 samples before the run stops");
  }
  void taken(double t) {
    last_sample = t;
    k += 1.0;
  }
};

// The rolling tables: the model emits on_sample rows at k DT (disc_output.hpp; 2D rows for a
// noisy roll3:strip, V = Vec2); the last event is kept so that a run ending between two samples
// (max_events, a failure) ends on its final state.
template <class V, class S>
struct RowSampleSink : SampleClock {
  RowSampleSink(TraceRecorder* r, double step) : SampleClock(step), rec(r) {}
  TraceRecorder* rec;
  bool have_event = false;
  double event_t = 0.0;
  V event_x, event_nu;
  S event_state;

  template <class V2, class S2>
  void on_sample(double t, V2 x, const S2& s, V2 nu) {
    if constexpr (std::is_same_v<V2, V>) {
      check_room();
      rec->on_event(t, x, s, nu);
      taken(t);
    }
  }
  template <class V2, class S2>
  void on_event(double t, V2 x, const S2& s, V2 nu) {
    if constexpr (std::is_same_v<V2, V> && std::is_same_v<S2, S>) {
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

template <class V, class S>
void record_row_samples(const RunConfig& rc, std::uint64_t index, double dt, TraceRecorder& rec) {
  RowSampleSink<V, S> sink(&rec, dt);
  simulate_trajectory(rc.spec, index, sink);
  sink.finish();
}

// A noisy roll4:disc-transversal run: the model emits on_sample(t, y) at k DT with the
// transversal state y (noisy_disc_transversal.hpp); the last step is kept so that a run ending
// between two samples (an exit, a failure) ends on its final state.
struct StateSampleSink : SampleClock {
  static constexpr int N = NoisyTransversalSystem::N;
  StateSampleSink(TraceRecorder* r, double step) : SampleClock(step), rec(r) {}
  TraceRecorder* rec;
  bool have_step = false;
  double step_t = 0.0;
  double step_y[N] = {};

  void on_sample(double t, const double* y) {
    check_room();
    rec->on_step(t, y);
    taken(t);
  }
  void on_step(double t, const double* y) {
    have_step = true;
    step_t = t;
    for (int i = 0; i < N; ++i) step_y[i] = y[i];
  }
  void finish() {
    if (have_step && step_t > last_sample) rec->on_step(step_t, step_y);
  }
};

void record_samples(const RunConfig& rc, std::uint64_t index, double dt, TraceRecorder& rec) {
  const Sampling sampling = rc.system.traits.sampling;
  if (std::isfinite(rc.spec.t_max) && rc.spec.t_max / dt > kMaxSamples) throw UsageError("--sample: more than 1e6 samples up to t_max");
  const ModelKind model = rc.system.traits.model;
  const bool noisy = scan_point(rc.spec, index).p[P_NOISE] != kNoiseNone;
  // noisy roll3:strip and roll4:planes run the rolling tables' integrator (noisy_stadium.hpp)
  if (sampling == Sampling::sink || (noisy && (model == ModelKind::roll_strip || model == ModelKind::roll_planes))) {
    if (rc.system.traits.dim == 2) record_row_samples<Vec2, State2D>(rc, index, dt, rec);
    else record_row_samples<Vec3, State3D>(rc, index, dt, rec);
    return;
  }
  if (model == ModelKind::roll_disc_transversal && noisy) {
    using Transversal = Variant<ModelKind::roll_disc_transversal, TableKind::none, Precision::float64, GravityKind::any>;
    StateSampleSink sink(&rec, dt);
    simulate_variant<Transversal>(rc.spec, index, sink);  // noise runs in double only
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
    if (r.t_end < target) {  // stopped early (max_events, an exit, ...): its final state is the last
      if (r.t_end > (k - 1.0) * dt) {  // row, from the config's own run (the event trace's last row)
        DiscardSink none;
        FinalEventFilter last{&rec, simulate_trajectory(rc.spec, index, none).t_end};
        simulate_trajectory(rc.spec, index, last);
      }
      return;
    }
    if (target == rc.spec.t_max || r.status != Status::finished) return;
  }
}

}  // namespace

Trace record_trace(const RunConfig& rc, std::uint64_t index, double sample_dt, std::uint64_t max_rows) {
  const ScanPoint pt = scan_point(rc.spec, index);
  TraceRecorder rec(rc.system.traits, pt.p[P_BALL_R], max_rows);
  if (sample_dt > 0.0) record_samples(rc, index, sample_dt, rec);
  DiscardSink none;
  Trace trace;
  trace.result = sample_dt > 0.0 ? simulate_trajectory(rc.spec, index, none) : simulate_trajectory(rc.spec, index, rec);
  trace.csv = rec.csv();
  trace.rows = rec.rows();
  return trace;
}

void check_trace_index(const RunConfig& rc, std::uint64_t index, const std::string& option) {
  if (index >= rc.spec.count)
    throw UsageError(option + " " + std::to_string(index) + ": expected an integer in [0, " + std::to_string(rc.spec.count - 1) +
                     "] (the scan has " + std::to_string(rc.spec.count) + " trajectories)");
}

std::uint64_t nearest_grid_index(const RunConfig& rc, const std::map<std::string, double>& coords, const std::string& option) {
  std::string names;
  for (const ScanAxis& a : rc.axes) names += (names.empty() ? "" : ", ") + a.name;
  if (rc.spec.random) throw UsageError(option + ": picks a point of a grid scan; this scan is random (choose the trajectory by its index)");
  for (const auto& [name, value] : coords) {
    bool scanned = false;
    for (const ScanAxis& a : rc.axes) scanned = scanned || a.name == name;
    if (!scanned) throw UsageError(option + ": " + name + " is not scanned; allowed: " + names);
  }
  std::uint64_t index = 0, stride = 1;
  for (const ScanAxis& a : rc.axes) {
    const auto it = coords.find(a.name);
    if (it == coords.end()) throw UsageError(option + ": needs a value for every scanned parameter (" + names + "), " + a.name + " is missing");
    const double lo = std::fmin(a.min, a.max), hi = std::fmax(a.min, a.max);
    if (!(it->second >= lo && it->second <= hi))
      throw UsageError(option + ": " + a.name + " = " + std::to_string(it->second) + " is outside the axis [" +
                       std::to_string(lo) + ", " + std::to_string(hi) + "]");
    const double step = a.n > 1 ? (a.max - a.min) / static_cast<double>(a.n - 1) : 0.0;
    const double i = step != 0.0 ? std::round((it->second - a.min) / step) : 0.0;
    index += static_cast<std::uint64_t>(std::fmin(std::fmax(i, 0.0), static_cast<double>(a.n - 1))) * stride;
    stride *= a.n;
  }
  return index;
}

}  // namespace skipstone
