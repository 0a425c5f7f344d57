// The final state of a trajectory (observable final_state, docs/config.md "Observables"): the
// state the model hands its sink at its last event, which every model that has final_state
// reports at the end of a run (the no-slip models at t_max or the last impact, roll3:strip and
// roll4:planes at the last segment end or t_max, roll3:inside-cylinder at the end). A row is
// the state as the sink sees it: 2D (x, y, u_x, u_y, s), 3D (x, y, z, u_x, u_y, u_z, w_x, w_y, w_z);
// the host names the columns per system (host/config/state_layout.cpp).
// The rolling tables' last event is not a state they start from (an edge passage's rows are a
// trace's): such a model takes the row from a sink that keeps one (take_state_row) before its
// first event and writes its own (rolling/table_state_row.hpp) at the end.
#pragma once
#include <type_traits>
#include <utility>

#include "skipstone/collision.hpp"
#include "skipstone/hd.hpp"

namespace skipstone {

template <class T>
SKIPSTONE_HD SKIPSTONE_INLINE void write_state_row(Vec2T<T> x, const State2DT<T>& s, double* row) {
  row[0] = x.x, row[1] = x.y, row[2] = s.u.x, row[3] = s.u.y, row[4] = s.s;
}
template <class T>
SKIPSTONE_HD SKIPSTONE_INLINE void write_state_row(Vec3T<T> x, const State3DT<T>& s, double* row) {
  row[0] = x.x, row[1] = x.y, row[2] = x.z;
  row[3] = s.u.x, row[4] = s.u.y, row[5] = s.u.z;
  row[6] = s.w.x, row[7] = s.w.y, row[8] = s.w.z;
}

// The row a sink keeps the final state in, taken from it (its events no longer write it); null
// where the sink keeps none.
template <class Sink, class = void>
struct keeps_state_row : std::false_type {};
template <class Sink>
struct keeps_state_row<Sink, std::void_t<decltype(std::declval<Sink&>().take_state_row())>> : std::true_type {};
template <class Sink>
SKIPSTONE_HD SKIPSTONE_INLINE double* take_state_row(Sink& sink) {
  if constexpr (keeps_state_row<Sink>::value) return sink.take_state_row();
  else return nullptr;
}

}  // namespace skipstone
