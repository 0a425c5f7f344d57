// Timing for the benchmarks: warm-up, repetitions, median and spread.
#include "bench_timing.hpp"

#include <time.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>

namespace skipstone::bench {

Spread spread_of(const std::vector<double>& v) {
  if (v.empty()) throw std::invalid_argument("spread_of: no samples");
  Spread s;
  s.samples = v;
  std::vector<double> w = v;
  std::sort(w.begin(), w.end());
  const std::size_t n = w.size();
  s.min = w.front();
  s.max = w.back();
  s.median = n % 2 ? w[n / 2] : 0.5 * (w[n / 2 - 1] + w[n / 2]);
  return s;
}

nlohmann::json spread_json(const Spread& s, const std::string& unit) {
  return {{"median", s.median}, {"min", s.min}, {"max", s.max}, {"unit", unit}, {"samples", s.samples}};
}

double Timing::utilisation(int threads) const {
  std::vector<double> u;
  for (std::size_t i = 0; i < wall.size(); ++i) u.push_back(cpu[i] / (wall[i] * threads));
  return spread_of(u).median;
}

Spread Timing::rate(double work) const {
  std::vector<double> r;
  for (double w : wall) r.push_back(work / w);
  return spread_of(r);
}

namespace {
double process_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}
}  // namespace

std::vector<Timing> timed_reps_interleaved(int reps, const std::vector<std::function<void()>>& runs,
                                           double min_sample_seconds) {
  using Clock = std::chrono::steady_clock;
  constexpr int kMaxCallsPerSample = 1000000;
  std::vector<Timing> timings(runs.size());
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const auto w0 = Clock::now();
    runs[i]();
    const double warm_up = std::chrono::duration<double>(Clock::now() - w0).count();
    if (warm_up < min_sample_seconds)
      timings[i].calls_per_sample =
          warm_up > 0 ? static_cast<int>(std::min<double>(kMaxCallsPerSample, std::ceil(min_sample_seconds / warm_up)))
                      : kMaxCallsPerSample;
  }
  for (int r = 0; r < reps; ++r) {
    for (std::size_t i = 0; i < runs.size(); ++i) {
      Timing& t = timings[i];
      const double c0 = process_cpu_seconds();
      const auto t0 = Clock::now();
      for (int c = 0; c < t.calls_per_sample; ++c) runs[i]();
      t.wall.push_back(std::chrono::duration<double>(Clock::now() - t0).count() / t.calls_per_sample);
      t.cpu.push_back((process_cpu_seconds() - c0) / t.calls_per_sample);
    }
  }
  return timings;
}

Timing timed_reps(int reps, const std::function<void()>& run, double min_sample_seconds) {
  return timed_reps_interleaved(reps, {run}, min_sample_seconds)[0];
}

}  // namespace skipstone::bench
