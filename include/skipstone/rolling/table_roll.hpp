// roll3:<table> and roll4:<table>: a ball rolling without slipping on the plate C of any 2D
// table (disc, stadium, ellipse, Sinai, rectangle, convex polygon) and over its edge (paper
// Sections 5.1-5.5, Proposition 12 with the wall's curvature kappa(s); Figure 4 is roll3:sinai,
// Figure 14 roll4:sinai):
//   roll3 (N = 6): a 3D ball on the plate C in the (x, y) plane, with the plate's in-plane gravity
//     along -y as the 2D no-slip tables have it (acceleration G = g / (1 + gamma^2), Eq. (11));
//   roll4 (N = 10): a 4D ball on the solid cylinder C x R, gravity along the axis.
// Flat parts N^+- (the faces x_w = +-r over C): the exact flight of the no-slip table (the
// table's next_hit, in-plane gravity for roll3; straight for roll4 with the free fall along the
// axis), S constant. Curved part N^c: edge_system.hpp over the pieces of the wall
// (edge_arc.hpp), integrated by rim_passage.hpp; a passage that reaches a break of the wall
// (the stadium's curvature jumps, the two ends of a polygon's vertex piece) stops there and goes
// on over the next piece, so that no step crosses a jump. At a polygon's vertex the ball rolls
// round the vertex on the sphere of radius r about it (edge_system.hpp). Junction maps:
// disc_junction.hpp (plate_to_edge, edge_to_plate) with the frame (e1, e2) of the wall point.
//
// State and outputs as in roll4_disc.hpp (the disc's own implementation, with closed-form
// chords and SIMD lanes, which this model reproduces on the disc table to 1e-9): events =
// completed edge passages, energy_error the largest relative defect of the invariants over the
// junctions and the end (roll3: E1 + G y; roll4: E1 and E2 + G x3), the height z = the centre's
// y (roll3) or axial x3 (roll4); rho_even, rho_odd on the disc with straight flights.
//
// exit_time, exit_arc, exit_side: the first edge passage (Figure 18 on any table): its duration,
// the arc length along the wall from its entry to its exit (signed, along the wall's arc length)
// and the face it leaves on (+1 the face it came from, -1 the other, 0 still on the edge at
// t_max). The start "rim_entry" (roll3) enters the edge at the wall point boundary_s with
// (v1, v2, S12) on the energy sphere, as roll4:disc-transversal does on the disc, and the run
// ends after that one passage with status exited.
//
// Sink (trace): on_event(t, x, (u, w), nu) at the start, at every edge entry and exit and at the
// end with the ambient state, and at every integrator step on N^c with the frame state:
//   roll4: as roll4_disc.hpp, x = (b + r sin(phi) e1, x3), nu = (sin(phi) e1, 0);
//   roll3: x = the centre in R^3, the plate in z = 0 (z = +-r on the faces, r cos(phi) on N^c),
//          u = (u, 0) / (v1, v2, 0), w = (0, 0, A12) / (0, 0, S12), nu the unit normal from the
//          contact point to the centre, so that x - r nu is the contact point.
#pragma once
#include "skipstone/height_stats.hpp"
#include "skipstone/noslip_model.hpp"
#include "skipstone/result.hpp"
#include "skipstone/rolling/disc_output.hpp"
#include "skipstone/rolling/edge_system.hpp"
#include "skipstone/rolling/roll4_disc.hpp"

namespace skipstone {

struct TableRollModel {
  double r, eta, G;
};

// Twice the energies of a plate state: k1 the transversal invariant (roll3: with G y), k2 the
// longitudinal one (roll4, with G z), kin twice the kinetic energy.
template <int N>
struct PlateEnergies {
  double k1, k2, kin;
};
template <int N>
SKIPSTONE_HD SKIPSTONE_INLINE PlateEnergies<N> plate_energies(const PlateState& s, double G) {
  const double t1 = dot(s.u, s.u) + s.A12 * s.A12;
  if constexpr (N == 6) return {t1 + 2.0 * G * s.p.y, 0.0, t1};
  const double t2 = s.u3 * s.u3 + s.A13 * s.A13 + s.A23 * s.A23;
  return {t1, t2 + 2.0 * G * s.z, t1 + t2};
}

template <int N>
SKIPSTONE_HD SKIPSTONE_INLINE double plate_height(const PlateState& s) {
  return N == 6 ? s.p.y : s.z;
}

template <int N>
SKIPSTONE_HD SKIPSTONE_INLINE DiscRow table_plate_row(const PlateState& s, double r) {
  if constexpr (N == 10) return plate_row(s);
  const double sg = s.sheet > 0 ? 1.0 : -1.0;
  return {Vec3{s.p.x, s.p.y, sg * r}, State3D{{s.u.x, s.u.y, 0.0}, {0.0, 0.0, s.A12}}, Vec3{0.0, 0.0, sg}};
}

template <int N>
SKIPSTONE_HD SKIPSTONE_INLINE DiscRow table_edge_row(const double* y, const EdgeArc& arc, double r) {
  const EdgePoint e = arc.point(y[5]);
  const Vec2 c = e.b + (r * y[4]) * e.e1;
  if constexpr (N == 10)
    return {Vec3{c.x, c.y, y[9]}, State3D{{y[0], y[1], y[6]}, {y[8], -y[7], y[2]}},
            Vec3{y[4] * e.e1.x, y[4] * e.e1.y, 0.0}};
  return {Vec3{c.x, c.y, r * y[3]}, State3D{{y[0], y[1], 0.0}, {0.0, 0.0, y[2]}},
          Vec3{y[4] * e.e1.x, y[4] * e.e1.y, y[3]}};
}

// The flight on a flat part over time tau: the table's flight in the plane (roll3: under G along
// -y), the free fall along the axis (roll4).
template <int N>
SKIPSTONE_HD SKIPSTONE_INLINE PlateState fly_plate(PlateState s, double tau, double G) {
  if constexpr (N == 10) return fly(s, tau, G);
  s.p = flight_position(s.p, s.u, Vec2{0.0, -G}, tau);
  s.u.y -= G * tau;
  return s;
}

// Turns the integrator's steps on N^c into trace events and height extremes.
template <class Sink, int N>
struct EdgeSteps {
  Sink& out;
  HeightStats& h;
  const EdgeSystem<N>& sys;
  double t0;

  SKIPSTONE_HD void on_step(double t, const double* y) {
    h.extremum(N == 6 ? sys.centre_height(y) : y[9]);
    if (t == 0.0) return;  // the entry (or the break the piece starts at), already reported
    const DiscRow row = table_edge_row<N>(y, sys.arc, sys.r);
    out.on_event(t0 + t, row.x, row.state, row.nu);
  }
};

template <class Table, int N>
struct TableRollRun {
  Table table;
  TableRollModel m;
  DiscRollOptions opt;
  HeightStats hs;
  PlateEnergies<N> e0;
  double max_err;
  PlateState s;
  int last_part;  // the wall part the current flat part starts on (-1: an interior start)
  ChordDistances chords;
  std::uint64_t steps, events;
  double t, z_end;
  Status status;
  bool single_passage;  // the run is one passage (a rim_entry start)
  double t_entry;     // when the current passage started
  double q_piece;     // where on its current piece of the wall (the piece's coordinate)
  double arc_before;  // the arc length along the wall over its earlier pieces
  int exit_side;
  double exit_time, exit_arc;

  static constexpr bool kChords = std::is_same_v<Table, DiscTable>;

  template <class Sink>
  SKIPSTONE_HD void start(const Table& tab, const TableRollModel& model, const PlateState& s0,
                          const DiscRollOptions& options, Sink& sink) {
    table = tab;
    m = model;
    opt = options;
    s = s0;
    e0 = plate_energies<N>(s, m.G);
    hs.start(plate_height<N>(s));
    max_err = 0.0;
    last_part = -1;
    chords.reset();
    steps = events = 0;
    t = 0.0;
    z_end = plate_height<N>(s);
    status = Status::finished;
    single_passage = false;
    exit_side = 0;
    exit_time = exit_arc = NAN;
    emit(sink);
  }

  // A rim_entry start: the ball enters the edge at the wall point s.p (on part `part`) at once;
  // the run is that one passage.
  SKIPSTONE_HD void enter_at_start(int part, EdgeSystem<N>& sys, double* y) {
    single_passage = true;
    enter_edge(part, sys, y);
  }

  template <class Sink>
  SKIPSTONE_HD void emit(Sink& sink) const {
    const DiscRow row = table_plate_row<N>(s, m.r);
    sink.on_event(t, row.x, row.state, row.nu);
  }

  // The largest relative energy defect so far, updated with the energies `e`.
  SKIPSTONE_HD double defect(const PlateEnergies<N>& e) {
    const double e1 = fabs(e.k1 - e0.k1), e2 = fabs(e.k2 - e0.k2);
    const double err = (e1 > e2 ? e1 : e2) / (e.kin > e0.kin ? e.kin : e0.kin);
    max_err = err > max_err ? err : max_err;
    return err;
  }

  // The flat part to the wall. Returns whether an edge passage follows (its system and entry
  // state written to sys and y), false when the run is over.
  template <class Sink>
  SKIPSTONE_HD bool fly_to_edge(Sink& sink, EdgeSystem<N>& sys, double* y) {
    if (!(events < opt.max_events && t < opt.t_max)) return false;
    const double G = m.G, g_plane = N == 6 ? G : 0.0;
    const Hit<Vec2> hit = table.next_hit(s.p, s.u, g_plane, last_part, opt.t_max - t);
    // a flight that meets the wall next to a vertex of a polygon is no special case for a
    // rolling ball: it rolls over the edge there and on round the vertex (corner: a wall hit)
    if (hit.kind == HitKind::miss) {
      status = Status::integrator_failure;
      return false;
    }
    const bool to_end = hit.kind != HitKind::wall && hit.kind != HitKind::corner;
    if (to_end && !isfinite(opt.t_max)) {
      status = Status::escaped;
      return false;
    }
    const double tf = to_end ? opt.t_max - t : hit.t;
    if constexpr (kChords) {
      if (last_part >= 0 && tf > 0.0 && g_plane == 0.0) chords.add(s.p, s.u);
    }
    const double v_up = N == 6 ? s.u.y : s.u3;
    if (G != 0.0) {
      const double tv = v_up / G;
      if (tv > 0.0 && tv < tf) hs.extremum(plate_height<N>(s) + 0.5 * v_up * tv);
    }
    s = fly_plate<N>(s, tf, G);
    t = to_end ? opt.t_max : t + tf;
    z_end = plate_height<N>(s);
    hs.sample(t, z_end);
    const double err_in = defect(plate_energies<N>(s, G));
    emit(sink);
    if (to_end) return false;
    if (err_in > opt.energy_tolerance) {
      status = Status::energy_drift;
      return false;
    }
    enter_edge(hit.part, sys, y);
    return true;
  }

  // The junction onto the edge at the wall point s.p of part `part`: the passage's system and
  // entry state.
  SKIPSTONE_HD void enter_edge(int part, EdgeSystem<N>& sys, double* y) {
    const double G = m.G;
    double q;
    const EdgeArc arc = edge_arc_at(table, s.p, part, q);
    t_entry = t;
    q_piece = q;
    arc_before = 0.0;
    const EdgePoint e = arc.point(q);
    plate_to_edge<N>(s, e.e1, e.e2, q, y);
    // the largest step: phi' = v1 / r moves phi by at most about one radian (half of one where
    // in-plane gravity can speed the ball up during the passage)
    const double xi = sqrt(y[0] * y[0] + y[1] * y[1] + y[2] * y[2]);
    const bool inplane = N == 6 && G != 0.0;
    sys = {arc, m.r, m.eta, G, xi * xi, 0.0, (inplane ? 0.5 : 1.0) * m.r / xi};
    if constexpr (N == 10) sys.k2_total = y[6] * y[6] + y[7] * y[7] + y[8] * y[8] + 2.0 * G * y[9];
    // roll3 with in-plane gravity: E1 + G y_c with the centre's height at the entry point
    if (inplane) sys.k1_total += 2.0 * G * sys.centre_height(y);
  }

  // One edge passage from y over the pieces of the wall. Returns whether the run goes on. Sys is
  // EdgeSystem<N> (tests pass one that also measures its projections).
  template <class Sink, class Sys>
  SKIPSTONE_HD bool roll_over_edge(Sink& sink, Sys& sys, double* y) {
    constexpr int K = kRimExtrapolationDepth;
    for (;;) {
      EdgeSteps<Sink, N> steps_sink{sink, hs, sys, t};
      const RimRun<N> run = integrate_rim<K>(sys, y, opt.t_max - t, opt.rtol, opt.atol, opt.max_steps - steps,
                                             steps_sink);
      steps += run.steps;
      t = run.status == Status::finished ? opt.t_max : t + run.t;
      for (int i = 0; i < N; ++i) y[i] = run.y[i];
      z_end = N == 6 ? sys.centre_height(y) : y[9];
      if (run.status == Status::exited && run.side == kRimBreakSide) {
        // the next piece of the wall, on the side of the end the passage reached
        const bool forward = sys.arc.q_hi - y[5] < y[5] - sys.arc.q_lo;
        arc_before += sys.arc.arc_between(q_piece, y[5]);
        sys.arc = edge_arc_after(table, sys.arc, forward);
        y[5] = q_piece = forward ? sys.arc.q_lo : sys.arc.q_hi;
        continue;
      }
      if (run.status != Status::exited) {
        status = run.status;
        hs.sample(t, z_end);
        return false;
      }
      if (events == 0) {
        exit_side = run.side;
        exit_time = t - t_entry;
        exit_arc = arc_before + sys.arc.arc_between(q_piece, y[5]);
      }
      ++events;
      const EdgePoint e = sys.arc.point(y[5]);
      s = edge_to_plate<N>(y, e.b, e.e1, e.e2);
      last_part = sys.arc.part;
      hs.sample(t, z_end);
      if (defect(plate_energies<N>(s, m.G)) > opt.energy_tolerance) {
        status = Status::energy_drift;
        return false;
      }
      if (!(isfinite(t) && isfinite(z_end))) {
        status = Status::non_finite;
        return false;
      }
      emit(sink);
      if (single_passage) {
        status = Status::exited;
        return false;
      }
      return true;
    }
  }

  SKIPSTONE_HD TrajectoryResult result() const {
    TrajectoryResult res = rolling_result(status, events, t, max_err, hs, z_end, opt.bounded_depth);
    res.steps = steps;
    res.exit_side = exit_side;
    res.exit_time = exit_time;
    res.exit_arc = exit_arc;
    if constexpr (kChords) chords.write(res);
    return res;
  }
};

// One roll3 (N = 6) or roll4 (N = 10) trajectory on `table` from the flat-part state s0; `end`
// (if given) receives the last flat-part state and whether the run ended on a flat part. With
// entry_part >= 0, s0 is a wall point of that part moving outward and the run is the one edge
// passage that starts there (the rim_entry start).
template <int N, class Table, class Sink>
SKIPSTONE_HD TrajectoryResult run_table_roll(const Table& table, const TableRollModel& m, const PlateState& s0,
                                             const DiscRollOptions& opt, Sink& sink, DiscRollEnd* end = nullptr,
                                             int entry_part = -1) {
  TableRollRun<Table, N> run;
  run.start(table, m, s0, opt, sink);
  EdgeSystem<N> sys;
  double y[N];
  bool on_plate = true;
  if (entry_part >= 0) {
    run.enter_at_start(entry_part, sys, y);
    on_plate = run.roll_over_edge(sink, sys, y) || run.status == Status::exited;
  } else {
    while (run.fly_to_edge(sink, sys, y)) {
      on_plate = run.roll_over_edge(sink, sys, y);
      if (!on_plate) break;
    }
  }
  if (end) *end = {on_plate, run.s};
  return run.result();
}

// The start of a scan point on the face N^+ ("plate") or N^- ("plate_minus") at (x1, x2) with
// velocity (v1, v2) and spin S12 (roll4 also height z, v3, S13, S23); false: masked (the start
// is not on the plate C).
// A rim_entry start (roll3): at the wall point of boundary parameter boundary_s on N^+, entering
// the edge with (v1, v2, S12), v1 = sqrt(speed^2 - v2^2 - S12^2) (masked where that is not > 0);
// entry_part receives the wall part, -1 for the face starts.
template <int N, class Table>
SKIPSTONE_HD bool table_roll_setup(const Table& table, const ScanSpec& spec, const ScanPoint& pt, TableRollModel& m,
                                   PlateState& s, DiscRollOptions& opt, int& entry_part) {
  const double* p = pt.p;
  s = PlateState{};
  s.sheet = spec.start == StartKind::plate_minus ? -1 : 1;
  entry_part = -1;
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
  const double gamma = point_gamma(spec, pt);
  m = {p[P_BALL_R], eta_from_gamma(gamma), rolling_gravity(pt, gamma)};
  opt = {spec.t_max, spec.max_events, spec.energy_tolerance, spec.bounded_depth,
         spec.rtol,  spec.atol,       spec.max_steps};
  return true;
}

// One roll3:<table> (N = 6) or roll4:<table> (N = 10) trajectory of a scan point.
template <int N, TableKind TK, class Sink>
SKIPSTONE_HD TrajectoryResult simulate_table_roll(const ScanSpec& spec, const ScanPoint& pt, Sink& sink) {
  TrajectoryResult res = masked_result();
  with_plane_table_of<TK>(spec, pt, [&](const auto& table) {
    TableRollModel m;
    PlateState s;
    DiscRollOptions opt;
    int entry_part;
    if (table_roll_setup<N>(table, spec, pt, m, s, opt, entry_part))
      res = run_table_roll<N>(table, m, s, opt, sink, nullptr, entry_part);
  });
  return res;
}

}  // namespace skipstone
