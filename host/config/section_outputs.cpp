// Config sections "observables" (which maps a run writes; default: every observable of the
// system but the opt-in ones, the Lyapunov exponents, which also set how many tangent vectors
// the kernels follow) and "histograms" (declared bins of requested scalar observables, docs/config.md
// "Histograms").
#include <algorithm>
#include <string>

#include "config_sections.hpp"
#include "observables.hpp"

namespace skipstone {

using nlohmann::json;

namespace {
// The observables of the tangent dynamics.
bool is_lyapunov(const std::string& name) {
  const std::vector<std::string> group = observable_names(kObsLyapunov | kObsLyapunovSpectrum);
  return std::find(group.begin(), group.end(), name) != group.end();
}
// The observables of the rolling contact force.
bool is_contact(const std::string& name) {
  const std::vector<std::string> group = observable_names(kObsContact);
  return std::find(group.begin(), group.end(), name) != group.end();
}
}  // namespace

void read_observables(JsonReader& top, RunConfig& rc) {
  const SystemSchema& sys = rc.system;
  if (!top.has("observables")) {
    rc.observables = sys.default_observables;
    rc.resolved["observables"] = rc.observables;
    return;
  }
  const json& obs = top.array("observables");
  if (obs.empty()) throw ConfigError("observables", "the list is empty; leave the key out to get every observable");
  for (std::size_t i = 0; i < obs.size(); ++i) {
    const std::string path = "observables[" + std::to_string(i) + "]";
    if (!obs[i].is_string()) throw ConfigError(path, "expected a string, got " + show(obs[i]));
    const std::string name = obs[i].get<std::string>();
    if (std::find(sys.observables.begin(), sys.observables.end(), name) == sys.observables.end()) {
      std::string allowed;
      for (const auto& o : sys.observables) allowed += (allowed.empty() ? "" : ", ") + o;
      const std::string elsewhere = systems_with_observable(name);
      throw ConfigError(path, "value " + show(name) + " is not an observable of system " + sys.name +
                                  (elsewhere.empty() ? "" : " (it is one of systems " + elsewhere + ")") +
                                  "; allowed: " + allowed);
    }
    if (is_lyapunov(name) && rc.spec.precision != Precision::float64)
      throw ConfigError(path, "value " + show(name) + " is computed in double only; allowed with options.precision "
                                  "float: the other observables, or precision double");
    if ((is_lyapunov(name) || is_contact(name)) && (rc.spec.params[P_NOISE] != 0.0 || find_axis(rc, "noise")))
      throw ConfigError(path, "value " + show(name) + " is not computed with noisy constraints; allowed with "
                                  "parameters.noise != 0: the other observables, or noise 0");
    rc.observables.push_back(name);
  }
  rc.resolved["observables"] = rc.observables;
  rc.spec.lyapunov_vectors = 0;
  rc.spec.impulse_ratios = false;
  rc.spec.contact_forces = false;
  for (const auto& name : rc.observables) {
    if (is_lyapunov(name))
      rc.spec.lyapunov_vectors = std::max(rc.spec.lyapunov_vectors, name == "lyapunov_spectrum" ? kLyapunovSpectrumLength : 1);
    if (name == "impulse_ratio_max" || name == "impulse_ratio_mean") rc.spec.impulse_ratios = true;
    if (is_contact(name)) rc.spec.contact_forces = true;
  }
}

void read_histograms(JsonReader& top, RunConfig& rc) {
  if (!top.has("histograms")) return;
  const json& hj = top.value("histograms");
  if (!hj.is_object()) throw ConfigError("histograms", "expected an object {observable: {min, max, bins}}, got " + show(hj));
  for (const auto& [name, value] : hj.items()) {
    const std::string path = "histograms." + name;
    if (std::find(rc.observables.begin(), rc.observables.end(), name) == rc.observables.end()) {
      std::string allowed;
      for (const auto& o : rc.observables)
        if (observable_info(o).type != ObservableType::vector) allowed += (allowed.empty() ? "" : ", ") + o;
      throw ConfigError(path, "not a requested observable; allowed: " + allowed);
    }
    if (observable_info(name).type == ObservableType::vector)
      throw ConfigError(path, "a vector observable has no histogram; allowed: the scalar observables");
    if (!value.is_object()) throw ConfigError(path, "expected an object {min, max, bins}, got " + show(value));
    JsonReader h(value, path);
    const HistogramSpec hs{h.number("min"), h.number("max"), h.integer("bins", 1, kMaxHistogramBins)};
    h.finish();
    if (!(hs.max > hs.min))
      throw ConfigError(path + ".max", "value " + number_text(hs.max) + " is out of range; allowed: > min (" + number_text(hs.min) + ")");
    rc.histograms[name] = hs;
    rc.resolved["histograms"][name] = {{"min", hs.min}, {"max", hs.max}, {"bins", hs.bins}};
  }
}

}  // namespace skipstone
