// The final state of a trajectory (observable final_state, docs/config.md "Observables"): the
// state the model hands its sink at its last event, which every model that has final_state
// reports at the end of a run (the no-slip models at t_max or the last impact, roll3:strip and
// roll4:planes at the last segment end or t_max, roll3:inside-cylinder at the end). A row is
// the state as the sink sees it: 2D (x, y, u_x, u_y, s), 3D (x, y, z, u_x, u_y, u_z, w_x, w_y, w_z);
// the host names the columns per system (host/config/state_layout.cpp).
#pragma once
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

}  // namespace skipstone
