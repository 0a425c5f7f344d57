// SKIPSTONE_CUDA_TRY: every CUDA runtime call of the CUDA backend goes through it, and a failure
// throws std::runtime_error naming the file, the line, the call and the CUDA error.
#pragma once
#include <cuda_runtime.h>

#include <sstream>
#include <stdexcept>

#define SKIPSTONE_CUDA_TRY(call)                                                                      \
  do {                                                                                                \
    const cudaError_t skipstone_err_ = (call);                                                       \
    if (skipstone_err_ != cudaSuccess) {                                                             \
      std::ostringstream os_;                                                                        \
      os_ << __FILE__ << ":" << __LINE__ << ": " << #call << " failed: " << cudaGetErrorName(skipstone_err_) \
          << " (" << cudaGetErrorString(skipstone_err_) << ")";                                       \
      throw std::runtime_error(os_.str());                                                          \
    }                                                                                                 \
  } while (0)
