// Reduction of chunks into range results and their exact, order-fixed concatenation.
#include "range_result.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "column_buffer.hpp"
#include "observables.hpp"
#include "skipstone/scan_point.hpp"

namespace skipstone {

int values_per_trajectory(const RunConfig& rc, const std::string& observable) {
  const ObservableInfo& info = observable_info(observable);
  if (info.id == ObservableId::final_state) return static_cast<int>(final_state_columns(rc).size());
  if (info.id == ObservableId::height_series) return static_cast<int>(rc.height_times.size());
  return info.length;
}

RangeResult empty_range_result(const RunConfig& rc, std::uint64_t first) {
  RangeResult r;
  r.range = {first, first};
  for (const auto& name : rc.observables) {
    r.values[name];
    if (values_per_trajectory(rc, name) == 1) r.block_stats[name];
  }
  if (rc.boundary.map) r.boundary_points.counts.assign(boundary_bin_count(rc.boundary.spec) + 1, 0);
  if (rc.section.map) r.section_points.counts.assign(boundary_bin_count(rc.section.spec) + 1, 0);
  r.survival_counts.assign(rc.survival_times.size(), 0);
  return r;
}

namespace {

// Adds the trajectories of `columns` to the survival counts of r: a trajectory that escaped at
// t_e is inside at the grid times before t_e, one that did not at all of them (a difference
// array over the grid, summed at the end).
void count_survivors(const RunConfig& rc, const ColumnsView& columns, RangeResult& r) {
  const std::vector<double>& times = rc.survival_times;
  if (times.empty()) return;
  const auto at = std::find(rc.observables.begin(), rc.observables.end(), "escape_time");
  const double* escape = columns.columns[at - rc.observables.begin()];
  std::vector<std::int64_t> steps(times.size() + 1, 0);
  for (std::uint64_t i = 0; i < columns.n; ++i) {
    if (!status_is_ok(static_cast<Status>(columns.status[i]))) continue;
    const double te = escape[i];
    const std::size_t inside =
        std::isnan(te) ? times.size() : static_cast<std::size_t>(std::lower_bound(times.begin(), times.end(), te) - times.begin());
    ++steps[0];
    --steps[inside];
  }
  std::int64_t running = 0;
  for (std::size_t k = 0; k < times.size(); ++k) {
    running += steps[k];
    r.survival_counts[k] += static_cast<std::uint64_t>(running);
  }
}

}  // namespace

void add_point_outputs(PointResult& out, const RangeResult& r, const RunConfig& rc, const BoundaryOutputs& b,
                       std::vector<std::uint64_t>&& counts, const std::vector<std::uint64_t>& recorded,
                       const std::vector<double>& rows, const std::vector<std::uint64_t>& points) {
  if (b.map) out.counts = std::move(counts);
  const std::uint64_t cap = b.max_events;
  const std::size_t fields = static_cast<std::size_t>(b.event_fields);
  for (std::size_t k = 0; k < recorded.size(); ++k) {
    const std::uint64_t i = r.range.first + recorded[k];
    const ScanPoint pt = scan_point(rc.spec, i);
    const std::uint64_t kept = std::min(points[k], cap);
    out.dropped += points[k] - kept;
    for (std::uint64_t e = 0; e < kept; ++e) {
      out.events.push_back(static_cast<double>(i));
      for (int a = 0; a < rc.spec.n_axes; ++a) out.events.push_back(pt.p[rc.spec.axes[a].param]);
      const double* row = &rows[(k * cap + e) * fields];
      out.events.insert(out.events.end(), row, row + fields);
    }
  }
}

void add_collected_rows(RangeResult& r, const std::string& name, const TrajectoryResult* results,
                        std::vector<double>&& rows, int length) {
  const std::uint64_t n = r.range.size(), c = static_cast<std::uint64_t>(length);
  for (std::uint64_t i = 0; i < n; ++i)
    if (!status_is_ok(results[i].status))
      std::fill(rows.begin() + i * c, rows.begin() + (i + 1) * c, std::numeric_limits<double>::quiet_NaN());
  r.values[name] = std::move(rows);
}

std::vector<ColumnRequest> column_requests(const RunConfig& rc) {
  std::vector<ColumnRequest> out;
  for (const auto& name : rc.observables) {
    out.push_back({observable_info(name).id, values_per_trajectory(rc, name)});
  }
  return out;
}

RangeResult reduce_columns(const RunConfig& rc, std::uint64_t first, const ColumnsView& columns) {
  if (first % kStatsBlock != 0) throw std::logic_error("reduce_columns: chunk does not start on a statistics block");
  const std::uint64_t n = columns.n;
  RangeResult r = empty_range_result(rc, first);
  r.range.end = first + n;
  for (std::uint64_t i = 0; i < n; ++i) {
    r.status_counts[columns.status[i]]++;
    r.total_events += columns.events[i];
  }
  for (std::size_t c = 0; c < rc.observables.size(); ++c) {
    const std::string& name = rc.observables[c];
    const double* column = columns.columns[c];
    std::vector<double>& values = r.values[name];
    values.assign(column, column + n * static_cast<std::uint64_t>(values_per_trajectory(rc, name)));
    if (observable_info(name).type == ObservableType::vector) continue;
    std::vector<RunningStats>& blocks = r.block_stats[name];
    for (std::uint64_t b = 0; b < n; b += kStatsBlock) {
      RunningStats block;
      const std::uint64_t e = std::min(n, b + kStatsBlock);
      for (std::uint64_t i = b; i < e; ++i)
        if (status_is_ok(static_cast<Status>(columns.status[i])) && std::isfinite(values[i])) block.add(values[i]);
      blocks.push_back(block);
    }
  }
  count_survivors(rc, columns, r);
  return r;
}

RangeResult reduce_chunk(const RunConfig& rc, std::uint64_t first, const TrajectoryResult* results, std::uint64_t n) {
  ColumnBuffer buffer(column_requests(rc));
  return reduce_columns(rc, first, buffer.pack(results, n));
}

void append_range(RangeResult& acc, RangeResult&& next) {
  if (next.range.first != acc.range.end || acc.range.end % kStatsBlock != 0)
    throw std::logic_error("append_range: ranges are not contiguous on statistics blocks");
  for (auto& [name, v] : acc.values) {
    const std::vector<double>& w = next.values.at(name);
    v.insert(v.end(), w.begin(), w.end());
  }
  for (auto& [name, b] : acc.block_stats) {
    const std::vector<RunningStats>& c = next.block_stats.at(name);
    b.insert(b.end(), c.begin(), c.end());
  }
  for (int s = 0; s < kStatusCount; ++s) acc.status_counts[s] += next.status_counts[s];
  acc.total_events += next.total_events;
  for (auto [a, n] : {std::pair<PointResult*, PointResult*>{&acc.boundary_points, &next.boundary_points},
                      {&acc.section_points, &next.section_points}}) {
    for (std::size_t b = 0; b < a->counts.size(); ++b) a->counts[b] += n->counts.at(b);
    a->events.insert(a->events.end(), n->events.begin(), n->events.end());
    a->dropped += n->dropped;
  }
  for (std::size_t k = 0; k < acc.survival_counts.size(); ++k) acc.survival_counts[k] += next.survival_counts.at(k);
  acc.wall_seconds += next.wall_seconds;
  acc.range.end = next.range.end;
}

std::map<std::string, RunningStats> merged_stats(const RangeResult& r) {
  std::map<std::string, RunningStats> out;
  for (const auto& [name, blocks] : r.block_stats) {
    RunningStats& total = out[name];
    for (const RunningStats& b : blocks) total.merge(b);
  }
  return out;
}

}  // namespace skipstone
