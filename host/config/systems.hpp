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
  std::map<std::string, StartSchema> starts;
  std::string default_start;
  std::vector<std::string> observables;  // the groups of traits.observables, named
};

// Throws ConfigError at key "system" for an unknown id, listing the known ones.
SystemSchema system_schema(const std::string& name);
std::vector<std::string> system_names();
// The ids of the systems whose row of kSystems satisfies `has`, for messages: "a, b and c".
std::string systems_with(bool (*has)(const SystemTraits&));

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
