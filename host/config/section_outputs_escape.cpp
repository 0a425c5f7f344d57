// The escape and coverage outputs (docs/config.md "Escape and coverage"): outputs.survival, the
// grid of the survival probability P(t) of a table with holes (stop.holes), and
// outputs.coverage, the cells in two bounded boundary coordinates (s and p unless "coords" says
// otherwise) of the coverage observable; and the checks that tie the escape observables to them.
#include <cmath>
#include <limits>
#include <string>

#include "config_sections.hpp"

namespace skipstone {

using nlohmann::json;

namespace {

constexpr std::uint64_t kMaxSurvivalPoints = 1000000;
constexpr std::uint64_t kMaxCoverageCells = 10000000;  // cells of the grid; a stamp each per thread

}  // namespace

void read_survival(JsonReader s, RunConfig& rc) {
  const std::string path = s.path();
  const std::uint64_t points = s.integer("points", 2, kMaxSurvivalPoints);
  s.finish();
  if (rc.spec.holes.n == 0) throw ConfigError(path, "P(t) of a closed table is 1; give stop.holes");
  if (!std::isfinite(rc.spec.t_max)) throw ConfigError(path, "the grid spans [0, stop.t_max]; give stop.t_max");
  if (rc.spec.max_events != std::numeric_limits<std::uint64_t>::max())
    throw ConfigError(path, "a trajectory stopped by stop.max_events before a grid time is neither inside nor "
                            "escaped there; leave stop.max_events out");
  if (!asks(rc, "escape_time"))
    throw ConfigError(path, "P(t) is counted from the observable escape_time; add \"escape_time\" to observables");
  rc.survival_times.resize(points);
  for (std::uint64_t k = 0; k < points; ++k)
    rc.survival_times[k] = rc.spec.t_max * static_cast<double>(k) / static_cast<double>(points - 1);
  rc.resolved["outputs"]["survival"] = {{"points", points}};
}

void read_coverage(JsonReader c, RunConfig& rc) {
  const std::string path = c.path();
  BoundaryMapSpec& cells = rc.boundary.cells;
  const json coords = c.has("coords") ? c.array("coords") : json::array({"s", "p"});
  const std::vector<std::string> names = read_map_coords(coords, path + ".coords", rc.system.traits, 2, true, cells);
  const json& bins = c.array("bins");
  c.finish();
  if (bins.size() != 2)
    throw ConfigError(path + ".bins", "expected 2 cell counts, one per coordinate of " + show(json(names)) + ", got " + show(bins));
  std::uint64_t total = 1;
  for (std::size_t k = 0; k < 2; ++k) {
    if (!bins[k].is_number_integer() || bins[k].get<std::int64_t>() < 1 ||
        bins[k].get<std::uint64_t>() > kMaxCoverageCells)
      throw ConfigError(path + ".bins[" + std::to_string(k) + "]",
                        "value " + show(bins[k]) + " is not allowed; allowed: an integer 1.." + std::to_string(kMaxCoverageCells));
    cells.bins[k] = bins[k].get<std::uint64_t>();
    total *= cells.bins[k];
  }
  if (total > kMaxCoverageCells)
    throw ConfigError(path + ".bins", "value " + show(bins) + " has more than " + std::to_string(kMaxCoverageCells) + " cells");
  if (!asks(rc, "coverage")) throw ConfigError(path, "the cells of the observable coverage; add \"coverage\" to observables");
  rc.boundary.coverage = true;
  rc.resolved["outputs"]["coverage"] = {{"coords", names}, {"bins", bins}};  // over the coordinates' own ranges
}

void check_escape_observables(RunConfig& rc) {
  for (const char* name : {"escape_time", "hole"})
    if (asks(rc, name) && rc.spec.holes.n == 0)
      throw ConfigError(observable_path(rc, name), std::string("value \"") + name + "\" needs holes in the wall; give stop.holes");
  if (asks(rc, "coverage") && !rc.boundary.coverage)
    throw ConfigError(observable_path(rc, "coverage"), "value \"coverage\" needs its cells; give outputs.coverage {\"bins\": [s_bins, p_bins]} (cells in s and p; "
                        "\"coords\" picks two other bounded coordinates)");
  rc.boundary.free_time = asks(rc, "mean_free_time");
}

}  // namespace skipstone
