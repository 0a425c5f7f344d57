// parameters.no_twist of the rolling models (docs/config.md; docs/models.md, "Rubber rolling of
// the symmetric balls"): 1 makes the ball rubber, its spin about the contact normal held at
// zero. It switches the model, so it is a fixed 0 or 1, not a scan axis. With 1, every spin of
// the start must be 0, whether given, scanned or read from a state file's rows (a nonzero spin
// would be silently dropped otherwise), and the noisy constraints are refused: their slip and
// roughness models are those of a ball free to twist. The contact observables are allowed: the
// contact force x'' - g is the same whether a couple holds the spin or not.
#include <cstddef>
#include <string>

#include "config_sections.hpp"

namespace skipstone {

void check_no_twist(const RunConfig& rc) {
  if (!find_rule(rc.system.parameters, "no_twist")) return;
  for (std::size_t i = 0; i < rc.axes.size(); ++i)
    if (rc.axes[i].name == "no_twist")
      throw ConfigError(axis_path(i) + ".param", "no_twist is not a scan axis (it switches the model); allowed: a "
                                                 "fixed 0 or 1 in parameters, one run for each");
  if (rc.spec.params[P_NO_TWIST] == 0.0) return;
  const std::string why = " is not allowed with parameters.no_twist = 1 (a rubber ball does not spin about the "
                          "contact normal); allowed: 0";
  const Param spins[] = {P_SPIN, P_S12, P_S13, P_S23};
  for (Param p : spins) {
    const std::string name = param_name(p);
    for (std::size_t i = 0; i < rc.axes.size(); ++i)
      if (rc.axes[i].name == name) throw ConfigError(axis_path(i) + ".param", "scanning the spin " + name + why);
    if (rc.spec.params[p] != 0.0) throw ConfigError("initial." + name, "value " + number_text(rc.spec.params[p]) + why);
  }
  if (rc.state_rows) {
    const std::size_t columns = static_cast<std::size_t>(rc.spec.state_columns), rows = rc.state_rows->size() / columns;
    for (std::size_t c = 0; c < rc.state.params.size(); ++c)
      for (Param p : spins)
        if (rc.state.params[c] == p)
          for (std::size_t row = 0; row < rows; ++row)
            if ((*rc.state_rows)[row * columns + c] != 0.0)
              throw ConfigError("initial.file", "row " + std::to_string(row) + ", column " + rc.state.columns[c] +
                                                    ": value " + number_text((*rc.state_rows)[row * columns + c]) + why);
  }
  for (std::size_t i = 0; i < rc.axes.size(); ++i)
    if (rc.axes[i].name == "noise")
      throw ConfigError(axis_path(i) + ".param", "the noisy constraints are those of a ball free to twist: not "
                                                 "available with parameters.no_twist = 1; allowed: no_twist 0");
  if (rc.spec.params[P_NOISE] != 0.0)
    throw ConfigError("parameters.noise", "value " + number_text(rc.spec.params[P_NOISE]) +
                                              " is not allowed with parameters.no_twist = 1 (the noisy constraints are "
                                              "those of a ball free to twist); allowed: 0");
}

}  // namespace skipstone
