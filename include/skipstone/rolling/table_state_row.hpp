// The state row of roll3:<table> and roll4:<table> (observable final_state, initial.start
// "state_file"; docs/config.md): the state at t_end, on a face or inside an edge passage, as a
// row a run starts from again (table_wall.hpp reads it):
//   roll3 (N = 6):  face, x1, x2, v1, v2, S12, psi, phi
//   roll4 (N = 10): face, x1, x2, x3, v1, v2, v3, S12, S13, S23, psi, phi
// face +1 / -1: on the face N^+ / N^- (disc_junction.hpp, PlateState): (x1, x2) the point of the
//   plate C under the centre, (v1, v2) its velocity, S12 the spin (roll4: x3 the axial height,
//   v3, S13, S23); psi = 0 and phi = 0 (N^+) or pi (N^-).
// face 0: on the edge N^c: (x1, x2) the wall point b the ball rolls over, psi the direction of the
//   wall's outward normal e1 there (atan2(e1.y, e1.x)), phi the angle of the centre about the
//   edge (0 on the side of N^+, pi on that of N^-), and the frame state of edge_system.hpp:
//   v1 along X1 (over the edge), v2 along the wall e2, S12 (roll4: x3, v3, S13, S23).
#pragma once
#include "skipstone/hd.hpp"
#include "skipstone/rolling/disc_junction.hpp"
#include "skipstone/rolling/edge_arc.hpp"

namespace skipstone {

template <int N, class T>
SKIPSTONE_HD SKIPSTONE_INLINE void write_plate_state_row(const PlateStateT<T>& s, double* row) {
  int k = 0;
  row[k++] = s.sheet > 0 ? 1.0 : -1.0;
  row[k++] = s.p.x, row[k++] = s.p.y;
  if constexpr (N == 10) row[k++] = s.z;
  row[k++] = s.u.x, row[k++] = s.u.y;
  if constexpr (N == 10) row[k++] = s.u3;
  row[k++] = s.A12;
  if constexpr (N == 10) row[k++] = s.A13, row[k++] = s.A23;
  row[k++] = 0.0;
  row[k] = s.sheet > 0 ? 0.0 : kPi;
}

// The frame state y (edge_system.hpp) at the wall point e.
template <int N, class T>
SKIPSTONE_HD SKIPSTONE_INLINE void write_edge_state_row(const EdgePointT<T>& e, const T* y, double* row) {
  int k = 0;
  row[k++] = 0.0;
  row[k++] = e.b.x, row[k++] = e.b.y;
  if constexpr (N == 10) row[k++] = y[9];
  row[k++] = y[0], row[k++] = y[1];
  if constexpr (N == 10) row[k++] = y[6];
  row[k++] = y[2];
  if constexpr (N == 10) row[k++] = y[7], row[k++] = y[8];
  row[k++] = atan2(double(e.e1.y), double(e.e1.x));
  row[k] = atan2(double(y[4]), double(y[3]));
}

}  // namespace skipstone
