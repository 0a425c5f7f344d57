// initial.start "state_file" (docs/config.md, "Start from a file of states"): the trajectories of
// the scan are the rows of a float64 .npy of shape (rows, columns) or a grid's (n1, ..., columns),
// the columns of the system's final_state in their order, so that the final states of one run
// start the next. The file is read once, here; every chunk, shard and resumed run indexes the
// same rows, and its content hash is in the resolved config, so a checkpoint or shard of other
// rows is not combined.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <string>

#include "config_sections.hpp"
#include "npy_writer.hpp"

namespace skipstone {

namespace {

std::string column_list(const std::vector<std::string>& columns) {
  std::string s;
  for (const auto& c : columns) s += (s.empty() ? "" : ", ") + c;
  return s;
}

std::string shape_text(const std::vector<std::size_t>& shape) {
  std::string s = "(";
  for (std::size_t k = 0; k < shape.size(); ++k) s += (k ? ", " : "") + std::to_string(shape[k]);
  return s + (shape.size() == 1 ? ",)" : ")");
}

std::string content_hash(const std::vector<char>& bytes) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (char c : bytes) {
    h ^= static_cast<unsigned char>(c);
    h *= 0x100000001b3ull;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "fnv1a64:%016llx", static_cast<unsigned long long>(h));
  return buf;
}

}  // namespace

void read_state_file(JsonReader& init, RunConfig& rc) {
  const StateLayout& layout = rc.state;
  const std::string key = init.key_path("file");
  // A system with noisy constraints also takes the noise columns after the state's (a noisy
  // run's final_state): the noise process a noisy run goes on from (row_noise; NaN: none).
  const bool noisy = find_rule(rc.system.parameters, "noise") != nullptr;
  const std::size_t cols = layout.columns.size(), noise_cols = noisy ? kNoiseLayout.columns.size() : 0;
  std::string allowed = "allowed: a float64 .npy of shape (rows, " + std::to_string(cols) + ") or (n1, ..., " +
                        std::to_string(cols) + "), columns " + column_list(layout.columns) +
                        " (the final_state.npy of a run of " + rc.system.name + ")";
  if (noisy)
    allowed += ", or with " + std::to_string(cols + noise_cols) + " columns, the noise columns " +
               column_list(kNoiseLayout.columns) + " after them (a noisy run's)";
  if (!init.has("file")) throw ConfigError(key, "required with initial.start \"state_file\"; " + allowed);
  const std::string path = init.string("file");
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) throw ConfigError(key, "value " + show(path) + ": no such file; " + allowed);
  io::NpyArray a;
  try {
    a = io::read_npy(path);
  } catch (const std::exception& e) {
    throw ConfigError(key, "value " + show(path) + " is not a readable .npy file (" + e.what() + "); " + allowed);
  }
  if (a.descr != "<f8") throw ConfigError(key, "value " + show(path) + " has dtype " + show(a.descr) + "; " + allowed);
  // A grid's final_state has the grid's shape before its columns: its rows are the trajectories
  // in their index order, the order a C-ordered array holds them in.
  std::size_t rows = 1;
  for (std::size_t k = 0; k + 1 < a.shape.size(); ++k) rows *= a.shape[k];
  const std::size_t width = a.shape.size() < 2 ? 0 : a.shape.back();
  if (!(width == cols || (noisy && width == cols + noise_cols)) || rows == 0)
    throw ConfigError(key, "value " + show(path) + " has shape " + shape_text(a.shape) + "; " + allowed);
  std::vector<std::string> columns = layout.columns;
  std::vector<Param> params = layout.params;
  if (width > cols) {
    columns.insert(columns.end(), kNoiseLayout.columns.begin(), kNoiseLayout.columns.end());
    params.insert(params.end(), kNoiseLayout.params.begin(), kNoiseLayout.params.end());
  }
  auto values = std::make_shared<std::vector<double>>(rows * width);
  std::memcpy(values->data(), a.bytes.data(), values->size() * sizeof(double));
  for (std::size_t i = 0; i < values->size(); ++i) {
    const double v = (*values)[i];
    const bool noise_column = i % width >= cols;
    if (!std::isfinite(v) && !(noise_column && std::isnan(v)))
      throw ConfigError(key, "value " + show(path) + ": row " + std::to_string(i / width) + " has a value that is not finite (column " +
                                 columns[i % width] + "); allowed: finite numbers only (leave out the rows of masked or "
                                 "failed trajectories, whose final_state is NaN), NaN in the noise columns (no noise "
                                 "process to go on from)");
  }
  for (std::size_t c = 0; c < cols; ++c) {  // the rolling tables' face: a face or the edge (table_state_row.hpp)
    if (layout.params[c] != P_FACE) continue;
    for (std::size_t r = 0; r < rows; ++r) {
      const double f = (*values)[r * width + c];
      if (!(f == 1.0 || f == -1.0 || f == 0.0))
        throw ConfigError(key, "value " + show(path) + ": row " + std::to_string(r) + " has face " + show(f) +
                                   "; allowed: face 1 (on N+), -1 (on N-) or 0 (on the edge)");
    }
  }
  rc.state_rows = values;
  ScanSpec& spec = rc.spec;
  spec.state_rows = values->data();
  spec.state_columns = static_cast<std::int32_t>(width);
  for (std::size_t c = 0; c < width; ++c) spec.state_params[c] = params[c];
  rc.resolved["initial"]["file"] = path;
  rc.resolved["initial"]["rows"] = rows;
  rc.resolved["initial"]["columns"] = columns;
  rc.resolved["initial"]["content"] = content_hash(a.bytes);
}

void resolve_state_scan(RunConfig& rc) {
  if (!rc.state_rows) return;
  if (!rc.axes.empty())
    throw ConfigError("scan.axes", "not allowed with initial.start \"state_file\": the trajectories are the file's rows; "
                                   "allowed: no \"scan\" section");
  rc.spec.count = rc.state_rows->size() / static_cast<std::size_t>(rc.spec.state_columns);
  rc.shape = {static_cast<std::size_t>(rc.spec.count)};
}

}  // namespace skipstone
