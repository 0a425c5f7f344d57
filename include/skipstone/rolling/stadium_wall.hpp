// roll3:strip and roll4:planes as rolling tables: the strip table's wall (table_wall.hpp over
// StripTable, the general integrator of table_roll.hpp) with the rows, state rows and starts of
// the closed-form models (roll3_strip.hpp, roll4_planes.hpp, the stadium layout of
// stadium_segments.hpp). The closed form solves each segment exactly and has no room for noise;
// the noisy runs of these two models (noisy_stadium.hpp) run on this wall instead, and report
// what the closed form reports, in its coordinates:
//   roll3 (N = 6): x = (sigma, x2), u = (v1, v2), s;  roll4 (N = 10): x = (sigma, x2, x3),
//   u = (v1, v2, v3), w = (S23, -S13, S12); nu = 0 (the trace's contact columns repeat x),
// sigma the arc length on the stadium N_r over the plate's cross-section, v1 the velocity along
// its tangent X1, x2 the coordinate along the strip (roll3: the height; roll4: along the planes),
// x3 roll4's height along the axis.
// The table's plate is the strip |x1| <= L/2; its wall part 0 is the edge x1 = -L/2 (segment 1
// of the stadium), part 1 the edge x1 = +L/2 (segment 3). The components of the two states
// differ by signs only (StadiumSigns):
//   on a face (sheet sg = +-1, X1 = -sg e1): v1 = -sg u1, v2 = u2; roll4 S12 = -sg A12,
//     S13 = -sg A13, S23 = A23 (the frame components X_i . S X_j of the table's spin);
//   over an edge (frame tau, e2 of edge_system.hpp; a = +1 over part 0, where the stadium runs
//     from N+ to N- as tau does, -1 over part 1; b = e2 . e_y, the wall's direction against x2):
//     v1 = a v1', v2 = b v2'; roll4 S12 = a b S12', S13 = a S13', S23 = b S23';
//   roll3's s is minus its S12 (s = sg A12 on a face, -a b S12' over an edge), the sign of the
//   paper's curvature k = -1/r in Eq. (11);
// these are the signs for which the general integrator on this wall gives the closed form's
// state rows (tests/test_noisy_stadium.cpp). sigma = L/2 - x1 on N+, L + pi r + L/2 + x1 on N-,
// L + r phi over part 0, 2 L + pi r + r (pi - phi) over part 1.
#pragma once
#include <cmath>
#include <type_traits>

#include "skipstone/final_state.hpp"
#include "skipstone/rolling/stadium_segments.hpp"
#include "skipstone/rolling/table_wall.hpp"
#include "skipstone/tables/strip.hpp"

namespace skipstone {

// A 2D row (roll3:strip's): the position (sigma, x2), the state (v1, v2; s), nu = 0.
struct StripRow {
  Vec2 x;
  State2D state;
  Vec2 nu;
};

// The closed form's components over the table's, component by component (+-1, so each is its
// own inverse); roll3's s is s12.
struct StadiumSigns {
  double v1, v2, s12, s13, s23;
};

template <int N>
SKIPSTONE_HD SKIPSTONE_INLINE StadiumSigns face_signs(int sheet) {
  const double sg = sheet > 0 ? 1.0 : -1.0, spin = N == 6 ? -1.0 : 1.0;
  return {-sg, 1.0, -spin * sg, -sg, 1.0};
}
template <int N>
SKIPSTONE_HD SKIPSTONE_INLINE StadiumSigns edge_signs(Vec2 e1, Vec2 e2) {
  const double a = e1.x < 0.0 ? 1.0 : -1.0, b = e2.y > 0.0 ? 1.0 : -1.0, spin = N == 6 ? -1.0 : 1.0;
  return {a, b, spin * a * b, a, b};
}

// The strip table's wall with the closed form's rows: its row functions hide TableWall's (they
// are not virtual). TableRollRun calls them on its Wall type, and TableWall's own methods make no
// rows (enter, leave, next_piece use the table and the arc only); a method added there that made
// one would bypass these coordinates.
template <int N>
struct StadiumWall : TableWall<StripTable, N> {
  using Row = std::conditional_t<N == 6, StripRow, DiscRow>;
  static constexpr int kStateColumns = N - 1;  // sigma, x2, [x3], v1, v2, [v3], s or (wx, wy, wz)
  double r;  // the ball's radius: the stadium's half-circles

  SKIPSTONE_HD Stadium stadium() const { return {this->table.L, r}; }

  // The row of the state with position (sigma, x2, x3), velocity (u1, u2, u3) and spins
  // (A12, A13, A23), all in the table's components, under the signs g.
  static SKIPSTONE_HD Row row_of(double sigma, double x2, double x3, const StadiumSigns& g, double u1, double u2,
                                 double u3, double a12, double a13, double a23) {
    if constexpr (N == 6) {
      return {Vec2{sigma, x2}, State2D{{g.v1 * u1, g.v2 * u2}, g.s12 * a12}, Vec2{0.0, 0.0}};
    } else {
      return {Vec3{sigma, x2, x3}, State3D{{g.v1 * u1, g.v2 * u2, u3}, {g.s23 * a23, -g.s13 * a13, g.s12 * a12}},
              Vec3{0.0, 0.0, 0.0}};
    }
  }

  SKIPSTONE_HD Row plate_row(const PlateState& s, double) const {
    const double half = 0.5 * this->table.L;
    const double sigma = s.sheet > 0 ? half - s.p.x : this->table.L + kPi * r + half + s.p.x;
    return row_of(sigma, s.p.y, s.z, face_signs<N>(s.sheet), s.u.x, s.u.y, s.u3, s.A12, s.A13, s.A23);
  }
  SKIPSTONE_HD Row edge_row(const typename TableWall<StripTable, N>::Sys& sys, const double* y, double) const {
    const EdgePoint e = sys.arc.point(y[5]);
    const double phi = atan2(y[4], y[3]);
    const double L = this->table.L;
    const double sigma = e.e1.x < 0.0 ? L + r * phi : 2.0 * L + kPi * r + r * (kPi - phi);
    if constexpr (N == 6) return row_of(sigma, e.b.y, 0.0, edge_signs<N>(e.e1, e.e2), y[0], y[1], 0.0, y[2], 0.0, 0.0);
    return row_of(sigma, e.b.y, y[9], edge_signs<N>(e.e1, e.e2), y[0], y[1], y[6], y[2], y[7], y[8]);
  }
  // The velocity of the row's position columns: sigma' = v1, x2' = v2 (x3' = v3), its u.
  SKIPSTONE_HD auto edge_velocity(const typename TableWall<StripTable, N>::Sys& sys, const double* y) const {
    return edge_row(sys, y, r).state.u;
  }
  static SKIPSTONE_HD auto flight_acceleration(double G) {
    if constexpr (N == 6) return Vec2{0.0, -G};
    else return Vec3{0.0, 0.0, -G};
  }

  // The state rows are the closed form's (final_state, initial.start "state_file").
  SKIPSTONE_HD void write_plate_row(const PlateState& s, double* row) const {
    const Row e = plate_row(s, r);
    write_state_row(e.x, e.state, row);
  }
  SKIPSTONE_HD void write_edge_row(const typename TableWall<StripTable, N>::Sys& sys, const double* y,
                                   double* row) const {
    const Row e = edge_row(sys, y, r);
    write_state_row(e.x, e.state, row);
  }
};

template <int N>
SKIPSTONE_HD SKIPSTONE_INLINE StadiumWall<N> stadium_wall(double L, double r) {
  return {{StripTable{L}, -1, 0.0, 0.0}, r};
}

// The start of a scan point on the wall: on a face (s) or inside an edge passage (arc, y).
template <int N>
struct StadiumStart {
  bool on_edge;
  PlateState s;
  EdgeArc arc;
  double y[N];
};

// A start in the closed form's keys: "plate" (x1, z, v1, v2, and roll3's spin or roll4's v3,
// S12, S13, S23 on N+, roll4's x2 = 0) or a state row (sigma, x2[, x3], v1, v2[, v3], s or w),
// anywhere on the stadium. The caller has masked the start (plate_start_masked).
template <int N>
SKIPSTONE_HD StadiumStart<N> stadium_wall_start(const StadiumWall<N>& wall, const ScanSpec& spec, const double* p) {
  StadiumStart<N> st{};
  const bool from_row = spec.start == StartKind::state;
  double sigma, x2, x3 = 0.0, v3 = 0.0, s12, s13 = 0.0, s23 = 0.0;
  if (from_row) {
    sigma = p[P_SIGMA], x2 = N == 6 ? p[P_Z] : p[P_X2];  // roll3's x2 is its height, the key z
    if constexpr (N == 10) x3 = p[P_Z], v3 = p[P_V3], s12 = p[P_WZ], s13 = -p[P_WY], s23 = p[P_WX];
    else s12 = p[P_SPIN];
  } else {
    sigma = 0.5 * wall.table.L - p[P_X1];
    if constexpr (N == 10) x2 = 0.0, x3 = p[P_Z], v3 = p[P_V3], s12 = p[P_S12], s13 = p[P_S13], s23 = p[P_S23];
    else x2 = p[P_Z], s12 = p[P_SPIN];
  }
  const Stadium stadium = wall.stadium();
  const double L = wall.table.L, r = wall.r;
  double pos;
  const int seg = stadium.segment_at(sigma, pos);
  if (seg == 0 || seg == 2 || (pos == 0.0 && seg == 3)) {  // a face (segment 3's start: N-'s end)
    PlateState& s = st.s;
    s.sheet = seg == 0 ? 1 : -1;
    const StadiumSigns g = face_signs<N>(s.sheet);
    s.p = {seg == 0 ? 0.5 * L - pos : (seg == 2 ? -0.5 * L + pos : 0.5 * L), x2};
    s.u = {g.v1 * p[P_V1], g.v2 * p[P_V2]};
    s.z = x3, s.u3 = v3;
    s.A12 = g.s12 * s12, s.A13 = g.s13 * s13, s.A23 = g.s23 * s23;
    return st;
  }
  st.on_edge = true;
  const double angle = pos / r;  // from N+ over part 0 (segment 1), from N- over part 1 (segment 3)
  const double phi = seg == 1 ? angle : kPi - angle;
  const Vec2 e1 = {seg == 1 ? -1.0 : 1.0, 0.0};
  double q;
  st.arc = edge_arc_through(wall.table, Vec2{0.5 * L * e1.x, x2}, e1, q);
  const EdgePoint e = st.arc.point(q);
  const StadiumSigns g = edge_signs<N>(e.e1, e.e2);
  double* y = st.y;
  y[0] = g.v1 * p[P_V1], y[1] = g.v2 * p[P_V2], y[2] = g.s12 * s12;
  y[3] = cos(phi), y[4] = sin(phi), y[5] = q;
  if constexpr (N == 10) y[6] = v3, y[7] = g.s13 * s13, y[8] = g.s23 * s23, y[9] = x3;
  return st;
}

}  // namespace skipstone
