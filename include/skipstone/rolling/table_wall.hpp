// roll3:<table> and roll4:<table>: the wall of any 2D table (disc, stadium, ellipse, Sinai,
// rectangle, convex polygon) for the rolling run of table_roll.hpp (paper Sections 5.1-5.5,
// Proposition 12 with the wall's curvature kappa(s); Figure 4 is roll3:sinai):
//   flat parts: the exact flight of the no-slip table (its next_hit; roll3 under its in-plane
//     gravity), so a flight that meets the wall next to a polygon's vertex is no special case:
//     the ball rolls over the edge there and on round the vertex;
//   N^c: edge_system.hpp over the pieces of the wall (edge_arc.hpp), one piece at a time: a
//     passage that reaches a break stops there (rim_passage.hpp) and next_piece() hands it the
//     piece that follows, so that no step crosses a jump of the curvature.
// This is also the disc's wall for roll3:disc; roll4:disc has its own closed-form one
// (disc_wall.hpp), which the disc table here reproduces to 1e-9 (tested).
//
// Edge rows (trace), from the frame state y:
//   roll4: x = (b + r sin(phi) e1, x3), u = (v1, v2, v3), w = (S23, -S13, S12), nu = (sin(phi) e1, 0);
//   roll3: x = the centre in R^3, the plate in z = 0 (z = r cos(phi) on N^c), u = (v1, v2, 0),
//          w = (0, 0, S12), nu the unit normal from the contact point to the centre, so that
//          x - r nu is the contact point.
//
// Precision: TableWall<Table, N, T> holds the state and integrates the edge in T (double; float
// for the float kernels, set up in double and rounded once, at the float tolerances rtol, atol
// >= 1e-5, as roll4:disc's float kernel). The table's geometry stays in double in both: the
// flight solve (next_hit: the quadric and quartic roots of a flight under in-plane gravity,
// whose nearly double roots at a grazing hit lose half their digits in any precision, which
// leaves float 3 or 4) and the wall piece and point at an edge entry are computed in double
// from the T state and rounded, once per flight; the steps of the edge passages are T
// throughout.
#pragma once
#include <type_traits>

#include "skipstone/noslip_model.hpp"
#include "skipstone/rolling/edge_system.hpp"
#include "skipstone/rolling/table_roll.hpp"
#include "skipstone/rolling/table_state_row.hpp"

namespace skipstone {

template <int N, class T>
SKIPSTONE_HD SKIPSTONE_INLINE DiscRow table_edge_row(const T* y, const EdgeArcT<T>& arc, same_t<T> r) {
  const EdgePointT<T> e = arc.point(y[5]);
  const Vec2T<T> c = e.b + (r * y[4]) * e.e1;
  if constexpr (N == 10)
    return {Vec3{c.x, c.y, y[9]}, State3D{{y[0], y[1], y[6]}, {y[8], -y[7], y[2]}},
            Vec3{y[4] * e.e1.x, y[4] * e.e1.y, 0.0}};
  return {Vec3{c.x, c.y, r * y[3]}, State3D{{y[0], y[1], 0.0}, {0.0, 0.0, y[2]}},
          Vec3{y[4] * e.e1.x, y[4] * e.e1.y, y[3]}};
}

template <class Table, int N_, class T = double>
struct TableWall {
  using Scalar = T;
  using Sys = EdgeSystem<N_, T>;
  static constexpr int N = N_;
  static constexpr bool kChords = std::is_same_v<Table, DiscTable>;
  static constexpr bool kHasBreaks = true;
  static constexpr bool kStateRows = true;  // table_state_row.hpp
  static constexpr int kStateColumns = N_ + 2;  // face, x1, x2, [x3], v1, v2, [v3], S12, [S13, S23], psi, phi
  using Piece = EdgeArc;                    // where a start on N^c is (resume)

  // How far inside the wall a plate start moving out counts as on it (time_to_wall).
  static constexpr double kOnWallDistance = 1e-9;

  Table table;
  int last_part;      // the wall part the current flat part starts on (-1: an interior start)
  double q_piece;     // where on its current piece of the wall the passage entered it
  double arc_before;  // the arc length along the wall over the passage's earlier pieces

  SKIPSTONE_HD void start(PlateStateT<T>&) { last_part = -1; }
  SKIPSTONE_HD bool on_wall() const { return last_part >= 0; }
  // For a slipping face's flight (slipping_face.hpp): off the part it left after its first
  // step; whether a point lies on the plate C, and a lower bound on its distance to the wall;
  // the wall part a flight from the wall starts on.
  SKIPSTONE_HD void off_wall() { last_part = -1; }
  SKIPSTONE_HD bool contains(Vec2T<T> p) const { return table.inside(vec_as<double>(p)); }
  SKIPSTONE_HD double clearance(Vec2 p) const { return table.clearance(p); }
  SKIPSTONE_HD int wall_part() const { return last_part; }

  SKIPSTONE_HD T time_to_wall(const PlateStateT<T>& s, T g_plane, double horizon, int& part) const {
    const Vec2 p = vec_as<double>(s.p), u = vec_as<double>(s.u);
    const double speed = norm(u);
    if (last_part < 0 && speed > 0.0) {
      // The first flight of a plate start, which may lie on the wall moving out: the flight's
      // root at t = 0 is no crossing ahead of it (the solve then finds none, or the line of
      // another side of a polygon). The same flight from kOnWallDistance behind the start
      // crosses the wall outwards within that distance only then: the passage starts now, on
      // that part of the wall.
      const double behind = kOnWallDistance / speed;
      const Hit<Vec2> from_behind = table.next_hit(p - behind * u, u, double(g_plane), -1, horizon + behind);
      if ((from_behind.kind == HitKind::wall || from_behind.kind == HitKind::corner) && from_behind.t <= 2.0 * behind) {
        part = from_behind.part;
        return T(0);
      }
    }
    const Hit<Vec2> hit = table.next_hit(p, u, double(g_plane), last_part, horizon);
    part = hit.kind == HitKind::miss ? kWallMissed : hit.part;
    return hit.kind == HitKind::wall || hit.kind == HitKind::corner ? T(hit.t) : T(INFINITY);
  }

  // The junction onto the edge at the wall point s.p of part `part`: the passage's system (over
  // the piece there, projecting onto the invariants k1, k2) and entry state.
  SKIPSTONE_HD void enter(const PlateStateT<T>& s, int part, const RollModelT<T>& m, T k1, T k2, Sys& sys, T* y) {
    double q;
    const EdgeArc arc = edge_arc_at(table, vec_as<double>(s.p), part, q);
    const EdgePoint e = arc.point(q);
    q_piece = T(q);
    arc_before = 0.0;
    plate_to_edge<N>(s, vec_as<T>(e.e1), vec_as<T>(e.e2), T(q), y);
    sys = {arc_as<T>(arc), m.r, m.eta, m.G, k1, k2, step_limit(m, y), m.g};
  }

  // A start on N^c: the passage goes on over `arc` from the frame state y (y[5] its q there);
  // sys's invariants are left to set_invariants.
  SKIPSTONE_HD void resume(const EdgeArc& arc, const T* y, const RollModelT<T>& m, Sys& sys) {
    last_part = -1;
    q_piece = y[5];
    arc_before = 0.0;
    sys = {arc_as<T>(arc), m.r, m.eta, m.G, T(0), T(0), step_limit(m, y), m.g};
  }

  SKIPSTONE_HD static void set_invariants(Sys& sys, T k1, T k2) {
    sys.k1_total = k1;
    sys.k2_total = k2;
  }

  // The largest step of a passage from y: phi' = v1 / r moves phi by at most about one radian
  // (half of one where in-plane gravity can speed the ball up during the passage).
  static SKIPSTONE_HD T step_limit(const RollModelT<T>& m, const T* y) {
    const T xi = sqrt(y[0] * y[0] + y[1] * y[1] + y[2] * y[2]);
    const bool inplane = N == 6 && m.G != T(0);
    return (inplane ? T(0.5) : T(1)) * m.r / xi;
  }

  // The passage reached an end of its piece: on to the next piece, on the side of that end.
  SKIPSTONE_HD void next_piece(Sys& sys, T* y) {
    const bool forward = sys.arc.q_hi - y[5] < y[5] - sys.arc.q_lo;
    arc_before += sys.arc.arc_between(q_piece, y[5]);
    sys.arc = arc_as<T>(edge_arc_after(table, arc_as<double>(sys.arc), forward));
    y[5] = forward ? sys.arc.q_lo : sys.arc.q_hi;
    q_piece = y[5];
  }

  SKIPSTONE_HD double boundary_parameter(const PlateStateT<T>& s, int part) const {
    return table.boundary_parameter(vec_as<double>(s.p), part);
  }

  SKIPSTONE_HD T edge_height(const Sys& sys, const T* y) const {
    if constexpr (N == 6) return sys.centre_height(y);
    return y[9];
  }
  SKIPSTONE_HD DiscRow edge_row(const Sys& sys, const T* y, T r) const { return table_edge_row<N>(y, sys.arc, r); }
  // A flat-part state's row (disc_output.hpp) and the acceleration of its position columns in a
  // flight under G (roll3 in the plate along -y, roll4 along the axis).
  SKIPSTONE_HD DiscRow plate_row(const PlateStateT<T>& s, T r) const { return skipstone::plate_row<N>(s, r); }
  static SKIPSTONE_HD Vec3 flight_acceleration(double G) { return N == 6 ? Vec3{0.0, -G, 0.0} : Vec3{0.0, 0.0, -G}; }
  // The wall point of the frame state y and its frame (e1 the outward normal, e2 along the wall).
  SKIPSTONE_HD EdgePointT<T> edge_point(const Sys& sys, const T* y) const { return sys.arc.point(y[5]); }
  SKIPSTONE_HD Vec3 edge_velocity(const Sys& sys, const T* y) const {
    const EdgePointT<T> e = edge_point(sys, y);
    return edge_row_velocity<N>(y, e.e1, e.e2);
  }
  SKIPSTONE_HD double passage_arc(const Sys& sys, const T* y) const {
    return arc_before + sys.arc.arc_between(q_piece, y[5]);
  }

  SKIPSTONE_HD void write_plate_row(const PlateStateT<T>& s, double* row) const { write_plate_state_row<N>(s, row); }
  SKIPSTONE_HD void write_edge_row(const Sys& sys, const T* y, double* row) const {
    write_edge_state_row<N>(sys.arc.point(y[5]), y, row);
  }

  SKIPSTONE_HD PlateStateT<T> leave(const Sys& sys, const T* y) {
    const EdgePointT<T> e = sys.arc.point(y[5]);
    last_part = sys.arc.part;
    return edge_to_plate<N>(y, e.b, e.e1, e.e2);
  }
};

template <int N, class T = double, class Table>
SKIPSTONE_HD SKIPSTONE_INLINE TableWall<Table, N, T> table_wall(const Table& table) {
  return {table, -1, 0.0, 0.0};
}

// The model and options of a scan point.
SKIPSTONE_HD SKIPSTONE_INLINE void table_roll_model(const ScanSpec& spec, const ScanPoint& pt, RollModel& m,
                                                    RollOptions& opt) {
  const double* p = pt.p;
  const double gamma = point_gamma(spec, pt);
  m = {p[P_BALL_R], rolling_eta(pt, gamma), rolling_gravity(pt, gamma), ball_gravity(pt, gamma)};
  opt = {spec.t_max, spec.max_events, spec.energy_tolerance, spec.bounded_depth,
         spec.rtol,  spec.atol,       spec.max_steps, spec.contact_forces, p[P_MU_S],
         spec.holes.n > 0 ? &spec.holes : nullptr};
}

// The start of a scan point on the face N^+ ("plate") or N^- ("plate_minus") at (x1, x2) with
// velocity (v1, v2) and spin S12 (roll4 also height z, v3, S13, S23); false: masked (the start
// is not on the plate C). A state row on a face (face +-1, table_state_row.hpp) is such a start
// on the face it names; one on the edge (face 0) is not (table_roll_edge_setup).
// A rim_entry start (roll3): at the wall point of boundary parameter boundary_s on N^+, entering
// the edge with (v1, v2, S12), v1 = sqrt(speed^2 - v2^2 - S12^2) (masked where that is not > 0);
// entry_part receives the wall part, -1 for the face starts.
template <int N, class Table>
SKIPSTONE_HD bool table_roll_setup(const Table& table, const ScanSpec& spec, const ScanPoint& pt, RollModel& m,
                                   PlateState& s, RollOptions& opt, int& entry_part) {
  const double* p = pt.p;
  s = PlateState{};
  s.sheet = spec.start == StartKind::plate_minus ? -1 : 1;
  entry_part = -1;
  if (spec.start == StartKind::state) {
    if (!(p[P_FACE] == 1.0 || p[P_FACE] == -1.0)) return false;
    s.sheet = p[P_FACE] > 0.0 ? 1 : -1;
  }
  if (spec.start == StartKind::rim_entry) {
    const double v2 = p[P_V2], S12 = p[P_S12];
    double v1;
    if (!entry_v1(p[P_SPEED], v2, S12, v1)) return false;
    const BoundaryFrame f = table.boundary_frame(p[P_BOUNDARY_S]);
    const Vec2 e1 = -1.0 * f.nu, e2 = f.tangent;
    s.p = f.x;
    s.u = v1 * e1 + v2 * e2;
    s.A12 = S12;
    entry_part = f.part;
  } else {
    s.p = {p[P_X1], p[P_X2]};
    if (!table.inside(s.p)) return false;
    s.u = {p[P_V1], p[P_V2]};
    s.A12 = p[P_S12];
  }
  if constexpr (N == 10) {
    s.u3 = p[P_V3];
    s.z = p[P_Z];
    s.A13 = p[P_S13];
    s.A23 = p[P_S23];
  }
  table_roll_model(spec, pt, m, opt);
  return true;
}

// The start of a scan point from a state row on the edge N^c (face 0, table_state_row.hpp): the
// piece of the wall through the row's wall point and normal direction psi (edge_arc_through),
// the frame state y on it (y[5] its coordinate q there); false: not such a row, or masked (phi
// outside [0, pi]).
template <int N, class Table>
SKIPSTONE_HD bool table_roll_edge_setup(const Table& table, const ScanSpec& spec, const ScanPoint& pt, RollModel& m,
                                        RollOptions& opt, EdgeArc& arc, double* y) {
  const double* p = pt.p;
  if (!starts_on_edge_state_row(spec, p)) return false;
  const double phi = p[P_PHI], psi = p[P_ANGLE];
  if (!(phi >= 0.0 && phi <= kPi)) return false;
  double q;
  arc = edge_arc_through(table, Vec2{p[P_X1], p[P_X2]}, Vec2{cos(psi), sin(psi)}, q);
  y[0] = p[P_V1], y[1] = p[P_V2], y[2] = p[P_S12];
  y[3] = cos(phi), y[4] = sin(phi), y[5] = q;
  if constexpr (N == 10) y[6] = p[P_V3], y[7] = p[P_S13], y[8] = p[P_S23], y[9] = p[P_Z];
  table_roll_model(spec, pt, m, opt);
  return true;
}

// run(table, m, s, opt, entry_part) on the table of a scan point set up for a roll3:<table>
// (N = 6) or roll4:<table> (N = 10) run (table_roll_setup); the masked result where the start
// is not valid.
template <int N, TableKind TK, class Run>
SKIPSTONE_HD TrajectoryResult with_table_roll_start(const ScanSpec& spec, const ScanPoint& pt, Run&& run) {
  TrajectoryResult res = masked_result();
  with_plane_table_of<TK>(spec, pt, [&](const auto& table) {
    RollModel m;
    PlateState s;
    RollOptions opt;
    int entry_part;
    if (table_roll_setup<N>(table, spec, pt, m, s, opt, entry_part)) res = run(table, m, s, opt, entry_part);
  });
  return res;
}

// run(table, m, opt, arc, y) on the table of a scan point that starts on the edge
// (table_roll_edge_setup: the piece arc, the frame state y in double); the masked result where
// the start is not valid.
template <int N, TableKind TK, class Run>
SKIPSTONE_HD TrajectoryResult with_table_roll_edge_start(const ScanSpec& spec, const ScanPoint& pt, Run&& run) {
  TrajectoryResult res = masked_result();
  with_plane_table_of<TK>(spec, pt, [&](const auto& table) {
    RollModel m;
    RollOptions opt;
    EdgeArc arc;
    double y[N];
    if (table_roll_edge_setup<N>(table, spec, pt, m, opt, arc, y)) res = run(table, m, opt, arc, y);
  });
  return res;
}

// One trajectory of a scan point that starts on the edge (table_roll_edge_setup), in scalar type T.
template <int N, TableKind TK, class T, class Sink>
SKIPSTONE_HD TrajectoryResult simulate_table_roll_on_edge(const ScanSpec& spec, const ScanPoint& pt, Sink& sink) {
  return with_table_roll_edge_start<N, TK>(spec, pt, [&](const auto& table, const RollModel& m, const RollOptions& opt,
                                                         const EdgeArc& arc, const double* y) {
    T yt[N];
    for (int i = 0; i < N; ++i) yt[i] = T(y[i]);
    return run_table_roll_on_edge(table_wall<N, T>(table), roll_model_as<T>(m), arc, yt, opt, sink);
  });
}

// One roll3:<table> (N = 6) or roll4:<table> (N = 10) trajectory of a scan point, in scalar
// type T (set up in double and rounded once).
template <int N, TableKind TK, class T = double, class Sink>
SKIPSTONE_HD TrajectoryResult simulate_table_roll(const ScanSpec& spec, const ScanPoint& pt, Sink& sink) {
  if (starts_on_edge_state_row(spec, pt.p)) return simulate_table_roll_on_edge<N, TK, T>(spec, pt, sink);
  return with_table_roll_start<N, TK>(spec, pt, [&](const auto& table, const RollModel& m, const PlateState& s,
                                                    const RollOptions& opt, int entry_part) {
    return run_table_roll(table_wall<N, T>(table), roll_model_as<T>(m), plate_state_as<T>(s), opt, sink, nullptr,
                          entry_part);
  });
}

}  // namespace skipstone
