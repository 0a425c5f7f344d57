// Creation and up-front checks of the output folder.
#include "output_location.hpp"

#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>

#include "byte_count.hpp"
#include "observables.hpp"
#include "range_result.hpp"

namespace skipstone {

std::uint64_t estimated_output_bytes(const RunConfig& rc) {
  std::uint64_t per_trajectory = 0;
  for (const auto& name : rc.observables) {
    switch (observable_info(name).type) {
      case ObservableType::int8: per_trajectory += 1; break;
      case ObservableType::vector: per_trajectory += 8 * values_per_trajectory(rc, name); break;
      default: per_trajectory += 8;
    }
  }
  if (rc.spec.random) per_trajectory += 8 * rc.axes.size();
  return bytes_of(per_trajectory, rc.spec.count);
}

std::uint64_t estimated_partial_bytes(const RunConfig& rc, std::uint64_t trajectories) {
  std::uint64_t per_trajectory = 0;
  for (const auto& name : rc.observables) per_trajectory += 8 * values_per_trajectory(rc, name);
  return bytes_of(per_trajectory, trajectories);
}

void prepare_output_dir(const std::filesystem::path& dir, std::uint64_t bytes_needed) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw std::runtime_error("cannot create output folder " + dir.string() + ": " + ec.message());
  if (!std::filesystem::is_directory(dir, ec))
    throw std::runtime_error("output folder " + dir.string() + " is not a folder");
  std::string probe = (dir / ".skipstone-write-test.XXXXXX").string();
  const int fd = mkstemp(probe.data());
  if (fd < 0) throw std::runtime_error("output folder " + dir.string() + " is not writable: " + std::strerror(errno));
  close(fd);
  unlink(probe.c_str());
  struct statvfs fs {};
  if (statvfs(dir.c_str(), &fs) == 0) {
    const std::uint64_t available = static_cast<std::uint64_t>(fs.f_bavail) * fs.f_frsize;
    if (available < bytes_needed)
      throw std::runtime_error("output folder " + dir.string() + " has " + std::to_string(available) +
                               " bytes free; the outputs need about " + std::to_string(bytes_needed));
  }
}

}  // namespace skipstone
