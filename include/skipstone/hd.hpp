// SKIPSTONE_HD: one physics source for host and device.
// Under nvcc it expands to __host__ __device__; under a plain C++ compiler it is empty,
// so every header in include/skipstone/ compiles unchanged for the CPU (OpenMP) backend.
#pragma once

#if defined(__CUDACC__)
#define SKIPSTONE_HD __host__ __device__
#define SKIPSTONE_INLINE __forceinline__
#else
#define SKIPSTONE_HD
#define SKIPSTONE_INLINE inline
#endif
