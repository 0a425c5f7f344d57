// Shared helpers for the tests: building a ScanSpec from a JSON config the same way the CLI
// does, and sinks that record trajectories.
#pragma once
#include <type_traits>
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
  // simulate_trajectory instantiates every model; only events of this log's dimension are kept.
  template <class V2, class S2>
  void on_event(double t, V2 x, const S2& s, V2) {
    if constexpr (std::is_same_v<V2, V>) events.push_back({t, x, s});
  }
  template <class T>
  void on_step(T, const T*) {}
};

}  // namespace skipstone::testing
