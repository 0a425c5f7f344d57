// A ball rolling without slipping on the plate C of a 2D table and over its edge (paper Sections
// 5.1-5.5, Proposition 12 with the wall's curvature kappa(s); Figure 4 is roll3:sinai, Figure 14
// roll4:sinai, Figures 19-20 roll4:disc): the run that every rolling table shares, over a wall
// that says where the flat parts end and how the edge is integrated:
//   TableWall<Table, N> (table_wall.hpp): any table (disc, stadium, ellipse, Sinai, rectangle,
//     convex polygon) with the no-slip table's exact flights and the wall as smooth pieces;
//     roll3 (N = 6): a 3D ball on the plate C in the (x, y) plane, with the plate's in-plane
//     gravity along -y as the 2D no-slip tables have it; roll4 (N = 10): a 4D ball on C x R;
//   DiscWall<T> (disc_wall.hpp): roll4:disc, the circle in closed form (chords, the rim angle),
//     in double or float.
// Gravity: acceleration G = g / (1 + gamma^2) of the rolling ball (Eq. (11)), along -y in the
// plate (roll3) or along the axis (roll4).
//
// Flat parts N^+- (the faces x_w = +-r over C): the wall's exact flight, S constant. Curved part
// N^c: the wall's system (Proposition 12) integrated by rim_passage.hpp; a passage that reaches
// a break of the wall (the stadium's curvature jumps, the ends of a polygon's vertex piece) stops
// there and goes on over the next piece, so that no step crosses a jump. Junction maps:
// disc_junction.hpp (plate_to_edge, edge_to_plate) in the frame (e1, e2) of the wall point.
//
// Invariants: E1 (the transversal block; roll3 with in-plane gravity E1 + G y) and, for roll4,
// E2 + G x3. The systems project every step onto the trajectory's starting values of both
// (disc_transversal.hpp: rescale_block), which keeps them exact to round-off over any number
// of passages.
//
// Outputs: events = completed edge passages (max_events stops the run right after the exit of
// the last one); energy_error the largest relative defect of the invariants over the junctions
// and the end, |2 I - 2 I(0)| / (2 E_kin); the height z = the centre's y (roll3) or axial x3
// (roll4); rho_even, rho_odd, caustic_gap on the disc (the flat-part chords: their mean distance
// from the centre, even and odd in order, counting the chords that start on the wall).
// exit_time, exit_arc, exit_side: the first edge passage (Figure 18 on any table): its duration,
// the arc length along the wall from its entry to its exit (signed, along the wall's arc length)
// and the face it leaves on (+1 the face it came from, -1 the other, 0 still on the edge at
// t_max). A "rim_entry" start enters the edge at once and the run is that one passage (status
// exited).
//
// Holes (stop.holes, holes.hpp): the plate's edge has no edge to roll around over an arc [lo, hi)
// of the wall's boundary parameter. A flat-part flight whose centre reaches the wall at a point
// whose boundary_s lies in a hole does not enter the edge: the ball leaves the table there
// (status through_hole, escape_time the arrival time, hole its index; events counts the passages
// before it). The point tested is the entry point of the passage that would start, the wall
// point (the edge of C) under the centre, before the junction; a passage that rolls on into a
// hole over the edge is not tested (the ball is on N^c, not at the edge of a face), and only its
// next entry is. On the Sinai tables the wall is the scatterer's edge, as on the 2D sinai.
//
// final_state (a sink with take_state_row, final_state.hpp): the wall's state row at the end, on
// a face or on N^c at t_max (table_state_row.hpp); run_table_roll_on_edge starts from one on N^c.
//
// A sink with on_impact (outputs.boundary_map, boundary_events) gets the boundary coordinates of
// every edge entry after a flight (report_entry); a sink with on_flight gets every flat-part
// flight in the plate row (section_map.hpp) and every accepted step on N^c in the edge rows
// (edge_sections.hpp).
//
// Sink (trace): on_event(t, x, (u, w), nu) at the start and at every edge entry with the ambient
// state (the wall's plate rows: disc_output.hpp's; on the strip wall of stadium_wall.hpp the
// closed-form models' rows, 2D for roll3:strip), at every integrator step on N^c (the exit
// included) with the frame state (the wall's edge rows), and at the end; a sink that asks for samples (trace
// --sample) also gets on_sample rows at its sample times (disc_output.hpp says how they are
// exact stops).
#pragma once
#include "skipstone/boundary_map.hpp"
#include "skipstone/final_state.hpp"
#include "skipstone/height_stats.hpp"
#include "skipstone/holes.hpp"
#include "skipstone/result.hpp"
#include "skipstone/section_map.hpp"
#include "skipstone/rolling/disc_junction.hpp"
#include "skipstone/rolling/contact_force.hpp"
#include "skipstone/rolling/disc_output.hpp"
#include "skipstone/rolling/edge_sections.hpp"
#include "skipstone/rolling/rim_passage.hpp"
#include "skipstone/rolling/stadium_segments.hpp"

namespace skipstone {

template <class T>
struct RollModelT {
  T r, eta, G;
  // The physical gravity, for the contact force only (ball_gravity): G / (1 - eta^2) for a
  // rolling ball, and for a rubber one, which has eta 0 in its equations and falls at the same G.
  T g;
};
using RollModel = RollModelT<double>;
template <class T>
SKIPSTONE_HD SKIPSTONE_INLINE RollModelT<T> roll_model_as(const RollModel& m) {
  return {T(m.r), T(m.eta), T(m.G), T(m.g)};
}

struct RollOptions {
  double t_max;
  std::uint64_t max_events;
  double energy_tolerance, bounded_depth;
  double rtol, atol;
  std::uint64_t max_steps;
  bool contact_forces = false;  // keep the contact observables (contact_force.hpp)
  double mu_s = 1.0;            // the static friction coefficient of slip_time
  const HoleSet* holes = nullptr;  // stop.holes: arcs of the wall without an edge (null: none)
};

template <class T>
struct RollEndT {
  bool on_plate;  // false: stopped on N^c (t_max, failure); `state` is then the last plate state
  PlateStateT<T> state;
};
using RollEnd = RollEndT<double>;

// A plate state's twice-kinetic energies of the transversal block (k1 = |u|^2 + A12^2) and, for
// roll4, of the longitudinal one (k2 = u3^2 + A13^2 + A23^2), and the height gravity acts on.
template <int N, class T>
struct PlateEnergies {
  T k1, k2, h;
};
template <int N, class T>
SKIPSTONE_HD SKIPSTONE_INLINE PlateEnergies<N, T> plate_energies(const PlateStateT<T>& s) {
  const T k1 = dot(s.u, s.u) + s.A12 * s.A12;
  if constexpr (N == 6) return {k1, T(0), s.p.y};
  return {k1, s.u3 * s.u3 + s.A13 * s.A13 + s.A23 * s.A23, s.z};
}
// The same of a frame state y on N^c at height h.
template <int N, class T>
SKIPSTONE_HD SKIPSTONE_INLINE PlateEnergies<N, T> edge_energies(const T* y, T h) {
  PlateEnergies<N, T> e{y[0] * y[0] + y[1] * y[1] + y[2] * y[2], T(0), h};
  if constexpr (N == 10) e.k2 = y[6] * y[6] + y[7] * y[7] + y[8] * y[8];
  return e;
}

// time_to_wall's part when the table's flight solve found no way out (a failure).
constexpr int kWallMissed = -2;

// What the run does after a passage over one piece of the wall.
enum class EdgeEnd { next_piece, plate, over };

// Turns the integrator's steps on N^c into trace events, height extremes, contact-force
// samples (a sink with on_contact gets each: tests) and, for a sink that has on_flight, the
// steps its section searches (edge_sections.hpp; where `section` is set).
template <class Sink, class Wall, class Section = EdgeSectionOf<Sink, Wall>>
struct EdgeSteps {
  using T = typename Wall::Scalar;
  Sink& out;
  HeightStats& h;
  ContactStats& contact;
  const Wall& wall;
  const typename Wall::Sys& sys;
  double t0;
  T r;
  Section* section = nullptr;

  SKIPSTONE_HD void on_step(T t, const T* y) {
    if constexpr (has_on_flight<Sink>::value) {
      if (section) section->step(out, wall, sys, r, t0, t, y);
    }
    h.extremum(wall.edge_height(sys, y));
    if (contact.on) {
      const ContactForce<T> c = sys.contact(y);
      contact.sample(t0 + t, c.n, c.f);
      if constexpr (has_on_contact<Sink>::value) out.on_contact(t0 + t, c.n, c.f);
    }
    if (t == T(0)) return;  // the entry (or the break the piece starts at), already reported
    const auto row = wall.edge_row(sys, y, r);
    out.on_event(t0 + t, row.x, row.state, row.nu);
  }
  SKIPSTONE_HD auto row(const T* y) const { return wall.edge_row(sys, y, r); }
};

// One trajectory as a resumable run: fly_to_edge() flies the flat part to the next passage and
// gives its entry state; the caller integrates the passage over the current piece (a RimStepper
// or integrate_rim over `sys`, its steps to edge_steps()); leave_piece() takes the piece's end
// and goes on to the next piece or makes the junction. run_table_roll does the passages one
// after the other; the CPU backend's lanes (kernels/rim_lane_block.hpp) integrate the passages
// of several roll4:disc trajectories together.
template <class Wall>
struct TableRollRun {
  using T = typename Wall::Scalar;
  using Sys = typename Wall::Sys;
  static constexpr int N = Sys::N;
  static_assert(N == 6 || N == 10, "roll3 (6 components) or roll4 (10)");

  Wall wall;
  RollModelT<T> m;
  RollOptions opt;
  Sys sys;  // the system of the current piece of the wall
  HeightStats hs;
  ContactStats contact;
  PlateEnergies<N, T> e0;  // at the start
  T k1_target, k2_target;  // the invariants the systems project onto (Sys: k1, k2)
  double max_err;
  PlateStateT<T> s;
  ChordDistances chords;
  std::uint64_t steps, events;
  double t;  // the clock (double in both precisions)
  T flight;  // the duration of the last flat-part flight (the tangent dynamics follow it)
  T z_end;
  Status status;
  bool on_plate;        // false on N^c: after a start there, and once stopped there (t_max, a failure)
  bool single_passage;  // the run is one passage (a rim_entry start)
  double t_entry;       // when the current passage started
  double entry_s;       // the wall's boundary parameter where it started
  int exit_side;
  double exit_time, exit_arc;
  int hole;  // the hole of opt.holes the ball left through, -1 none

  template <class Sink>
  SKIPSTONE_HD void start(const Wall& w, const RollModelT<T>& model, const PlateStateT<T>& s0,
                          const RollOptions& options, Sink& sink) {
    wall = w;
    begin(model, options, plate_energies<N>(s0));
    s = s0;
    wall.start(s);
    emit(sink, t, s, m.r);
  }

  // A start on N^c inside a passage (a state row on the edge: Wall::resume): the frame state y0
  // on the wall's piece `piece`; the run goes on with that passage, from y = y0. Its exit_time
  // and exit_arc count from the start.
  template <class Sink, class Piece>
  SKIPSTONE_HD void start_on_edge(const Wall& w, const RollModelT<T>& model, const Piece& piece, const T* y0,
                                  const RollOptions& options, Sink& sink, T* y) {
    wall = w;
    wall.resume(piece, y0, model, sys);  // the height needs the piece
    begin(model, options, edge_energies<N>(y0, wall.edge_height(sys, y0)));
    wall.set_invariants(sys, k1_target, k2_target);
    s = PlateStateT<T>{};
    on_plate = false;
    t_entry = t;
    entry_s = NAN;
    for (int i = 0; i < N; ++i) y[i] = y0[i];
    const auto row = wall.edge_row(sys, y, m.r);
    sink.on_event(t, row.x, row.state, row.nu);
  }

  // The state row at the end (final_state.hpp; the wall's write_plate_row, write_edge_row): the
  // face state, or the frame state y where the run stopped on N^c.
  SKIPSTONE_HD void write_state_row(const T* y, double* row) const {
    if (on_plate) wall.write_plate_row(s, row);
    else wall.write_edge_row(sys, y, row);
  }

  // A rim_entry start: the ball enters the edge at the wall point s.p (on part `part`) at once;
  // the run is that one passage.
  SKIPSTONE_HD void enter_at_start(int part, T* y) {
    single_passage = true;
    enter(part, y);
  }

  // The largest relative energy defect so far, updated with the energies `e`.
  SKIPSTONE_HD T defect(const PlateEnergies<N, T>& e) {
    const T k = e.k1 + e.k2, k0 = e0.k1 + e0.k2;
    const T lift = T(2) * m.G * (e.h - e0.h);
    const T e1 = N == 6 ? fabs(e.k1 + lift - e0.k1) : fabs(e.k1 - e0.k1);
    const T e2 = N == 6 ? T(0) : fabs(e.k2 + lift - e0.k2);
    const T err = (e1 > e2 ? e1 : e2) / (k > k0 ? k : k0);
    max_err = err > max_err ? err : max_err;
    return err;
  }

  // The flat part to the wall. Returns whether an edge passage follows (its system in sys, its
  // entry state written to y), false when the run is over.
  template <class Sink>
  SKIPSTONE_HD bool fly_to_edge(Sink& sink, T* y) {
    flight = T(0);
    if (!(events < opt.max_events && t < opt.t_max)) return false;
    const T G = m.G;
    int part;
    const T dt = wall.time_to_wall(s, N == 6 ? G : T(0), opt.t_max - t, part);
    if (part == kWallMissed) {
      status = Status::integrator_failure;
      return false;
    }
    const bool to_end = !(isfinite(dt) && t + dt <= opt.t_max);
    if (to_end && !isfinite(opt.t_max)) {
      status = Status::escaped;
      return false;
    }
    const T tf = to_end ? T(opt.t_max - t) : dt;
    if constexpr (Wall::kChords) {
      if (wall.on_wall() && tf > T(0) && (N == 10 || G == T(0))) chords.add(s.p, s.u);
    }
    flight_apex(s, tf);
    if constexpr (wants_samples<Sink>::value) sample_flight<N>(sink, wall, s, t, to_end ? opt.t_max : t + tf, G, m.r);
    if constexpr (has_on_flight<Sink>::value) {
      const auto row = wall.plate_row(s, m.r);
      sink.on_flight(t, tf, row.x, row.state, wall.flight_acceleration(double(G)));
    }
    flat_contact(sink, t);
    s = fly_plate<N>(s, tf, G);
    flight = tf;
    t = to_end ? opt.t_max : t + tf;
    return arrive(sink, to_end, part, y);
  }

  // The end of a flat-part flight, s and t already there: the wall point of part `part`, or the
  // end of the run (to_end). Returns whether the passage that starts there follows (its entry
  // state written to y). A slipping face's flight (slipping_face.hpp) ends here too.
  template <class Sink>
  SKIPSTONE_HD bool arrive(Sink& sink, bool to_end, int part, T* y) {
    flat_contact(sink, t);
    z_end = plate_height(s);
    hs.sample(t, z_end);
    const T err_in = defect(plate_energies<N>(s));
    emit(sink, t, s, m.r);
    if (to_end) return false;
    if (err_in > opt.energy_tolerance) {
      status = Status::energy_drift;
      return false;
    }
    if (opt.holes) {
      hole = hole_at(*opt.holes, wall.boundary_parameter(s, part));
      if (hole >= 0) {
        status = Status::through_hole;
        return false;
      }
    }
    enter(part, y);
    report_entry(sink, y);
    return true;
  }

  // The sink of the current piece's integrator steps (and of the section's search of them).
  template <class Sink, class Section = EdgeSectionOf<Sink, Wall>>
  SKIPSTONE_HD EdgeSteps<Sink, Wall, Section> edge_steps(Sink& sink, Section* section = nullptr) {
    return {sink, hs, contact, wall, sys, t, m.r, section};
  }

  // After the passage over the current piece (its end state copied to y): the next piece (its
  // system in sys, its start in y), the junction onto a face (plate: the run goes on with
  // fly_to_edge), or the end of the run.
  SKIPSTONE_HD EdgeEnd leave_piece(const RimRun<N, T>& run, T* y) {
    steps += run.steps;
    t = run.status == Status::finished ? opt.t_max : t + run.t;
    for (int i = 0; i < N; ++i) y[i] = run.y[i];
    z_end = wall.edge_height(sys, run.y);
    if constexpr (Wall::kHasBreaks) {
      if (run.status == Status::exited && run.side == kRimBreakSide) {
        wall.next_piece(sys, y);
        return EdgeEnd::next_piece;
      }
    }
    if (run.status != Status::exited) {
      status = run.status;
      on_plate = false;
      defect(edge_energies<N>(run.y, z_end));
      hs.sample(t, z_end);
      return EdgeEnd::over;
    }
    if (events == 0) {
      exit_side = run.side;
      exit_time = t - t_entry;
      exit_arc = wall.passage_arc(sys, run.y);
    }
    ++events;
    s = wall.leave(sys, run.y);
    on_plate = true;
    hs.sample(t, plate_height(s));
    if (defect(plate_energies<N>(s)) > opt.energy_tolerance) {
      status = Status::energy_drift;
      return EdgeEnd::over;
    }
    if (!(isfinite(t) && isfinite(plate_height(s)))) {
      status = Status::non_finite;
      return EdgeEnd::over;
    }
    if (single_passage) {
      status = Status::exited;
      return EdgeEnd::over;
    }
    return EdgeEnd::plate;
  }

  // The passage over the current piece from y by integrate_rim over `piece_sys` (sys, or a
  // test's wrapper of it that measures its projections), its steps to `steps`, then leave_piece.
  template <class PieceSys, class Steps>
  SKIPSTONE_HD EdgeEnd integrate_piece(const PieceSys& piece_sys, T* y, Steps& steps) {
    return leave_piece(integrate_rim<kRimExtrapolationDepth>(piece_sys, y, T(t_left()), T(opt.rtol), T(opt.atol),
                                                             steps_left(), steps),
                       y);
  }

  SKIPSTONE_HD double t_left() const { return opt.t_max - t; }
  SKIPSTONE_HD std::uint64_t steps_left() const { return opt.max_steps - steps; }

  SKIPSTONE_HD TrajectoryResult result() const {
    TrajectoryResult res = rolling_result(status, events, t, max_err, hs, z_end, opt.bounded_depth);
    res.steps = steps;
    res.exit_side = exit_side;
    res.exit_time = exit_time;
    res.exit_arc = exit_arc;
    if constexpr (Wall::kChords) chords.write(res);
    contact.write(res);
    if (status == Status::through_hole) {
      res.escape_time = t;
      res.hole = hole;
    }
    return res;
  }

  // The top of a flight of duration tf from s, where it lies inside the flight, into the height
  // extremes.
  SKIPSTONE_HD void flight_apex(const PlateStateT<T>& s, T tf) {
    if (m.G == T(0)) return;
    const T v_up = N == 6 ? s.u.y : s.u3;
    const T tv = v_up / m.G;
    if (tv > T(0) && tv < tf) hs.extremum(plate_height(s) + T(0.5) * v_up * tv);
  }

  // The height gravity acts on, and a trace row of a flat-part state.
  static SKIPSTONE_HD T plate_height(const PlateStateT<T>& p) { return N == 6 ? p.p.y : p.z; }

  template <class Sink>
  SKIPSTONE_HD void emit(Sink& sink, double t, const PlateStateT<T>& p, T r) const {
    const auto row = wall.plate_row(p, r);
    sink.on_event(t, row.x, row.state, row.nu);
  }

 private:
  // The start's common part: the model, the options and the energies e0 at the start.
  SKIPSTONE_HD void begin(const RollModelT<T>& model, const RollOptions& options, const PlateEnergies<N, T>& e) {
    m = model;
    opt = options;
    e0 = e;
    hs.start(e0.h);
    contact.start(opt.contact_forces, opt.mu_s);
    k1_target = N == 6 && m.G != T(0) ? e0.k1 + T(2) * m.G * e0.h : e0.k1;
    k2_target = N == 10 ? e0.k2 + T(2) * m.G * e0.h : T(0);
    max_err = 0.0;
    chords.reset();
    steps = events = 0;
    t = 0.0;
    flight = T(0);
    z_end = e0.h;
    status = Status::finished;
    on_plate = true;
    single_passage = false;
    exit_side = 0;
    exit_time = exit_arc = NAN;
    hole = -1;
  }

  // A contact-force sample on a flat part: gravity lies in the plate, so N = 0 and the friction
  // is the part of gravity the rolling ball does not fall at, |g - G| (contact_force.hpp).
  template <class Sink>
  SKIPSTONE_HD void flat_contact(Sink& sink, double at) {
    if (!contact.on) return;
    const double f = fabs(double(m.g) - double(m.G));
    contact.sample(at, 0.0, f);
    if constexpr (has_on_contact<Sink>::value) sink.on_contact(at, 0.0, f);
  }

  SKIPSTONE_HD void enter(int part, T* y) {
    t_entry = t;
    entry_s = wall.boundary_parameter(s, part);
    wall.enter(s, part, m, k1_target, k2_target, sys, y);
  }

  // The boundary coordinates of an edge entry, for a sink that bins them (boundary_map.hpp): the
  // wall's boundary parameter of the entry point, v2 / |v| and S12 / |v| with v = (v1, v2) the
  // velocity in the plate.
  template <class Sink>
  SKIPSTONE_HD void report_entry(Sink& sink, const T* y) const {
    if constexpr (has_on_impact<Sink>::value) {
      const double v1 = y[0], v2 = y[1], speed = sqrt(v1 * v1 + v2 * v2);
      const double c[kImpactCoords2D] = {entry_s, v2 / speed, double(y[2]) / speed};
      sink.on_impact(t, c);
    }
  }
};

// The rest of a run after its start: on_edge, a passage from y follows; `row` (if not null)
// receives the state row at the end (Wall::kStateRows).
template <class Wall, class Sink>
SKIPSTONE_HD TrajectoryResult table_roll_passages(TableRollRun<Wall>& run, typename Wall::Scalar* y, bool on_edge,
                                                  Sink& sink, RollEndT<typename Wall::Scalar>* end, double* row) {
  using T = typename Wall::Scalar;
  using Run = TableRollRun<Wall>;
  using Sys = typename Run::Sys;
  constexpr int N = Run::N, K = kRimExtrapolationDepth;
  const T rtol = T(run.opt.rtol), atol = T(run.opt.atol);
  EdgeSectionOf<Sink, Wall> section_steps;
  EdgeSectionOf<Sink, Wall>* section = nullptr;
  if constexpr (has_on_flight<Sink>::value) {
    section_steps.rtol = rtol, section_steps.atol = atol;
    section = &section_steps;
  }
  if constexpr (wants_samples<Sink>::value) {
    while (on_edge) {
      EdgeSteps<Sink, Wall> steps_sink = run.edge_steps(sink, section);
      SampledRimSteps<Sys, EdgeSteps<Sink, Wall>, Sink, T> sampled{steps_sink, sink, {run.sys, rtol, atol}, run.t};
      const EdgeEnd next = run.integrate_piece(run.sys, y, sampled);
      on_edge = next == EdgeEnd::next_piece || (next == EdgeEnd::plate && run.fly_to_edge(sink, y));
    }
  } else if (on_edge) {
    RimStepper<K, Sys, T> stepper;
    EdgeSteps<Sink, Wall> steps_sink = run.edge_steps(sink, section);
    stepper.start(run.sys, y, T(run.t_left()), run.steps_left(), steps_sink);
    for (;;) {
      T h;
      if (!stepper.next_step(h)) {
        const EdgeEnd next = run.leave_piece(stepper.run(), y);
        if (next == EdgeEnd::over || (next == EdgeEnd::plate && !run.fly_to_edge(sink, y))) break;
        EdgeSteps<Sink, Wall> piece_sink = run.edge_steps(sink, section);
        stepper.start(run.sys, y, T(run.t_left()), run.steps_left(), piece_sink);
        continue;
      }
      T y_step[N];
      const T err = gbs_step<N, K>(run.sys, stepper.y(), h, y_step, rtol, atol);
      EdgeSteps<Sink, Wall> step_sink = run.edge_steps(sink, section);
      stepper.take(y_step, err, step_sink);
    }
  }
  if (end) *end = {run.on_plate, run.s};
  if constexpr (Wall::kStateRows) {
    if (row) run.write_state_row(y, row);
  }
  return run.result();
}

// The row the sink keeps the final state in, where the wall writes one.
template <class Wall, class Sink>
SKIPSTONE_HD double* table_state_row(Sink& sink) {
  if constexpr (Wall::kStateRows) return take_state_row(sink);
  else return nullptr;
}

// One trajectory on `wall` from the flat-part state s0; `end` (if given) receives the last
// flat-part state and whether the run ended on a flat part. With entry_part >= 0, s0 is a wall
// point of that part moving outward and the run is the one edge passage that starts there (the
// rim_entry start). Without samples it is one loop over GBS steps, in which a trajectory whose
// passage is over makes its junction and flight and starts its next passage within the same
// iteration: on a GPU the threads of a warp then keep stepping their passages together, where a
// loop over passages around a loop over steps would hold each thread that has finished its
// passage until the warp's longest one is done. The steps and so the results are those of
// integrate_rim piece by piece, which the sampling sinks (trace --sample) use.
template <class Wall, class Sink>
SKIPSTONE_HD TrajectoryResult run_table_roll(const Wall& wall, const RollModelT<typename Wall::Scalar>& m,
                                             const PlateStateT<typename Wall::Scalar>& s0, const RollOptions& opt,
                                             Sink& sink, RollEndT<typename Wall::Scalar>* end = nullptr,
                                             int entry_part = -1) {
  double* row = table_state_row<Wall>(sink);
  TableRollRun<Wall> run;
  run.start(wall, m, s0, opt, sink);
  typename Wall::Scalar y[TableRollRun<Wall>::N];
  bool on_edge;
  if (entry_part >= 0) {
    run.enter_at_start(entry_part, y);
    on_edge = true;
  } else {
    on_edge = run.fly_to_edge(sink, y);
  }
  return table_roll_passages(run, y, on_edge, sink, end, row);
}

// One trajectory from the frame state y0 on the wall's piece `piece` of N^c (a state row on the
// edge: TableRollRun::start_on_edge).
template <class Wall, class Sink>
SKIPSTONE_HD TrajectoryResult run_table_roll_on_edge(const Wall& wall, const RollModelT<typename Wall::Scalar>& m,
                                                     const typename Wall::Piece& piece,
                                                     const typename Wall::Scalar* y0, const RollOptions& opt,
                                                     Sink& sink) {
  double* row = table_state_row<Wall>(sink);
  TableRollRun<Wall> run;
  typename Wall::Scalar y[TableRollRun<Wall>::N];
  run.start_on_edge(wall, m, piece, y0, opt, sink, y);
  return table_roll_passages(run, y, true, sink, nullptr, row);
}

}  // namespace skipstone
