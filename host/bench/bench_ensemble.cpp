// Benchmark runs of a scan on a backend and in a scalar loop.
#include "bench_ensemble.hpp"

#include <algorithm>

#include "backends.hpp"
#include "skipstone/simulate.hpp"

namespace skipstone::bench {

namespace {
constexpr std::uint64_t kMaxChunk = std::uint64_t{1} << 24;  // bounds the buffers (~2.4 GB)

void add(EnsembleTotals& t, const TrajectoryResult& r) {
  ++t.trajectories;
  t.events += r.events;
  t.steps += r.steps;
  ++t.status[static_cast<int>(r.status)];
  if (r.status != Status::masked) ++t.unmasked;
}
}  // namespace

EnsembleRunner::EnsembleRunner(Backend b, const ScanSpec& spec)
    : backend_(b),
      spec_(spec),
      chunk_(std::min({spec.count, default_chunk_size(b, {}), kMaxChunk})),
      cpu_results_(b == Backend::cpu ? chunk_ : 0) {}

const TrajectoryResult* EnsembleRunner::run_chunk(std::uint64_t first, std::uint64_t n) {
  if (backend_ == Backend::cuda) {
    if (!cuda_results_) cuda_results_ = std::make_unique<cuda::ResultChunks>();
    return cuda_results_->run(spec_, first, n);
  }
  cpu::run_chunk(spec_, first, n, cpu_results_.data());
  return cpu_results_.data();
}

EnsembleTotals EnsembleRunner::run() {
  EnsembleTotals t;
  for (std::uint64_t first = 0; first < spec_.count; first += chunk_) {
    const std::uint64_t n = std::min<std::uint64_t>(chunk_, spec_.count - first);
    const TrajectoryResult* results = run_chunk(first, n);
    for (std::uint64_t i = 0; i < n; ++i) add(t, results[i]);
    if (keep_) keep_->append(results, n);
  }
  keep_ = nullptr;
  return t;
}

EnsembleTotals EnsembleRunner::scalar_loop() const {
  EnsembleTotals t;
  DiscardSink sink;
  // the variant is chosen once, as for the kernels: a dispatch per trajectory inside the loop
  // (simulate_trajectory) puts every model's code in one function, which runs slower
  visit_variant(spec_, [&](auto v) {
    for (std::uint64_t i = 0; i < spec_.count; ++i) add(t, simulate_variant<decltype(v)>(spec_, i, sink));
  });
  return t;
}

nlohmann::json status_json(const EnsembleTotals& t) {
  nlohmann::json j = nlohmann::json::object();
  for (int k = 0; k < kStatusCount; ++k)
    if (t.status[k]) j[status_name(static_cast<Status>(k))] = t.status[k];
  return j;
}

}  // namespace skipstone::bench
