// Estimating the memory of a run and reading the memory this process can get.
#include "memory_check.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <fstream>
#include <limits>
#include <sstream>

#include "byte_count.hpp"
#include "config_error.hpp"
#include "observables.hpp"
#include "range_result.hpp"

namespace skipstone {
namespace {

constexpr std::uint64_t kUnknown = std::numeric_limits<std::uint64_t>::max();

// The value of `key` (in kB) in a /proc file of "Key:   value kB" lines, in bytes.
std::uint64_t proc_kib(const char* file, const std::string& key) {
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line)) {
    if (line.compare(0, key.size() + 1, key + ":") != 0) continue;
    std::istringstream fields(line.substr(key.size() + 1));
    std::uint64_t kib = 0;
    if (fields >> kib) return kib * 1024;
  }
  return kUnknown;
}

// A number in a one-line cgroup file; kUnknown for "max", a missing file or garbage.
std::uint64_t read_number(const std::string& file) {
  std::ifstream in(file);
  std::uint64_t v = 0;
  if (!(in >> v)) return kUnknown;
  return v;
}

// Memory left under this process's cgroup limit (v2, else v1); kUnknown without a limit.
std::uint64_t cgroup_headroom() {
  std::string group;
  std::ifstream self("/proc/self/cgroup");
  for (std::string line; std::getline(self, line);)
    if (line.rfind("0::", 0) == 0) group = line.substr(3);
  for (const std::string& dir : {"/sys/fs/cgroup" + group, std::string("/sys/fs/cgroup")}) {
    const std::uint64_t limit = read_number(dir + "/memory.max");
    if (limit == kUnknown) continue;
    const std::uint64_t used = read_number(dir + "/memory.current");
    return used == kUnknown || used > limit ? 0 : limit - used;
  }
  const std::uint64_t limit = read_number("/sys/fs/cgroup/memory/memory.limit_in_bytes");
  if (limit == kUnknown || limit >= (std::uint64_t{1} << 62)) return kUnknown;  // v1 "no limit"
  const std::uint64_t used = read_number("/sys/fs/cgroup/memory/memory.usage_in_bytes");
  return used == kUnknown || used > limit ? 0 : limit - used;
}

// Address space left under ulimit -v; kUnknown without a limit.
std::uint64_t address_space_headroom() {
  rlimit lim{};
  if (getrlimit(RLIMIT_AS, &lim) != 0 || lim.rlim_cur == RLIM_INFINITY) return kUnknown;
  const std::uint64_t used = proc_kib("/proc/self/status", "VmSize");
  if (used == kUnknown) return lim.rlim_cur;
  return used > lim.rlim_cur ? 0 : lim.rlim_cur - used;
}

std::string gigabytes(std::uint64_t bytes) {
  std::ostringstream s;
  s.precision(3);
  s << static_cast<double>(bytes) / 1e9 << " GB";
  return s.str();
}

}  // namespace

std::uint64_t estimated_memory_bytes(const RunConfig& rc, std::uint64_t trajectories) {
  std::uint64_t values = 0, conversion = rc.spec.random ? 8 : 0;  // axis_<param>.npy values
  for (const auto& name : rc.observables) {
    values += 8 * static_cast<std::uint64_t>(values_per_trajectory(rc, name));
    const ObservableType type = observable_info(name).type;
    if (type == ObservableType::int8) conversion = std::max<std::uint64_t>(conversion, 1);
    if (type == ObservableType::uint64) conversion = 8;
  }
  return bytes_of(values + conversion, trajectories);
}

std::uint64_t available_memory_bytes(std::string& source) {
  std::uint64_t best = kUnknown;
  source.clear();
  const std::uint64_t avail = proc_kib("/proc/meminfo", "MemAvailable");
  if (avail != kUnknown) {
    const std::uint64_t swap = proc_kib("/proc/meminfo", "SwapFree");
    best = avail + (swap == kUnknown ? 0 : swap);
    source = "MemAvailable + SwapFree";
  }
  const std::uint64_t cgroup = cgroup_headroom();
  if (cgroup < best) {
    best = cgroup;
    source = "the cgroup memory limit";
  }
  const std::uint64_t address = address_space_headroom();
  if (address < best) {
    best = address;
    source = "ulimit -v";
  }
  return best == kUnknown ? 0 : best;
}

void check_memory(const RunConfig& rc, std::uint64_t trajectories) {
  std::string source;
  const std::uint64_t available = available_memory_bytes(source);
  const std::uint64_t needed = estimated_memory_bytes(rc, trajectories);
  if (source.empty() || needed <= available) return;
  std::string scan = rc.spec.random ? "random scan of " + std::to_string(rc.spec.count) : "grid";
  if (!rc.spec.random)
    for (std::size_t j = 0; j < rc.axes.size(); ++j)
      scan += (j ? " x " : " ") + rc.axes[j].name + " " + std::to_string(rc.axes[j].n);
  throw ConfigError("scan", std::to_string(trajectories) + " trajectories (" + scan + ", " +
                                std::to_string(rc.observables.size()) + " observables) need about " +
                                std::to_string(needed) + " bytes (" + gigabytes(needed) + ") of memory for their maps; " +
                                std::to_string(available) + " bytes (" + gigabytes(available) + ") are available (" +
                                source + "): use a smaller grid or fewer observables");
}

}  // namespace skipstone
