// Shared helpers for the tests: building a ScanSpec from a JSON config the same way the CLI
// does, and sinks that record trajectories.
#pragma once
#include <vector>

#include <nlohmann/json.hpp>

#include "config.hpp"
#include "skipstone/collision.hpp"

namespace skipstone::testing {

inline RunConfig config_from(const nlohmann::json& j) { return parse_config(j); }

template <class V, class S>
struct EventLog {
  struct Event {
    double t;
    V x;
    S state;
  };
  std::vector<Event> events;
  void on_event(double t, V x, const S& s, V) { events.push_back({t, x, s}); }
  void on_step(double, const double*) {}
};

}  // namespace skipstone::testing
