// CUDA backend: the device queries and the chunk engine around the kernels (cuda/kernel_launch.hpp:
// one kernel per model variant, compiled in parts). The engine keeps, per slot, device and pinned
// host buffers reused across chunks and a stream, so that one chunk's kernel runs while the host
// reduces the previous one; each block adds its finished trajectories to a counter in mapped host
// memory that wait() passes on to the progress counter while the chunk runs. The benchmarks'
// whole results go through a device and a pinned host buffer kept across chunks (ResultChunks). A
// collecting chunk (outputs fed by the events: boundary and section maps and rows, final_state,
// mean_free_time) runs the kernel source the CPU backend runs (collect_trajectory.hpp), its maps
// counted atomically in device memory. A start from a file of states reads the chunk's rows copied
// to the device. Every CUDA call is checked (cuda/cuda_try.hpp).
#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <limits>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include "backends.hpp"
#include "chunk_engine.hpp"
#include "collect_trajectory.hpp"
#include "cuda/cuda_try.hpp"
#include "cuda/kernel_launch.hpp"
#include "skipstone/observable_columns.hpp"

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

// How often a wait reads the kernel's count of finished trajectories.
constexpr auto kProgressPoll = std::chrono::milliseconds(1);

// Device memory for up to capacity() values of T, grown (never shrunk) by reserve and freed with
// its owner.
template <class T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  ~DeviceBuffer() { release(); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  T* reserve(std::uint64_t n) {
    if (n > capacity_) {
      release();
      SKIPSTONE_CUDA_TRY(cudaMalloc(reinterpret_cast<void**>(&data_), sizeof(T) * n));
      capacity_ = n;
    }
    return data_;
  }
  // n values copied from host memory (synchronously).
  T* upload(const T* host, std::uint64_t n) {
    reserve(n);
    if (n > 0) SKIPSTONE_CUDA_TRY(cudaMemcpy(data_, host, sizeof(T) * n, cudaMemcpyHostToDevice));
    return data_;
  }
  // n values set to zero bytes.
  T* zeros(std::uint64_t n) {
    reserve(n);
    if (n > 0) SKIPSTONE_CUDA_TRY(cudaMemset(data_, 0, sizeof(T) * n));
    return data_;
  }
  void download(T* host, std::uint64_t n) const {
    if (n > 0) SKIPSTONE_CUDA_TRY(cudaMemcpy(host, data_, sizeof(T) * n, cudaMemcpyDeviceToHost));
  }

 private:
  void release() {
    if (data_) cudaFree(data_);
    data_ = nullptr;
    capacity_ = 0;
  }
  T* data_ = nullptr;
  std::uint64_t capacity_ = 0;
};

// `spec` as a kernel on the device reads it for trajectories [first, first + n): a start from a
// file of states (ScanSpec::state_rows, host memory) gets those trajectories' rows copied into
// `rows` on `stream`.
ScanSpec device_spec(const ScanSpec& spec, std::uint64_t first, std::uint64_t n, DeviceBuffer<double>& rows,
                     cudaStream_t stream) {
  if (!spec.state_rows) return spec;
  const std::uint64_t columns = static_cast<std::uint64_t>(spec.state_columns);
  double* device_rows = rows.reserve(n * columns);
  ScanSpec on_device = spec;
  on_device.state_rows = device_rows;
  on_device.state_first = first;
  SKIPSTONE_CUDA_TRY(cudaMemcpyAsync(device_rows, spec.state_rows + (first - spec.state_first) * columns,
                                     sizeof(double) * n * columns, cudaMemcpyHostToDevice, stream));
  return on_device;
}

// One output kind of a collecting chunk on the device: the map's bins (zeroed counts), the
// recorded trajectories' offsets, rows and point counts; download() hands them to `c`.
class DevicePoints {
 public:
  explicit DevicePoints(const PointCollect& c) {
    target.max_events = c.max_events;
    target.fields = c.fields;
    target.n_recorded = c.recorded.size();
    if (c.map) {
      target.map = map_.upload(c.map, 1);
      counts = counts_.zeros(c.map_slots());
    }
    target.recorded = recorded_.upload(c.recorded.data(), c.recorded.size());
    target.rows = rows_.zeros(c.row_values());
    target.points = points_.zeros(c.recorded.size());
  }
  void download(PointCollect& c) const {
    c.counts.assign(c.map_slots(), 0);
    counts_.download(c.counts.data(), c.counts.size());
    c.rows.assign(c.row_values(), 0.0);
    rows_.download(c.rows.data(), c.rows.size());
    c.points.assign(c.recorded.size(), 0);
    points_.download(c.points.data(), c.points.size());
  }
  PointTarget target;
  std::uint64_t* counts = nullptr;  // null: no map

 private:
  DeviceBuffer<BoundaryMapSpec> map_;
  DeviceBuffer<std::uint64_t> counts_, recorded_, points_;
  DeviceBuffer<double> rows_;
};

// The threads of a collecting launch with the observable coverage (CollectOutput): as many as
// the device holds resident, fewer where their rows of `cells` stamps would take more than half
// of the free device memory, and no more than the chunk's trajectories.
std::uint64_t coverage_threads(std::uint64_t trajectories, std::uint64_t cells) {
  const std::uint64_t row_bytes = sizeof(std::uint64_t) * cells;
  const std::uint64_t fit = std::max<std::uint64_t>(1, free_device_memory() / 2 / row_bytes);
  return std::min({trajectories, resident_threads(), fit});
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
    launch_ensemble(device_spec(spec, first, n, state_rows_, stream_), first, n, out, stream_);
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
  DeviceBuffer<double> state_rows_;                // the chunk's rows of a file of states
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
  void collect(const ScanSpec& spec, std::uint64_t first, std::uint64_t n, TrajectoryResult* out,
               BoundaryCollect& collect, DoneCounter* done) override {
    run_chunk_collecting(spec, first, n, out, collect, done);
  }

 private:
  ScanSpec spec_;
  std::array<std::unique_ptr<Slot>, kSlots> slots_;
};

}  // namespace

namespace {
// launch(std::integral_constant<int, p>{}) for the parts p in turn until one holds spec's
// variant and launches it (kernel_launch.hpp).
template <int... Part, class Launch>
void launch_in_its_part(std::integer_sequence<int, Part...>, Launch&& launch) {
  if (!(launch(std::integral_constant<int, Part>{}) || ...))
    throw std::invalid_argument("CUDA backend: no kernel for this model and table");
}
}  // namespace

void launch_ensemble(const ScanSpec& spec, std::uint64_t first, std::uint64_t n, const KernelOutput& out,
                     cudaStream_t stream) {
  if (n == 0) return;
  launch_in_its_part(std::make_integer_sequence<int, kKernelParts>{}, [&](auto part) {
    return launch_ensemble_in_part<decltype(part)::value>(spec, first, n, out, stream);
  });
}

void launch_collect(const ScanSpec& spec, std::uint64_t first, std::uint64_t n, const CollectTarget& target,
                    const CollectOutput& out) {
  launch_in_its_part(std::make_integer_sequence<int, kKernelParts>{}, [&](auto part) {
    return launch_collect_in_part<decltype(part)::value>(spec, first, n, target, out);
  });
}

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
  DeviceBuffer<double> rows;
  launch_ensemble(device_spec(spec, first, count, rows, nullptr), first, count, whole, nullptr);
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

void run_chunk_collecting(const ScanSpec& spec, std::uint64_t first, std::uint64_t count, TrajectoryResult* out,
                          BoundaryCollect& collect, DoneCounter* done) {
  if (count == 0) return;
  DevicePoints impacts(collect.boundary), crossings(collect.section);
  DeviceBuffer<SectionPlane> plane;
  DeviceBuffer<double> final_states, heights, rows;
  DeviceBuffer<TrajectoryResult> results;
  const std::uint64_t state_values = count * static_cast<std::uint64_t>(collect.state_columns);
  collect.final_states.assign(state_values, std::numeric_limits<double>::quiet_NaN());
  CollectTarget target{impacts.target, crossings.target, nullptr, collect.state_columns,
                       final_states.upload(collect.final_states.data(), state_values), collect.free_time};
  if (collect.plane) target.plane = plane.upload(collect.plane, 1);
  const std::uint64_t height_values = count * static_cast<std::uint64_t>(collect.heights.points);
  collect.height_series.assign(height_values, std::numeric_limits<double>::quiet_NaN());
  target.heights = collect.heights;
  target.heights.values = heights.upload(collect.height_series.data(), height_values);
  const ScanSpec on_device = device_spec(spec, first, count, rows, nullptr);
  CollectOutput output{results.reserve(count), impacts.counts, crossings.counts};
  DeviceBuffer<BoundaryMapSpec> cells;
  DeviceBuffer<std::uint64_t> stamps;
  if (collect.cells) {
    target.cells = cells.upload(collect.cells, 1);
    output.threads = coverage_threads(count, boundary_bin_count(*collect.cells));
    output.stamps = stamps.zeros(output.threads * boundary_bin_count(*collect.cells));
  }
  launch_collect(on_device, first, count, target, output);
  SKIPSTONE_CUDA_TRY(cudaDeviceSynchronize());
  results.download(out, count);
  impacts.download(collect.boundary);
  crossings.download(collect.section);
  final_states.download(collect.final_states.data(), state_values);
  heights.download(collect.height_series.data(), height_values);
  if (done) done->fetch_add(count, std::memory_order_relaxed);
}

}  // namespace skipstone::cuda
