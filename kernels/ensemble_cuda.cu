// CUDA backend: the ensemble kernel, one trajectory per thread, one kernel per model variant
// (simulate.hpp: Variant) launched on an exact grid of kBlockThreads-thread blocks. The spec is
// a __grid_constant__ kernel parameter (read in place from parameter memory, no per-thread
// copy); the kernel writes only the requested observables' columns (observable_columns.hpp).
// The chunk engine keeps, per slot, device and pinned host buffers reused across chunks and a
// stream, so that one chunk's kernel runs while the host reduces the previous one; each block
// adds its finished trajectories to a counter in mapped host memory that wait() passes on to the
// progress counter while the chunk runs. The benchmarks' whole results go through a device and
// a pinned host buffer kept across chunks (ResultChunks). Every CUDA call is checked and a
// failure throws std::runtime_error naming the file, line and CUDA error.
#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
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
// How often a wait reads the kernel's count of finished trajectories.
constexpr auto kProgressPoll = std::chrono::milliseconds(1);

// Where a launch writes: the requested columns, or (whole != nullptr) whole results.
struct KernelOutput {
  std::int32_t count = 0;
  ColumnRequest requests[kObservableCount];
  double* columns[kObservableCount];
  std::uint8_t* status = nullptr;
  std::uint64_t* events = nullptr;
  TrajectoryResult* whole = nullptr;
  // Trajectories finished, advanced by each block once all of its trajectories are; null: not
  // counted. Mapped host memory, which the host reads while the kernel runs.
  unsigned long long* finished = nullptr;
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
  const bool mine = i < n;
  if (mine) {
    DiscardSink sink;
    const TrajectoryResult r = simulate_variant<V>(spec, first + i, sink);
    if (out.whole) out.whole[i] = r;
    else write_columns(r, i, out.count, out.requests, out.columns, out.status, out.events);
  }
  if (out.finished) {  // the same for the whole grid: every thread of the block reaches the barrier
    const int block_finished = __syncthreads_count(mine);
    if (threadIdx.x == 0) atomicAdd_system(out.finished, static_cast<unsigned long long>(block_finished));
  }
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

// One slot of the engine: a stream, the event that ends its chunk, and device and pinned host
// buffers of `capacity` trajectories laid out alike: the columns in request order, then the
// events, then the statuses.
class Slot {
 public:
  explicit Slot(const std::vector<ColumnRequest>& requests) : requests_(requests) {
    SKIPSTONE_CUDA_TRY(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
    SKIPSTONE_CUDA_TRY(cudaEventCreateWithFlags(&end_, cudaEventDisableTiming));
    SKIPSTONE_CUDA_TRY(cudaHostAlloc(reinterpret_cast<void**>(&finished_), sizeof *finished_, cudaHostAllocMapped));
    SKIPSTONE_CUDA_TRY(cudaHostGetDevicePointer(reinterpret_cast<void**>(&finished_device_), finished_, 0));
  }
  ~Slot() {
    cudaStreamSynchronize(stream_);
    release();
    cudaFreeHost(finished_);
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
    if (done) {
      *static_cast<volatile unsigned long long*>(finished_) = 0;
      out.finished = finished_device_;
    }
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

  // While the chunk runs, passes the kernel's count of finished trajectories on to `done`.
  ColumnsView wait() {
    if (done_) {
      std::uint64_t passed = 0;  // of the kernel's count, added to *done_ so far
      while (cudaEventQuery(end_) == cudaErrorNotReady) {
        const std::uint64_t now = std::min<std::uint64_t>(*static_cast<volatile unsigned long long*>(finished_), view_.n);
        if (now > passed) done_->fetch_add(now - passed, std::memory_order_relaxed);
        passed = std::max(passed, now);
        std::this_thread::sleep_for(kProgressPoll);
      }
      SKIPSTONE_CUDA_TRY(cudaEventSynchronize(end_));  // the chunk's failure, if it failed
      done_->fetch_add(view_.n - passed, std::memory_order_relaxed);
    } else {
      SKIPSTONE_CUDA_TRY(cudaEventSynchronize(end_));
    }
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
  unsigned long long* finished_ = nullptr;         // mapped host memory: the kernel's count
  unsigned long long* finished_device_ = nullptr;  // the same, as the device addresses it
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

ResultChunks::~ResultChunks() {
  if (device_) cudaFree(device_);
  if (host_) cudaFreeHost(host_);
}

const TrajectoryResult* ResultChunks::run(const ScanSpec& spec, std::uint64_t first, std::uint64_t count) {
  if (count == 0) return host_;
  if (count > capacity_) {
    if (device_) cudaFree(device_);
    if (host_) cudaFreeHost(host_);
    device_ = host_ = nullptr;
    capacity_ = 0;
    SKIPSTONE_CUDA_TRY(cudaMalloc(reinterpret_cast<void**>(&device_), sizeof(TrajectoryResult) * count));
    SKIPSTONE_CUDA_TRY(cudaMallocHost(reinterpret_cast<void**>(&host_), sizeof(TrajectoryResult) * count));
    capacity_ = count;
  }
  KernelOutput whole;
  whole.whole = device_;
  launch(spec, first, count, whole, nullptr);
  SKIPSTONE_CUDA_TRY(cudaMemcpy(host_, device_, sizeof(TrajectoryResult) * count, cudaMemcpyDeviceToHost));
  return host_;
}

void run_chunk(const ScanSpec& spec, std::uint64_t first, std::uint64_t count, TrajectoryResult* out,
               DoneCounter* done) {
  ResultChunks chunks;
  const TrajectoryResult* r = chunks.run(spec, first, count);
  std::copy(r, r + count, out);
  if (done) done->fetch_add(count, std::memory_order_relaxed);
}

}  // namespace skipstone::cuda
