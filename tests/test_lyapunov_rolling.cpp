// The Lyapunov exponent of the rolling models (include/skipstone/tangent/roll_lyapunov.hpp):
// the variational equations' Jacobian-vector product against central differences of the
// right-hand side; the tangent map over one edge passage and over a run of several against
// central differences of the integrated trajectory, and that it fails without the saltation
// terms; the same from a start inside an edge passage (a state row on N^c: the tangent vector
// starts in edge coordinates), and a run split at such a state adding up to the whole run; the
// same from a rim_entry start (roll3: one passage from a wall point, the entry junction at t = 0)
// to a time inside its passage, over one piece of the wall and over several; the
// exponent against Benettin's two-trajectory estimate on the same trajectory; the
// integrable roll4:disc without spin coupling (eta = 0: exponent ~ log(t)/t); the mirror
// x4 -> -x4 (a start on N^- gives the exponent of the mirrored start on N^+); the other
// observables bit-identical with and without the exponent; the same for the rolling tables
// (stadium, ellipse, square, Sinai; roll3 and roll4); float refused. The closed-form models:
// test_lyapunov_rolling_closed_form.cpp.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "backends.hpp"
#include "config_error.hpp"
#include "skipstone/simulate.hpp"
#include "skipstone/tangent/roll_lyapunov.hpp"
#include "test_support.hpp"

namespace {

using namespace skipstone;
using nlohmann::json;

constexpr int kP = 9;  // roll4 plate coordinates (tangent/roll_junction.hpp)

// Central differences of step 1e-7 of the rhs (rational in y): truncation ~1e-14, rounding ~1e-9.
constexpr double kRhsJacobianTolerance = 1e-7;
// The tangent map against central differences of step 1e-6 of the integrated trajectory (rtol =
// atol = 1e-12): the trajectory's step sizes move with the start at the integrator's tolerance.
constexpr double kJacobianTolerance = 1e-5;
// Without the saltation terms the map is wrong by O(1).
constexpr double kSaltationEffect = 1e-2;
// Benettin's two-trajectory estimate (eps = 1e-8, renormalised every passage) against the
// tangent exponent over the same time: O(eps) apart.
constexpr double kTwoTrajectoryTolerance = 1e-4;
// The mirror start on N^-: the same exponent up to the round-off of the mirrored arithmetic.
constexpr double kMirrorTolerance = 1e-9;
// The mirrored stadium start: x -> -x changes the wall coordinates' arithmetic, the trajectories
// part at round-off and separate at the exponent's rate over t = 30.
constexpr double kMirrorTableTolerance = 1e-6;

const DiscRollModel kModel{1.0, 0.1, 0.5, 0.3, 0.4};  // R, r, eta, G, g = G / (1 - eta^2)
const PlateState kStart{1, {0.3, -0.2}, {-1.1, 0.7}, 0.4, 0.0, 0.61, -0.3, 0.25};

RollOptions options(double t_max, std::uint64_t max_events = UINT64_MAX) {
  return {t_max, max_events, 1e-6, 1.0, 1e-12, 1e-12, UINT64_MAX};
}

// Plate coordinates (roll_junction.hpp): roll4 all nine, roll3 the first five.
void to_plate(const PlateState& s, double* c) {
  const double v[kP] = {s.p.x, s.p.y, s.u.x, s.u.y, s.A12, s.u3, s.A13, s.A23, s.z};
  for (int i = 0; i < kP; ++i) c[i] = v[i];
}
PlateState from_plate(int sheet, const double* c) {
  return {sheet, {c[0], c[1]}, {c[2], c[3]}, c[5], c[8], c[4], c[6], c[7]};
}

RollModel roll_model(const DiscRollModel& m) { return {m.r, m.eta, m.G, m.g}; }
DiscWall<double> wall(const DiscRollModel& m) { return {m.R, 0.0, false}; }

// A wall, a model and a start: roll4:disc's circle or a table's wall.
template <class Wall>
struct Case {
  static constexpr int P = Wall::Sys::N - 1;
  Wall wall;
  RollModel m;
  PlateState s0;
};
Case<DiscWall<double>> disc_case(const DiscRollModel& m, const PlateState& s0 = kStart) {
  return {wall(m), roll_model(m), s0};
}

// The edge entry times of a run (the boundary-map hook of table_roll.hpp).
struct EntryTimes : DiscardSink {
  std::vector<double> t;
  void on_impact(double time, const double*) { t.push_back(time); }
};

// The plain run's plate state at t_max (which must fall on a flat part).
template <class Wall>
PlateState end_state(const Case<Wall>& c, const PlateState& s0, double t_max) {
  DiscardSink sink;
  RollEnd end;
  run_table_roll(c.wall, c.m, s0, options(t_max), sink, &end);
  EXPECT_TRUE(end.on_plate);
  return end.state;
}

// The middle of the flight after the k-th edge passage (k >= 1), so that a run to it ends on
// a flat part with k passages made.
template <class Wall>
double mid_flight_after(const Case<Wall>& c, const PlateState& s0, std::uint64_t k) {
  DiscardSink sink;
  const TrajectoryResult r = run_table_roll(c.wall, c.m, s0, options(INFINITY, k), sink);
  EXPECT_EQ(r.events, k);
  EntryTimes entries;
  run_table_roll(c.wall, c.m, s0, options(INFINITY, k + 1), entries);
  EXPECT_EQ(entries.t.size(), k + 1);
  return 0.5 * (r.t_end + entries.t.back());
}

// A tangent run that does not renormalise, so that its vector is the tangent map applied to the
// start vector, with or without the saltation at the junctions and breaks.
template <class Wall>
RollLyapunovRun<Wall> tangent_map_run(bool saltation) {
  RollLyapunovRun<Wall> lr;
  lr.renormalise = false;
  lr.saltation = saltation;
  return lr;
}

// The tangent map's columns against central differences of the trajectory, column after column:
// the largest |J_tangent e_i - (f(+h) - f(-h)) / 2h| over the largest |(f(+h) - f(-h)) / 2h|.
struct ColumnMismatch {
  double worst = 0.0, scale = 0.0;
  void add(int n, const double* tangent, const double* plus, const double* minus, double h) {
    for (int k = 0; k < n; ++k) {
      const double fd = (plus[k] - minus[k]) / (2.0 * h);
      worst = std::fmax(worst, std::fabs(tangent[k] - fd));
      scale = std::fmax(scale, std::fabs(fd));
    }
  }
  double relative() const { return worst / scale; }
};

// max over the columns |J_tangent e_i - J_fd e_i| / max |J_fd e_i| of the map from s0 to t_max
// in plate coordinates.
template <class Wall>
double jacobian_mismatch(const Case<Wall>& c, double t_max, bool saltation, std::uint64_t* breaks = nullptr) {
  constexpr int P = Case<Wall>::P;
  constexpr double h = 1e-6;
  double c0[kP];
  ColumnMismatch mismatch;
  to_plate(c.s0, c0);
  for (int i = 0; i < P; ++i) {
    double cp[kP], cm[kP], fp[kP], fm[kP], e[kP] = {};
    e[i] = 1.0;
    for (int k = 0; k < kP; ++k) cp[k] = cm[k] = c0[k];
    cp[i] += h;
    cm[i] -= h;
    to_plate(end_state(c, from_plate(c.s0.sheet, cp), t_max), fp);
    to_plate(end_state(c, from_plate(c.s0.sheet, cm), t_max), fm);
    RollLyapunovRun<Wall> lr = tangent_map_run<Wall>(saltation);
    DiscardSink sink;
    lr.go(c.wall, c.m, c.s0, options(t_max), sink, e);
    EXPECT_FALSE(lr.edge_coords);
    if (breaks) *breaks = lr.breaks;
    mismatch.add(P, lr.d, fp, fm, h);
  }
  return mismatch.relative();
}

TEST(RollingTangent, JacobianVectorProductMatchesFiniteDifferencesOfTheRhs) {
  const DiscRimSystem sys{-1.0, 0.1, 0.5, 0.3, 1.0, 1.0, 0.4};
  const TangentRimSystem<DiscRimSystem> tsys{sys};
  const double phi = 0.7;
  const double y[10] = {0.3, -0.5, 0.4, std::cos(phi), std::sin(phi), 0.2, 0.25, -0.6, 0.35, 0.1};
  double z[20], out[20];
  for (int i = 0; i < 10; ++i) z[i] = y[i];
  for (int j = 0; j < 10; ++j) {
    for (int i = 0; i < 10; ++i) z[10 + i] = i == j ? 1.0 : 0.0;
    tsys.rhs(z, out);
    constexpr double h = 1e-7;
    double yp[10], ym[10], fp[10], fm[10];
    for (int i = 0; i < 10; ++i) yp[i] = ym[i] = y[i];
    yp[j] += h;
    ym[j] -= h;
    sys.rhs(yp, fp);
    sys.rhs(ym, fm);
    for (int i = 0; i < 10; ++i) EXPECT_NEAR(out[10 + i], (fp[i] - fm[i]) / (2.0 * h), kRhsJacobianTolerance) << i << j;
  }
}

TEST(RollingTangent, OnePassageMatchesFiniteDifferencesOfTheTrajectory) {
  const auto c = disc_case(kModel);
  const double t = mid_flight_after(c, kStart, 1);
  const double with = jacobian_mismatch(c, t, true), without = jacobian_mismatch(c, t, false);
  std::cout << "one passage (t = " << t << "): relative mismatch " << with << ", without saltation " << without << "\n";
  EXPECT_LT(with, kJacobianTolerance);
  EXPECT_GT(without, kSaltationEffect);
}

TEST(RollingTangent, ARunOfPassagesMatchesFiniteDifferencesOfTheTrajectory) {
  for (double G : {0.0, 0.3}) {
    DiscRollModel m = kModel;
    m.G = G;
    const auto c = disc_case(m);
    const double t = mid_flight_after(c, kStart, 6);
    const double with = jacobian_mismatch(c, t, true), without = jacobian_mismatch(c, t, false);
    std::cout << "six passages, G " << G << " (t = " << t << "): relative mismatch " << with << ", without saltation "
              << without << "\n";
    EXPECT_LT(with, kJacobianTolerance) << G;
    EXPECT_GT(without, kSaltationEffect) << G;
  }
}

// The rolling tables (table_wall.hpp): the stadium (breaks where the curvature jumps), the
// ellipse, a square (vertex pieces) for roll4, the stadium under in-plane gravity for roll3.
PolygonTable square() {
  PolygonTable sq{};
  sq.n = 4;
  sq.v[0] = {-1.0, -1.0};
  sq.v[1] = {1.0, -1.0};
  sq.v[2] = {1.0, 1.0};
  sq.v[3] = {-1.0, 1.0};
  sq.diameter = std::sqrt(8.0);
  sq.corner_tol = 1e-9;
  return sq;
}
// A start that meets the top wall at x = 0.9 moving along it, so that its passages roll over
// the break at x = 1 (the stadium's cap, the square's corner).
const PlateState kAlongTheWall{1, {0.0, 0.5}, {0.45, 0.25}, 0.4, 0.0, 0.2, -0.3, 0.25};

template <int N, class Table>
Case<TableWall<Table, N, double>> table_case(const Table& table, double G, const PlateState& s0 = kStart) {
  return {table_wall<N>(table), {0.1, 0.5, G, G / (1.0 - 0.5 * 0.5)}, s0};  // g: the physical gravity of eta 0.5
}

// min_breaks: the breaks of the wall (curvature jumps, vertex pieces) the run must cross.
template <class Wall>
void expect_tangent_map(const char* name, const Case<Wall>& c, std::uint64_t passages, std::uint64_t min_breaks) {
  const double t = mid_flight_after(c, c.s0, passages);
  std::uint64_t breaks = 0;
  const double with = jacobian_mismatch(c, t, true, &breaks), without = jacobian_mismatch(c, t, false);
  std::cout << name << ", " << passages << " passages (t = " << t << ", " << breaks
            << " breaks): relative mismatch " << with << ", without saltation " << without << "\n";
  EXPECT_GE(breaks, min_breaks) << name;
  EXPECT_LT(with, kJacobianTolerance) << name;
  EXPECT_GT(without, kSaltationEffect) << name;
}

TEST(RollingTangent, TheTablesMatchFiniteDifferencesOfTheTrajectory) {
  expect_tangent_map("roll4:stadium", table_case<10>(StadiumTable{1.0, 1.0}, 0.3, kAlongTheWall), 6, 1);
  expect_tangent_map("roll4:ellipse", table_case<10>(EllipseTable{2.0, 1.0}, 0.0), 6, 0);
  expect_tangent_map("roll4:polygon (square)", table_case<10>(square(), 0.3, kAlongTheWall), 6, 1);
  expect_tangent_map("roll3:stadium, in-plane gravity", table_case<6>(StadiumTable{1.0, 1.0}, 0.4, kAlongTheWall), 6, 0);
  expect_tangent_map("roll3:polygon (square)", table_case<6>(square(), 0.0, kAlongTheWall), 6, 1);
  // The Sinai lattice: passages around the scatterers (the wall bends the other way). Two
  // passages only: the lattice stretches so fast that by the fourth the central differences of
  // step 1e-6 have left the linear regime (mismatch 1.9e-6, 3.5e-3, 0.47 after 3, 4, 5).
  const PlateState between_scatterers{1, {0.3, 0.45}, {0.28, -0.96}, -0.3, 0.0, 0.4, 0.25, 0.8};
  expect_tangent_map("roll4:sinai", table_case<10>(SinaiTable{1.0, 0.25}, 0.0, between_scatterers), 2, 0);
  expect_tangent_map("roll3:sinai", table_case<6>(SinaiTable{1.0, 0.25}, 0.0, between_scatterers), 2, 0);
}

// Starts inside an edge passage (RollLyapunovRun::go_on_edge): the state row of a plain run
// stopped in the middle of a passage (final_state, table_state_row.hpp), read back as the
// config's state_file start reads it (table_roll_edge_setup, roll4_disc_edge_setup).
template <class Wall>
struct EdgeStart {
  static constexpr int N = Wall::Sys::N, P = N - 1;
  typename Wall::Piece piece;
  double y[N];
  double t;  // when the run from the face start reached it
};

// A sink that keeps the final state row.
struct RowSink : DiscardSink {
  double row[12];
  double* take_state_row() { return row; }
};

// The row's frame state y = (v1, v2, S12, cos phi, sin phi, q[, v3, S13, S23, x3]) with y[5] = q
// left to the wall: roll4 rows are face, x1, x2, x3, v1, v2, v3, S12, S13, S23, psi, phi and
// roll3 rows face, x1, x2, v1, v2, S12, psi, phi.
template <int N>
void edge_row_state(const double* row, double* y) {
  const double phi = row[N == 10 ? 11 : 7];
  if constexpr (N == 10) {
    const double v[10] = {row[4], row[5], row[7], std::cos(phi), std::sin(phi), 0.0, row[6], row[8], row[9], row[3]};
    for (int i = 0; i < 10; ++i) y[i] = v[i];
  } else {
    const double v[6] = {row[3], row[4], row[5], std::cos(phi), std::sin(phi), 0.0};
    for (int i = 0; i < 6; ++i) y[i] = v[i];
  }
}
template <class Table, int N>
void read_edge_row(const TableWall<Table, N, double>& w, const double* row, EdgeStart<TableWall<Table, N, double>>& e) {
  edge_row_state<N>(row, e.y);
  const double psi = row[N == 10 ? 10 : 6];
  double q;
  e.piece = edge_arc_through(w.table, Vec2{row[1], row[2]}, Vec2{std::cos(psi), std::sin(psi)}, q);
  e.y[5] = q;
}
void read_edge_row(const DiscWall<double>&, const double* row, EdgeStart<DiscWall<double>>& e) {
  edge_row_state<10>(row, e.y);
  e.piece = row[10];  // the rim angle of the wall point, y[5] = 0 there
}

// The edge state a fraction `frac` into the k-th passage of the plain run from c.s0.
template <class Wall>
EdgeStart<Wall> mid_passage(const Case<Wall>& c, std::uint64_t k, double frac) {
  DiscardSink sink;
  const TrajectoryResult r = run_table_roll(c.wall, c.m, c.s0, options(INFINITY, k), sink);
  EntryTimes entries;
  run_table_roll(c.wall, c.m, c.s0, options(INFINITY, k), entries);
  EXPECT_EQ(entries.t.size(), k);
  EdgeStart<Wall> e;
  e.t = entries.t.back() + frac * (r.t_end - entries.t.back());
  RowSink rows;
  run_table_roll(c.wall, c.m, c.s0, options(e.t), rows);
  EXPECT_EQ(rows.row[0], 0.0);
  read_edge_row(c.wall, rows.row, e);
  return e;
}

// The plain run from the frame state y0 on e's piece (run_table_roll_on_edge, with its end).
template <class Wall, class Sink>
TrajectoryResult plain_on_edge(const Case<Wall>& c, const EdgeStart<Wall>& e, const double* y0, const RollOptions& opt,
                               Sink& sink, RollEnd* end = nullptr) {
  TableRollRun<Wall> run;
  double y[EdgeStart<Wall>::N];
  run.start_on_edge(c.wall, c.m, e.piece, y0, opt, sink, y);
  return table_roll_passages(run, y, true, sink, end, nullptr);
}

// The middle of the flight after the k-th passage from the edge start (the first one, which the
// start is inside, counts).
template <class Wall>
double mid_flight_after(const Case<Wall>& c, const EdgeStart<Wall>& e, std::uint64_t k) {
  DiscardSink sink;
  const TrajectoryResult r = plain_on_edge(c, e, e.y, options(INFINITY, k), sink);
  EXPECT_EQ(r.events, k);
  EntryTimes entries;
  plain_on_edge(c, e, e.y, options(INFINITY, k + 1), entries);
  EXPECT_EQ(entries.t.size(), k);
  return 0.5 * (r.t_end + entries.t.back());
}

// The passage's natural coordinates (v1, v2, S12, phi, q[, v3, S13, S23, x3]) of a frame state,
// and back (cos phi, sin phi on the circle).
template <int N>
void to_natural(const double* y, double* z) {
  for (int i = 0, k = 0; i < N; ++i)
    if (i != 4) z[k++] = i == 3 ? std::atan2(y[4], y[3]) : y[i];
}
template <int N>
void from_natural(const double* z, double* y) {
  for (int i = 0, k = 0; i < N; ++i) {
    if (i == 4) continue;
    y[i] = z[k++];
  }
  y[3] = std::cos(z[3]);
  y[4] = std::sin(z[3]);
}

// max over the columns |J_tangent e_i - J_fd e_i| / max |J_fd e_i| of the map from the edge
// start (natural coordinates) to t_max (plate coordinates, on a flat part).
template <class Wall>
double edge_jacobian_mismatch(const Case<Wall>& c, const EdgeStart<Wall>& e, double t_max, bool saltation,
                              std::uint64_t* breaks = nullptr) {
  constexpr int N = EdgeStart<Wall>::N, P = N - 1;
  constexpr double h = 1e-6;
  double z0[P];
  ColumnMismatch mismatch;
  to_natural<N>(e.y, z0);
  for (int i = 0; i < P; ++i) {
    double fpm[2][kP];
    for (int side = 0; side < 2; ++side) {
      double z[P], y[N];
      for (int k = 0; k < P; ++k) z[k] = z0[k];
      z[i] += side == 0 ? h : -h;
      from_natural<N>(z, y);
      DiscardSink sink;
      RollEnd end;
      plain_on_edge(c, e, y, options(t_max), sink, &end);
      EXPECT_TRUE(end.on_plate);
      to_plate(end.state, fpm[side]);
    }
    double d0[P] = {};
    d0[i] = 1.0;
    RollLyapunovRun<Wall> lr = tangent_map_run<Wall>(saltation);
    DiscardSink sink;
    lr.go_on_edge(c.wall, c.m, e.piece, e.y, options(t_max), sink, d0);
    EXPECT_FALSE(lr.edge_coords);
    if (breaks) *breaks = lr.breaks;
    mismatch.add(P, lr.d, fpm[0], fpm[1], h);
  }
  return mismatch.relative();
}

// The edge start `frac` into the k-th passage from c.s0, over `passages` passages from there.
template <class Wall>
void expect_edge_tangent_map(const char* name, const Case<Wall>& c, std::uint64_t k, double frac,
                             std::uint64_t passages, std::uint64_t min_breaks) {
  const EdgeStart<Wall> e = mid_passage(c, k, frac);
  const double t = mid_flight_after(c, e, passages);
  std::uint64_t breaks = 0;
  const double with = edge_jacobian_mismatch(c, e, t, true, &breaks), without = edge_jacobian_mismatch(c, e, t, false);
  std::cout << name << ", from inside a passage (phi " << std::atan2(e.y[4], e.y[3]) << "), " << passages
            << " passages (t = " << t << ", " << breaks << " breaks): relative mismatch " << with
            << ", without saltation " << without << "\n";
  EXPECT_GE(breaks, min_breaks) << name;
  EXPECT_LT(with, kJacobianTolerance) << name;
  EXPECT_GT(without, kSaltationEffect) << name;
}

TEST(RollingTangent, AStartInsideAPassageMatchesFiniteDifferencesOfTheTrajectory) {
  expect_edge_tangent_map("roll4:stadium", table_case<10>(StadiumTable{1.0, 1.0}, 0.3, kAlongTheWall), 1, 0.1, 4, 1);
  expect_edge_tangent_map("roll3:ellipse", table_case<6>(EllipseTable{2.0, 1.0}, 0.0), 2, 0.5, 4, 0);
  expect_edge_tangent_map("roll4:disc", disc_case(kModel), 2, 0.5, 4, 0);
}

// A rim_entry start (roll3:<table>, table_roll_setup): a wall point with a velocity entering the
// edge, and the run is that one passage (TableRollRun::enter_at_start), over as many pieces of the
// wall as it crosses. RollLyapunovRun::go starts the tangent vector in plate coordinates before
// the entry: at t = 0 it goes through the entry junction (a flight of length 0, then
// tangent_enter_edge's time shift and change of frame) and on in edge coordinates. A
// neighbouring plate state at t = 0 is off the wall or moving along another line: its
// trajectory meets the wall a little later or earlier and enters there. The plain run from the
// face through it, started kEntryLead back along its flight and stopped at kEntryLead + t,
// gives its frame state at t (inside the passage).
constexpr double kEntryLead = 0.05;
// The map over (part of) one passage, t < 0.4, against central differences of step 1e-6 (rtol =
// atol = 1e-12). Measured: 5.6e-10 to 4.9e-9; without the saltation terms 1.0.
constexpr double kRimEntryJacobianTolerance = 1e-7;

// The frame state y at time t of the trajectory through the plate state s at t = 0, and the
// piece of the wall it is on then.
template <class Wall>
void neighbour_on_edge(const Case<Wall>& c, const PlateState& s, double t, double* y, EdgeArc& piece) {
  TableRollRun<Wall> run;
  DiscardSink sink;
  run.start(c.wall, c.m, fly_plate<6>(s, -kEntryLead, c.m.G), options(kEntryLead + t), sink);
  const bool on_edge = run.fly_to_edge(sink, y);
  EXPECT_TRUE(on_edge);
  table_roll_passages(run, y, on_edge, sink, nullptr, nullptr);
  EXPECT_FALSE(run.on_plate);
  EXPECT_EQ(run.events, 0u);
  piece = run.sys.arc;
}

// max over the columns |J_tangent e_i - J_fd e_i| / max |J_fd e_i| of the map from the rim_entry
// start (plate coordinates, before the entry) to t inside its passage (edge coordinates).
template <class Wall>
double rim_entry_mismatch(const Case<Wall>& c, int entry_part, double t, bool saltation,
                          std::uint64_t* breaks = nullptr) {
  constexpr int N = 6, P = N - 1;
  constexpr double h = 1e-6;
  double c0[kP];
  ColumnMismatch mismatch;
  to_plate(c.s0, c0);
  for (int i = 0; i < P; ++i) {
    double fpm[2][N];
    EdgeArc pieces[2];
    for (int side = 0; side < 2; ++side) {
      double cs[kP];
      for (int k = 0; k < kP; ++k) cs[k] = c0[k];
      cs[i] += side == 0 ? h : -h;
      neighbour_on_edge(c, from_plate(c.s0.sheet, cs), t, fpm[side], pieces[side]);
    }
    double e[kP] = {};
    e[i] = 1.0;
    RollLyapunovRun<Wall> lr = tangent_map_run<Wall>(saltation);
    DiscardSink sink;
    const TrajectoryResult r = lr.go(c.wall, c.m, c.s0, options(t), sink, e, entry_part);
    EXPECT_TRUE(lr.edge_coords);
    EXPECT_EQ(r.events, 0u);
    for (const EdgeArc& piece : pieces) {  // the same piece, so the same coordinate q
      EXPECT_EQ(piece.part, lr.run.sys.arc.part);
      EXPECT_EQ(piece.q_lo, lr.run.sys.arc.q_lo);
    }
    if (breaks) *breaks = lr.breaks;
    mismatch.add(N, lr.d, fpm[0], fpm[1], h);
  }
  return mismatch.relative();
}

json rim_entry_config(const std::string& system, const json& size, double G, double u0, double v2, double S12) {
  json params = size;
  params["r"] = 0.1;
  params["eta"] = 0.5;
  params["g_effective"] = G;
  return {{"system", system},
          {"parameters", params},
          {"initial", {{"start", "rim_entry"}, {"boundary_s", u0}, {"v2", v2}, {"S12", S12}, {"speed", 1.0}}},
          {"stop", {{"t_max", 100.0}}}};
}

// The config's rim_entry start (table_roll_setup) run to `frac` of its passage's exit time;
// min_breaks: the breaks of the wall the run must cross by then.
template <TableKind TK>
void expect_rim_entry_tangent_map(const char* name, const json& cfg, double frac, std::uint64_t min_breaks) {
  const RunConfig rc = skipstone::testing::config_from(cfg);
  ASSERT_EQ(rc.spec.start, StartKind::rim_entry) << name;
  const ScanPoint pt = scan_point(rc.spec, 0);
  bool started = false;
  with_plane_table_of<TK>(rc.spec, pt, [&](const auto& table) {
    Case<TableWall<std::decay_t<decltype(table)>, 6, double>> c;
    RollOptions opt;
    int entry_part;
    started = table_roll_setup<6>(table, rc.spec, pt, c.m, c.s0, opt, entry_part);
    if (!started) return;
    c.wall = table_wall<6>(table);
    DiscardSink sink;
    const TrajectoryResult whole = run_table_roll(c.wall, c.m, c.s0, options(INFINITY), sink, nullptr, entry_part);
    EXPECT_EQ(whole.status, Status::exited) << name;
    EXPECT_EQ(whole.events, 1u) << name;
    const double t = frac * whole.t_end;
    std::uint64_t breaks = 0;
    const double with = rim_entry_mismatch(c, entry_part, t, true, &breaks);
    const double without = rim_entry_mismatch(c, entry_part, t, false);
    std::cout << name << " (G " << c.m.G << "), rim_entry start, " << frac << " of its passage (t = " << t << ", "
              << breaks << " breaks): relative mismatch " << with << ", without saltation " << without << "\n";
    EXPECT_GE(breaks, min_breaks) << name;
    EXPECT_LT(with, kRimEntryJacobianTolerance) << name;
    EXPECT_GT(without, kSaltationEffect) << name;
  });
  EXPECT_TRUE(started) << name << ": the start is masked";
}

TEST(RollingTangent, ARimEntryStartMatchesFiniteDifferencesOfTheTrajectory) {
  const json stadium = {{"R", 1.0}, {"half_length", 1.0}}, ellipse = {{"a", 2.0}, {"b", 1.0}};
  // One piece: the middle of the ellipse's passage, and of a passage on the stadium's straight
  // wall under in-plane gravity.
  expect_rim_entry_tangent_map<TableKind::ellipse>(
      "roll3:ellipse", rim_entry_config("roll3:ellipse", ellipse, 0.0, 0.3, 0.3, -0.4), 0.5, 0);
  expect_rim_entry_tangent_map<TableKind::stadium>(
      "roll3:stadium, in-plane gravity", rim_entry_config("roll3:stadium", stadium, 0.4, 0.1, 0.3, -0.4), 0.5, 0);
  // Several pieces: from the stadium's straight wall near its end onto the cap and back, and
  // from the end of a cap onto a short straight wall and off it again (two breaks each).
  const json shorter = {{"R", 1.0}, {"half_length", 0.01}};
  expect_rim_entry_tangent_map<TableKind::stadium>(
      "roll3:stadium, onto the cap and back", rim_entry_config("roll3:stadium", stadium, 0.0, 0.185, 0.6, 0.3), 0.9, 2);
  expect_rim_entry_tangent_map<TableKind::stadium>(
      "roll3:stadium, over a short wall", rim_entry_config("roll3:stadium", shorter, 0.0, 0.497, 0.6, 0.3), 0.9, 2);
}

// The exponent of the run from s0 to t_max (start vector d0, or the uniform one).
template <class Wall>
TrajectoryResult lyapunov_run(const Case<Wall>& c, const PlateState& s0, double t_max, const double* d0 = nullptr) {
  RollLyapunovRun<Wall> lr;
  DiscardSink sink;
  return lr.go(c.wall, c.m, s0, options(t_max), sink, d0);
}
TrajectoryResult lyapunov_run(const DiscRollModel& m, const PlateState& s0, double t_max) {
  return lyapunov_run(disc_case(m), s0, t_max);
}

// A run to 2T split at T inside a passage: the run to T (ending on N^c, its tangent vector in
// edge coordinates) and the run from its edge state with that vector (in natural coordinates,
// normalised) for another T add up to the whole run's sum of logs, lambda(2T) 2T. They differ
// by the continued trajectory's other GBS steps (rtol = atol = 1e-12), grown over the passages
// after T. Measured: 1.7e-13 (roll4:stadium), 4.0e-13 (roll3:ellipse), 6.8e-14 (roll4:disc).
constexpr double kContinuedSumTolerance = 1e-10;
// The tangent vector on N^c stays tangent to the circle (cos phi, sin phi): its radial part,
// relative to its norm, is the integrator's error. Measured: at most 9.3e-14.
constexpr double kTangentToCircleTolerance = 1e-10;

template <class Wall>
void expect_continued_exponent(const char* name, const Case<Wall>& c, std::uint64_t k, double frac) {
  constexpr int N = EdgeStart<Wall>::N, P = N - 1;
  const EdgeStart<Wall> e = mid_passage(c, k, frac);
  const double T = e.t;
  DiscardSink sink;
  RollLyapunovRun<Wall> a, b, whole;
  const TrajectoryResult ra = a.go(c.wall, c.m, c.s0, options(T), sink);
  ASSERT_TRUE(a.edge_coords) << name;
  const double cphi = e.y[3], sphi = e.y[4];
  double dz[P], n2 = 0.0;
  for (int i = 0, j = 0; i < N; ++i)
    if (i != 4) dz[j++] = i == 3 ? -sphi * a.d[3] + cphi * a.d[4] : a.d[i];
  for (double v : dz) n2 += v * v;
  const double radial = std::fabs(cphi * a.d[3] + sphi * a.d[4]) / std::sqrt(n2);
  for (double& v : dz) v /= std::sqrt(n2);
  const TrajectoryResult rb = b.go_on_edge(c.wall, c.m, e.piece, e.y, options(T), sink, dz);
  const TrajectoryResult rw = whole.go(c.wall, c.m, c.s0, options(2.0 * T), sink);
  EXPECT_EQ(ra.events + rb.events, rw.events) << name;
  const double split = ra.lyapunov * T + rb.lyapunov * T, total = rw.lyapunov * 2.0 * T;
  std::cout << name << ": T " << T << ", " << rw.events << " passages to 2T: sum of logs " << total
            << ", split at T inside a passage " << split << " (difference " << std::fabs(split - total)
            << "), radial part at T " << radial << "\n";
  EXPECT_LT(radial, kTangentToCircleTolerance) << name;
  EXPECT_NEAR(split, total, kContinuedSumTolerance) << name;
  EXPECT_GT(std::fabs(rb.lyapunov * T), 1e-3) << name;  // the second half grows the vector
}

TEST(RollingLyapunov, ARunSplitInsideAPassageAddsUpToTheWholeRun) {
  expect_continued_exponent("roll4:stadium", table_case<10>(StadiumTable{1.0, 1.0}, 0.3, kAlongTheWall), 3, 0.4);
  expect_continued_exponent("roll3:ellipse", table_case<6>(EllipseTable{2.0, 1.0}, 0.0), 3, 0.5);
  expect_continued_exponent("roll4:disc", disc_case(kModel), 3, 0.5);
}

// Benettin's estimate from a neighbour at distance eps, both restarted from their plate states
// in the middle of every flight, the separation measured and moved back to eps along itself,
// over `passages` edge passages; returns the tangent exponent over the same time in *tangent.
template <class Wall>
double two_trajectory_exponent(const Case<Wall>& c, std::uint64_t passages, double* tangent) {
  constexpr int P = Case<Wall>::P;
  constexpr double kEps = 1e-8;
  double d[kP] = {}, z[kP];
  for (int i = 0; i < P; ++i) d[i] = 1.0 / std::sqrt(double(P));
  PlateState s = c.s0;
  double log_sum = 0.0, t = 0.0;
  for (std::uint64_t k = 0; k < passages; ++k) {
    const double dt = mid_flight_after(c, s, 1);
    to_plate(s, z);
    double zp[kP], fa[kP], fb[kP];
    for (int i = 0; i < kP; ++i) zp[i] = z[i] + kEps * d[i];
    const PlateState a = end_state(c, s, dt);
    to_plate(a, fa);
    to_plate(end_state(c, from_plate(s.sheet, zp), dt), fb);
    double n2 = 0.0;
    for (int i = 0; i < P; ++i) {
      d[i] = (fb[i] - fa[i]) / kEps;
      n2 += d[i] * d[i];
    }
    log_sum += 0.5 * std::log(n2);
    for (double& v : d) v /= std::sqrt(n2);
    s = a;
    t += dt;
  }
  const TrajectoryResult r = lyapunov_run(c, c.s0, t);
  EXPECT_EQ(r.events, passages);
  *tangent = r.lyapunov;
  return log_sum / t;
}

TEST(RollingLyapunov, AgreesWithTwoNeighbouringTrajectories) {
  double tangent;
  const double two = two_trajectory_exponent(disc_case(kModel), 40, &tangent);
  EXPECT_NEAR(tangent, two, kTwoTrajectoryTolerance);
  std::cout << "roll4:disc (R 1, r 0.1, eta 0.5, G 0.3): lyapunov " << tangent << ", two trajectories " << two << "\n";
}

TEST(RollingLyapunov, TheStadiumAgreesWithTwoNeighbouringTrajectories) {
  double tangent;
  const double two = two_trajectory_exponent(table_case<10>(StadiumTable{1.0, 1.0}, 0.3), 40, &tangent);
  EXPECT_NEAR(tangent, two, kTwoTrajectoryTolerance);
  std::cout << "roll4:stadium: lyapunov " << tangent << ", two trajectories " << two << "\n";
}

// The stadium is symmetric under x -> -x: p1, u1, A12 and A13 change sign. The mirrored start
// with the mirrored start vector has the same exponent (until round-off separates the two
// trajectories: t = 30).
TEST(RollingLyapunov, TheMirroredStartInTheStadiumHasTheSameExponent) {
  PlateState m = kStart;
  m.p.x = -m.p.x;
  m.u.x = -m.u.x;
  m.A12 = -m.A12;
  m.A13 = -m.A13;
  double d[kP], dm[kP];
  for (int i = 0; i < kP; ++i) d[i] = dm[i] = 1.0 / 3.0;
  dm[0] = dm[2] = dm[4] = dm[6] = -1.0 / 3.0;
  const auto c = table_case<10>(StadiumTable{1.0, 1.0}, 0.3);
  const TrajectoryResult a = lyapunov_run(c, kStart, 30.0, d), b = lyapunov_run(c, m, 30.0, dm);
  EXPECT_EQ(a.events, b.events);
  EXPECT_NEAR(a.lyapunov, b.lyapunov, kMirrorTableTolerance * std::fabs(a.lyapunov));
}

// eta = 0 decouples the spin: the passages are those of a ball rolling round a fixed rim and the
// disc's rotation symmetry makes the flat-part map integrable; the exponent decays like
// log(t)/t (the shear between neighbouring energies).
TEST(RollingLyapunov, IntegrableDiscDecaysLikeLogTOverT) {
  DiscRollModel m = kModel;
  m.eta = 0.0;
  m.G = 0.0;
  double prev = INFINITY;
  for (double t : {1e2, 1e3, 1e4}) {
    const TrajectoryResult r = lyapunov_run(m, kStart, t);
    const double ratio = r.lyapunov * t / std::log(t);
    std::cout << "eta = 0: t " << t << " lyapunov " << r.lyapunov << " lyapunov t / log t " << ratio << "\n";
    EXPECT_LT(ratio, 3.0);
    EXPECT_LT(r.lyapunov, prev);
    prev = r.lyapunov;
  }
}

TEST(RollingLyapunov, TheMirrorStartOnTheOtherFaceHasTheSameExponent) {
  for (double eta : {0.0, 0.5}) {
    DiscRollModel m = kModel;
    m.eta = eta;
    PlateState minus = kStart;
    minus.sheet = -1;
    const TrajectoryResult a = lyapunov_run(m, kStart, 200.0), b = lyapunov_run(m, minus, 200.0);
    EXPECT_NEAR(a.lyapunov, b.lyapunov, kMirrorTolerance * std::fabs(a.lyapunov)) << eta;
    EXPECT_EQ(a.events, b.events);
  }
}

json disc_config(const json& observables, const std::string& system = "roll4:disc") {
  json j = json::parse(R"({"system": "roll4:disc",
    "parameters": {"R": 1.0, "r": 0.1, "eta": 0.5, "g_effective": 0.3},
    "initial": {"start": "plate", "x2": -0.2, "z": 0.0, "v1": -1.1, "v2": 0.7, "v3": 0.4,
                "S12": 0.61, "S13": -0.3, "S23": 0.25},
    "scan": {"type": "grid", "axes": [{"param": "x1", "min": -0.5, "max": 0.5, "n": 6}]},
    "stop": {"t_max": 50.0}})");
  j["system"] = system;
  if (system != "roll4:disc") j["parameters"]["half_length"] = 0.5;
  if (system.rfind("roll3:", 0) == 0)
    for (const char* k : {"z", "v3", "S13", "S23"}) j["initial"].erase(k);
  if (!observables.is_null()) j["observables"] = observables;
  return j;
}

TEST(RollingLyapunov, RequestingItLeavesTheOtherObservablesBitIdentical) {
  for (const char* system : {"roll4:disc", "roll4:stadium", "roll3:stadium"}) {
    SCOPED_TRACE(system);
    const RunConfig plain = skipstone::testing::config_from(disc_config(nullptr, system));
    json with = plain.observables;
    with.push_back("lyapunov");
    with.push_back("lyapunov_per_event");
    const RunConfig lyap = skipstone::testing::config_from(disc_config(with, system));
    EXPECT_EQ(lyap.spec.lyapunov_vectors, 1);
    const std::uint64_t n = 6;
    std::vector<TrajectoryResult> a(n), b(n);
    cpu::run_chunk(plain.spec, 0, n, a.data());
    cpu::run_chunk(lyap.spec, 0, n, b.data());
    for (std::uint64_t i = 0; i < n; ++i) {
      EXPECT_GT(b[i].events, 0u) << i;
      EXPECT_TRUE(std::isfinite(b[i].lyapunov)) << i;
      EXPECT_TRUE(std::isnan(a[i].lyapunov)) << i;
      b[i].lyapunov = a[i].lyapunov;
      b[i].lyapunov_per_event = a[i].lyapunov_per_event;
      EXPECT_EQ(std::memcmp(&a[i], &b[i], sizeof(TrajectoryResult)), 0) << i;
    }
  }
}

// The error a config gets, or "" when it is accepted.
std::string config_error(const json& j) {
  try {
    skipstone::testing::config_from(j);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

TEST(RollingLyapunovConfig, FloatIsRefused) {
  for (const char* system : {"roll4:disc", "roll4:stadium", "roll3:stadium"}) {
    json j = disc_config(json::array({"lyapunov"}), system);
    j["options"] = {{"precision", "float"}};
    const std::string err = config_error(j);
    EXPECT_NE(err.find("observables[0]"), std::string::npos) << err;
    EXPECT_NE(err.find("double"), std::string::npos) << err;
  }
}

}  // namespace
