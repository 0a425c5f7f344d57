// One benchmark run of a scan: every trajectory on a backend, in chunks through a reused
// buffer, reduced to the totals the rates are made of; and the scalar single-thread loop
// over simulate_variant (no Thrust) that the backend is compared with.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include <nlohmann/json.hpp>

#include "backend.hpp"
#include "skipstone/result.hpp"
#include "skipstone/scan_spec.hpp"

namespace skipstone::bench {

struct EnsembleTotals {
  std::uint64_t trajectories = 0, events = 0, steps = 0, unmasked = 0;
  std::array<std::uint64_t, kStatusCount> status{};
};

class EnsembleRunner {
 public:
  EnsembleRunner(Backend b, const ScanSpec& spec);
  EnsembleTotals run();  // the whole scan on the backend
  EnsembleTotals scalar_loop() const;  // the whole scan, one trajectory after another, this thread

 private:
  Backend backend_;
  const ScanSpec& spec_;
  std::vector<TrajectoryResult> buf_;
};

nlohmann::json status_json(const EnsembleTotals& t);

}  // namespace skipstone::bench
