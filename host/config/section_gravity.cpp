// Gravity in the rolling models (docs/config.md "Gravity"): given as the physical g or as the
// paper's effective g/(1+gamma^2), not both. resolved.parameters keeps only the key that was
// given; the record (meta.json "gravity") holds both values. Where the given key or the moment
// of inertia is a scan axis, it names that axis as "scanned" and gives both values at the axis
// ends, "at_min" and "at_max", like meta.json's "moment_of_inertia"; with both scanned it names
// the gravity axis and the derived value is null.
#include <string>

#include "config_sections.hpp"
#include "moment_of_inertia.hpp"

namespace skipstone {

using nlohmann::json;

void read_gravity(JsonReader& params, RunConfig& rc) {
  // the axis of a key, for messages: "scan.axes[i].param", or "" when the key is not scanned
  const auto axis_key_path = [&](const std::string& k) -> std::string {
    for (std::size_t i = 0; i < rc.axes.size(); ++i)
      if (rc.axes[i].name == k) return axis_path(i) + ".param";
    return "";
  };
  const bool has_g = params.has("g") || !axis_key_path("g").empty();
  const bool has_eff = params.has("g_effective") || !axis_key_path("g_effective").empty();
  if (has_g && has_eff)
    throw ConfigError(params.has("g_effective") ? "parameters.g_effective" : axis_key_path("g_effective"),
                      "gravity is given twice; give exactly one of g (physical gravity) and g_effective (the "
                      "paper's effective value g/(1+gamma^2))");
  const std::string given = has_eff ? "g_effective" : "g";
  rc.resolved["parameters"].erase(has_eff ? "g" : "g_effective");
  const std::string derived = has_eff ? "g" : "g_effective";
  const ScanAxis* gravity_axis = nullptr;
  const ScanAxis* moment_axis = nullptr;
  for (const auto& a : rc.axes) {
    if (a.name == given) gravity_axis = &a;
    if (is_moment(a.name)) moment_axis = &a;
  }
  // g and g_effective for the given key's value and the moment of inertia's value
  const auto both = [&](double given_value, double moment_value) {
    const double gamma = gamma_of(rc.spec.moment, moment_value);
    const double f = 1.0 + gamma * gamma;
    return json{{"g", has_eff ? given_value * f : given_value}, {"g_effective", has_eff ? given_value : given_value / f}};
  };
  const double fixed_given = rc.spec.params[has_eff ? P_G_EFF : P_G], fixed_moment = rc.spec.params[P_MOMENT];
  json grav = {{"given", given}, {"relation", "g_effective = g / (1 + gamma^2), gamma of the rolling ball"}};
  if (gravity_axis && moment_axis) {
    grav["scanned"] = gravity_axis->name;
    grav["at_min"] = {{given, gravity_axis->min}, {derived, nullptr}};
    grav["at_max"] = {{given, gravity_axis->max}, {derived, nullptr}};
    grav["note"] = "the moment of inertia is scanned too (axis " + moment_axis->name + "): " + derived +
                   " differs per trajectory";
  } else if (gravity_axis) {
    grav["scanned"] = gravity_axis->name;
    grav["at_min"] = both(gravity_axis->min, fixed_moment);
    grav["at_max"] = both(gravity_axis->max, fixed_moment);
  } else if (moment_axis) {
    grav["scanned"] = moment_axis->name;
    grav["at_min"] = both(fixed_given, moment_axis->min);
    grav["at_max"] = both(fixed_given, moment_axis->max);
  } else {
    grav.update(both(fixed_given, fixed_moment));
  }
  rc.gravity = grav;
}

}  // namespace skipstone
