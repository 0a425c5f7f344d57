// roll3:<table> and roll4:<table> (rolling/table_roll.hpp): a ball rolling on the plate of the
// disc, stadium, ellipse and Sinai tables and over their edges.
//  - Theorem 8 / Eq. (13) on every table: as r -> 0 the rolling trajectory tends to the no-slip
//    trajectory of the same table with beta = pi eta, gravity g_noslip = g / (1 + gamma^2) and
//    the no-slip spin of the flat-part spin (roll3: spin = A12; roll4: w = (A23, -A13, A12)); the
//    error against r is printed with its observed order, which must be about 1.
//  - Consistency: the ellipse with a = b and the stadium with half_length 0 are the disc, and
//    their roll4 runs equal the separate roll4:disc implementation; roll4 without gravity
//    projects onto roll3 (the transversal block does not see the longitudinal one).
//  - Time reversal, the mirror symmetry x -> -x of the stadium and the ellipse.
//  - Config: r >= radius on the Sinai table, gravity on roll3:sinai, a start off the plate.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <type_traits>
#include <iomanip>
#include <iostream>
#include <string>
#include <vector>

#include "config_error.hpp"
#include "skipstone/simulate.hpp"
#include "test_support.hpp"

namespace skipstone {
namespace {

using json = nlohmann::json;
using Log3 = testing::EventLog<Vec3, State3D>;
using Log2 = testing::EventLog<Vec2, State2D>;

constexpr double kLimitSlope = 40.0;     // Theorem 8: |x_roll(T) - x_noslip(T)| <= 40 r for r <= 0.005
constexpr double kOrderLow = 0.7;        // observed order of that error in r: about 1
constexpr double kOrderHigh = 1.4;
constexpr double kSameModel = 1e-9;      // two implementations of one trajectory (T <= 8)
constexpr double kReversal = 1e-9;       // time reversal: the start recovered
constexpr double kMirror = 1e-9;         // x -> -x: mirror image of the run

// A flat-part start: position, velocity, spin (roll4 also z, v3, S13, S23).
struct FaceStart {
  double x1, x2, v1, v2, S12, z, v3, S13, S23;
};

struct TableCase {
  std::string table;  // the 2D table's system id
  json size;          // its parameters
  FaceStart start;
  double g;           // gravity (g_effective of the rolling ball; 0 on the Sinai table)
  double T;           // compared time
};

const std::vector<TableCase>& table_cases() {
  static const std::vector<TableCase> cases = {
      {"disc", {{"R", 1.0}}, {0.2, -0.1, 0.7, 0.45, -0.3, 0.0, 0.4, 0.25, 0.8}, 0.3, 6.0},
      {"stadium", {{"half_length", 1.0}, {"R", 1.0}}, {0.2, -0.1, 0.8, 0.45, -0.3, 0.0, 0.4, 0.25, 0.8}, 0.3, 8.0},
      {"ellipse", {{"a", 2.0}, {"b", 1.0}}, {0.3, -0.2, 0.8, 0.5, 0.3, 0.0, 0.4, 0.25, 0.8}, 0.3, 8.0},
      {"sinai", {{"side", 1.0}, {"radius", 0.25}}, {0.3, 0.45, 0.28, -0.96, -0.3, 0.0, 0.4, 0.25, 0.8}, 0.0, 5.0},
      {"rectangle", {{"width", 2.0}, {"height", 1.0}}, {0.2, -0.1, 0.8, 0.45, -0.3, 0.0, 0.4, 0.25, 0.8}, 0.3, 8.0},
      {"polygon",
       {{"vertices", {{1.0, 0.0}, {0.309017, 0.951057}, {-0.809017, 0.587785}, {-0.809017, -0.587785},
                      {0.309017, -0.951057}}}},
       {0.1, -0.2, 0.7, 0.5, 0.3, 0.0, 0.4, 0.25, 0.8},
       0.3,
       7.0},
  };
  return cases;
}

json rolling_config(const std::string& system, const TableCase& c, double r, double eta, const FaceStart& s,
                    double g, double T, bool roll4) {
  json params = c.size;
  params["r"] = r;
  params["eta"] = eta;
  if (g != 0.0) params["g_effective"] = g;
  json init = {{"start", "plate"}, {"x1", s.x1}, {"x2", s.x2}, {"v1", s.v1}, {"v2", s.v2}, {"S12", s.S12}};
  if (roll4) {
    init["z"] = s.z;
    init["v3"] = s.v3;
    init["S13"] = s.S13;
    init["S23"] = s.S23;
  }
  return {{"system", system}, {"parameters", params}, {"initial", init}, {"stop", {{"t_max", T}}}};
}

template <class Log>
Log run(const json& cfg, TrajectoryResult* out) {
  Log log;
  *out = simulate_trajectory(testing::config_from(cfg).spec, 0, log);
  return log;
}

// ---- Theorem 8 / Eq. (13) ----
// The no-slip shadow's end position at T, and the rolling run's (the centre, projected to the
// table's plane for roll3 and to R^3 for roll4) at each radius.
void check_limit(const TableCase& c, bool roll4) {
  const double eta = 0.5;
  const FaceStart& s = c.start;
  json ns_params = c.size;
  ns_params["beta"] = kPi * eta;
  if (c.g != 0.0) ns_params["g"] = c.g;
  TrajectoryResult ref;
  Vec3 x_ref;
  if (roll4) {
    const json ns = {{"system", "cylinder:" + c.table},
                     {"parameters", ns_params},
                     {"initial", {{"start", "interior"}, {"x", s.x1}, {"y", s.x2}, {"z", s.z}, {"vx", s.v1},
                                  {"vy", s.v2}, {"vz", s.v3}, {"wx", s.S23}, {"wy", -s.S13}, {"wz", s.S12}}},
                     {"stop", {{"t_max", c.T}}}};
    x_ref = run<Log3>(ns, &ref).events.back().x;
  } else {
    const json ns = {{"system", c.table},
                     {"parameters", ns_params},
                     {"initial", {{"start", "interior"}, {"x", s.x1}, {"y", s.x2}, {"angle", std::atan2(s.v2, s.v1)},
                                  {"speed", std::hypot(s.v1, s.v2)}, {"spin", s.S12}}},
                     {"stop", {{"t_max", c.T}}}};
    const Vec2 x2 = run<Log2>(ns, &ref).events.back().x;
    x_ref = {x2.x, x2.y, 0.0};
  }
  ASSERT_EQ(ref.status, Status::finished);
  const std::string system = (roll4 ? "roll4:" : "roll3:") + c.table;
  std::cout << system << " vs its no-slip shadow (beta = pi eta, eta = " << eta << ", g = " << c.g << ", T = " << c.T
            << ", " << ref.events << " impacts)\n          r   |dx(T)|     order  |dx|/r  events\n";
  const double radii[] = {0.04, 0.02, 0.01, 0.005, 0.0025};
  std::vector<double> errs;
  for (double r : radii) {
    TrajectoryResult res;
    const Log3 log = run<Log3>(rolling_config(system, c, r, eta, s, c.g, c.T, roll4), &res);
    ASSERT_EQ(res.status, Status::finished) << system << " r " << r;
    Vec3 x = log.events.back().x;
    if (!roll4) x.z = 0.0;  // the centre's height above the plate
    const double err = norm(x - x_ref);
    const double order = errs.empty() ? NAN : std::log2(errs.back() / err);
    std::cout << std::setw(11) << r << "  " << std::scientific << std::setprecision(3) << err << std::defaultfloat
              << std::setprecision(3) << "  " << std::setw(6) << order << "  " << std::setw(6) << err / r << "  "
              << res.events << "\n";
    if (r <= 0.005) {
      EXPECT_LT(err, kLimitSlope * r) << system << " r " << r;
      EXPECT_EQ(res.events, ref.events) << system << " r " << r;
      EXPECT_GT(order, kOrderLow) << system << " r " << r;
      EXPECT_LT(order, kOrderHigh) << system << " r " << r;
    }
    errs.push_back(err);
  }
}

TEST(Theorem8, Roll3OnEveryTableConvergesToTheNoSlipTable) {
  for (const TableCase& c : table_cases()) check_limit(c, false);
}

TEST(Theorem8, Roll4OnEveryTableConvergesToTheNoSlipCylinder) {
  for (const TableCase& c : table_cases()) check_limit(c, true);
}

// ---- consistency ----
Vec3 end_of(const json& cfg, TrajectoryResult* res) { return run<Log3>(cfg, res).events.back().x; }

// roll4 on the ellipse a = b = 1 and on the stadium with half_length 0 against roll4:disc (its
// own implementation: closed-form chords, the rim angle from atan2), and roll3:disc against
// roll3 on the same two tables.
TEST(RollTables, RoundEllipseAndStadiumAreTheDisc) {
  const TableCase& disc = table_cases()[0];
  const FaceStart& s = disc.start;
  for (bool roll4 : {false, true}) {
    TrajectoryResult ref;
    const Vec3 x_ref = end_of(rolling_config(roll4 ? "roll4:disc" : "roll3:disc", disc, 0.1, 0.5, s, disc.g, disc.T, roll4),
                              &ref);
    for (const auto& [table, size] : {std::pair<std::string, json>{"ellipse", {{"a", 1.0}, {"b", 1.0}}},
                                      std::pair<std::string, json>{"stadium", {{"half_length", 0.0}, {"R", 1.0}}}}) {
      TableCase c = disc;
      c.size = size;
      const std::string system = (roll4 ? "roll4:" : "roll3:") + table;
      TrajectoryResult res;
      const Vec3 x = end_of(rolling_config(system, c, 0.1, 0.5, s, disc.g, disc.T, roll4), &res);
      EXPECT_EQ(res.events, ref.events) << system;
      EXPECT_LT(norm(x - x_ref), kSameModel) << system;
      EXPECT_NEAR(res.z_final, ref.z_final, kSameModel) << system;
      if (res.events > 2) {
        EXPECT_TRUE(std::isnan(res.rho_even)) << system << ": caustics are the disc's only";
      }
    }
    if (roll4) {
      EXPECT_GE(ref.events, 2u);
      EXPECT_FALSE(std::isnan(ref.rho_even));
    }
  }
}

// The transversal block of roll4 does not see the longitudinal one (end of Section 5.4): without
// gravity the centre's path in the cross-section is roll3's on the same table.
TEST(RollTables, Roll4WithoutGravityProjectsOntoRoll3) {
  for (const TableCase& c : table_cases()) {
    TrajectoryResult r3, r4;
    const Vec3 x3 = end_of(rolling_config("roll3:" + c.table, c, 0.05, 0.5, c.start, 0.0, c.T, false), &r3);
    const Vec3 x4 = end_of(rolling_config("roll4:" + c.table, c, 0.05, 0.5, c.start, 0.0, c.T, true), &r4);
    EXPECT_EQ(r3.events, r4.events) << c.table;
    EXPECT_GT(r3.events, 1u) << c.table;
    EXPECT_LT(std::hypot(x3.x - x4.x, x3.y - x4.y), kSameModel) << c.table;
  }
}

// The flat-part rows of a run: the times of the junctions and of the start and end.
// The flights between edge passages: from the last row of a passage (its exit) to the next
// plate row (the next entry).
struct FlatRows {
  std::vector<std::pair<double, double>> flights;
  double exit_t = -1.0;
  template <class V, class S>
  void on_event(double time, V, const S&, V nu) {
    if constexpr (std::is_same_v<V, Vec3>) {
      const bool plate = nu.x == 0.0 && nu.y == 0.0 && (nu.z == 0.0 || std::fabs(nu.z) == 1.0);
      if (!plate) {
        exit_t = time;
      } else if (exit_t >= 0.0) {
        flights.emplace_back(exit_t, time);
        exit_t = -1.0;
      }
    }
  }
};

struct NoRows {
  template <class V, class S>
  void on_event(double, V, const S&, V) {}
};

PlateState reversed(PlateState s) {
  s.u = -1.0 * s.u;
  s.u3 = -s.u3;
  s.A12 = -s.A12;
  s.A13 = -s.A13;
  s.A23 = -s.A23;
  return s;
}

double state_distance(const PlateState& a, const PlateState& b) {
  const double d[] = {a.p.x - b.p.x, a.p.y - b.p.y, a.u.x - b.u.x, a.u.y - b.u.y, a.u3 - b.u3,
                      a.z - b.z,     a.A12 - b.A12, a.A13 - b.A13, a.A23 - b.A23};
  double e = a.sheet == b.sheet ? 0.0 : INFINITY;
  for (double x : d) e = std::max(e, std::fabs(x));
  return e;
}

// f(table, model, start, options) for trajectory 0 of cfg, with the table as its own type.
template <int N, class F>
void with_table_run(const json& cfg, F&& f) {
  const RunConfig rc = testing::config_from(cfg);
  const ScanPoint pt = scan_point(rc.spec, 0);
  const auto go = [&](const auto& table) {
    RollModel m;
    PlateState s0;
    RollOptions opt;
    int entry_part;
    ASSERT_TRUE(table_roll_setup<N>(table, rc.spec, pt, m, s0, opt, entry_part));
    f(table, m, s0, opt);
  };
  switch (rc.spec.table) {
    case TableKind::disc: with_plane_table_of<TableKind::disc>(rc.spec, pt, go); break;
    case TableKind::stadium: with_plane_table_of<TableKind::stadium>(rc.spec, pt, go); break;
    case TableKind::ellipse: with_plane_table_of<TableKind::ellipse>(rc.spec, pt, go); break;
    case TableKind::sinai: with_plane_table_of<TableKind::sinai>(rc.spec, pt, go); break;
    case TableKind::rectangle: with_plane_table_of<TableKind::rectangle>(rc.spec, pt, go); break;
    case TableKind::polygon: with_plane_table_of<TableKind::polygon>(rc.spec, pt, go); break;
    default: FAIL() << "not a rolling table";
  }
}

// Run to the middle of a flight after 0.3 T, reverse velocities and spins, run
// as long again: the start comes back, reversed.
template <int N>
void check_reversal(const json& cfg, const std::string& system) {
  with_table_run<N>(cfg, [&](const auto& table, const RollModel& m, const PlateState& s0, RollOptions opt) {
    FlatRows rows;
    run_table_roll(table_wall<N>(table), m, s0, opt, rows);
    double t_mid = -1.0;
    for (const auto& [t0, t1] : rows.flights)
      if (t0 > 0.3 * opt.t_max && t1 - t0 > 0.05) t_mid = 0.5 * (t0 + t1);
    ASSERT_GT(t_mid, 0.0) << system << ": no flight after 0.3 T";
    opt.t_max = t_mid;
    NoRows none;
    RollEnd there, back;
    const TrajectoryResult out = run_table_roll(table_wall<N>(table), m, s0, opt, none, &there);
    ASSERT_TRUE(there.on_plate) << system;
    const TrajectoryResult ret = run_table_roll(table_wall<N>(table), m, reversed(there.state), opt, none, &back);
    ASSERT_TRUE(back.on_plate) << system;
    EXPECT_EQ(ret.events, out.events) << system;
    const double err = state_distance(reversed(back.state), s0);
    std::cout << system << ": time reversal over t = " << t_mid << " (" << out.events << " passages): error " << err
              << "\n";
    EXPECT_LT(err, kReversal) << system;
  });
}

TEST(RollTables, TimeReversalRecoversTheStart) {
  for (const TableCase& c : table_cases()) {
    if (c.table == "disc") continue;  // roll4:disc is its own model (tests/test_rolling_disc.cpp)
    check_reversal<6>(rolling_config("roll3:" + c.table, c, 0.05, 0.5, c.start, c.g, c.T, false), "roll3:" + c.table);
    check_reversal<10>(rolling_config("roll4:" + c.table, c, 0.05, 0.5, c.start, c.g, c.T, true), "roll4:" + c.table);
  }
}

// x -> -x maps the stadium, the ellipse and the rectangle onto themselves and keeps gravity (along -y for
// roll3, the axis for roll4); it flips u.x and the spins with one index along e1 (S12, S13).
TEST(RollTables, MirrorImageStartGivesTheMirrorImageRun) {
  for (const TableCase& c : table_cases()) {
    if (c.table != "stadium" && c.table != "ellipse" && c.table != "rectangle") continue;
    for (bool roll4 : {false, true}) {
      const std::string system = (roll4 ? "roll4:" : "roll3:") + c.table;
      FaceStart m = c.start;
      m.x1 = -m.x1;
      m.v1 = -m.v1;
      m.S12 = -m.S12;
      m.S13 = -m.S13;
      TrajectoryResult a, b;
      const Vec3 xa = end_of(rolling_config(system, c, 0.05, 0.5, c.start, c.g, c.T, roll4), &a);
      const Vec3 xb = end_of(rolling_config(system, c, 0.05, 0.5, m, c.g, c.T, roll4), &b);
      EXPECT_EQ(a.events, b.events) << system;
      EXPECT_GE(a.events, 2u) << system;
      EXPECT_LT(norm(Vec3{-xb.x, xb.y, xb.z} - xa), kMirror) << system;
    }
  }
}

// ---- vertices: the sphere of radius r about the vertex (edge_system.hpp) ----
// The vertex piece of the 2 x 1 rectangle at (1, 0.5) (vertex 2), entered at phi0, psi0 with
// (v1, v2, S12).
struct VertexCase {
  PolygonTable table;
  EdgeArc arc;
};

VertexCase rectangle_vertex() {
  VertexCase c;
  c.table.n = 4;
  c.table.v[0] = {-1.0, -0.5};
  c.table.v[1] = {1.0, -0.5};
  c.table.v[2] = {1.0, 0.5};
  c.table.v[3] = {-1.0, 0.5};
  c.table.diameter = std::sqrt(5.0);
  c.table.corner_tol = 1e-9;
  c.arc = polygon_vertex_arc(c.table, 2, 0.0);
  return c;
}

struct NoSteps {
  void on_step(double, const double*) {}
};

// The vertex equations are the limit rho -> 0 of a circle piece of radius rho (kappa = -1/rho)
// about the same point with the same frame: the right-hand sides agree to O(rho), for roll3 and
// roll4, with psi' = l' / rho.
TEST(RollVertex, VertexIsTheLimitOfASmallCircle) {
  const VertexCase vc = rectangle_vertex();
  const double r = 0.1, eta = 0.6, rho = 1e-7;
  EdgeSystem<10> vertex{vc.arc, r, eta, 0.7, 1.0, 1.0, 1.0, physical_gravity(0.7, eta)};
  EdgeSystem<10> circle = vertex;
  circle.arc = circle_arc(vc.arc.b_ref + rho * vc.arc.e1_ref, vc.arc.e1_ref, -1.0, rho, 0.0, 0, -kNoBreak,
                         kNoBreak);
  const double phi = 1.1;
  const double y[10] = {0.3, -0.5, 0.4, std::cos(phi), std::sin(phi), 0.0, 0.2, -0.6, 0.35, 0.0};
  double fv[10], fc[10];
  vertex.rhs(y, fv);
  circle.rhs(y, fc);
  fc[5] /= rho;  // arc length rate -> angle rate
  for (int i = 0; i < 10; ++i) EXPECT_NEAR(fv[i], fc[i], 1e3 * rho) << "component " << i;
}

// roll3 on the sphere about a vertex, integrated in R^3 by an independent method: the centre x
// (vertex at 0) with x'' = -(eta S12 / r) nu x v - (|v|^2 / r) nu, nu = x / r, S12 constant
// (Theorem 7 with the shape operator -1/r; (X1, X2, nu) is right-handed, so S v = -S12 nu x v).
// Classical RK4 at a small fixed step against the piece's GBS integration.
TEST(RollVertex, Roll3OnTheVertexSphereMatchesTheAmbientEquations) {
  const VertexCase vc = rectangle_vertex();
  const double r = 0.1, eta = 0.6, phi0 = 1.0, psi0 = 0.6, T = 0.05;
  const double y0[6] = {0.3, 0.8, -0.5, std::cos(phi0), std::sin(phi0), psi0};
  const double xi = std::sqrt(y0[0] * y0[0] + y0[1] * y0[1] + y0[2] * y0[2]);
  const EdgeSystem<6> sys{vc.arc, r, eta, 0.0, xi * xi, 0.0, r / xi, 0.0};
  NoSteps none;
  const RimRun<6> run = integrate_rim<kRimExtrapolationDepth>(sys, y0, T, 1e-13, 1e-13, 100000, none);
  ASSERT_EQ(run.status, Status::finished) << "left the vertex piece before T";
  EXPECT_NEAR(run.y[2], y0[2], 1e-13) << "S12 is constant on the vertex sphere";

  const auto frame_centre = [&](const double* y) {
    const EdgePoint e = vc.arc.point(y[5]);
    return Vec3{r * y[4] * e.e1.x, r * y[4] * e.e1.y, r * y[3]};
  };
  const EdgePoint e = vc.arc.point(psi0);
  const Vec3 e1 = {e.e1.x, e.e1.y, 0.0}, e2 = {e.e2.x, e.e2.y, 0.0}, ez = {0.0, 0.0, 1.0};
  const Vec3 X1 = std::cos(phi0) * e1 - std::sin(phi0) * ez;
  Vec3 x = frame_centre(y0), v = y0[0] * X1 + y0[1] * e2;
  const double k = eta * y0[2] / r;
  const auto acc = [&](Vec3 xx, Vec3 vv) {
    const Vec3 nu = (1.0 / r) * xx;
    return -k * cross(nu, vv) - (dot(vv, vv) / r) * nu;
  };
  const int n = 20000;
  const double h = T / n;
  for (int i = 0; i < n; ++i) {
    const Vec3 a1 = acc(x, v), b1 = v;
    const Vec3 a2 = acc(x + 0.5 * h * b1, v + 0.5 * h * a1), b2 = v + 0.5 * h * a1;
    const Vec3 a3 = acc(x + 0.5 * h * b2, v + 0.5 * h * a2), b3 = v + 0.5 * h * a2;
    const Vec3 a4 = acc(x + h * b3, v + h * a3), b4 = v + h * a3;
    x = x + (h / 6.0) * (b1 + 2.0 * b2 + 2.0 * b3 + b4);
    v = v + (h / 6.0) * (a1 + 2.0 * a2 + 2.0 * a3 + a4);
  }
  const Vec3 xf = frame_centre(run.y);
  std::cout << "vertex sphere, T = " << T << ": |x_frame - x_ambient| = " << norm(xf - x) << "\n";
  EXPECT_LT(norm(xf - x), 1e-10);
}

// Rows of a run on the vertex sphere of `vertex` (the centre at distance r from it, off the faces).
struct VertexRows {
  Vec2 vertex;
  double r;
  int on_sphere = 0;
  template <class V, class S>
  void on_event(double, V x, const S&, V nu) {
    if constexpr (std::is_same_v<V, Vec3>) {
      const double d = std::sqrt((x.x - vertex.x) * (x.x - vertex.x) + (x.y - vertex.y) * (x.y - vertex.y) + x.z * x.z);
      if (std::fabs(d - r) < 1e-12 && std::fabs(nu.z) < 0.999) ++on_sphere;
    }
  }
};

// A ball that enters the edge next to a vertex, moving along the wall towards it, rolls round the
// vertex onto the next edge: the passage crosses the vertex piece (rows on its sphere), keeps
// its energy, and comes back to its entry point when reversed at the exit.
TEST(RollVertex, PassageRoundAVertexIsReversible) {
  const VertexCase vc = rectangle_vertex();
  const double r = 0.1, eta = 0.5;
  // edge 1 (x = 1, upwards from (1, -0.5) to (1, 0.5)) at 0.05 below vertex 2
  PlateState s{};
  s.sheet = 1;
  s.p = {1.0, 0.45};
  s.u = {0.3, 0.9};
  s.A12 = -0.2;
  const RollOptions opt{100.0, 1, 1e-6, 2.0, 1e-12, 1e-12, 1000000};
  VertexRows rows{vc.table.v[2], r};
  RollEnd end;
  const TrajectoryResult res = run_table_roll(table_wall<6>(vc.table), RollModel{r, eta, 0.0, 0.0}, s, opt, rows, &end, 1);
  ASSERT_EQ(res.status, Status::exited);
  EXPECT_GT(rows.on_sphere, 0) << "the passage did not go round the vertex";
  EXPECT_NEAR(end.state.p.y, 0.5, 1e-12) << "the ball leaves on the top edge";
  // reversed: enter at the exit point moving out again, along the wall back towards the vertex
  PlateState back = end.state;
  // on the face it left by, moving out: phi runs back from where the passage ended
  back.u = -1.0 * back.u;
  back.A12 = -back.A12;
  NoRows none;
  RollEnd home;
  const int top_edge = 2;
  const TrajectoryResult ret = run_table_roll(table_wall<6>(vc.table), RollModel{r, eta, 0.0, 0.0}, back, opt, none, &home, top_edge);
  ASSERT_EQ(ret.status, Status::exited);
  EXPECT_LT(state_distance(reversed(home.state), PlateState{s.sheet == 1 ? 1 : -1, s.p, s.u, 0, 0, s.A12, 0, 0}),
            1e-9);
}

// ---- energy: what the projection moves, and the integrator without it ----
// The system of a passage with its projection onto the energies measured: the largest change it
// makes to the velocity/spin blocks relative to their size sqrt(2E_kin) there (under gravity the
// ball speeds up as it falls). With project_energies
// false the blocks are put back after it (only (cos phi, sin phi) stays normalised): the bare
// integrator, whose energy error the junctions then record.
template <int N>
struct MeasuredEdgeSystem : EdgeSystem<N> {
  bool project_energies;
  double* largest_move;

  static bool is_energy_component(int i) { return i != 3 && i != 4 && i != 5 && i != 9; }

  void project(double* y) const {
    double before[N], k = 0.0;
    std::copy(y, y + N, before);
    EdgeSystem<N>::project(y);
    for (int i = 0; i < N; ++i)
      if (is_energy_component(i)) k += y[i] * y[i];
    for (int i = 0; i < N; ++i) {
      if (!is_energy_component(i)) continue;
      *largest_move = std::fmax(*largest_move, std::fabs(y[i] - before[i]) / std::sqrt(k));
      if (!project_energies) y[i] = before[i];
    }
  }
};

struct Measured {
  TrajectoryResult result;
  double largest_move = 0.0;
};

template <int N>
Measured run_measured(const json& cfg, bool project_energies) {
  Measured out;
  with_table_run<N>(cfg, [&](const auto& table, const RollModel& m, const PlateState& s0, RollOptions opt) {
    TableRollRun<TableWall<std::decay_t<decltype(table)>, N>> run;
    NoRows none;
    run.start(table_wall<N>(table), m, s0, opt, none);
    double y[N];
    bool on_edge = run.fly_to_edge(none, y);
    while (on_edge) {
      MeasuredEdgeSystem<N> measured{run.sys, project_energies, &out.largest_move};
      auto steps = run.edge_steps(none);
      const EdgeEnd next = run.integrate_piece(measured, y, steps);
      on_edge = next == EdgeEnd::next_piece || (next == EdgeEnd::plate && run.fly_to_edge(none, y));
    }
    out.result = run.result();
  });
  return out;
}

constexpr double kProjectionMove = 1e-11;    // one projection's move / sqrt(2E_kin): 10 x rtol = atol
constexpr double kUnprojectedDrift = 1e-10;  // the energies over 300 passages without projection

template <int N>
void check_energy(const TableCase& c) {
  const std::string system = (N == 10 ? "roll4:" : "roll3:") + c.table;
  json cfg = rolling_config(system, c, 0.1, 0.5, c.start, c.g, 1e4, N == 10);
  cfg["stop"]["max_events"] = 300;
  const Measured projected = run_measured<N>(cfg, true);
  const Measured bare = run_measured<N>(cfg, false);
  ASSERT_EQ(projected.result.status, Status::finished) << system;
  ASSERT_EQ(bare.result.status, Status::finished) << system;
  EXPECT_EQ(projected.result.events, 300u) << system;
  std::cout << system << ": 300 passages, largest projection move " << projected.largest_move
            << " sqrt(2E_kin); without projection energy error " << bare.result.energy_error << "\n";
  EXPECT_LT(projected.largest_move, kProjectionMove) << system;
  EXPECT_GT(projected.largest_move, 0.0) << system;
  EXPECT_LT(bare.result.energy_error, kUnprojectedDrift) << system;
}

TEST(RollTables, EnergyProjectionIsRoundOffSizedAndTheBareIntegratorKeepsTheEnergies) {
  for (const TableCase& c : table_cases()) {
    if (c.table == "disc") continue;  // roll4:disc: tests/test_rolling_disc.cpp
    check_energy<6>(c);
    check_energy<10>(c);
  }
}

// ---- passages that reach a curvature jump at a turning point or together with their exit ----
// Distance of a point from the wall of the stadium (half_length a, radius R).
double stadium_wall_distance(Vec2 p, double a, double R) {
  const double dx = std::fabs(p.x) - a;
  return dx <= 0.0 ? std::fabs(R - std::fabs(p.y)) : std::fabs(std::hypot(dx, p.y) - R);
}

// Every row of a stadium run: flat-part rows on the plate, edge rows with their contact point on
// the wall.
struct WallCheck {
  double a, R, r;
  double worst_contact = 0.0, worst_outside = 0.0;
  template <class T>
  void on_step(T, const T*) {}  // simulate_trajectory instantiates the Figure-18 system too
  template <class V, class S>
  void on_event(double, V x, const S&, V nu) {
    if constexpr (std::is_same_v<V, Vec3>) {
      const bool flat = nu.x == 0.0 && nu.y == 0.0;
      const Vec2 p = {x.x, x.y};
      if (flat) {
        if (!StadiumTable{a, R}.inside(p)) worst_outside = std::fmax(worst_outside, stadium_wall_distance(p, a, R));
      } else {
        worst_contact = std::fmax(worst_contact, stadium_wall_distance(p - r * Vec2{nu.x, nu.y}, a, R));
      }
    }
  }
};

// Starts found by scanning the roll4:stadium and roll3:stadium presets, whose passages reach a
// junction (1) at a turning point of the ball's motion along the wall: the piece was switched
// back and forth without the clock moving until the step budget ran out; (2) just after phi had
// returned to pi: the break was located first, the exit was missed and the centre ran on inside
// the plate. Both now finish, with every row where it belongs.
TEST(RollTables, PassagesThatMeetAJunctionAtATurnOrWithTheirExitFinish) {
  const json size = {{"half_length", 1.0}, {"R", 1.0}};
  struct Case {
    const char* system;
    FaceStart start;
    double g, T;
  };
  const Case cases[] = {
      {"roll4:stadium", {0.0, 0.0, 0.8957746478873239, 1.0, -0.509090909090909, 0.0, 0.0, 0.0, 0.0}, 1.0, 100.0},
      {"roll4:stadium", {0.0, 0.0, -0.963157894736842, 0.5, -0.03968253968253971, 0.0, 0.0, 0.0, -1.0}, 1.0, 100.0},
      {"roll3:stadium", {-1.253191489361702, 0.0, -1.4893617021276597, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0}, 1.0, 50.0},
  };
  for (const Case& k : cases) {
    const bool roll4 = std::string(k.system) == "roll4:stadium";
    TableCase c{"stadium", size, k.start, k.g, k.T};
    json cfg = rolling_config(k.system, c, 0.1, 0.5, k.start, 0.0, k.T, roll4);
    cfg["parameters"].erase("eta");
    cfg["parameters"][roll4 ? "eta" : "gamma"] = roll4 ? 0.5 : 0.6325;
    cfg["parameters"][roll4 ? "g_effective" : "g"] = k.g;
    WallCheck rows{1.0, 1.0, 0.1};
    const TrajectoryResult res = simulate_trajectory(testing::config_from(cfg).spec, 0, rows);
    EXPECT_EQ(res.status, Status::finished) << k.system;
    EXPECT_GT(res.events, 10u) << k.system;
    EXPECT_LT(rows.worst_contact, 1e-9) << k.system << ": a contact point off the wall";
    EXPECT_LT(rows.worst_outside, 1e-9) << k.system << ": a flat-part point off the plate";
  }
}

// ---- Figure 18 at any wall point: the rim_entry start of roll3 ----
json entry_config(const std::string& system, const json& size, double r, double eta, double u0, double v2, double S12) {
  json params = size;
  params["r"] = r;
  params["eta"] = eta;
  return {{"system", system},
          {"parameters", params},
          {"initial", {{"start", "rim_entry"}, {"boundary_s", u0}, {"v2", v2}, {"S12", S12}, {"speed", 1.0}}},
          {"stop", {{"t_max", 100.0}}}};
}

TrajectoryResult run_entry(const json& cfg) {
  TrajectoryResult res;
  run<Log3>(cfg, &res);
  return res;
}

// On the disc (and the round stadium and ellipse) the passage from any wall point is the
// Figure-18 system, whose own implementation is roll4:disc-transversal.
TEST(RimEntry, RoundTablesGiveTheFigure18Map) {
  const double r = 0.4, eta = 0.5;
  for (const auto& [v2, S12] : {std::pair{0.3, -0.5}, std::pair{-0.6, 0.2}, std::pair{0.1, 0.9}}) {
    const json fig18 = {{"system", "roll4:disc-transversal"},
                        {"parameters", {{"R", 1.0}, {"r", r}, {"eta", eta}}},
                        {"initial", {{"start", "rim_entry"}, {"v2", v2}, {"S12", S12}, {"speed", 1.0}}},
                        {"stop", {{"t_max", 100.0}}}};
    TrajectoryResult ref;
    run<Log3>(fig18, &ref);
    ASSERT_EQ(ref.status, Status::exited);
    for (const auto& [system, size] : {std::pair<std::string, json>{"roll3:disc", {{"R", 1.0}}},
                                       std::pair<std::string, json>{"roll3:ellipse", {{"a", 1.0}, {"b", 1.0}}},
                                       std::pair<std::string, json>{"roll3:stadium", {{"half_length", 0.0}, {"R", 1.0}}}})
      for (double u0 : {0.0, 0.3, 0.85}) {
        const TrajectoryResult res = run_entry(entry_config(system, size, r, eta, u0, v2, S12));
        ASSERT_EQ(res.status, Status::exited) << system;
        EXPECT_EQ(res.events, 1u);
        EXPECT_EQ(res.exit_side, ref.exit_side) << system << " u0 " << u0;
        EXPECT_NEAR(res.exit_time, ref.exit_time, kSameModel) << system << " u0 " << u0;
        EXPECT_NEAR(res.exit_arc, ref.exit_arc, kSameModel) << system << " u0 " << u0;
      }
  }
}

// Over a straight piece (kappa = 0) Proposition 12 is v1' = 0, phi' = v1 / r and (v2, S12)
// turning at eta v1 / r: the ball always goes over to the other face, after T = pi r / v1, having
// moved along the wall by (v2 sin(pi eta) + S12 (cos(pi eta) - 1)) / (eta v1 / r).
TEST(RimEntry, StraightWallPassageIsTheClosedForm) {
  const double r = 0.1, eta = 0.6, u0 = 0.05;  // the middle of the stadium's top segment
  const json size = {{"half_length", 1.0}, {"R", 1.0}};
  for (const auto& [v2, S12] : {std::pair{0.2, -0.1}, std::pair{-0.15, 0.25}}) {
    const double v1 = std::sqrt(1.0 - v2 * v2 - S12 * S12), w = eta * v1 / r;
    const TrajectoryResult res = run_entry(entry_config("roll3:stadium", size, r, eta, u0, v2, S12));
    ASSERT_EQ(res.status, Status::exited);
    EXPECT_EQ(res.exit_side, -1);
    EXPECT_NEAR(res.exit_time, kPi * r / v1, kSameModel);
    EXPECT_NEAR(res.exit_arc, (v2 * std::sin(kPi * eta) + S12 * (std::cos(kPi * eta) - 1.0)) / w, kSameModel);
  }
}

// The exit map is a map of the wall point: on the stadium it differs between the straight part,
// the cap and the junction, and it repeats with the table's symmetry (u0 and u0 + 1/2).
TEST(RimEntry, StadiumExitMapFollowsTheWall) {
  const double r = 0.3, eta = 0.5, v2 = 0.5, S12 = -0.3;
  const json size = {{"half_length", 1.0}, {"R", 1.0}};
  const double P = 4.0 + 2.0 * kPi, junction = 2.0 / P, cap = (2.0 + 0.5 * kPi) / P;
  const TrajectoryResult flat = run_entry(entry_config("roll3:stadium", size, r, eta, 0.5 * junction, v2, S12));
  const TrajectoryResult at_cap = run_entry(entry_config("roll3:stadium", size, r, eta, cap, v2, S12));
  const TrajectoryResult turned = run_entry(entry_config("roll3:stadium", size, r, eta, cap + 0.5, v2, S12));
  for (const TrajectoryResult* x : {&flat, &at_cap, &turned}) ASSERT_EQ(x->status, Status::exited);
  EXPECT_GT(std::fabs(flat.exit_time - at_cap.exit_time), 1e-3);
  EXPECT_NEAR(at_cap.exit_time, turned.exit_time, kSameModel);
  EXPECT_NEAR(at_cap.exit_arc, turned.exit_arc, kSameModel);
  EXPECT_EQ(at_cap.exit_side, turned.exit_side);
}

// ---- the strip: the general integrator against roll3:strip's closed form ----
// roll3:strip solves the strip's passages exactly per segment (Section 4.1); the general model
// integrates the same equations on the strip table. Its start (x1, height z, speed v1 along the
// stadium, E1 = -e1 on the + sheet, so u.x = -v1; vertical v2; spin s) is the face start
// p = (x1, z), u = (-v1, v2), S12 = s. Heights are compared at the end (z_min/z_max are sampled
// differently: exact extrema per segment there, at the integrator's steps here).
TEST(RollTables, GeneralIntegratorOnTheStripIsTheClosedFormRoll3Strip) {
  struct Start {
    double x1, v1, v2, spin, g;
  };
  for (const Start& k : {Start{0.1, 0.7, 0.4, 0.3, 1.0}, Start{-0.3, -1.2, -0.5, -0.8, 2.0}, Start{0.0, 0.5, 1.5, 1.1, 0.0}}) {
    const json cfg = {{"system", "roll3:strip"},
                      {"parameters", {{"L", 1.0}, {"r", 0.3}, {"eta", 0.5}, {"g_effective", k.g}}},
                      {"initial", {{"start", "plate"}, {"x1", k.x1}, {"z", 0.0}, {"v1", k.v1}, {"v2", k.v2}, {"spin", k.spin}}},
                      {"stop", {{"t_max", 20.0}}}};
    TrajectoryResult closed;
    run<Log2>(cfg, &closed);
    PlateState s{};
    s.sheet = 1;
    s.p = {k.x1, 0.0};
    s.u = {-k.v1, k.v2};
    s.A12 = k.spin;
    NoRows none;
    const RollOptions opt{20.0, 1000000, 1e-6, 2.0, 1e-13, 1e-13, 100000000};
    const TrajectoryResult general = run_table_roll(table_wall<6>(StripTable{1.0}), RollModel{0.3, 0.5, k.g, physical_gravity(k.g, 0.5)}, s, opt, none);
    ASSERT_EQ(closed.status, Status::finished);
    ASSERT_EQ(general.status, Status::finished);
    EXPECT_GT(closed.events, 4u);
    EXPECT_EQ(general.events, closed.events) << "start x1 " << k.x1;
    EXPECT_NEAR(general.z_final, closed.z_final, kSameModel) << "start x1 " << k.x1;
  }
}

// ---- config ----
TEST(RollTables, SinaiBallLargerThanTheHoleIsRejected) {
  const TableCase& c = table_cases()[3];
  for (double r : {0.25, 0.3}) {
    try {
      testing::config_from(rolling_config("roll4:sinai", c, r, 0.5, c.start, 0.0, 1.0, true));
      ADD_FAILURE() << "r " << r << " accepted";
    } catch (const ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find("r < radius"), std::string::npos) << e.what();
    }
  }
  json cfg = rolling_config("roll3:sinai", c, 0.1, 0.5, c.start, 0.0, 1.0, false);
  cfg["parameters"]["g"] = 1.0;
  EXPECT_THROW(testing::config_from(cfg), ConfigError);
}

// A plate start exactly on the wall, moving out of the table, starts its edge passage at once:
// it runs as the start moved inwards by 1e-12 (which reaches the wall by a flight), where it
// had ended as an integrator failure (the flight solve rejects the root at t = 0).
TEST(RollTables, StartOnTheWallMovingOutPassesOverTheEdgeAtOnce) {
  constexpr double kInward = 1e-12;
  constexpr double kSameStart = 1e-8;  // that displacement, amplified over a few passages
  struct WallStart {
    const char* table;
    json size;
    double x1, x2, n1, n2;  // the wall point and its outward normal
  };
  const double c = std::cos(0.3), sn = std::sin(0.3);
  const std::vector<WallStart> starts = {
      {"disc", {{"R", 1.0}}, c, sn, c, sn},
      {"stadium", {{"half_length", 1.0}, {"R", 1.0}}, 1.0 + c, sn, c, sn},
      {"stadium", {{"half_length", 1.0}, {"R", 1.0}}, 0.4, 1.0, 0.0, 1.0},
      {"ellipse", {{"a", 2.0}, {"b", 1.0}}, 2.0, 0.0, 1.0, 0.0},
      {"polygon", {{"vertices", {{1.0, 0.0}, {0.0, 1.0}, {-1.0, 0.0}, {0.0, -1.0}}}}, 0.5, 0.5, std::sqrt(0.5),
       std::sqrt(0.5)}};
  for (const WallStart& w : starts)
    for (bool roll4 : {false, true}) {
      const std::string system = std::string(roll4 ? "roll4:" : "roll3:") + w.table;
      const TableCase tc{w.table, w.size, {}, 0.0, 0.0};
      // moving out along the normal and along the wall, with spin
      const double v1 = 0.6 * w.n1 - 0.5 * w.n2, v2 = 0.6 * w.n2 + 0.5 * w.n1;
      const FaceStart on{w.x1, w.x2, v1, v2, 0.3, 0.0, 0.2, 0.1, -0.2};
      FaceStart inside = on;
      inside.x1 -= kInward * w.n1;
      inside.x2 -= kInward * w.n2;
      TrajectoryResult a, b;
      run<Log3>(rolling_config(system, tc, 0.1, 0.5, on, roll4 ? 0.3 : 0.0, 4.0, roll4), &a);
      run<Log3>(rolling_config(system, tc, 0.1, 0.5, inside, roll4 ? 0.3 : 0.0, 4.0, roll4), &b);
      const std::string what = system + " from (" + std::to_string(w.x1) + ", " + std::to_string(w.x2) + ")";
      EXPECT_EQ(a.status, Status::finished) << what;
      EXPECT_EQ(b.status, Status::finished) << what;
      EXPECT_GE(a.events, 1u) << what;
      EXPECT_EQ(a.events, b.events) << what;
      EXPECT_NEAR(a.exit_time, b.exit_time, kSameStart) << what;
      EXPECT_NEAR(a.exit_arc, b.exit_arc, kSameStart) << what;
      EXPECT_NEAR(a.z_final, b.z_final, kSameStart) << what;
    }
}

TEST(RollTables, StartOffThePlateIsMasked) {
  for (const TableCase& c : table_cases()) {
    FaceStart s = c.start;
    if (c.table == "sinai") s.x1 = 0.1, s.x2 = 0.0;  // inside the hole
    else s.x1 = 5.0;
    TrajectoryResult res;
    run<Log3>(rolling_config("roll3:" + c.table, c, 0.05, 0.5, s, c.g, 1.0, false), &res);
    EXPECT_EQ(res.status, Status::masked) << c.table;
  }
}

}  // namespace
}  // namespace skipstone
