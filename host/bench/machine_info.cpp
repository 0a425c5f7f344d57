// Machine description for the benchmarks.
#include "machine_info.hpp"

#include <sched.h>
#include <unistd.h>

#include <ctime>
#include <fstream>

namespace skipstone::bench {

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) != 0) continue;
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string m = line.substr(colon + 1);
    m.erase(0, m.find_first_not_of(" \t"));
    return m;
  }
  return "unknown";
}

int cpu_cores() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) == 0) return CPU_COUNT(&set);
  return static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN));
}

std::string loadavg() {
  std::ifstream in("/proc/loadavg");
  std::string a, b, c;
  in >> a >> b >> c;
  return in ? a + " " + b + " " + c : "unknown";
}

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

namespace {
// FP64 flops per clock per SM (2 x FP64 FMA units) of the data-centre parts: P100 (6.0),
// V100 (7.0), A100 (8.0), H100/H200 (9.0), B200 (10.0). The other architectures of the same
// majors (e.g. 8.6, 8.9) have 1/32 or 1/64 of the FP32 rate and are left out.
int fp64_flops_per_clock_per_sm(int major, int minor) {
  if (minor != 0) return 0;
  switch (major) {
    case 6: case 7: case 8: return 64;
    case 9: case 10: return 128;
    default: return 0;
  }
}
}  // namespace

double gpu_fp64_peak(const cuda::DeviceInfo& d) {
  return 1e3 * d.clock_khz * static_cast<double>(d.multiprocessors) *
         fp64_flops_per_clock_per_sm(d.cc_major, d.cc_minor);
}

nlohmann::json gpu_json(const cuda::DeviceInfo& d) {
  const double peak = gpu_fp64_peak(d);
  nlohmann::json j = {{"name", d.name},
                      {"compute_capability", std::to_string(d.cc_major) + "." + std::to_string(d.cc_minor)},
                      {"multiprocessors", d.multiprocessors},
                      {"clock_mhz", d.clock_khz / 1000.0}};
  if (peak > 0) {
    j["fp64_peak_flops"] = peak;
    j["fp64_peak_source"] = "multiprocessors x peak clock x FP64 FMA units per SM x 2 (NVIDIA data sheet)";
  } else {
    j["fp64_peak_flops"] = nullptr;
  }
  return j;
}

}  // namespace skipstone::bench
