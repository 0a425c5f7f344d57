// DiscardSink: the event/step sink of ensemble runs, which keep nothing but the observables.
#pragma once
#include "skipstone/hd.hpp"

namespace skipstone {

struct DiscardSink {
  template <class V, class S>
  SKIPSTONE_HD void on_event(double, V, const S&, V) {}
  template <class T>
  SKIPSTONE_HD void on_step(T, const T*) {}
};

}  // namespace skipstone
