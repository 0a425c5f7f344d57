// The readers of a run config's sections, one job each, called by parse_config (config.cpp) in
// an order that matters: the start kind and the scan axes come first because start keys and
// parameters may be scan axes; the axes are checked against the rules once both are known.
// Each reader checks its section (a ConfigError names the key path), fills its part of the
// RunConfig and writes its part of RunConfig::resolved, the config with every default
// spelled out.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "config.hpp"
#include "json_reader.hpp"

namespace skipstone {

// --- shared by the readers
std::string number_text(double v);  // a double for messages, all 17 digits
const ParamRule* find_rule(const std::vector<ParamRule>& rules, const std::string& name);
void check_rule(const ParamRule& r, double v, const std::string& path);
std::string axis_path(std::size_t i);  // "scan.axes[i]"
const ScanAxis* find_axis(const RunConfig& rc, const std::string& name);
// The key path "observables[i]" of an observable the run asks for (asks, config.hpp).
std::string observable_path(const RunConfig& rc, const std::string& name);

// --- initial and parameters (section_parameters.cpp)
// initial.start: the start kind, with the keys the initial section may hold.
const StartSchema& read_start(JsonReader& init, RunConfig& rc);
// parameters: the moment of inertia, the system's parameters, gravity, polygon vertices.
void read_parameters(JsonReader& params, RunConfig& rc);
// Values of the keys a rule list names (parameters, or a start's keys in initial); a key that
// is also a scan axis is left to the axis.
void read_rules(JsonReader& rd, const std::vector<ParamRule>& rules, const char* section, RunConfig& rc);
// Rolling models: exactly one of g and g_effective; RunConfig::gravity records both
// (section_gravity.cpp).
void read_gravity(JsonReader& params, RunConfig& rc);

// parameters.no_twist (section_no_twist.cpp): not a scan axis; with 1, the start's spins 0 and
// no contact observables. After the observables are read.
void check_no_twist(const RunConfig& rc);

// --- scan (section_scan.cpp)
// scan: type, count, seed and the axes' names and ends.
void read_scan(JsonReader scan, RunConfig& rc);
// initial.file of the start "state_file" (section_state_file.cpp): the rows of the .npy, checked
// against the system's state columns; the scan is the file's rows (after resolve_axes).
void read_state_file(JsonReader& init, RunConfig& rc);
void resolve_state_scan(RunConfig& rc);
// The axes against the parameters' rules, and the scan's size and map shape.
void resolve_axes(RunConfig& rc, const StartSchema& start);
// The constraints between parameters at every corner of the scanned box.
void check_scanned_box(const RunConfig& rc);
// resolved.scan, once the axes are final.
void resolve_scan(RunConfig& rc);

// --- stop rules and options (section_stop.cpp, section_options.cpp)
void read_stop(JsonReader stop, RunConfig& rc);
void read_options(JsonReader opt, RunConfig& rc);

// --- what a run writes (section_outputs.cpp)
void read_observables(JsonReader& top, RunConfig& rc);
void read_histograms(JsonReader& top, RunConfig& rc);
// outputs (section_outputs_boundary.cpp): boundary_map and boundary_events, after the scan is
// resolved, and the section outputs (section_outputs_section.cpp)
void read_outputs(JsonReader outputs, RunConfig& rc);
void read_section_outputs(JsonReader& outputs, RunConfig& rc);
// The coordinates `coords` of a map (outputs.boundary_map, outputs.coverage): 2 to max_coords
// distinct names of the system's impact row (impact_coordinates.hpp; bounded_only: those with a
// range of their own), set into spec (n_coords, columns and their ranges by definition); returns
// the names.
std::vector<std::string> read_map_coords(const nlohmann::json& coords, const std::string& path,
                                         const SystemTraits& system, int max_coords, bool bounded_only,
                                         BoundaryMapSpec& spec);
// A map's "bins" and optional "ranges" for the coordinates b.coords (b.spec's lo, hi hold the
// defaults); returns the map's resolved bins and ranges.
nlohmann::json read_map_bins(JsonReader& map, BoundaryOutputs& b);
// "every" or "indices", and max_events_per_trajectory, of recorded `points`; returns the resolved config.
nlohmann::json read_point_events(JsonReader events, const RunConfig& rc, BoundaryOutputs& b, const char* points);
// outputs.survival and outputs.coverage (section_outputs_escape.cpp), read by read_outputs, and
// the requirements of the escape observables, checked once the outputs are read
void read_survival(JsonReader survival, RunConfig& rc);
void read_coverage(JsonReader coverage, RunConfig& rc);
void check_escape_observables(RunConfig& rc);
// outputs.height_series (section_outputs_height.cpp), and the grid the observable height_series needs
void read_height_series(JsonReader height_series, RunConfig& rc);
void check_height_series(const RunConfig& rc);

}  // namespace skipstone
