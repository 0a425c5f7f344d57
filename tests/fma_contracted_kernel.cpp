// The kernel of kernels/ensemble.inl compiled for the CPU with -ffp-contract=fast
// (tests/CMakeLists.txt), as nvcc compiles it for a GPU: a*b+c contracted into FMAs. While the
// kernel headers are read, every skipstone name becomes skipstone_fma, so that these inline
// functions, compiled with contraction, are not merged with the backend's by the linker (one
// definition rule). Nothing of the real skipstone is included here; the entry point takes raw
// bytes of the same layout (same headers), sizes checked.
#include <thrust/iterator/counting_iterator.h>
#include <thrust/system/omp/execution_policy.h>
#include <thrust/transform.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>

#define skipstone skipstone_fma
#include "ensemble.inl"
#undef skipstone

namespace skipstone_fma_contracted {

void run_chunk_raw(const void* spec, std::size_t spec_size, std::uint64_t first, std::uint64_t count, void* out,
                   std::size_t result_size) {
  if (spec_size != sizeof(skipstone_fma::ScanSpec) || result_size != sizeof(skipstone_fma::TrajectoryResult))
    throw std::logic_error("fma_contracted: ScanSpec or TrajectoryResult layout differs from the kernel's");
  skipstone_fma::ScanSpec renamed;
  std::memcpy(&renamed, spec, sizeof renamed);
  skipstone_fma::kernels_detail::transform_chunk([](std::uint64_t) { return thrust::omp::par; }, renamed,
                                                 first, count, static_cast<skipstone_fma::TrajectoryResult*>(out),
                                                 count > 0 ? count : 1, [](std::uint64_t) {});
}

bool contracts() {
#ifdef __FMA__
  return true;
#else
  return false;
#endif
}

}  // namespace skipstone_fma_contracted
