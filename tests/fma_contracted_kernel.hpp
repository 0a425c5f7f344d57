// The ensemble kernel's CUDA path compiled for the CPU with FMA contraction: a stand-in, on a
// machine without a GPU, for a device that rounds a*b+c differently from the CPU backend
// (nvcc contracts into FMAs; the host code is built with -ffp-contract=off). Its results must
// agree with the CPU backend's within the tolerances that Backends.CudaMatchesCpu allows, which
// tests/test_backends.cpp checks on every build, GPU or not.
#pragma once
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "skipstone/result.hpp"
#include "skipstone/scan_spec.hpp"

namespace skipstone_fma_contracted {
// tests/fma_contracted_kernel.cpp: the kernel under renamed namespaces, on raw bytes of the same
// layout; the sizes are checked there.
void run_chunk_raw(const void* spec, std::size_t spec_size, std::uint64_t first, std::uint64_t count, void* out,
                   std::size_t result_size);
bool contracts();
}  // namespace skipstone_fma_contracted

namespace skipstone::fma_contracted {

// Results of trajectories [first, first + count) into out[0 .. count), one trajectory per
// iteration through simulate_variant, as the CUDA kernel runs them (no SIMD lanes).
inline void run_chunk(const ScanSpec& spec, std::uint64_t first, std::uint64_t count, TrajectoryResult* out) {
  static_assert(std::is_trivially_copyable_v<ScanSpec> && std::is_trivially_copyable_v<TrajectoryResult>);
  skipstone_fma_contracted::run_chunk_raw(&spec, sizeof spec, first, count, out, sizeof *out);
}

// False where the compiler did not contract (no FMA instructions in this build's target).
inline bool contracts() { return skipstone_fma_contracted::contracts(); }

}  // namespace skipstone::fma_contracted
