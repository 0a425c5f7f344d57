// EventSink: a sink whose events and steps reach it through virtual calls, so that the model
// code behind simulate_trajectory is compiled once for it (simulate_trajectory.cpp) instead of
// once per sink type in every translation unit that runs a trajectory. EventSinkOf<Sink> hands
// them on to a sink that takes events and steps only (on_event, on_step); sinks that ask for
// more (flights, impacts, contact forces, samples, a kept state row) are handed the model code
// itself, as they change what it computes.
#pragma once
#include <type_traits>

#include "skipstone/boundary_map.hpp"
#include "skipstone/collision.hpp"
#include "skipstone/final_state.hpp"
#include "skipstone/rolling/contact_force.hpp"
#include "skipstone/rolling/disc_output.hpp"
#include "skipstone/section_map.hpp"

namespace skipstone {

class EventSink {
 public:
  virtual ~EventSink() = default;
  virtual void on_event(double t, Vec2T<double> x, const State2DT<double>& s, Vec2T<double> nu) = 0;
  virtual void on_event(double t, Vec3T<double> x, const State3DT<double>& s, Vec3T<double> nu) = 0;
  virtual void on_event(double t, Vec2T<float> x, const State2DT<float>& s, Vec2T<float> nu) = 0;
  virtual void on_event(double t, Vec3T<float> x, const State3DT<float>& s, Vec3T<float> nu) = 0;
  virtual void on_step(double t, const double* y) = 0;
  virtual void on_step(float t, const float* y) = 0;
  // Any other event or step type is a compile error here (not a silent conversion): a model
  // with a new one adds it above.
  template <class V, class S>
  void on_event(double, V, const S&, V) = delete;
  template <class T>
  void on_step(T, const T*) = delete;
};

// Whether a sink takes events and steps only: none of the optional interfaces the model code
// looks for (section_map.hpp, boundary_map.hpp, contact_force.hpp, disc_output.hpp,
// final_state.hpp).
template <class Sink>
constexpr bool takes_events_only = !has_on_flight<Sink>::value && !has_on_impact<Sink>::value &&
                                   !has_on_contact<Sink>::value && !wants_samples<Sink>::value &&
                                   !keeps_state_row<Sink>::value;

template <class Sink>
class EventSinkOf final : public EventSink {
  static_assert(takes_events_only<Sink>, "EventSinkOf hands on events and steps only");

 public:
  explicit EventSinkOf(Sink& sink) : sink_(sink) {}
  void on_event(double t, Vec2T<double> x, const State2DT<double>& s, Vec2T<double> nu) override {
    sink_.on_event(t, x, s, nu);
  }
  void on_event(double t, Vec3T<double> x, const State3DT<double>& s, Vec3T<double> nu) override {
    sink_.on_event(t, x, s, nu);
  }
  void on_event(double t, Vec2T<float> x, const State2DT<float>& s, Vec2T<float> nu) override {
    sink_.on_event(t, x, s, nu);
  }
  void on_event(double t, Vec3T<float> x, const State3DT<float>& s, Vec3T<float> nu) override {
    sink_.on_event(t, x, s, nu);
  }
  void on_step(double t, const double* y) override { sink_.on_step(t, y); }
  void on_step(float t, const float* y) override { sink_.on_step(t, y); }

 private:
  Sink& sink_;
};

}  // namespace skipstone
