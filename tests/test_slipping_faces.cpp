// Slip on the flat faces of the rolling tables (include/skipstone/rolling/slipping_face.hpp and
// noisy_passages.hpp): the face equations (the rolling part w = v - eta^2 u flies as without
// slip, the centre moves at w + eta^2 u, the spins stay) against an independent Newton-Euler
// integration of a 3D and a 4D ball on a plane with a prescribed smooth slip; the slip's turn
// between the plate's and the frame's coordinates against the junction maps of the velocity; the
// face flight's observed strong order; through whole runs with one Brownian path, the centre's
// velocity continuous across every junction (the slip carried over, not drawn afresh), the
// entry points on the wall, and the observed strong order over many junctions.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <type_traits>
#include <vector>

#include <nlohmann/json.hpp>

#include "config_error.hpp"
#include "skipstone/rolling/noisy_disc.hpp"
#include "skipstone/rolling/noisy_table.hpp"
#include "skipstone/simulate.hpp"
#include "strong_order.hpp"
#include "test_support.hpp"

namespace skipstone {
namespace {

using testing::config_from;
using testing::kDesignStrongOrder;
using testing::kOrderSlack;
using testing::observed_strong_order;

// Newton-Euler (RK4 at dt = 1e-3 over t = 3) against the face equations: round-off and RK4's
// O(dt^4) error
constexpr double kNewtonEulerTolerance = 1e-9;
// the slip's turn between the coordinates: round-off
constexpr double kTurnTolerance = 1e-14;
// the centre's velocity on the two sides of a junction (one-sided difference quotients over
// the steps next to it, noise_dt 1e-4, sigma 0.3, tau 0.2, eta^2 = 0.25): one step's change of
// eta^2 u and of the edge's rates, ~3e-3; slip drawn afresh at a junction changes it by
// eta^2 |u_new - u_old| ~ 0.1
constexpr double kJunctionVelocityTolerance = 2e-2;
// an entry point on the disc's circle: round-off of the line's crossing
constexpr double kOnWallTolerance = 1e-12;

// ---------------------------------------------------------------------------------------------
// A ball of unit mass, radius r and moment of inertia I = (r gamma)^2 on the plane x_D = 0 of
// R^D (D = 3, 4; normal nu = e_D), its contact point slipping at the prescribed tangent velocity
// u(t): state (x, v, Omega), Omega the D x D skew spin (a body point at offset a from the centre
// moves at v + Omega a). Newton: v' = F + g; the torque of F at a = -r nu: I Omega' = F a^T - a F^T.
// The contact force F is solved at every stage from the constraint's derivative,
// v' - r Omega' nu = u', as a D x D linear system assembled from the two laws above.
template <int D>
struct BallOnPlane {
  using Vec = Eigen::Matrix<double, D, 1>;
  using Mat = Eigen::Matrix<double, D, D>;
  double r = 0.3, gamma = std::sqrt(0.4);  // a solid 3D ball's gamma
  Vec g = Vec::Zero();                      // gravity, in the plane
  double inertia() const { return r * r * gamma * gamma; }
  static Vec nu() { return Vec::Unit(D - 1); }
  // a smooth tangent slip (no normal component; roll4's has none along the axis either), its
  // rate and its integral from 0
  static Vec u(double t) { return slip(0.4 * std::sin(2.0 * t), 0.3 * std::cos(3.0 * t) - 0.1); }
  static Vec du(double t) { return slip(0.8 * std::cos(2.0 * t), -0.9 * std::sin(3.0 * t)); }
  static Vec int_u(double t) { return slip(0.2 * (1.0 - std::cos(2.0 * t)), 0.1 * std::sin(3.0 * t) - 0.1 * t); }
  static Vec slip(double a, double b) {
    Vec u = Vec::Zero();
    u(0) = a;
    u(1) = b;
    return u;
  }

  Mat spin_rate(const Vec& F) const {
    const Vec a = -r * nu();
    return (F * a.transpose() - a * F.transpose()) / inertia();
  }
  Vec force(double t) const {
    Mat M;
    for (int k = 0; k < D; ++k) {
      const Vec F = Vec::Unit(k);
      M.col(k) = F - r * spin_rate(F) * nu();  // the constraint's derivative as a map of F
    }
    return M.fullPivLu().solve(du(t) - g);  // v' = F + g contributes g to it
  }
};

template <int D>
void check_newton_euler() {
  using Ball = BallOnPlane<D>;
  using Vec = typename Ball::Vec;
  using Mat = typename Ball::Mat;
  Ball b;
  b.g(D == 3 ? 1 : 2) = -0.7;  // roll3: in-plane gravity along -y; roll4: along -x3 (in the face)
  // start: centre velocity v0 in the plane; spin = a free part in the plane's directions plus
  // the part the constraint fixes, -r Omega nu = u(0) - v0
  Vec x = Vec::Zero(), v = Vec::Zero();
  v(0) = 0.9;
  v(1) = -0.4;
  if (D == 4) v(2) = 0.5;
  Mat Omega = Mat::Zero();
  Omega(0, 1) = 0.6, Omega(1, 0) = -0.6;
  if (D == 4) Omega(0, 2) = -0.2, Omega(2, 0) = 0.2, Omega(1, 2) = 0.35, Omega(2, 1) = -0.35;
  const Mat free_spin = Omega;
  const Vec c = Ball::u(0.0) - v, nu = Ball::nu();
  Omega += (nu * c.transpose() - c * nu.transpose()) / b.r;
  ASSERT_LT((v - b.r * Omega * nu - Ball::u(0.0)).norm(), 1e-15);
  const Vec x0 = x, v0 = v;

  const double dt = 1e-3, T = 3.0;
  // on a plane the force depends on time alone (through u'), not on the state
  const auto rates = [&](double t, Vec& dv, Mat& dO) {
    const Vec F = b.force(t);
    dv = F + b.g;
    dO = b.spin_rate(F);
  };
  for (int k = 0; k < 3000; ++k) {
    const double t = k * dt;
    Vec k1v, k2v, k3v, k4v;
    Mat k1O, k2O, k3O, k4O;
    rates(t, k1v, k1O);
    rates(t + 0.5 * dt, k2v, k2O);
    rates(t + 0.5 * dt, k3v, k3O);
    rates(t + dt, k4v, k4O);
    x += dt / 6.0 * (v + 2 * (v + 0.5 * dt * k1v) + 2 * (v + 0.5 * dt * k2v) + (v + dt * k3v));
    v += dt / 6.0 * (k1v + 2 * k2v + 2 * k3v + k4v);
    Omega += dt / 6.0 * (k1O + 2 * k2O + 2 * k3O + k4O);
  }
  // the face equations: w = v - eta^2 u flies under G = g / (1 + gamma^2); x' = w + eta^2 u
  const double eta2 = b.gamma * b.gamma / (1.0 + b.gamma * b.gamma);
  const Vec G = b.g / (1.0 + b.gamma * b.gamma);
  const Vec w0 = v0 - eta2 * Ball::u(0.0);
  const Vec w_face = w0 + G * T;
  const Vec x_face = x0 + w0 * T + 0.5 * G * T * T + eta2 * Ball::int_u(T);
  const double dw = (v - eta2 * Ball::u(T) - w_face).norm(), dx = (x - x_face).norm();
  const double dspin = (Omega.template topLeftCorner<D - 1, D - 1>() - free_spin.template topLeftCorner<D - 1, D - 1>()).norm();
  std::printf("D = %d: |w - w_face| %.2e, |x - x_face| %.2e, |free spin change| %.2e (v moved by %.3f)\n", D, dw, dx,
              dspin, (v - v0).norm());
  EXPECT_LT(dw, kNewtonEulerTolerance) << "D = " << D;
  EXPECT_LT(dx, kNewtonEulerTolerance) << "D = " << D;
  EXPECT_LT(dspin, kNewtonEulerTolerance) << "D = " << D;
  EXPECT_GT((x - (x0 + w0 * T + 0.5 * G * T * T)).norm(), 1e-2) << "the slip must move the centre";
}

TEST(SlippingFaces, NewtonEulerWithASlippingContactMovesTheCentreAtTheRollingPartPlusEtaSquaredTimesTheSlip) {
  check_newton_euler<3>();
  check_newton_euler<4>();
}

// ---------------------------------------------------------------------------------------------
TEST(SlippingFaces, TheSlipTurnsBetweenPlateAndFrameAsTheVelocityDoes) {
  std::mt19937_64 gen(7);
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  double worst = 0.0;
  for (int k = 0; k < 200; ++k) {
    const double a = 3.2 * U(gen);
    const Vec2 e1{std::cos(a), std::sin(a)}, e2{-std::sin(a), std::cos(a)};
    PlateState s{};
    s.sheet = k % 2 == 0 ? 1 : -1;
    s.u = Vec2{U(gen), U(gen)};
    double y[10];
    plate_to_edge<10>(s, e1, e2, 0.0, y);
    const NoiseStart plate{true, {s.u.x, s.u.y}, 3, 0.2, {U(gen), U(gen), U(gen)}};
    const NoiseStart frame = slip_across_junction(plate, s.sheet, e1, e2, true);
    const PlateState back = edge_to_plate<10>(y, Vec2{0.0, 0.0}, e1, e2);
    const NoiseStart again = slip_across_junction(frame, s.sheet, e1, e2, false);
    for (int i = 0; i < 2; ++i) {
      worst = std::max({worst, std::fabs(frame.n[i] - y[i]), std::fabs(again.n[i] - plate.n[i])});
      EXPECT_EQ(frame.rest_dW[i], plate.rest_dW[i]) << "the driving increments are the plate's on both sides";
    }
    worst = std::max({worst, std::fabs(again.n[0] - back.u.x), std::fabs(again.n[1] - back.u.y)});
    EXPECT_EQ(frame.step, 3u);
    EXPECT_EQ(frame.rest_h, 0.2);
  }
  EXPECT_LT(worst, kTurnTolerance);
}

// ---------------------------------------------------------------------------------------------
// A roll3 face flight on a disc so large that the centre stays on the face up to t = 1, under
// in-plane gravity: (centre, slip) at t = 1 at steps h against h / 16 ... on the same Brownian
// path.
// The options of the face flights run directly below: no energy stop (slip), steps enough.
RollOptions flight_options(double t_max) {
  RollOptions opt{};
  opt.t_max = t_max;
  opt.max_events = 10;
  opt.energy_tolerance = INFINITY;
  opt.bounded_depth = INFINITY;
  opt.max_steps = 100000000;
  return opt;
}

struct FaceEnd {
  Vec2 p;
  double n[2];
};
FaceEnd face_flight_end(double h, std::uint32_t m, std::uint64_t key) {
  const OuNoise ou{0.5, 0.2, kNoiseSlip};
  TableRollRun<TableWall<DiscTable, 6>> run;
  const RollOptions opt = flight_options(1.0);
  PlateState s{};
  s.sheet = 1;
  s.p = Vec2{0.1, -0.2};
  s.u = Vec2{0.6, 0.4};
  s.A12 = 0.3;
  DiscardSink sink;
  run.start(table_wall<6>(DiscTable(100.0)), RollModel{0.2, 0.6, 0.4, 0.5}, s, opt, sink);
  const CounterNoise noise{key, m};
  NoiseStart carry{true, {0.5 * noise.initial(0), 0.5 * noise.initial(1)}, 0, 0.0, {0.0, 0.0}};
  double y[6];
  EXPECT_FALSE(fly_slipping(run, sink, ou, noise, h, carry, Vec2{0.0, 0.0}, y));
  EXPECT_EQ(run.status, Status::finished);
  return {run.s.p, {carry.n[0], carry.n[1]}};
}

TEST(SlippingFaces, ObservedStrongOrderOfTheFaceFlightIsTheDesignOrder) {
  const double h_finest = 1.0 / 320.0, h_ref = h_finest / 16.0;
  const double order = observed_strong_order(1.0 / 40.0, h_finest, "face flight", [&](double h) {
    const auto m = static_cast<std::uint32_t>(std::lround(h / h_ref));
    double sum = 0.0;
    for (std::uint64_t path = 0; path < 64; ++path) {
      const std::uint64_t key = noise_key(11, path, 0);
      const FaceEnd a = face_flight_end(h, m, key), ref = face_flight_end(h_ref, 1, key);
      sum += dot(a.p - ref.p, a.p - ref.p) + std::pow(a.n[0] - ref.n[0], 2) + std::pow(a.n[1] - ref.n[1], 2);
    }
    return std::sqrt(sum / 64.0);
  });
  EXPECT_NEAR(order, kDesignStrongOrder, kOrderSlack);
}

// A flight that starts on the rim moving inward while the slip carries the centre outward faster
// (a grazing exit the slip turns round): its first step ends off the plate, so the ball re-enters
// the edge at the point it left, once the step's Hermite curve of the centre's distance along
// the normal is back at zero: inside the step, not at its start (a zero-length flight would hand
// the passage the same step again and again).
TEST(SlippingFaces, AGrazingExitTurnedRoundByTheSlipReentersWhereItLeft) {
  const double R = 1.0, h = 1e-3;
  DiscRollRun run;
  const RollOptions opt = flight_options(10.0);
  PlateState s{};
  s.sheet = 1;
  const Vec2 normal{std::cos(0.3), std::sin(0.3)};
  s.p = R * normal;                                        // on the rim
  s.u = -1e-4 * normal + 0.5 * Vec2{-normal.y, normal.x};  // rolling part: inward, grazing
  DiscardSink sink;
  run.start(DiscWall<double>{R, 0.0, false}, RollModel{0.2, 0.5, 0.0, 0.0}, s, opt, sink);
  ASSERT_TRUE(run.wall.on_wall());
  // no slip at the start; the rest of a cut step whose Brownian increment drives the slip outward
  // (sigma 0.5, tau 0.2: u gains ~0.032 along the normal, eta^2 u ~ 0.008 > 1e-4)
  const OuNoise ou{0.5, 0.2, kNoiseSlip};
  NoiseStart carry{true, {0.0, 0.0}, 0, h, {0.02 * normal.x, 0.02 * normal.y, 0.0}};
  double y[10];
  ASSERT_TRUE(fly_slipping(run, sink, ou, CounterNoise{1}, h, carry, normal, y));
  std::printf("re-entered at t = %.3e (of the step's %.0e)\n", run.t, h);
  EXPECT_GT(run.t, 0.01 * h);  // the centre's distance comes back to zero near 0.025 h
  EXPECT_LT(run.t, 0.1 * h);
  EXPECT_EQ(run.s.p.x, s.p.x);
  EXPECT_EQ(run.s.p.y, s.p.y);
  EXPECT_EQ(run.steps, 1u);
  EXPECT_EQ(carry.step, 0u) << "the rest of step 0 goes on into the passage";
  EXPECT_NEAR(carry.rest_h, h - run.t, 1e-15);
  EXPECT_GT(y[0] + 0.25 * slip_at_edge(carry, run, y, true).n[0], 0.0) << "the centre moves onto the edge";
}

// ---------------------------------------------------------------------------------------------
// Whole runs: a recorder of the trace rows (time and centre).
struct CentreRows {
  std::vector<double> t;
  std::vector<Vec3> x;
  template <class V, class S>
  void on_event(double time, V centre, const S&, V) {
    if constexpr (std::is_same_v<V, Vec3>) {  // the rolling tables' rows
      t.push_back(time);
      x.push_back(centre);
    }
  }
  template <class T>
  void on_step(T, const T*) {}
};

const char* kSlipDisc = R"({"system": "roll4:disc",
    "parameters": {"R": 1.0, "r": 0.2, "eta": 0.5, "g_effective": 0.3, "noise": 1, "noise_sigma": 0.3,
                   "noise_tau": 0.2, "noise_dt": 1e-4},
    "initial": {"start": "plate", "x1": -0.4, "x2": 0.1, "z": 0.0, "v1": 0.8, "v2": 0.5, "S12": 0.4},
    "scan": {"type": "grid", "axes": [{"param": "realisation", "min": 0, "max": 3, "n": 4}]},
    "stop": {"t_max": 8.0}})";

// Along the rows of one roll4:disc run: the one-sided velocities of the centre in the plate at
// every junction (a row on the circle |x| = R between a face row inside and an edge row
// outside), their largest difference, the number of junctions and the largest distance of an
// entry row from the circle.
struct Junctions {
  int count = 0;
  double velocity_jump = 0.0, off_wall = 0.0;
};
Junctions junctions_of(const CentreRows& rows, double R) {
  Junctions j;
  const auto radius = [&](std::size_t k) { return std::hypot(rows.x[k].x, rows.x[k].y); };
  for (std::size_t k = 1; k + 1 < rows.t.size(); ++k) {
    // a junction row: a face row strictly inside before it and an edge row strictly outside after
    // it, or the other way round (the row next to a junction row lies on the wall itself)
    const double before = radius(k - 1) - R, after = radius(k + 1) - R, margin = 1e-9;
    if (!((before < -margin && after > margin) || (before > margin && after < -margin))) continue;
    const double d0 = rows.t[k] - rows.t[k - 1], d1 = rows.t[k + 1] - rows.t[k];
    if (!(d0 > 1e-7 && d1 > 1e-7)) continue;  // a step cut to a sliver: its quotient is round-off
    ++j.count;
    const double vx0 = (rows.x[k].x - rows.x[k - 1].x) / d0, vy0 = (rows.x[k].y - rows.x[k - 1].y) / d0;
    const double vx1 = (rows.x[k + 1].x - rows.x[k].x) / d1, vy1 = (rows.x[k + 1].y - rows.x[k].y) / d1;
    j.velocity_jump = std::max(j.velocity_jump, std::hypot(vx1 - vx0, vy1 - vy0));
    j.off_wall = std::max(j.off_wall, std::fabs(radius(k) - R));
  }
  return j;
}

TEST(SlippingFaces, TheCentresVelocityIsContinuousAcrossEveryJunctionAndEntriesLieOnTheWall) {
  const RunConfig rc = config_from(nlohmann::json::parse(kSlipDisc));
  Junctions all;
  for (std::uint64_t i = 0; i < rc.spec.count; ++i) {
    CentreRows rows;
    const TrajectoryResult res = simulate_trajectory(rc.spec, i, rows);
    EXPECT_EQ(res.status, Status::finished) << "realisation " << i;
    EXPECT_GE(res.events, 3u) << "realisation " << i;
    const Junctions j = junctions_of(rows, 1.0);
    all.count += j.count;
    all.velocity_jump = std::max(all.velocity_jump, j.velocity_jump);
    all.off_wall = std::max(all.off_wall, j.off_wall);
  }
  std::printf("%d junctions: largest change of the centre's velocity across one %.2e, largest distance of a "
              "junction row from the wall %.2e\n",
              all.count, all.velocity_jump, all.off_wall);
  EXPECT_GE(all.count, 12);
  EXPECT_LT(all.velocity_jump, kJunctionVelocityTolerance);
  EXPECT_LT(all.off_wall, kOnWallTolerance);
}

// The end of a whole roll4:disc run (faces and passages, 2 to 3 junction pairs) at steps h
// against h / 16 on the same Brownian path: the centre at t_max. (Were the junction's cut step
// driven by the frame's components on one side and the plate's on the other, the path inside
// it would differ between the step sizes by a Brownian bridge, O(sqrt(h)): order 0.42.)
TEST(SlippingFaces, ObservedStrongOrderThroughJunctionsIsTheDesignOrder) {
  constexpr int kPaths = 32;
  nlohmann::json c = nlohmann::json::parse(kSlipDisc);
  c["stop"]["t_max"] = 7.0;
  c["scan"]["axes"][0]["n"] = 1;
  const double h_finest = 1.0 / 1280.0, h_ref = h_finest / 16.0;
  c["parameters"]["noise_dt"] = h_ref;
  const RunConfig fine = config_from(c);
  std::vector<Vec3> ref(kPaths);
  int passages = 0;
  for (int path = 0; path < kPaths; ++path) {
    CentreRows b;
    const TrajectoryResult rb =
        noisy_roll4_disc_run(fine.spec, scan_point(fine.spec, 0), CounterNoise{noise_key(5, path, 0), 1}, b);
    EXPECT_EQ(rb.status, Status::finished);
    passages += static_cast<int>(rb.events);
    ref[path] = b.x.back();
  }
  std::printf("%d passages over the %d reference paths\n", passages, kPaths);
  EXPECT_GE(passages, 2 * kPaths);
  const double order = observed_strong_order(1.0 / 160.0, h_finest, "roll4:disc through junctions", [&](double h) {
    c["parameters"]["noise_dt"] = h;
    const RunConfig coarse = config_from(c);
    const auto m = static_cast<std::uint32_t>(std::lround(h / h_ref));
    double sum = 0.0;
    for (int path = 0; path < kPaths; ++path) {
      CentreRows a;
      const TrajectoryResult ra =
          noisy_roll4_disc_run(coarse.spec, scan_point(coarse.spec, 0), CounterNoise{noise_key(5, path, 0), m}, a);
      EXPECT_EQ(ra.status, Status::finished);
      const Vec3 d = a.x.back() - ref[path];
      sum += dot(d, d);
    }
    return std::sqrt(sum / kPaths);
  });
  EXPECT_NEAR(order, kDesignStrongOrder, kOrderSlack);
}

}  // namespace
}  // namespace skipstone
