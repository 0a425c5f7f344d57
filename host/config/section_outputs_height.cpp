// outputs.height_series (docs/config.md "Outputs"): the time grid of the observable
// height_series, t_k = k t_max / (points - 1), and the check that ties the two together.
#include <cmath>
#include <string>

#include "config_sections.hpp"
#include "skipstone/height_series.hpp"

namespace skipstone {

namespace {
constexpr std::uint64_t kMaxHeightPoints = 100000;
}  // namespace

void read_height_series(JsonReader s, RunConfig& rc) {
  const std::string path = s.path();
  const std::uint64_t points = s.integer("points", 2, kMaxHeightPoints);
  s.finish();
  if (!(rc.system.traits.observables & kObsHeightSeries))
    throw ConfigError(path, "the height series is sampled by the rolling tables, roll4:disc and roll3:inside-cylinder only (" +
                                systems_with_observable("height_series") + "), not by system " + rc.system.name);
  if (!std::isfinite(rc.spec.t_max)) throw ConfigError(path, "the grid spans [0, stop.t_max]; give stop.t_max");
  if (!asks(rc, "height_series"))
    throw ConfigError(path, "the times of the observable height_series; add \"height_series\" to observables");
  if (rc.spec.lyapunov_vectors > 0)
    throw ConfigError(path, "the height series is not sampled with the Lyapunov exponents (their tangent run takes "
                            "no samples); ask for the exponents in a run of their own");
  rc.height_times.resize(points);
  for (std::uint64_t k = 0; k < points; ++k)
    rc.height_times[k] = height_series_time(rc.spec.t_max, k, points);
  rc.resolved["outputs"]["height_series"] = {{"points", points}};
}

void check_height_series(const RunConfig& rc) {
  if (asks(rc, "height_series") && rc.height_times.empty())
    throw ConfigError(observable_path(rc, "height_series"),
                      "value \"height_series\" needs its times; give outputs.height_series {\"points\": n} (the grid "
                      "t_k = k t_max / (n - 1), n >= 2)");
}

}  // namespace skipstone
