// A run's configuration: the JSON file (format in docs/config.md) parsed, validated and
// resolved into the kernels' ScanSpec plus what the writers need (axes, shape, observables).
// Every rejection is a ConfigError naming the key path. parse_config reads the sections in
// order with the readers of config_sections.hpp.
#pragma once
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "boundary_outputs.hpp"
#include "histogram.hpp"
#include "skipstone/scan_spec.hpp"
#include "state_layout.hpp"
#include "systems.hpp"

namespace skipstone {

struct ScanAxis {
  std::string name;  // config key, e.g. "angle" or "eta"
  double min, max;
  std::uint64_t n;   // grid points (grids)
};

struct RunConfig {
  SystemSchema system;
  std::string start;
  ScanSpec spec;
  std::vector<ScanAxis> axes;
  std::vector<std::size_t> shape;  // numpy shape of every map (grids: last axis = axis 0)
  std::vector<std::string> observables;
  std::map<std::string, HistogramSpec> histograms;  // declared bins, by observable
  BoundaryOutputs boundary;        // config section "outputs": boundary_map, boundary_events
  BoundaryOutputs section;         // and section_map, section_events, of the plane outputs.section
  SectionPlane plane{};
  StateLayout state;               // the system's state columns (final_state, start "state_file")
  StateRows state_rows;            // start "state_file": the file's rows (spec.state_rows points into them)
  std::vector<double> survival_times;  // outputs.survival: the grid of P(t), ascending (empty: none)
  std::vector<double> height_times;    // outputs.height_series: the times of the observable height_series (empty: none)
  std::uint64_t chunk_size;        // 0: chosen from free memory
  std::string moment_name;         // "gamma", "eta" or "beta"
  nlohmann::json resolved;         // the config with every default spelled out
  nlohmann::json gravity;          // rolling models: g and g_effective (docs/config.md, "Gravity"); null otherwise
  // The overrides applied to the file's JSON (--set, Python's overrides), in order, as
  // [{"key": path, "value": value}]; recorded in meta.json and the checkpoint's manifest.
  nlohmann::json overrides = nlohmann::json::array();
};

// options.precision = "float" for roll4:disc-transversal: rtol = atol default, the setting
// whose accuracy `skipstone bench --precision float` measures, and the smallest allowed. The GBS
// error estimate of a float step is round-off dominated below about 1e-5 (the step size
// collapses), so a float GBS cannot reach the double setting 1e-11.
constexpr double kFloatDefaultTolerance = 1e-5;
constexpr double kFloatMinTolerance = 1e-5;
// options.precision = "float" for disc and cylinder:disc: the default energy_tolerance. The
// float kernels' energy defect stays at some tens of float roundings (the state is put back
// onto the energy shell every 8 impacts): measured max 9.7e-6 (80 roundings) over the bench's
// cylinder:disc scan, 2048 trajectories x 20000 impacts, and 5.5e-6 over its disc scan.
constexpr double kFloatEnergyTolerance = 1e-4;

// Columns of a recorded point's row: trajectory index, the scan axes' values, then the point's
// fields (boundary_events: event number, t, s, p, spin; section_events: crossing number, t, coords).
inline std::size_t point_event_columns(const RunConfig& rc, const BoundaryOutputs& b) {
  return 1 + static_cast<std::size_t>(rc.spec.n_axes) + static_cast<std::size_t>(b.event_fields);
}

// Whether the run takes the collecting path (one trajectory per iteration, its events seen by a
// sink): outputs.boundary_map / boundary_events, section_map / section_events, the observables
// final_state or height_series.
bool collects(const RunConfig& rc);
// Whether the run's observables name `name`.
bool asks(const RunConfig& rc, const std::string& name);
// The columns of the observable final_state: the state's (rc.state), then kNoiseColumns where a
// trajectory of the scan has noisy constraints.
std::vector<std::string> final_state_columns(const RunConfig& rc);

RunConfig parse_config(const nlohmann::json& j);
// Parses JSON text (parse_json_text: a duplicate key or a syntax error is a ConfigError at the
// key path being read, "(file)" outside any key).
RunConfig parse_config_text(const std::string& text);
// Reads a config file's JSON (parse_json_text); a missing, unreadable or non-file path is a
// ConfigError at the path.
nlohmann::json read_config_json(const std::filesystem::path& path);
// Reads and parses a file: parse_config(read_config_json(path)).
RunConfig load_config_file(const std::filesystem::path& path);

}  // namespace skipstone
