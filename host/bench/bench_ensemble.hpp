// One benchmark run of a scan: every trajectory on a backend, in chunks through buffers reused
// from chunk to chunk and run to run (on a GPU: device and pinned host memory), reduced to the totals the rates are made of; and the scalar single-thread loop
// over simulate_variant (no Thrust) that the backend is compared with. A run can also keep each
// trajectory's outcome for a float/double comparison (bench_accuracy.hpp).
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include <nlohmann/json.hpp>

#include "backend.hpp"
#include "bench_accuracy.hpp"
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
  // The next run() also appends every trajectory's outcome to *record (a workload keeps those
  // of its warm-up run; record must outlive that run).
  void keep_next_run(RunRecord* record) { keep_ = record; }
  EnsembleTotals scalar_loop() const;  // the whole scan, one trajectory after another, this thread

 private:
  // Results of trajectories [first, first + n) of the scan, valid until the next chunk.
  const TrajectoryResult* run_chunk(std::uint64_t first, std::uint64_t n);

  Backend backend_;
  const ScanSpec& spec_;
  std::uint64_t chunk_;
  std::vector<TrajectoryResult> cpu_results_;
  std::unique_ptr<cuda::ResultChunks> cuda_results_;
  RunRecord* keep_ = nullptr;
};

nlohmann::json status_json(const EnsembleTotals& t);

}  // namespace skipstone::bench
