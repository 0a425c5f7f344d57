// The coordinates of an impact's row as the configs and the outputs name them, per system
// (skipstone/boundary_map.hpp: the 2D row (s, p, spin) of the 2D no-slip tables and the rolling
// tables' edge entries; the 3D row of the cylinders and the sphere): the row's order, the range
// of the coordinates bounded by definition, and the heat maps' axis labels.
#pragma once
#include <string>
#include <vector>

#include "skipstone/system_traits.hpp"

namespace skipstone {

struct ImpactCoordinate {
  std::string name;
  bool bounded;    // lo, hi hold its range by definition; otherwise a map needs its range
  double lo, hi;
  std::string label;
};

// The row of `system`'s impacts, in the kernel's order; empty for a system without boundary
// coordinates.
std::vector<ImpactCoordinate> impact_coordinates(const SystemTraits& system);

// The names of those coordinates, in row order.
std::vector<std::string> impact_coordinate_names(const SystemTraits& system);

}  // namespace skipstone
