// Writes a finished scan into its output folder: one <observable>.npy per observable shaped
// like the scan, <observable>.png heat maps for two-axis grids, axis_<param>.npy with the
// sampled values of random scans, and meta.json (written last). Every file goes through a
// temporary name and a rename.
#pragma once
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "backend.hpp"
#include "config.hpp"
#include "scan_runner.hpp"

namespace skipstone {

nlohmann::json run_metadata(const RunConfig& rc, const ScanResult& res, const BackendChoice& backend,
                            const std::string& command_line);

void write_outputs(const std::filesystem::path& dir, const RunConfig& rc, const ScanResult& res,
                   const nlohmann::json& meta);

}  // namespace skipstone
