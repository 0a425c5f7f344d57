// The catalogue of systems skipstone simulates (docs/config.md, "Systems"): for each system id,
// its row of kSystems (skipstone/system_traits.hpp: model, table, start kinds, observables,
// float kernel, ...) and what only the host needs: the parameters and initial-condition keys it
// accepts with their defaults and allowed ranges, and its observables by name. Config parsing
// and the CLI help are both driven by this table.
#pragma once
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "skipstone/scan_spec.hpp"
#include "skipstone/system_traits.hpp"

namespace skipstone {

struct ParamRule {
  std::string name;
  Param param;
  std::optional<double> fallback;  // nullopt: required
  std::function<bool(double)> ok;
  std::string allowed;  // human-readable range, e.g. "> 0"
};

struct StartSchema {
  StartKind kind;
  std::vector<ParamRule> keys;
};

struct SystemSchema {
  std::string name;
  SystemTraits traits;  // model, table, float kernel, ... (skipstone/system_traits.hpp)
  std::vector<ParamRule> parameters;  // besides gamma/eta/beta
  bool moment = true;  // takes the ball's moment of inertia as gamma, eta or beta (not rubber:sphere: I1, I2, I3)
  std::map<std::string, StartSchema> starts;
  std::string default_start;
  std::vector<std::string> observables;          // the groups of traits.observables, named
  std::vector<std::string> default_observables;  // those a config without "observables" gets: no opt-in group
};

// Throws ConfigError at key "system" for an unknown id, listing the known ones.
SystemSchema system_schema(const std::string& name);
std::vector<std::string> system_names();
// The ids of the systems whose row of kSystems satisfies `has`, for messages: "a, b and c".
std::string systems_with(bool (*has)(const SystemTraits&));
// The observables of the groups `groups` (ObservableGroup bits), group by group.
std::vector<std::string> observable_names(std::uint32_t groups);
// The ids of the systems that have the observable `name`, for messages: "a, b and c" ("" for none).
std::string systems_with_observable(const std::string& name);

// Constraints between parameters (r against the table, sizes against each other). Returns
// the offending parameter name and message, or nullopt.
struct CrossError {
  std::string param, message;
};
std::optional<CrossError> check_cross_constraints(const SystemSchema& s, StartKind start, const double* p,
                                                  double gamma);

// Name of a Param for messages and metadata.
std::string param_name(Param p);

}  // namespace skipstone
