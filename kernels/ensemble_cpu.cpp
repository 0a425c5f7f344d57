// CPU backend: the ensemble kernel on Thrust's OpenMP system (compiled by the host compiler).
#include <omp.h>
#include <thrust/system/omp/execution_policy.h>

#include "backends.hpp"
#include "ensemble.inl"

namespace skipstone::cpu {

void run_chunk(const ScanSpec& spec, std::uint64_t first, std::uint64_t count, TrajectoryResult* out) {
  kernels_detail::transform_chunk(thrust::omp::par, spec, &spec, first, count, out);
}

int max_threads() { return omp_get_max_threads(); }
void set_threads(int n) { omp_set_num_threads(n); }

}  // namespace skipstone::cpu
