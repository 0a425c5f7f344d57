// Writes a finished scan into its output folder: one <observable>.npy per observable shaped
// like the scan, <observable>.png heat maps for two-axis grids, axis_<param>.npy with the
// sampled values of random scans, and meta.json (written last). Every file goes through a
// temporary name and a rename.
#pragma once
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "backend.hpp"
#include "config.hpp"
#include "scan_runner.hpp"

namespace skipstone {

// The values of a grid axis, as meta.json lists them.
std::vector<double> axis_values(const ScanAxis& a);
// The sampled values of axis j of a random scan, one per trajectory (axis_<param>.npy).
std::vector<double> sampled_axis_values(const RunConfig& rc, std::size_t j);
// The shape of observable `name`'s .npy file: the scan's, and 3 more for a vector observable.
// Its dtype is that of observable_info(name).type (float64, int8, uint64; vector: float64).
std::vector<std::size_t> observable_shape(const RunConfig& rc, const std::string& name);

nlohmann::json run_metadata(const RunConfig& rc, const ScanResult& res, const BackendChoice& backend,
                            const std::string& command_line);

void write_outputs(const std::filesystem::path& dir, const RunConfig& rc, const ScanResult& res,
                   const nlohmann::json& meta);

// An array of the config's outputs section as its <name>.npy holds it: uint64 counts (integer)
// or float64 values, and the shape.
struct OutputArray {
  bool integer = false;
  std::vector<std::uint64_t> counts;
  std::vector<double> values;
  std::vector<std::size_t> shape;
};
// Those the config asks for, by file name without ".npy": boundary_map (the counts inside the
// bins), boundary_events (the rows), section_map, section_events, survival, survival_times.
std::map<std::string, OutputArray> output_arrays(const RunConfig& rc, const ScanResult& res);

}  // namespace skipstone
