// SKIPSTONE_HD: one physics source for host and device.
// Under nvcc it expands to __host__ __device__; under a plain C++ compiler it is empty,
// so every header in include/skipstone/ compiles unchanged for the CPU (OpenMP) backend.
#pragma once

// SKIPSTONE_ALWAYS_INLINE: inlined on the host too, for small helpers of a hot loop that g++'s
// inliner would otherwise leave as calls (the no-slip energy helpers).
// SKIPSTONE_DEVICE_NOINLINE: a function kept out of line on the device only, where inlining it
// into a hot loop would make the loop's register allocation carry the function's state too.
// SKIPSTONE_NOINLINE: a function kept out of line everywhere: one compiled body that several
// kernel variants call, so that their results agree bit for bit.
#if defined(__CUDACC__)
#define SKIPSTONE_HD __host__ __device__
#define SKIPSTONE_INLINE __forceinline__
#define SKIPSTONE_ALWAYS_INLINE __forceinline__
#define SKIPSTONE_DEVICE_NOINLINE __noinline__
#define SKIPSTONE_NOINLINE __noinline__
#else
#define SKIPSTONE_HD
#define SKIPSTONE_INLINE inline
#define SKIPSTONE_ALWAYS_INLINE __attribute__((always_inline)) inline
#define SKIPSTONE_DEVICE_NOINLINE
#define SKIPSTONE_NOINLINE __attribute__((noinline))
#endif
