// Output folder layout and metadata of a run.
#include "output_writer.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <stdexcept>

#include "atomic_file.hpp"
#include "config_hash.hpp"
#include "impact_coordinates.hpp"
#include "iso_time.hpp"
#include "npy_writer.hpp"
#include "observables.hpp"
#include "order_statistic.hpp"
#include "png_heatmap.hpp"
#include "range_result.hpp"
#include "skipstone/inertia.hpp"
#include "skipstone/scan_point.hpp"
#include "version.hpp"

namespace skipstone {
namespace {

using nlohmann::json;

json moment_json(MomentForm form, double v) {
  double gamma = v;
  if (form == MomentForm::eta) gamma = gamma_from_eta(v);
  if (form == MomentForm::beta) gamma = gamma_from_beta(v);
  return {{"gamma", gamma}, {"eta", eta_from_gamma(gamma)}, {"beta", beta_from_gamma(gamma)}};
}

// The colours of a continuous map are clamped to its [0.5 %, 99.5 %] quantiles, so that a few
// extreme pixels (e.g. grazing entries with very long exit times) do not flatten the picture.
// The .npy files keep the true values. Sets the heat map's clip when anything lies outside.
void clip_to_quantiles(const std::vector<double>& map, io::HeatmapSpec& hs) {
  const std::size_t finite = count_finite(map);
  if (finite < 400) return;
  const double lo = kth_smallest_finite(map, finite / 200);
  const double hi = kth_smallest_finite(map, finite - 1 - finite / 200);
  bool outside = false;
  for (double v : map) outside = outside || (std::isfinite(v) && (v < lo || v > hi));
  hs.clip = outside;
  hs.clip_lo = lo;
  hs.clip_hi = hi;
}

std::vector<std::string> status_names() {
  std::vector<std::string> n;
  for (int s = 0; s < kStatusCount; ++s) n.push_back(status_name(static_cast<Status>(s)));
  return n;
}

// The point output kinds as written: the file prefix, config, result, what a point is, the names
// of a recorded row's own columns and the heat map's axis labels (coordinates 0 and 1).
struct PointKind {
  std::string prefix;
  const BoundaryOutputs& out;
  const PointResult& res;
  std::string points, title;
  std::vector<std::string> fields, labels;
};

std::vector<PointKind> point_kinds(const RunConfig& rc, const ScanResult& res) {
  std::vector<std::string> section_fields = {"crossing", "t"}, section_labels;
  for (const auto& c : rc.section.coords) section_fields.push_back(c), section_labels.push_back(c);
  std::vector<std::string> boundary_fields = {"event", "t"}, boundary_labels;
  const std::vector<ImpactCoordinate> row = impact_coordinates(rc.system.traits);
  for (const ImpactCoordinate& c : row) boundary_fields.push_back(c.name);
  for (const std::string& name : rc.boundary.coords)
    for (const ImpactCoordinate& c : row)
      if (c.name == name) boundary_labels.push_back(c.label);
  return {{"boundary", rc.boundary, res.boundary_points, "impacts", "boundary map", boundary_fields, boundary_labels},
          {"section", rc.section, res.section_points, "crossings", "Poincare section", section_fields, section_labels}};
}

// A map's file, coordinates, bins and the points outside it.
json point_map_json(const PointKind& k) {
  const BoundaryMapSpec& m = k.out.spec;
  const std::vector<std::uint64_t>& counts = k.res.counts;
  json coords = json::array();
  for (int k2 = 0; k2 < m.n_coords; ++k2)
    coords.push_back({{"name", k.out.coords[static_cast<std::size_t>(k2)]}, {"bins", m.bins[k2]}, {"min", m.lo[k2]}, {"max", m.hi[k2]}});
  std::uint64_t inside = 0;
  for (std::size_t b = 0; b + 1 < counts.size(); ++b) inside += counts[b];
  return {{"file", k.prefix + "_map.npy"}, {"coords", coords}, {k.points, inside + counts.back()},
          {"outside", counts.back()}, {"events_counted", "every one of every trajectory, whatever its status"}};
}

json point_event_column_names(const RunConfig& rc, const PointKind& k) {
  json names = json::array({"trajectory"});
  for (const auto& a : rc.axes) names.push_back(a.name);
  for (const auto& n : k.fields) names.push_back(n);
  return names;
}

// The bins of a point map, axis by axis.
std::vector<std::size_t> point_map_shape(const BoundaryMapSpec& m) {
  std::vector<std::size_t> shape;
  for (int c = 0; c < m.n_coords; ++c) shape.push_back(static_cast<std::size_t>(m.bins[c]));
  return shape;
}

// <prefix>_map.png: the heat map of log10(1 + count) over coordinates 0, 1 of the map.
void write_point_map_png(const std::filesystem::path& dir, const RunConfig& rc, const PointKind& k) {
  const BoundaryMapSpec& m = k.out.spec;
  const std::vector<std::uint64_t>& counts = k.res.counts;  // the bins, then the points outside
  const std::vector<std::size_t> shape = point_map_shape(m);
  // coordinate 0 along x, 1 along y, summed over the third; rows of render_heatmap are y
  const std::size_t ns = shape[0], np = shape[1], nrest = (counts.size() - 1) / (ns * np);
  std::vector<double> img(ns * np, 0.0);
  for (std::size_t i = 0; i < ns; ++i)
    for (std::size_t j = 0; j < np; ++j) {
      std::uint64_t c = 0;
      for (std::size_t k = 0; k < nrest; ++k) c += counts[(i * np + j) * nrest + k];
      img[j * ns + i] = std::log10(1.0 + static_cast<double>(c));
    }
  io::HeatmapSpec hs;
  hs.title = rc.system.name + ": " + k.title;
  hs.x = {k.labels[0], m.lo[0], m.hi[0]};
  hs.y = {k.labels[1], m.lo[1], m.hi[1]};
  hs.colorbar_label = "log10(1 + " + k.points + ")" + (m.n_coords == 3 ? ", summed over " + k.out.coords[2] : "");
  io::write_heatmap_png(dir / (k.prefix + "_map.png"), img, ns, np, hs);
}

// The holes, how many trajectories left through them, and (with the observable escape_time) their
// mean escape time; with outputs.survival, its files.
json escape_json(const RunConfig& rc, const ScanResult& res) {
  json holes = json::array();
  for (int k = 0; k < rc.spec.holes.n; ++k) holes.push_back({rc.spec.holes.lo[k], rc.spec.holes.hi[k]});
  std::uint64_t ok = 0;
  for (int s = 0; s < kStatusCount; ++s)
    if (status_is_ok(static_cast<Status>(s))) ok += res.status_counts[s];
  const std::uint64_t escaped = res.status_counts[static_cast<int>(Status::through_hole)];
  json e = {{"holes", holes},
            {"trajectories", ok},
            {"escaped", escaped},
            {"escaped_fraction", ok > 0 ? json(static_cast<double>(escaped) / static_cast<double>(ok)) : json(nullptr)}};
  const auto t = res.stats.find("escape_time");
  if (t != res.stats.end()) e["mean_escape_time"] = t->second.count > 0 ? json(t->second.mean) : json(nullptr);
  if (!rc.survival_times.empty())
    e["survival"] = {{"file", "survival.npy"}, {"times_file", "survival_times.npy"}, {"points", rc.survival_times.size()}};
  return e;
}

}  // namespace

std::vector<double> axis_values(const ScanAxis& a) {
  std::vector<double> v;
  for (std::uint64_t i = 0; i < a.n; ++i) {
    const AxisSpec s{0, a.min, a.max, a.n};
    v.push_back(grid_value(s, i));
  }
  return v;
}

std::vector<double> sampled_axis_values(const RunConfig& rc, std::size_t j) {
  std::vector<double> vals(rc.spec.count);
  for (std::uint64_t i = 0; i < rc.spec.count; ++i) vals[i] = scan_point(rc.spec, i).p[rc.spec.axes[j].param];
  return vals;
}

std::vector<std::size_t> observable_shape(const RunConfig& rc, const std::string& name) {
  std::vector<std::size_t> shape = rc.shape;
  if (observable_info(name).type == ObservableType::vector) shape.push_back(static_cast<std::size_t>(values_per_trajectory(rc, name)));
  return shape;
}

json run_metadata(const RunConfig& rc, const ScanResult& res, const BackendChoice& backend,
                  const std::string& command_line) {
  json meta;
  meta["skipstone_version"] = SKIPSTONE_VERSION;
  meta["created"] = iso_time_now();
  meta["command"] = command_line;
  meta["config"] = rc.resolved;
  meta["config_hash"] = config_hash(rc.resolved);
  meta["overrides"] = rc.overrides;
  meta["system"] = rc.system.name;
  if (!rc.gravity.is_null()) meta["gravity"] = rc.gravity;
  bool moment_scanned = false;
  for (const auto& a : rc.axes) {
    if (a.name == rc.moment_name) {
      moment_scanned = true;
      meta["moment_of_inertia"] = {{"scanned", a.name},
                                   {"at_min", moment_json(rc.spec.moment, a.min)},
                                   {"at_max", moment_json(rc.spec.moment, a.max)}};
    }
  }
  if (!moment_scanned && rc.system.moment) meta["moment_of_inertia"] = moment_json(rc.spec.moment, rc.spec.params[P_MOMENT]);
  meta["backend"] = backend.backend == Backend::cuda ? "cuda" : "cpu";
  meta["device"] = backend.description;
  meta["trajectories"] = rc.spec.count;
  meta["chunk_size"] = res.chunk_size;
  meta["wall_time_s"] = res.wall_seconds;
  // Masked points (starts outside their allowed set) cost next to nothing: the rates of the
  // computed trajectories and of all scan points are reported apart.
  const double w = res.wall_seconds > 0.0 ? res.wall_seconds : 1e-9;
  const std::uint64_t masked = res.status_counts[static_cast<int>(Status::masked)];
  const std::uint64_t computed = rc.spec.count - masked;
  meta["throughput"] = {{"computed_trajectories", computed},
                        {"masked_points", masked},
                        {"wall_seconds", res.wall_seconds},
                        {"computed_trajectories_per_s", static_cast<double>(computed) / w},
                        {"points_per_s", static_cast<double>(rc.spec.count) / w},
                        {"events_per_s", static_cast<double>(res.total_events) / w},
                        {"total_events", res.total_events}};
  json counts = json::object();
  for (int s = 0; s < kStatusCount; ++s) counts[status_name(static_cast<Status>(s))] = res.status_counts[s];
  meta["status_counts"] = counts;
  meta["grid"] = !rc.spec.random;
  meta["shape"] = rc.shape;
  json axes = json::array();
  for (const auto& a : rc.axes) {
    json ja = {{"param", a.name}, {"min", a.min}, {"max", a.max}};
    if (!rc.spec.random) {
      ja["n"] = a.n;
      ja["values"] = axis_values(a);
    } else {
      ja["file"] = "axis_" + a.name + ".npy";
    }
    axes.push_back(ja);
  }
  meta["axes"] = axes;
  json obs = json::object();
  for (const auto& name : rc.observables) {
    const ObservableInfo& info = observable_info(name);
    json o = {{"file", name + ".npy"}, {"description", info.description}};
    if (info.id == ObservableId::final_state) o["columns"] = final_state_columns(rc);
    if (info.id == ObservableId::height_series) o["times"] = rc.height_times;
    const auto it = res.stats.find(name);
    if (it != res.stats.end()) o["stats"] = it->second.to_json();
    const auto h = res.histograms.find(name);
    if (h != res.histograms.end()) o["histogram"] = h->second.to_json();
    obs[name] = o;
  }
  meta["observables"] = obs;
  for (const PointKind& k : point_kinds(rc, res)) {
    if (k.out.map) meta[k.prefix + "_map"] = point_map_json(k);
    if (k.out.events)
      meta[k.prefix + "_events"] = {{"file", k.prefix + "_events.npy"},
                                    {"columns", point_event_column_names(rc, k)},
                                    {"rows", k.res.events.size() / point_event_columns(rc, k.out)},
                                    {"max_events_per_trajectory", k.out.max_events},
                                    {k.points + "_not_recorded", k.res.dropped}};
  }
  if (rc.section.any()) meta["section"] = rc.resolved["outputs"]["section"];
  if (rc.spec.holes.n > 0) meta["escape"] = escape_json(rc, res);
  return meta;
}

void write_outputs(const std::filesystem::path& dir, const RunConfig& rc, const ScanResult& res, const json& meta) {
  const bool map2d = !rc.spec.random && rc.axes.size() == 2;
  for (const auto& name : rc.observables) {
    const ObservableInfo& info = observable_info(name);
    const std::vector<double>& v = res.maps.at(name);
    const std::vector<std::size_t> shape = observable_shape(rc, name);
    if (info.type == ObservableType::int8) {
      std::vector<std::int8_t> d(v.begin(), v.end());
      io::write_npy(dir / (name + ".npy"), d, shape);
    } else if (info.type == ObservableType::uint64) {
      std::vector<std::uint64_t> d(v.begin(), v.end());
      io::write_npy(dir / (name + ".npy"), d, shape);
    } else {
      io::write_npy(dir / (name + ".npy"), v, shape);
    }
    if (!map2d || info.type == ObservableType::vector) continue;
    io::HeatmapSpec hs;
    hs.title = rc.system.name + ": " + name;
    hs.x = io::grid_axis(rc.axes[0].name, rc.axes[0].min, rc.axes[0].max, rc.axes[0].n);
    hs.y = io::grid_axis(rc.axes[1].name, rc.axes[1].min, rc.axes[1].max, rc.axes[1].n);
    hs.colorbar_label = name;
    if (name == "status") {
      hs.categorical = true;
      hs.category_names = status_names();
    } else if (name == "exit_side") {
      hs.categorical = true;
      hs.category_names = {"opposite side (-1)", "none by t_max (0)", "same side, friendly roll (+1)"};
      hs.offset = 1.0;  // categories 0, 1, 2; NaN (masked or failed) stays grey
    } else {
      clip_to_quantiles(v, hs);
      if (hs.clip) hs.colorbar_label = name + " (colours clipped to 0.5-99.5 %)";
    }
    io::write_heatmap_png(dir / (name + ".png"), v, rc.axes[0].n, rc.axes[1].n, hs);
  }
  if (rc.spec.random) {
    for (std::size_t j = 0; j < rc.axes.size(); ++j)
      io::write_npy(dir / ("axis_" + rc.axes[j].name + ".npy"), sampled_axis_values(rc, j), rc.shape);
  }
  for (const auto& [name, a] : output_arrays(rc, res)) {
    if (a.integer) io::write_npy(dir / (name + ".npy"), a.counts, a.shape);
    else io::write_npy(dir / (name + ".npy"), a.values, a.shape);
  }
  for (const PointKind& k : point_kinds(rc, res))
    if (k.out.map) write_point_map_png(dir, rc, k);
  io::write_text_atomically(dir / "meta.json", meta.dump(2) + "\n");
}

std::map<std::string, OutputArray> output_arrays(const RunConfig& rc, const ScanResult& res) {
  std::map<std::string, OutputArray> arrays;
  for (const PointKind& k : point_kinds(rc, res)) {
    if (k.out.map)
      arrays[k.prefix + "_map"] = {true, {k.res.counts.begin(), k.res.counts.end() - 1}, {}, point_map_shape(k.out.spec)};
    const std::size_t columns = point_event_columns(rc, k.out);
    if (k.out.events) arrays[k.prefix + "_events"] = {false, {}, k.res.events, {k.res.events.size() / columns, columns}};
  }
  if (!rc.survival_times.empty()) {  // the trajectories inside at each grid time, and the grid
    arrays["survival"] = {true, res.survival_counts, {}, {res.survival_counts.size()}};
    arrays["survival_times"] = {false, {}, rc.survival_times, {rc.survival_times.size()}};
  }
  return arrays;
}

}  // namespace skipstone
