// CUDA backend: the same ensemble kernel on Thrust's CUDA system. Every CUDA call is checked
// and a failure throws std::runtime_error naming the file, line and CUDA error. When progress is
// counted, a chunk runs as bounded launches alternating between two streams, so that one
// launch's slowest trajectories overlap the next launch instead of idling the device; the host
// counts each launch as done when its event completes.
#include <cuda_runtime.h>
#include <thrust/copy.h>
#include <thrust/device_vector.h>
#include <thrust/system/cuda/execution_policy.h>

#include <sstream>
#include <stdexcept>
#include <utility>
#include <vector>

#include "backends.hpp"
#include "ensemble.inl"

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

namespace skipstone::cuda {

bool available(std::string* why) {
  int n = 0;
  const cudaError_t err = cudaGetDeviceCount(&n);
  if (err != cudaSuccess) {
    if (why) *why = std::string("no usable CUDA device (cudaGetDeviceCount: ") + cudaGetErrorName(err) + ")";
    cudaGetLastError();
    return false;
  }
  if (n == 0) {
    if (why) *why = "no CUDA device found";
    return false;
  }
  return true;
}

int device_count() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return n;
}

void set_device(int device) { SKIPSTONE_CUDA_TRY(cudaSetDevice(device)); }

int current_device() {
  int dev = 0;
  SKIPSTONE_CUDA_TRY(cudaGetDevice(&dev));
  return dev;
}

std::string device_description() {
  int dev = 0;
  SKIPSTONE_CUDA_TRY(cudaGetDevice(&dev));
  cudaDeviceProp prop;
  SKIPSTONE_CUDA_TRY(cudaGetDeviceProperties(&prop, dev));
  std::ostringstream os;
  os << prop.name << " (sm_" << prop.major << prop.minor << ", " << (prop.totalGlobalMem >> 20) << " MiB)";
  return os.str();
}

DeviceInfo device_info() {
  int dev = 0;
  SKIPSTONE_CUDA_TRY(cudaGetDevice(&dev));
  cudaDeviceProp prop;
  SKIPSTONE_CUDA_TRY(cudaGetDeviceProperties(&prop, dev));
  DeviceInfo info{prop.name, 0, 0, 0, 0};
  SKIPSTONE_CUDA_TRY(cudaDeviceGetAttribute(&info.multiprocessors, cudaDevAttrMultiProcessorCount, dev));
  SKIPSTONE_CUDA_TRY(cudaDeviceGetAttribute(&info.clock_khz, cudaDevAttrClockRate, dev));
  SKIPSTONE_CUDA_TRY(cudaDeviceGetAttribute(&info.cc_major, cudaDevAttrComputeCapabilityMajor, dev));
  SKIPSTONE_CUDA_TRY(cudaDeviceGetAttribute(&info.cc_minor, cudaDevAttrComputeCapabilityMinor, dev));
  return info;
}

std::uint64_t free_device_memory() {
  size_t free_b = 0, total_b = 0;
  SKIPSTONE_CUDA_TRY(cudaMemGetInfo(&free_b, &total_b));
  return free_b;
}

namespace {

// Trajectories per launch when progress is counted: a few times what the largest GPUs hold
// resident at once, so that launches stay long next to their tails and their launch cost.
constexpr std::uint64_t kLaunchPiece = std::uint64_t{1} << 22;

// Two streams and the events that mark the end of each launch, released on every path.
class Launches {
 public:
  Launches() {
    for (cudaStream_t& s : streams_) SKIPSTONE_CUDA_TRY(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  }
  ~Launches() {
    cudaDeviceSynchronize();
    for (auto& e : ends_) cudaEventDestroy(e.first);
    for (cudaStream_t s : streams_) cudaStreamDestroy(s);
  }
  Launches(const Launches&) = delete;
  Launches& operator=(const Launches&) = delete;
  cudaStream_t stream(std::uint64_t k) const { return streams_[k % 2]; }
  // Marks the end of launch k, of n trajectories.
  void ended(std::uint64_t k, std::uint64_t n) {
    cudaEvent_t e;
    SKIPSTONE_CUDA_TRY(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
    ends_.emplace_back(e, n);
    SKIPSTONE_CUDA_TRY(cudaEventRecord(e, stream(k)));
  }
  // Waits for every launch in order, adding each one's trajectories to *done.
  void count_into(DoneCounter* done) {
    for (const auto& [e, n] : ends_) {
      SKIPSTONE_CUDA_TRY(cudaEventSynchronize(e));
      done->fetch_add(n, std::memory_order_relaxed);
    }
  }

 private:
  cudaStream_t streams_[2];
  std::vector<std::pair<cudaEvent_t, std::uint64_t>> ends_;
};

}  // namespace

void run_chunk(const ScanSpec& spec, std::uint64_t first, std::uint64_t count, TrajectoryResult* out,
               DoneCounter* done) {
  thrust::device_vector<TrajectoryResult> d(count);
  const thrust::device_vector<ScanSpec> spec_on_device(&spec, &spec + 1);
  {
    Launches launches;
    std::uint64_t k = 0;
    kernels_detail::transform_chunk(
        [&](std::uint64_t launch) { return thrust::cuda::par_nosync.on(launches.stream(launch)); }, spec,
        thrust::raw_pointer_cast(spec_on_device.data()), first, count, d.begin(),
        done ? kLaunchPiece : (count > 0 ? count : 1), [&](std::uint64_t n) { launches.ended(k++, n); });
    SKIPSTONE_CUDA_TRY(cudaGetLastError());
    if (done) launches.count_into(done);
    SKIPSTONE_CUDA_TRY(cudaDeviceSynchronize());
  }
  thrust::copy(d.begin(), d.end(), out);
  SKIPSTONE_CUDA_TRY(cudaDeviceSynchronize());
}

}  // namespace skipstone::cuda
