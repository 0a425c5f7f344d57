// Declared-bin histograms of observables (histogram.hpp).
#include "histogram.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "statistics.hpp"

namespace skipstone {

void Histogram::add(double x) {
  if (std::isnan(x)) return;
  if (x < spec.min) {
    ++underflow;
  } else if (x > spec.max) {
    ++overflow;
  } else {
    const double f = (x - spec.min) / (spec.max - spec.min) * static_cast<double>(spec.bins);
    const std::uint64_t i = std::min<std::uint64_t>(static_cast<std::uint64_t>(f), spec.bins - 1);
    ++counts[i];
  }
}

void Histogram::merge(const Histogram& o) {
  if (o.spec.min != spec.min || o.spec.max != spec.max || o.spec.bins != spec.bins)
    throw std::logic_error("Histogram::merge: different bins");
  for (std::size_t i = 0; i < counts.size(); ++i) counts[i] += o.counts[i];
  underflow += o.underflow;
  overflow += o.overflow;
}

std::uint64_t Histogram::total() const {
  std::uint64_t n = underflow + overflow;
  for (std::uint64_t c : counts) n += c;
  return n;
}

nlohmann::json Histogram::to_json() const {
  return {{"min", spec.min}, {"max", spec.max}, {"bins", spec.bins}, {"counts", counts},
          {"underflow", underflow}, {"overflow", overflow}, {"count", total()}};
}

std::map<std::string, Histogram> histograms_of(const std::map<std::string, HistogramSpec>& specs,
                                               const std::map<std::string, std::vector<double>>& values) {
  std::map<std::string, Histogram> out;
  for (const auto& [name, spec] : specs) {
    const std::vector<double>& v = values.at(name);
    Histogram total(spec);
    for (std::size_t first = 0; first < v.size(); first += kStatsBlock) {
      Histogram block(spec);
      const std::size_t end = std::min<std::size_t>(v.size(), first + kStatsBlock);
      for (std::size_t i = first; i < end; ++i) block.add(v[i]);
      total.merge(block);
    }
    out.emplace(name, std::move(total));
  }
  return out;
}

}  // namespace skipstone
