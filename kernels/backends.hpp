// Thin driver functions in front of the ensemble kernel, one namespace per backend. Host code
// calls these and never sees Thrust policies or CUDA launches.
#pragma once
#include <atomic>
#include <cstdint>
#include <string>

#include "skipstone/result.hpp"
#include "skipstone/scan_spec.hpp"

namespace skipstone {

// Trajectories of a chunk finished so far, which run_chunk advances while it runs (a block of
// SIMD lanes or a bounded launch at a time) so that progress can be reported from inside a chunk.
using DoneCounter = std::atomic<std::uint64_t>;

namespace cpu {
// Results of trajectories [first, first + count) into out[0 .. count); `done`, when given, is
// advanced by the number of trajectories finished as they finish.
void run_chunk(const ScanSpec& spec, std::uint64_t first, std::uint64_t count, TrajectoryResult* out,
               DoneCounter* done = nullptr);
int max_threads();
void set_threads(int n);
}  // namespace cpu

namespace cuda {
// False (with the reason in *why) when the binary has no CUDA backend or no device is usable.
bool available(std::string* why);
// Devices visible to this process (0 when none or not built).
int device_count();
// The device that later calls of this host thread use (cudaSetDevice), and the current one.
void set_device(int device);
int current_device();
std::string device_description();
// The current device as the benchmarks describe it (clock: the peak SM clock).
struct DeviceInfo {
  std::string name;
  int multiprocessors, clock_khz, cc_major, cc_minor;
};
DeviceInfo device_info();
std::uint64_t free_device_memory();
void run_chunk(const ScanSpec& spec, std::uint64_t first, std::uint64_t count, TrajectoryResult* out,
               DoneCounter* done = nullptr);
}  // namespace cuda

}  // namespace skipstone
