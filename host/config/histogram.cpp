// Declared-bin histograms of observables (histogram.hpp).
#include "histogram.hpp"

#include <algorithm>
#include <cmath>

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
    Histogram h(spec);
    for (double x : values.at(name)) h.add(x);
    out.emplace(name, std::move(h));
  }
  return out;
}

}  // namespace skipstone
