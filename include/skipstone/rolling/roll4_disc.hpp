// roll4:disc: a 4D ball of radius r rolling without slipping on the solid circular cylinder
// P = C x R in R^3, C the disc of radius R (paper Sections 5.1-5.5, Proposition 12, Figures
// 19-20), gravity along -e3 with the effective acceleration G = g / (1 + gamma^2) of Eq. (11)
// (or the paper's `g_effective` directly). It is the disc case of the rolling tables' run
// (table_roll.hpp: outputs, events, energy_error, the caustics, the exit of the first passage)
// over the circular wall in closed form (disc_wall.hpp: chords, the rim angle, both blocks of
// Proposition 12 with kappa = -1/R); states, frames and junction maps: disc_junction.hpp.
//
// Start "plate" on N^+ (x4 = +r), "plate_minus" on N^- (x4 = -r): at (x1, x2) (masked outside C;
// on the circle it may be moving outward and enters N^c at once), height z, ambient velocity
// (v1, v2, v3) and spin (S12, S13, S23), S_ij = e_i . S e_j. The mirror x4 -> -x4 fixes e1, e2,
// e3, so the N^- start with the same numbers is the mirror image of the N^+ one: the same rows
// on the flat parts, and on N^c phi -> pi - phi, tau -> -tau (v1, S12, S13 change sign; tested).
// Start "state_file": a row of roll4's table_state_row.hpp, on the face it names (face +-1, as
// the plate starts) or inside a rim passage (face 0: at the rim angle psi; (x1, x2), its point,
// is not read).
//
// Rows (disc_output.hpp): on a flat part the ambient state, u = (u, u3), w = (A23, -A13, A12);
// on N^c the frame state. In both, |u|^2 + |w|^2 = 2E and u_z^2 + w_x^2 + w_y^2 = 2E2. w is minus
// the spin vector of S (as in roll4_planes.hpp): with it the ambient (u, w) on a flat part is the
// state of the no-slip ball in cylinder:disc, and as r -> 0 a rim passage becomes the no-slip map
// with beta = +pi eta (Theorem 8, Eq. (13); tested).
//
// Templated on the scalar type T of the state, the flights and the rim passages: double, and
// float for the float kernel (options.precision), which is set up in double and rounded, keeps
// the clock, the height statistics and the chord sums in double (as the float no-slip kernels
// do) and integrates at the float tolerances (rtol, atol >= 1e-5).
#pragma once
#include "skipstone/precision.hpp"
#include "skipstone/rolling/disc_wall.hpp"
#include "skipstone/rolling/stadium_segments.hpp"
#include "skipstone/rolling/table_roll.hpp"
#include "skipstone/scan_point.hpp"

namespace skipstone {

template <class T>
struct DiscRollModelT {
  T R, r, eta, G;
  T g;  // the physical gravity (contact forces; RollModelT::g)
};
using DiscRollModel = DiscRollModelT<double>;

// One roll4:disc trajectory as a resumable run (table_roll.hpp); the CPU backend's lanes
// (kernels/rim_lane_block.hpp) drive several of them.
template <class T>
using DiscRollRunT = TableRollRun<DiscWall<T>>;
using DiscRollRun = DiscRollRunT<double>;

// One roll4:disc trajectory from the flat-part state s0 (run_table_roll over the disc's wall).
template <class T, class Sink>
SKIPSTONE_HD TrajectoryResult run_roll4_disc(const DiscRollModelT<T>& m, const PlateStateT<T>& s0,
                                             const RollOptions& opt, Sink& sink, RollEndT<T>* end = nullptr) {
  return run_table_roll(DiscWall<T>{m.R, T(0), false}, RollModelT<T>{m.r, m.eta, m.G, m.g}, s0, opt, sink, end);
}

// The model and options of a roll4:disc scan point, in T.
template <class T>
SKIPSTONE_HD void roll4_disc_model(const ScanSpec& spec, const ScanPoint& pt, DiscRollModelT<T>& m, RollOptions& opt) {
  const double* p = pt.p;
  const double gamma = point_gamma(spec, pt);
  m = {T(p[P_R]), T(p[P_BALL_R]), T(rolling_eta(pt, gamma)), T(rolling_gravity(pt, gamma)), T(ball_gravity(pt, gamma))};
  opt = {spec.t_max, spec.max_events, spec.energy_tolerance, spec.bounded_depth,
         spec.rtol,  spec.atol,       spec.max_steps, spec.contact_forces, p[P_MU_S],
         spec.holes.n > 0 ? &spec.holes : nullptr};
}

// The model, start and options of one roll4:disc scan point, in T (computed in double and
// rounded once); false: masked (the start outside C).
template <class T>
SKIPSTONE_HD bool roll4_disc_setup(const ScanSpec& spec, const ScanPoint& pt, DiscRollModelT<T>& m, PlateStateT<T>& s,
                                   RollOptions& opt) {
  const double* p = pt.p;
  const double R = p[P_R];
  s.sheet = spec.start == StartKind::plate_minus ? -1 : 1;
  if (spec.start == StartKind::state) {  // a row on the edge: roll4_disc_edge_setup
    if (!(p[P_FACE] == 1.0 || p[P_FACE] == -1.0)) return false;
    s.sheet = p[P_FACE] > 0.0 ? 1 : -1;
  }
  const Vec2 p0 = {p[P_X1], p[P_X2]};
  if (!(dot(p0, p0) <= R * R * (1.0 + ScalarConstants<double>::on_rim))) return false;
  s.p = {T(p0.x), T(p0.y)};
  s.u = {T(p[P_V1]), T(p[P_V2])};
  s.u3 = T(p[P_V3]);
  s.z = T(p[P_Z]);
  s.A12 = T(p[P_S12]);
  s.A13 = T(p[P_S13]);
  s.A23 = T(p[P_S23]);
  roll4_disc_model(spec, pt, m, opt);
  return true;
}

// The model, options, rim angle theta and frame state y (y[5] = 0) of a scan point that starts
// from a state row on the edge (face 0, table_state_row.hpp); false: not such a row, or masked
// (phi outside [0, pi]).
template <class T>
SKIPSTONE_HD bool roll4_disc_edge_setup(const ScanSpec& spec, const ScanPoint& pt, DiscRollModelT<T>& m, RollOptions& opt,
                                        T& theta, T* y) {
  const double* p = pt.p;
  if (!starts_on_edge_state_row(spec, p)) return false;
  const double phi = p[P_PHI];
  if (!(phi >= 0.0 && phi <= kPi)) return false;
  roll4_disc_model(spec, pt, m, opt);
  theta = T(p[P_ANGLE]);
  const double v[10] = {p[P_V1], p[P_V2], p[P_S12], cos(phi), sin(phi), 0.0, p[P_V3], p[P_S13], p[P_S23], p[P_Z]};
  for (int i = 0; i < 10; ++i) y[i] = T(v[i]);
  return true;
}

template <class T = double, class Sink>
SKIPSTONE_HD TrajectoryResult simulate_roll4_disc(const ScanSpec& spec, const ScanPoint& pt, Sink& sink) {
  if (starts_on_edge_state_row(spec, pt.p)) {
    DiscRollModelT<T> m;
    RollOptions opt;
    T theta, y[10];
    if (!roll4_disc_edge_setup(spec, pt, m, opt, theta, y)) return masked_result();
    return run_table_roll_on_edge(DiscWall<T>{m.R, T(0), false}, RollModelT<T>{m.r, m.eta, m.G, m.g}, theta, y, opt, sink);
  }
  DiscRollModelT<T> m;
  PlateStateT<T> s;
  RollOptions opt;
  if (!roll4_disc_setup(spec, pt, m, s, opt)) return masked_result();
  return run_roll4_disc(m, s, opt, sink);
}

}  // namespace skipstone
