// A histogram with declared bins (config key `histograms`) of an observable over the scan's
// values, which are the same whatever the chunks, shards, MPI ranks or resume. Bins are
// [min + i w, min + (i + 1) w) with w = (max - min) / bins, the last one closed at max (as
// numpy.histogram); values below min or above max (infinities too) are counted as underflow
// and overflow, and NaN values (trajectories whose status is not ok) are not counted.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace skipstone {

constexpr std::uint64_t kMaxHistogramBins = 1000000;

struct HistogramSpec {
  double min, max;
  std::uint64_t bins;
};

struct Histogram {
  HistogramSpec spec;
  std::vector<std::uint64_t> counts;
  std::uint64_t underflow = 0, overflow = 0;

  explicit Histogram(HistogramSpec s) : spec(s), counts(s.bins, 0) {}
  void add(double x);
  std::uint64_t total() const;     // counted values, underflow and overflow included
  nlohmann::json to_json() const;
};

// The histogram of every declared observable over its values (vector observables are not
// allowed by the config).
std::map<std::string, Histogram> histograms_of(const std::map<std::string, HistogramSpec>& specs,
                                               const std::map<std::string, std::vector<double>>& values);

}  // namespace skipstone
