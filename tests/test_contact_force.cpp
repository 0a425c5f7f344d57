// The contact force of the surface on a rolling ball (rolling/contact_force.hpp; observables
// normal_force_min, friction_ratio_max, detach_time, slip_time): N and |f| at the integrator's
// step points against second differences of the traced centre (roll3:stadium, roll3:ellipse,
// roll3:sinai, roll3:polygon, roll4:disc, roll4:stadium, roll4:sinai, roll3:inside-cylinder),
// the closed forms of the inside cylinder, N = 0 on the flat parts, N < 0
// on every edge passage of a gravity-free plate equal to -v1^2/r - v2^2 sin(phi)/(R + r sin(phi)),
// slip_time monotone in mu_s, and the other observables unchanged when the group is asked for;
// the same for rubber balls (no_twist).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <string>
#include <type_traits>
#include <vector>

#include "backends.hpp"

#include "config.hpp"
#include "skipstone/simulate.hpp"

namespace {

using namespace skipstone;

// Step of the second differences: their truncation error h^2 x''''/12 and the samples'
// integration error (rtol 1e-12) / h^2 both stay below 1e-4 of the force's scale v^2/r.
constexpr double kH = 2e-4;
constexpr double kFiniteDifference = 1e-4;  // relative to max(1, |N|)
// Closed forms against the observables: round-off of a few operations on O(10) values.
constexpr double kClosedForm = 1e-12;
// The stepped passage's normal force against the formula from the sampled row state.
constexpr double kFormula = 1e-9;

struct ContactSample {
  double t, n, f;
};

// Records every contact sample, and rows at the sample times it is given (nondecreasing).
struct Recorder {
  std::vector<ContactSample> contact = {};
  std::vector<double> times = {};
  std::size_t next = 0;
  std::vector<DiscRow> rows = {};
  void on_contact(double t, double n, double f) { contact.push_back({t, n, f}); }
  double next_sample() const { return next < times.size() ? times[next] : INFINITY; }
  template <class V, class S>
  void on_sample(double, V x, const S& s, V nu) {  // 3D rows only (the systems tested here)
    if constexpr (std::is_same_v<V, Vec3>) rows.push_back({x, s, nu});
    ++next;
  }
  template <class V, class S>
  void on_event(double, V, const S&, V) {}
  template <class T>
  void on_step(T, const T*) {}
};

std::string rolling_config(const std::string& system, const std::string& parameters, const std::string& initial,
                           double t_max) {
  return R"({"system": ")" + system + R"(", "parameters": {)" + parameters + R"(}, "initial": {)" + initial +
         R"(}, "stop": {"t_max": )" + std::to_string(t_max) +
         R"(}, "options": {"rtol": 1e-12, "atol": 1e-12}, "observables": ["status", "events", "z_min", "normal_force_min", "friction_ratio_max", "detach_time", "slip_time"]})";
}

const std::string kStadium = rolling_config("roll3:stadium", R"("half_length": 1.0, "R": 1.0, "r": 0.1, "eta": 0.5, "g": 1.0)",
                                            R"("start": "plate", "x1": 0.5, "x2": 0.3, "v1": 1.0, "v2": 1.4, "S12": -0.6)", 6.0);
const std::string kDisc = rolling_config("roll4:disc", R"("R": 1.0, "r": 0.1, "eta": 0.5, "g_effective": 1.0)",
                                         R"("start": "plate", "x1": 0.5, "v1": -0.8, "v2": 1.0, "v3": 0.2, "S12": 0.61, "S23": -1.0)", 6.0);
const std::string kDiscFree = rolling_config("roll4:disc", R"("R": 1.0, "r": 0.1, "eta": 0.5)",
                                             R"("start": "plate", "x1": 0.5, "v1": -0.8, "v2": 1.0, "v3": 0.2, "S12": 0.61, "S23": -1.0)", 6.0);

// Samples whose time no other sample has: inside a flat part or a passage, not at a junction or
// a break, where the force jumps.
std::vector<ContactSample> interior_samples(const std::vector<ContactSample>& all, double t_max) {
  std::vector<ContactSample> out;
  for (std::size_t i = 0; i < all.size(); ++i) {
    const bool before = i > 0 && all[i - 1].t == all[i].t, after = i + 1 < all.size() && all[i + 1].t == all[i].t;
    if (!before && !after && all[i].t > kH && all[i].t < t_max - kH) out.push_back(all[i]);
  }
  return out;
}

Vec3 second_difference(const DiscRow& a, const DiscRow& b, const DiscRow& c) {
  return (1.0 / (kH * kH)) * (a.x + (-2.0) * b.x + c.x);
}

bool on_edge(const DiscRow& r) { return r.nu.x != 0.0 || r.nu.y != 0.0; }

// N and |f| at every interior sample against (x'' - g) of the traced centre, x'' by second
// differences of rows at t - h, t, t + h. roll3: the rows are the centre in R^3 (plate z = 0,
// gravity -g e_y). roll4: the rows drop x4 = r cos(phi); its sign comes from d sin(phi)/dt =
// cos(phi) v1 / r, so samples with |cos(phi)| < 0.3 (where a sign flip within 2h is possible) are
// left out.
void check_against_differences(const std::string& text, int n_dim, int* edge_count) {
  const RunConfig rc = parse_config_text(text);
  const double g = rc.spec.params[P_G] + rc.spec.params[P_G_EFF] / (1.0 - 0.25);  // eta = 0.5
  const double r = rc.spec.params[P_BALL_R];
  Recorder first;
  const TrajectoryResult res = simulate_trajectory(rc.spec, 0, first);
  ASSERT_EQ(res.status, Status::finished);
  std::vector<ContactSample> pts = interior_samples(first.contact, rc.spec.t_max);
  // the middle of every flat part (its two ends sampled with N = 0), where N must be 0 too
  for (std::size_t i = 0; i + 1 < first.contact.size(); ++i) {
    const ContactSample &a = first.contact[i], &b = first.contact[i + 1];
    if (a.n == 0.0 && b.n == 0.0 && b.t - a.t > 4.0 * kH && b.t < rc.spec.t_max - kH)
      pts.push_back({0.5 * (a.t + b.t), 0.0, a.f});
  }
  std::sort(pts.begin(), pts.end(), [](const ContactSample& a, const ContactSample& b) { return a.t < b.t; });
  Recorder second;
  for (const ContactSample& c : pts)
    for (double d : {-kH, 0.0, kH}) second.times.push_back(c.t + d);
  simulate_trajectory(rc.spec, 0, second);
  ASSERT_EQ(second.rows.size(), second.times.size());
  double worst = 0.0;
  int edges = 0, flats = 0;
  for (std::size_t i = 0; i < pts.size(); ++i) {
    const DiscRow &a = second.rows[3 * i], &b = second.rows[3 * i + 1], &c = second.rows[3 * i + 2];
    if (on_edge(a) != on_edge(b) || on_edge(b) != on_edge(c)) continue;
    const Vec3 acc = second_difference(a, b, c);
    double n, f;
    if (n_dim == 3) {
      const Vec3 F = {acc.x, acc.y + g, acc.z};
      n = dot(F, b.nu);
      const Vec3 t = F + (-n) * b.nu;
      f = std::sqrt(dot(t, t));
    } else {
      double s[3], x4[3];
      const DiscRow* rows[3] = {&a, &b, &c};
      for (int k = 0; k < 3; ++k) s[k] = std::sqrt(rows[k]->nu.x * rows[k]->nu.x + rows[k]->nu.y * rows[k]->nu.y);
      double sign = 1.0;
      if (on_edge(b)) {
        const double cos_abs = std::sqrt(std::max(0.0, 1.0 - s[1] * s[1]));
        if (cos_abs < 0.3) continue;
        sign = (s[2] - s[0]) * b.state.u.x > 0.0 ? 1.0 : -1.0;
      }  // on a flat part x4 is constant: no part of x
      for (int k = 0; k < 3; ++k) x4[k] = sign * r * std::sqrt(std::max(0.0, 1.0 - s[k] * s[k]));
      const double a4 = on_edge(b) ? (x4[0] - 2.0 * x4[1] + x4[2]) / (kH * kH) : 0.0;
      const double nu4 = on_edge(b) ? x4[1] / r : 1.0;
      const double F[4] = {acc.x, acc.y, acc.z + g, a4};
      const double nu[4] = {b.nu.x, b.nu.y, 0.0, nu4};
      n = 0.0;
      for (int k = 0; k < 4; ++k) n += F[k] * nu[k];
      double t2 = 0.0;
      for (int k = 0; k < 4; ++k) t2 += (F[k] - n * nu[k]) * (F[k] - n * nu[k]);
      f = std::sqrt(t2);
    }
    const double scale = std::max(1.0, std::fabs(pts[i].n));
    worst = std::max({worst, std::fabs(n - pts[i].n) / scale, std::fabs(f - pts[i].f) / scale});
    EXPECT_NEAR(n, pts[i].n, kFiniteDifference * scale) << text << " t " << pts[i].t;
    EXPECT_NEAR(f, pts[i].f, kFiniteDifference * scale) << text << " t " << pts[i].t;
    if (on_edge(b)) {
      ++edges;
    } else {
      ++flats;
      EXPECT_NEAR(n, 0.0, kFiniteDifference) << "a flat part, t " << pts[i].t;
    }
  }
  std::cout << rc.system.name << ": " << edges << " step points on edges, " << flats
            << " on flats; worst |difference| / max(1, |N|) = " << worst << "\n";
  EXPECT_GT(edges, 20);
  EXPECT_GT(flats, 2);
  *edge_count = edges;
}

TEST(ContactForce, Roll3StadiumAgreesWithSecondDifferencesOfTheCentre) {
  int edges = 0;
  check_against_differences(kStadium, 3, &edges);
}

TEST(ContactForce, Roll4DiscAgreesWithSecondDifferencesOfTheCentre) {
  int edges = 0;
  check_against_differences(kDisc, 4, &edges);
}

// The other tables' walls: an ellipse (curvature varying along the wall), the Sinai table's
// scatterer (kappa > 0: the ball running round the hole), a polygon's vertex spheres, and roll4
// over a stadium and a Sinai table.
TEST(ContactForce, OtherTablesAgreeWithSecondDifferencesOfTheCentre) {
  const std::string ball3 = R"(, "r": 0.1, "eta": 0.5, "g": 1.0)", ball4 = R"(, "r": 0.1, "eta": 0.5, "g_effective": 1.0)";
  const std::string plate3 = R"("start": "plate", "x1": 0.4, "x2": 0.1, "v1": 1.0, "v2": 1.4, "S12": -0.6)";
  const std::string plate4 = R"("start": "plate", "x1": 0.4, "x2": 0.1, "v1": -0.8, "v2": 1.0, "v3": 0.2, "S12": 0.61, "S23": -1.0)";
  const struct {
    std::string system, parameters;
    int n_dim;
    double t_max;
  } cases[] = {
      {"roll3:ellipse", R"("a": 2.0, "b": 1.0)" + ball3, 3, 6.0},
      {"roll3:sinai", R"("side": 1.0, "radius": 0.3, "r": 0.1, "eta": 0.5)", 3, 20.0},  // a torus: no gravity
      {"roll3:polygon", R"("vertices": [[1, 0], [0.3, 0.95], [-0.8, 0.6], [-0.8, -0.6], [0.3, -0.95]])" + ball3, 3, 6.0},
      {"roll4:stadium", R"("half_length": 0.5, "R": 1.0)" + ball4, 4, 10.0},
      {"roll4:sinai", R"("side": 1.0, "radius": 0.3)" + ball4, 4, 20.0}};
  for (const auto& c : cases) {
    int edges = 0;
    check_against_differences(rolling_config(c.system, c.parameters, c.n_dim == 3 ? plate3 : plate4, c.t_max), c.n_dim,
                              &edges);
  }
}

// roll3:strip and roll4:planes: the centre runs round each half-circle at the constant speed
// |v1| (the start's speed across the strip), so N = -v1^2 / r there and 0 on the flat parts: the
// plate pulls from the first half-circle on.
TEST(ContactForce, StripAndPlanesPullByV1SquaredOverR) {
  for (const std::string& text :
       {rolling_config("roll3:strip", R"("L": 1.0, "r": 0.3, "eta": 0.5, "g": 1.0)", R"("start": "plate", "v1": 1.0, "v2": 0.5, "spin": 0.3)", 9.0),
        rolling_config("roll4:planes", R"("L": 1.0, "r": 0.3, "eta": 0.5, "g": 1.0)", R"("start": "plate", "v1": 1.0, "v2": 0.5, "v3": -1.0, "S13": -0.5)", 9.0)}) {
    const RunConfig rc = parse_config_text(text);
    DiscardSink none;
    const TrajectoryResult res = simulate_trajectory(rc.spec, 0, none);
    ASSERT_EQ(res.status, Status::finished) << rc.system.name;
    ASSERT_GT(res.events, 1u) << rc.system.name;
    EXPECT_NEAR(res.normal_force_min, -1.0 / 0.3, kClosedForm) << rc.system.name;
    EXPECT_EQ(res.friction_ratio_max, INFINITY) << rc.system.name;
    EXPECT_GT(res.detach_time, 0.0) << rc.system.name << ": the first half-circle, not the start";
    EXPECT_EQ(res.slip_time, 0.0) << rc.system.name << ": gravity in the plate";
  }
}

// A rubber ball (no_twist 1: eta 0 in the equations, the same effective gravity): the force
// subtracts the physical g, not the G / (1 - 0) the zero coupling would suggest, so a wrong g
// shows as |f| off by |g - G| on every flat part.
std::string rubber(std::string text) {
  const std::string eta = R"("eta": 0.5)";
  text.replace(text.find(eta), eta.size(), eta + R"(, "no_twist": 1)");
  const std::string t_max = R"("t_max": 6.000000)";  // longer: the rubber disc makes fewer steps
  text.replace(text.find(t_max), t_max.size(), R"("t_max": 9.0)");
  for (const char* spin : {R"(, "S12": -0.6)", R"(, "S12": 0.61, "S23": -1.0)"}) {
    const std::size_t at = text.find(spin);
    if (at != std::string::npos) text.erase(at, std::string(spin).size());
  }
  return text;
}

TEST(ContactForce, RubberBallsAgreeWithSecondDifferencesOfTheCentre) {
  int edges = 0;
  check_against_differences(rubber(kStadium), 3, &edges);
  check_against_differences(rubber(kDisc), 4, &edges);
  // Inside the cylinder the rubber ball's centre runs along a helix of radius rho = R - r and
  // falls at G = g (1 - eta^2): N = v1^2 / rho and the friction is the vertical g - G = g eta^2
  // (0 if the force subtracted G / (1 - 0) instead of g).
  const RunConfig rc = parse_config_text(rolling_config("roll3:inside-cylinder", R"("R": 1.0, "r": 0.2, "eta": 0.5, "g": 1.0, "no_twist": 1)",
                                                        R"("start": "wall", "v1": 0.7, "v2": 0.3)", 12.0));
  DiscardSink none;
  const TrajectoryResult res = simulate_trajectory(rc.spec, 0, none);
  ASSERT_EQ(res.status, Status::finished);
  const double n = 0.7 * 0.7 / 0.8, friction = 0.25;
  EXPECT_NEAR(res.normal_force_min, n, kClosedForm);
  EXPECT_NEAR(res.friction_ratio_max, friction / n, kClosedForm);
  EXPECT_TRUE(std::isnan(res.detach_time));
}

// The extremes are those of the step points: normal_force_min against the least N of second
// differences on a grid 1000 times as fine as the steps (dt = 1e-3), roll3:stadium.
constexpr double kSamplingGap = 1e-2;  // relative; measured 5e-4 (printed)
TEST(ContactForce, StepPointExtremesAreCloseToAFineSampling) {
  const RunConfig rc = parse_config_text(kStadium);
  const double g = rc.spec.params[P_G];
  DiscardSink none;
  const TrajectoryResult res = simulate_trajectory(rc.spec, 0, none);
  Recorder fine;
  const double dt = 1e-3;
  for (int k = 1; k * dt < rc.spec.t_max - kH; ++k)
    for (double d : {-kH, 0.0, kH}) fine.times.push_back(k * dt + d);
  simulate_trajectory(rc.spec, 0, fine);
  ASSERT_EQ(fine.rows.size(), fine.times.size());
  double n_min = INFINITY;
  for (std::size_t i = 0; i + 2 < fine.rows.size(); i += 3) {
    const DiscRow &a = fine.rows[i], &b = fine.rows[i + 1], &c = fine.rows[i + 2];
    if (!on_edge(a) || !on_edge(b) || !on_edge(c)) continue;
    const Vec3 acc = second_difference(a, b, c);
    n_min = std::min(n_min, dot(Vec3{acc.x, acc.y + g, acc.z}, b.nu));
  }
  const double gap = (res.normal_force_min - n_min) / std::fabs(n_min);
  std::cout << "roll3:stadium normal_force_min: step points " << res.normal_force_min << ", dt = 1e-3 grid " << n_min
            << ", relative gap " << gap << "\n";
  EXPECT_GT(gap, -kFiniteDifference);  // the steps cannot go below the true least value
  EXPECT_LT(gap, kSamplingGap);
}

// Without gravity the plate pulls on every passage: N = -v1^2/r + f_s v2^2 with f_s = -sin(phi) /
// (R + r sin(phi)) from the row state (u = (v1, v2, v3), |nu| = sin(phi)), and N = 0 between.
// No finite friction coefficient holds a ball the plate pulls: friction_ratio_max is +inf.
TEST(ContactForce, GravityFreeDiscPullsOnEveryPassageByTheClosedForm) {
  const RunConfig rc = parse_config_text(kDiscFree);
  Recorder first;
  const TrajectoryResult res = simulate_trajectory(rc.spec, 0, first);
  ASSERT_EQ(res.status, Status::finished);
  ASSERT_GE(res.events, 3u);
  double n_min = INFINITY;
  for (const ContactSample& c : first.contact) n_min = std::min(n_min, c.n);
  const std::vector<ContactSample> pts = interior_samples(first.contact, rc.spec.t_max);
  Recorder second;
  for (const ContactSample& c : pts) second.times.push_back(c.t);
  simulate_trajectory(rc.spec, 0, second);
  ASSERT_EQ(second.rows.size(), pts.size());
  int pulled = 0;
  for (std::size_t i = 0; i < pts.size(); ++i) {
    const ContactSample& c = pts[i];
    if (c.n == 0.0) continue;  // a flat part
    const DiscRow& row = second.rows[i];
    const double s = std::sqrt(row.nu.x * row.nu.x + row.nu.y * row.nu.y);
    const double v1 = row.state.u.x, v2 = row.state.u.y;
    const double expected = -v1 * v1 / 0.1 - v2 * v2 * s / (1.0 + 0.1 * s);
    EXPECT_LT(c.n, 0.0);
    EXPECT_NEAR(c.n, expected, kFormula * std::fabs(expected)) << "t " << c.t;
    ++pulled;
  }
  EXPECT_GT(pulled, 2 * static_cast<int>(res.events));
  EXPECT_EQ(res.normal_force_min, n_min);
  EXPECT_EQ(res.friction_ratio_max, INFINITY);
  EXPECT_FALSE(std::isnan(res.detach_time));
}

// On a face without gravity the ball rolls straight at constant velocity: N = 0 and f = 0, it
// needs no friction (friction_ratio_max 0, never slips, never detaches). With gravity in the
// plate the same face has N = 0 and |f| = g - G > 0: no finite coefficient holds it (+inf), it
// slips at once, and it does not detach (the plate does not have to pull).
TEST(ContactForce, AFaceNeedsNoFrictionWithoutGravityAndUnboundedFrictionWithIt) {
  for (const double g : {0.0, 1.0}) {
    const RunConfig rc = parse_config_text(rolling_config(
        "roll3:stadium", R"("half_length": 1.0, "R": 1.0, "r": 0.1, "eta": 0.5, "g": )" + std::to_string(g),
        R"("start": "plate", "x1": 0.0, "x2": 0.0, "v1": 0.1, "v2": 0.0, "S12": 0.0)", 1.0));
    DiscardSink none;
    const TrajectoryResult res = simulate_trajectory(rc.spec, 0, none);
    ASSERT_EQ(res.status, Status::finished);
    ASSERT_EQ(res.events, 0u) << "stays on the face";
    EXPECT_EQ(res.normal_force_min, 0.0);
    EXPECT_TRUE(std::isnan(res.detach_time));
    if (g == 0.0) {
      EXPECT_EQ(res.friction_ratio_max, 0.0);
      EXPECT_TRUE(std::isnan(res.slip_time));
    } else {
      EXPECT_EQ(res.friction_ratio_max, INFINITY);
      EXPECT_EQ(res.slip_time, 0.0);
    }
  }
}

// The centre and normal of the last event of a 3D run.
struct Last {
  Vec3 x, nu;
  template <class V, class S>
  void on_event(double, V xe, const S&, V nue) {
    if constexpr (std::is_same_v<V, Vec3>) x = xe, nu = nue;
  }
  template <class T>
  void on_step(T, const T*) {}
};

// roll3:inside-cylinder: N = v1^2 / rho at all times, and f = g - G - w s(t) vertical, from
// second differences of runs stopped at t - h, t, t + h; friction_ratio_max against the largest
// |f| / N over a fine grid.
TEST(ContactForce, InsideCylinderClosedFormsAgreeWithSecondDifferences) {
  const std::string text = rolling_config("roll3:inside-cylinder", R"("R": 1.0, "r": 0.2, "gamma": 0.6324555320336759, "g": 1.0)",
                                          R"("start": "wall", "v1": 0.7, "v2": 0.3, "spin": 0.2)", 12.0);
  const RunConfig rc = parse_config_text(text);
  DiscardSink none;
  const TrajectoryResult res = simulate_trajectory(rc.spec, 0, none);
  ASSERT_EQ(res.status, Status::finished);
  const double rho = 0.8, n = 0.7 * 0.7 / rho;
  EXPECT_NEAR(res.normal_force_min, n, kClosedForm);
  EXPECT_TRUE(std::isnan(res.detach_time));
  double ratio_max = 0.0, worst = 0.0;
  for (double t = 0.5; t < 12.0; t += 0.01) {
    Vec3 xs[3], nu = {0.0, 0.0, 0.0};
    for (int k = 0; k < 3; ++k) {
      ScanSpec spec = rc.spec;
      spec.t_max = t + (k - 1) * kH;
      Last last;
      simulate_trajectory(spec, 0, last);
      xs[k] = last.x;
      if (k == 1) nu = last.nu;
    }
    const Vec3 acc = (1.0 / (kH * kH)) * (xs[0] + (-2.0) * xs[1] + xs[2]);
    const Vec3 F = {acc.x, acc.y, acc.z + 1.0};
    const double nf = dot(F, nu);
    const Vec3 ft = F + (-nf) * nu;
    const double f = std::sqrt(dot(ft, ft));
    worst = std::max(worst, std::fabs(nf - n));
    EXPECT_NEAR(nf, n, kFiniteDifference) << "t " << t;
    EXPECT_LT(std::fabs(ft.x) + std::fabs(ft.y), kFiniteDifference) << "t " << t;  // the friction is vertical
    ratio_max = std::max(ratio_max, f / n);
  }
  std::cout << "inside-cylinder: |N - v1^2/rho| <= " << worst << ", friction_ratio_max " << res.friction_ratio_max
            << ", on a 0.01 grid " << ratio_max << "\n";
  EXPECT_GE(res.friction_ratio_max, ratio_max - kFiniteDifference);
  EXPECT_NEAR(res.friction_ratio_max, ratio_max, 1e-3 * ratio_max);  // the grid misses the peak by O(dt^2)
}

// slip_time never decreases as mu_s grows (NaN: never, last), on the inside cylinder where it is
// exact and on roll3:stadium where the flat part slips at once under gravity.
TEST(ContactForce, SlipTimeIsMonotoneInMuS) {
  const std::string base = R"({"system": "roll3:inside-cylinder", "parameters": {"R": 1.0, "r": 0.2, "gamma": 0.6325, "g": 1.0},
    "initial": {"start": "wall", "v1": 0.7, "v2": 0.3, "spin": 0.2},
    "scan": {"type": "grid", "axes": [{"param": "mu_s", "min": 0.0, "max": 6.0, "n": 61}]},
    "stop": {"t_max": 20}, "observables": ["status", "slip_time", "friction_ratio_max"]})";
  const RunConfig rc = parse_config_text(base);
  std::vector<TrajectoryResult> out(61);
  cpu::run_chunk(rc.spec, 0, 61, out.data());
  double before = -1.0;
  int never = 0;
  for (int i = 0; i < 61; ++i) {
    const double mu = 0.1 * i, t = out[i].slip_time;
    const double key = std::isnan(t) ? INFINITY : t;
    EXPECT_GE(key, before) << "mu_s " << mu;
    before = key;
    // slips within the run exactly when mu_s is below the least coefficient it needs
    if (mu < out[i].friction_ratio_max - 1e-9) {
      EXPECT_FALSE(std::isnan(t)) << "mu_s " << mu;
    }
    if (mu > out[i].friction_ratio_max + 1e-9) {
      EXPECT_TRUE(std::isnan(t)) << "mu_s " << mu;
    }
    never += std::isnan(t);
  }
  EXPECT_GT(never, 0);
  EXPECT_LT(never, 61);
  const RunConfig st = parse_config_text(kStadium);
  for (double mu : {0.0, 1.0, 100.0}) {
    ScanSpec spec = st.spec;
    spec.params[P_MU_S] = mu;
    DiscardSink none;
    const TrajectoryResult res = simulate_trajectory(spec, 0, none);
    EXPECT_EQ(res.slip_time, 0.0) << "gravity in the plate: slips on the flat part";
    EXPECT_EQ(res.friction_ratio_max, INFINITY) << "no finite mu_s holds it there";
  }
}

// Asking for the group leaves every other observable bit for bit (the lanes against the
// one-trajectory path too), on every rolling system that has it.
TEST(ContactForce, AskingForThemLeavesTheOtherObservablesUnchanged) {
  const std::vector<std::string> configs = {
      kStadium, kDisc,
      rolling_config("roll4:stadium", R"("half_length": 0.5, "R": 1.0, "r": 0.1, "eta": 0.5, "g": 1.0)",
                     R"("start": "plate", "x1": 0.2, "v1": 1.0, "v2": 0.4, "v3": 0.3, "S12": 0.5, "S13": 0.1)", 5.0),
      rolling_config("roll3:polygon", R"("vertices": [[1, 0], [0.3, 0.95], [-0.8, 0.6], [-0.8, -0.6], [0.3, -0.95]], "r": 0.1, "eta": 0.5, "g": 0.5)",
                     R"("start": "plate", "x1": 0.1, "v1": 1.0, "v2": 0.7, "S12": 0.4)", 5.0),
      rolling_config("roll3:strip", R"("L": 1.0, "r": 0.3, "eta": 0.5, "g": 1.0)", R"("start": "plate", "v1": 1.0, "v2": 0.5, "spin": 0.3)", 9.0),
      rolling_config("roll4:planes", R"("L": 1.0, "r": 0.3, "eta": 0.5, "g": 1.0)", R"("start": "plate", "v1": 1.0, "v2": 0.5, "v3": -1.0, "S13": -0.5)", 9.0),
      rolling_config("roll3:inside-cylinder", R"("R": 1.0, "r": 0.2, "eta": 0.5, "g": 1.0)", R"("start": "wall", "v1": 1.0, "v2": 0.5)", 9.0)};
  for (const std::string& text : configs) {
    const RunConfig asked = parse_config_text(text);
    ScanSpec plain = asked.spec;
    plain.contact_forces = false;
    ASSERT_TRUE(asked.spec.contact_forces);
    TrajectoryResult a, b;
    cpu::run_chunk(plain, 0, 1, &a);
    cpu::run_chunk(asked.spec, 0, 1, &b);
    EXPECT_TRUE(std::isnan(a.normal_force_min) && std::isnan(a.slip_time)) << asked.system.name;
    EXPECT_FALSE(std::isnan(b.normal_force_min)) << asked.system.name;
    EXPECT_EQ(a.status, b.status) << asked.system.name;
    EXPECT_EQ(a.exit_side, b.exit_side) << asked.system.name;
    EXPECT_EQ(a.events, b.events) << asked.system.name;
    EXPECT_EQ(a.steps, b.steps) << asked.system.name;
    const double pairs[][2] = {{a.t_end, b.t_end},         {a.energy_error, b.energy_error}, {a.z_min, b.z_min},
                               {a.z_max, b.z_max},         {a.z_final, b.z_final},           {a.z_drift, b.z_drift},
                               {a.bounded, b.bounded},     {a.rho_even, b.rho_even},         {a.rho_odd, b.rho_odd},
                               {a.exit_time, b.exit_time}, {a.exit_arc, b.exit_arc}};
    for (const auto& p : pairs)
      EXPECT_TRUE(p[0] == p[1] || (std::isnan(p[0]) && std::isnan(p[1])))
          << asked.system.name << ": " << p[0] << " became " << p[1];
    std::cout << asked.system.name << ": " << b.events << " events, normal_force_min " << b.normal_force_min
              << ", friction_ratio_max " << b.friction_ratio_max << ", detach_time " << b.detach_time
              << ", slip_time " << b.slip_time << "\n";
  }
}

}  // namespace
