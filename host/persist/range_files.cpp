// Writing and reading range results as NPY arrays plus range.json.
#include "range_files.hpp"

#include <cstring>
#include <fstream>
#include <stdexcept>

#include "atomic_file.hpp"
#include "config_hash.hpp"
#include "npy_writer.hpp"
#include "version.hpp"

namespace skipstone {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

constexpr const char* kFormat = "skipstone-range-1";
constexpr std::size_t kStatsFields = 5;

[[noreturn]] void bad(const fs::path& file, const std::string& what) {
  throw std::runtime_error(file.string() + ": " + what);
}

// The values of an array of dtype descr ("<f8": double, "<u8": std::uint64_t) and this shape.
template <class T>
std::vector<T> read_array(const fs::path& file, const char* descr, const std::vector<std::size_t>& shape) {
  io::NpyArray a;
  try {
    a = io::read_npy(file);
  } catch (const std::exception& e) {
    bad(file, e.what());
  }
  if (a.descr != descr || a.shape != shape) bad(file, "unexpected dtype or shape (not written for this range)");
  std::vector<T> v(a.bytes.size() / sizeof(T));
  std::memcpy(v.data(), a.bytes.data(), v.size() * sizeof(T));
  return v;
}

std::vector<double> read_doubles(const fs::path& file, const std::vector<std::size_t>& shape) {
  return read_array<double>(file, "<f8", shape);
}

json read_range_json(const fs::path& file) {
  std::ifstream in(file);
  if (!in) bad(file, "missing (an incomplete or foreign folder)");
  try {
    return json::parse(in);
  } catch (const json::exception& e) {
    bad(file, std::string("not valid JSON: ") + e.what());
  }
}

}  // namespace

void write_range_files(const fs::path& dir, const RunConfig& rc, const RangeResult& r) {
  const std::size_t n = r.range.size();
  for (const auto& [name, values] : r.values) {
    std::vector<std::size_t> shape = {n};
    if (values_per_trajectory(rc, name) > 1) shape.push_back(static_cast<std::size_t>(values_per_trajectory(rc, name)));
    io::write_npy(dir / (name + ".values.npy"), values, shape);
  }
  for (const auto& [name, blocks] : r.block_stats) {
    std::vector<double> table;
    table.reserve(kStatsFields * blocks.size());
    for (const RunningStats& b : blocks)
      for (double x : {static_cast<double>(b.count), b.mean, b.m2, b.min, b.max}) table.push_back(x);
    io::write_npy(dir / (name + ".block_stats.npy"), table, {blocks.size(), kStatsFields});
  }
  for (const PointFiles& k : point_files(rc)) {
    const PointResult& p = r.*k.member;
    if (k.out.map) io::write_npy(dir / (k.prefix + "_map.counts.npy"), p.counts, {p.counts.size()});
    const std::size_t columns = point_event_columns(rc, k.out);
    if (k.out.events) io::write_npy(dir / (k.prefix + "_events.rows.npy"), p.events, {p.events.size() / columns, columns});
  }
  if (!rc.survival_times.empty())
    io::write_npy(dir / "survival.counts.npy", r.survival_counts, {r.survival_counts.size()});
  json counts = json::object();
  for (int s = 0; s < kStatusCount; ++s) counts[status_name(static_cast<Status>(s))] = r.status_counts[s];
  const json meta = {{"format", kFormat},           {"skipstone_version", SKIPSTONE_VERSION},
                     {"config_hash", config_hash(rc.resolved)}, {"first", r.range.first},
                     {"end", r.range.end},          {"status_counts", counts},
                     {"total_events", r.total_events}, {"wall_time_s", r.wall_seconds},
                     {"boundary_events_dropped", r.boundary_points.dropped},
                     {"section_events_dropped", r.section_points.dropped}};
  io::write_text_atomically(dir / "range.json", meta.dump(2) + "\n");
}

RangeResult read_range_files(const fs::path& dir, const RunConfig& rc) {
  const fs::path file = dir / "range.json";
  const json meta = read_range_json(file);
  RangeResult r;
  try {
    if (meta.at("format") != kFormat) bad(file, "format " + meta.at("format").dump() + " is not " + kFormat);
    if (meta.at("skipstone_version") != SKIPSTONE_VERSION)
      bad(file, "written by skipstone " + meta.at("skipstone_version").dump() + ", this is " SKIPSTONE_VERSION);
    if (meta.at("config_hash") != config_hash(rc.resolved))
      bad(file, "written for another config (config_hash " + meta.at("config_hash").dump() + ")");
    r = empty_range_result(rc, meta.at("first").get<std::uint64_t>());
    r.range.end = meta.at("end").get<std::uint64_t>();
    for (int s = 0; s < kStatusCount; ++s)
      r.status_counts[s] = meta.at("status_counts").at(status_name(static_cast<Status>(s))).get<std::uint64_t>();
    r.total_events = meta.at("total_events").get<std::uint64_t>();
    r.wall_seconds = meta.at("wall_time_s").get<double>();
    r.boundary_points.dropped = meta.at("boundary_events_dropped").get<std::uint64_t>();
    r.section_points.dropped = meta.at("section_events_dropped").get<std::uint64_t>();
  } catch (const json::exception& e) {
    bad(file, std::string("malformed: ") + e.what());
  }
  if (r.range.first % kStatsBlock != 0 || r.range.end < r.range.first || r.range.end > rc.spec.count)
    bad(file, "range is not a run of whole statistics blocks of this scan");
  const std::size_t n = r.range.size();
  for (auto& [name, values] : r.values) {
    std::vector<std::size_t> shape = {n};
    if (values_per_trajectory(rc, name) > 1) shape.push_back(static_cast<std::size_t>(values_per_trajectory(rc, name)));
    values = read_doubles(dir / (name + ".values.npy"), shape);
  }
  for (auto& [name, blocks] : r.block_stats) {
    const std::size_t nblocks = (n + kStatsBlock - 1) / kStatsBlock;
    const std::vector<double> table = read_doubles(dir / (name + ".block_stats.npy"), {nblocks, kStatsFields});
    for (std::size_t b = 0; b < nblocks; ++b) {
      const double* row = &table[kStatsFields * b];
      blocks.push_back({static_cast<std::uint64_t>(row[0]), row[1], row[2], row[3], row[4]});
    }
  }
  if (!rc.survival_times.empty())
    r.survival_counts = read_array<std::uint64_t>(dir / "survival.counts.npy", "<u8", {r.survival_counts.size()});
  for (const PointFiles& k : point_files(rc)) {
    PointResult& p = r.*k.member;
    if (k.out.map) p.counts = read_array<std::uint64_t>(dir / (k.prefix + "_map.counts.npy"), "<u8", {p.counts.size()});
    if (!k.out.events) continue;
    const fs::path rows = dir / (k.prefix + "_events.rows.npy");
    io::NpyArray a;
    try {
      a = io::read_npy(rows);
    } catch (const std::exception& e) {
      bad(rows, e.what());
    }
    if (a.shape.size() != 2) bad(rows, "not a table of rows");
    p.events = read_doubles(rows, {a.shape[0], point_event_columns(rc, k.out)});
  }
  return r;
}

}  // namespace skipstone
