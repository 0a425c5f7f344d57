// CPU backend only: which lanes of a lane block (noslip_lane_block.hpp, rim_lane_block.hpp)
// still hold a trajectory.
#pragma once

namespace skipstone::cpu_lanes {

template <int W>
bool any_lane_held(const bool (&held)[W]) {
  for (int l = 0; l < W; ++l)
    if (held[l]) return true;
  return false;
}

}  // namespace skipstone::cpu_lanes
