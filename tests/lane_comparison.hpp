// Shared by the SIMD-lane tests (test_noslip_lanes.cpp, test_rim_lanes.cpp): a scan run by the
// CPU backend's lanes (cpu::run_chunk) against the one-trajectory kernel (simulate_trajectory),
// bit for bit, and the statuses it produced.
#pragma once
#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "backends.hpp"
#include "skipstone/simulate.hpp"
#include "test_support.hpp"

namespace skipstone::testing {

struct LaneScan {
  RunConfig rc;
  std::vector<TrajectoryResult> results;  // the reference's, equal to the lanes'
  std::map<Status, int> seen;             // how many trajectories ended with each status
};

// Runs `config` both ways and asserts that every trajectory's result is the same bytes; `fields`
// describes a result for the failure message. Check HasFatalFailure() after the call.
inline void run_lane_scan(const std::string& name, const std::string& config,
                          std::string (*fields)(const TrajectoryResult&), LaneScan& scan) {
  scan.rc = config_from(nlohmann::json::parse(config));
  const ScanSpec& spec = scan.rc.spec;
  std::vector<TrajectoryResult> out(spec.count);
  cpu::run_chunk(spec, 0, spec.count, out.data());
  for (std::uint64_t i = 0; i < spec.count; ++i) {
    DiscardSink sink;
    const TrajectoryResult ref = simulate_trajectory(spec, i, sink);
    ASSERT_EQ(0, std::memcmp(&ref, &out[i], sizeof ref))
        << name << ": trajectory " << i << "\n" << fields(ref) << "\n" << fields(out[i]);
    ++scan.seen[ref.status];
    scan.results.push_back(ref);
  }
}

}  // namespace skipstone::testing
