// CUDA backend: the ensemble kernel, one trajectory per thread, one kernel per model variant
// (simulate.hpp: Variant) launched on an exact grid of kBlockThreads-thread blocks. The spec is
// a __grid_constant__ kernel parameter (read in place from parameter memory, no per-thread
// copy); the kernel writes only the requested observables' columns (observable_columns.hpp).
// The chunk engine keeps, per slot, device and pinned host buffers reused across chunks and a
// stream, so that one chunk's kernel runs while the host reduces the previous one. Every CUDA
// call is checked and a failure throws std::runtime_error naming the file, line and CUDA error.
#include <cuda_runtime.h>

#include <sstream>
#include <array>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "backends.hpp"
#include "chunk_engine.hpp"
#include "skipstone/observable_columns.hpp"
#include "skipstone/simulate.hpp"

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

std::uint64_t resident_threads() {
  int dev = 0, sms = 0, threads = 0;
  SKIPSTONE_CUDA_TRY(cudaGetDevice(&dev));
  SKIPSTONE_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  SKIPSTONE_CUDA_TRY(cudaDeviceGetAttribute(&threads, cudaDevAttrMaxThreadsPerMultiProcessor, dev));
  return static_cast<std::uint64_t>(sms) * static_cast<std::uint64_t>(threads);
}

namespace {

// Threads per block of every kernel variant (and its __launch_bounds__).
constexpr int kBlockThreads = 256;

// Where a launch writes: the requested columns, or (whole != nullptr) whole results.
struct KernelOutput {
  std::int32_t count = 0;
  ColumnRequest requests[kObservableCount];
  double* columns[kObservableCount];
  std::uint8_t* status = nullptr;
  std::uint64_t* events = nullptr;
  TrajectoryResult* whole = nullptr;
};

// Both are kernel parameters, copied bytewise into parameter memory, within the 4 KB that
// every CUDA version allows a launch's parameters.
static_assert(std::is_trivially_copyable_v<ScanSpec> && std::is_trivially_copyable_v<KernelOutput>,
              "kernel parameters must be trivially copyable");
static_assert(sizeof(ScanSpec) + sizeof(KernelOutput) + 2 * sizeof(std::uint64_t) <= 4096,
              "kernel parameters exceed 4 KB");

template <class V>
__global__ void __launch_bounds__(kBlockThreads)
    ensemble_kernel(const __grid_constant__ ScanSpec spec, std::uint64_t first, std::uint64_t n,
                    const __grid_constant__ KernelOutput out) {
  const std::uint64_t i = static_cast<std::uint64_t>(blockIdx.x) * kBlockThreads + threadIdx.x;
  if (i >= n) return;
  DiscardSink sink;
  const TrajectoryResult r = simulate_variant<V>(spec, first + i, sink);
  if (out.whole) out.whole[i] = r;
  else write_columns(r, i, out.count, out.requests, out.columns, out.status, out.events);
}

// Trajectories [first, first + n) of spec's variant on `stream`.
void launch(const ScanSpec& spec, std::uint64_t first, std::uint64_t n, const KernelOutput& out, cudaStream_t stream) {
  if (n == 0) return;
  const std::uint64_t blocks = (n + kBlockThreads - 1) / kBlockThreads;
  if (blocks > 0x7fffffffu) throw std::runtime_error("CUDA backend: a chunk of " + std::to_string(n) + " trajectories needs more blocks than a grid holds");
  visit_variant(spec, [&](auto v) {
    ensemble_kernel<decltype(v)><<<static_cast<unsigned>(blocks), kBlockThreads, 0, stream>>>(spec, first, n, out);
  });
  SKIPSTONE_CUDA_TRY(cudaGetLastError());
}

// Device memory released on every path.
struct DeviceBytes {
  void* p = nullptr;
  explicit DeviceBytes(std::size_t bytes) { SKIPSTONE_CUDA_TRY(cudaMalloc(&p, bytes ? bytes : 1)); }
  ~DeviceBytes() { cudaFree(p); }
  DeviceBytes(const DeviceBytes&) = delete;
  DeviceBytes& operator=(const DeviceBytes&) = delete;
};

// One slot of the engine: a stream, the event that ends its chunk, and device and pinned host
// buffers of `capacity` trajectories laid out alike: the columns in request order, then the
// events, then the statuses.
class Slot {
 public:
  explicit Slot(const std::vector<ColumnRequest>& requests) : requests_(requests) {
    SKIPSTONE_CUDA_TRY(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
    SKIPSTONE_CUDA_TRY(cudaEventCreateWithFlags(&end_, cudaEventDisableTiming));
  }
  ~Slot() {
    cudaStreamSynchronize(stream_);
    release();
    cudaEventDestroy(end_);
    cudaStreamDestroy(stream_);
  }
  Slot(const Slot&) = delete;
  Slot& operator=(const Slot&) = delete;

  void submit(const ScanSpec& spec, std::uint64_t first, std::uint64_t n, DoneCounter* done) {
    SKIPSTONE_CUDA_TRY(cudaStreamSynchronize(stream_));  // the slot's previous chunk was waited for
    reserve(n);
    KernelOutput out;
    out.count = static_cast<std::int32_t>(requests_.size());
    std::uint64_t at = 0;
    for (std::size_t c = 0; c < requests_.size(); ++c) {
      out.requests[c] = requests_[c];
      out.columns[c] = reinterpret_cast<double*>(device_ + at);
      host_columns_[c] = reinterpret_cast<const double*>(host_ + at);
      at += sizeof(double) * capacity_ * static_cast<std::uint64_t>(requests_[c].length);
    }
    out.events = reinterpret_cast<std::uint64_t*>(device_ + at);
    const std::uint64_t status_at = at + sizeof(std::uint64_t) * capacity_;
    out.status = reinterpret_cast<std::uint8_t*>(device_ + status_at);
    launch(spec, first, n, out, stream_);
    for (std::size_t c = 0; c < requests_.size(); ++c) {
      const std::uint64_t offset = reinterpret_cast<char*>(out.columns[c]) - device_;
      copy_back(offset, sizeof(double) * n * static_cast<std::uint64_t>(requests_[c].length));
    }
    copy_back(at, sizeof(std::uint64_t) * n);
    copy_back(status_at, n);
    SKIPSTONE_CUDA_TRY(cudaEventRecord(end_, stream_));
    view_.n = n;
    view_.events = reinterpret_cast<const std::uint64_t*>(host_ + at);
    view_.status = reinterpret_cast<const std::uint8_t*>(host_ + status_at);
    view_.columns = host_columns_.data();
    done_ = done;
  }

  ColumnsView wait() {
    SKIPSTONE_CUDA_TRY(cudaEventSynchronize(end_));
    if (done_) done_->fetch_add(view_.n, std::memory_order_relaxed);
    done_ = nullptr;
    return view_;
  }

 private:
  void copy_back(std::uint64_t offset, std::uint64_t bytes) {
    SKIPSTONE_CUDA_TRY(cudaMemcpyAsync(host_ + offset, device_ + offset, bytes, cudaMemcpyDeviceToHost, stream_));
  }
  void reserve(std::uint64_t n) {
    if (n <= capacity_) return;
    release();
    const std::uint64_t bytes = column_bytes_per_trajectory(requests_) * n;
    SKIPSTONE_CUDA_TRY(cudaMalloc(reinterpret_cast<void**>(&device_), bytes));
    SKIPSTONE_CUDA_TRY(cudaMallocHost(reinterpret_cast<void**>(&host_), bytes));
    capacity_ = n;
  }
  void release() {
    if (device_) cudaFree(device_);
    if (host_) cudaFreeHost(host_);
    device_ = host_ = nullptr;
    capacity_ = 0;
  }

  std::vector<ColumnRequest> requests_;
  cudaStream_t stream_ = nullptr;
  cudaEvent_t end_ = nullptr;
  char* device_ = nullptr;
  char* host_ = nullptr;  // pinned
  std::uint64_t capacity_ = 0;
  std::vector<const double*> host_columns_ = std::vector<const double*>(kObservableCount);
  ColumnsView view_;
  DoneCounter* done_ = nullptr;
};

class CudaEngine final : public ChunkEngine {
 public:
  CudaEngine(const ScanSpec& spec, const std::vector<ColumnRequest>& requests) : spec_(spec) {
    if (requests.size() > static_cast<std::size_t>(kObservableCount))
      throw std::invalid_argument("CUDA engine: more columns than observables");
    for (auto& s : slots_) s = std::make_unique<Slot>(requests);
  }
  void submit(int slot, std::uint64_t first, std::uint64_t n, DoneCounter* done) override {
    slots_.at(static_cast<std::size_t>(slot))->submit(spec_, first, n, done);
  }
  ColumnsView wait(int slot) override { return slots_.at(static_cast<std::size_t>(slot))->wait(); }

 private:
  ScanSpec spec_;
  std::array<std::unique_ptr<Slot>, kSlots> slots_;
};

}  // namespace

std::unique_ptr<ChunkEngine> make_engine(const ScanSpec& spec, const std::vector<ColumnRequest>& requests) {
  return std::make_unique<CudaEngine>(spec, requests);
}

void run_chunk(const ScanSpec& spec, std::uint64_t first, std::uint64_t count, TrajectoryResult* out,
               DoneCounter* done) {
  DeviceBytes d(sizeof(TrajectoryResult) * count);
  KernelOutput whole;
  whole.whole = static_cast<TrajectoryResult*>(d.p);
  launch(spec, first, count, whole, nullptr);
  SKIPSTONE_CUDA_TRY(cudaMemcpy(out, d.p, sizeof(TrajectoryResult) * count, cudaMemcpyDeviceToHost));
  if (done) done->fetch_add(count, std::memory_order_relaxed);
}

}  // namespace skipstone::cuda
