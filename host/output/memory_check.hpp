// The memory check before a run: the maps of a scan are held in memory until they are written,
// so a grid larger than the memory would end, after the scan, in an allocation failure. The
// check compares an estimate of the bytes a run keeps with the memory this process can get:
// MemAvailable plus free swap (/proc/meminfo), bounded by the cgroup's memory limit and the
// address-space limit (ulimit -v) where they are set.
#pragma once
#include <cstdint>
#include <string>

#include "config.hpp"

namespace skipstone {

// Bytes held while `trajectories` trajectories of rc are computed and written: every value as
// float64 (the collected maps) plus the largest map converted for writing (int8 status, uint64
// events, the axis values of random scans); the heat maps are reduced to a few pixels.
std::uint64_t estimated_memory_bytes(const RunConfig& rc, std::uint64_t trajectories);

// The bytes this process can still allocate, and in `source` what bounds them (e.g.
// "MemAvailable + SwapFree", "the cgroup limit", "ulimit -v"); 0 with source "" when unknown.
std::uint64_t available_memory_bytes(std::string& source);

// Throws ConfigError (key "scan") naming the number of trajectories, the bytes needed and the
// bytes available when the estimate exceeds the available memory.
void check_memory(const RunConfig& rc, std::uint64_t trajectories);

}  // namespace skipstone
