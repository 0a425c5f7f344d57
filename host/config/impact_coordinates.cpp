// The impact rows' coordinates per system (impact_coordinates.hpp).
#include "impact_coordinates.hpp"

namespace skipstone {

std::vector<ImpactCoordinate> impact_coordinates(const SystemTraits& system) {
  const double none = 0.0;  // an unbounded coordinate has no range of its own (the map gives it)
  const bool rolling_table =
      system.model == ModelKind::roll_disc || system.model == ModelKind::roll3_table || system.model == ModelKind::roll4_table;
  if ((is_noslip(system.model) && system.dim == 2) || rolling_table)
    return {{"s", true, 0.0, 1.0, "s (boundary parameter)"},
            {"p", true, -1.0, 1.0, "p = sin(angle to the normal)"},
            {"spin", false, none, none, "spin / speed"}};
  const bool sphere = system.model == ModelKind::noslip_sphere;
  if (!sphere && system.model != ModelKind::noslip_cylinder) return {};
  std::vector<ImpactCoordinate> row;
  if (sphere)
    row = {{"s", true, 0.0, 1.0, "s = longitude / 2 pi"}, {"cos_theta", true, -1.0, 1.0, "cos(colatitude)"}};
  else
    row = {{"s", true, 0.0, 1.0, "s (cross-section's boundary parameter)"}, {"z", false, none, none, "z (height)"}};
  const std::string up = sphere ? "north" : "axis";
  row.push_back({"p", true, -1.0, 1.0, "p = u.tangent / |u|"});
  row.push_back({"p_up", true, -1.0, 1.0, "p_up = u." + up + " / |u|"});
  row.push_back({"spin_n", false, none, none, "w.normal / |u|"});
  row.push_back({"spin_t", false, none, none, "w.tangent / |u|"});
  row.push_back({"spin_up", false, none, none, "w." + up + " / |u|"});
  return row;
}

std::vector<std::string> impact_coordinate_names(const SystemTraits& system) {
  std::vector<std::string> names;
  for (const ImpactCoordinate& c : impact_coordinates(system)) names.push_back(c.name);
  return names;
}

}  // namespace skipstone
