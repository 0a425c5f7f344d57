// The current UTC time as ISO 8601 ("2026-12-01T10:00:00Z") for the "created" field of meta.json.
#pragma once
#include <ctime>
#include <string>

namespace skipstone {

inline std::string iso_time_now() {
  const std::time_t t = std::time(nullptr);
  char buf[64];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}

}  // namespace skipstone
