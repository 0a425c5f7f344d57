// Collision times of every table: the reported hit lies on the wall, the flight before it
// stays inside (checked by dense sampling), with and without in-plane gravity; corners are
// detected; polynomial roots are found exactly.
#include <gtest/gtest.h>

#include <random>

#include "skipstone/polynomial.hpp"
#include "skipstone/tables/disc.hpp"
#include "skipstone/tables/ellipse.hpp"
#include "skipstone/tables/polygon.hpp"
#include "skipstone/tables/sinai.hpp"
#include "skipstone/tables/sphere.hpp"
#include "skipstone/tables/stadium.hpp"

namespace skipstone {
namespace {

constexpr double kOnWall = 1e-10;     // |F(hit point)| for O(1) tables
constexpr double kSampleSlack = 1e-9;  // how far outside a sampled flight point may be

TEST(Polynomial, FindsAllRootsOfQuarticsInOrder) {
  std::mt19937_64 gen(7);
  std::uniform_real_distribution<double> d(0.01, 5.0);
  for (int it = 0; it < 2000; ++it) {
    double r[4] = {d(gen), d(gen), d(gen), -d(gen)};
    std::sort(r, r + 3);
    if (r[1] - r[0] < 1e-3 || r[2] - r[1] < 1e-3) continue;
    // c(t) = a (t - r0)(t - r1)(t - r2)(t - r3)
    double c[5] = {1.0, 0.0, 0.0, 0.0, 0.0};
    for (double root : r) {
      for (int k = 4; k >= 1; --k) c[k] = c[k - 1] - root * c[k];
      c[0] = -root * c[0];
    }
    double out[4];
    const int n = polynomial_roots(c, 4, 0.0, 6.0, out);
    ASSERT_EQ(n, 3);
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(out[k], r[k], 1e-9 * (1.0 + r[k]));
  }
}

TEST(Polynomial, QuadraticWithoutCancellation) {
  double out[2];
  // roots 1e-9 and 1e9: the small one must be accurate
  const int n = quadratic_roots(1.0, -(1e9 + 1e-9), 1.0, 0.0, INFINITY, out);
  ASSERT_EQ(n, 2);
  EXPECT_NEAR(out[0], 1e-9, 1e-24);
  EXPECT_NEAR(out[1], 1e9, 1e-6);
}

template <class Table>
void check_flights(const Table& table, double g, double wall_residual(const Table&, Vec2), Vec2 lo, Vec2 hi,
                   int trials = 300) {
  std::mt19937_64 gen(42);
  std::uniform_real_distribution<double> ux(lo.x, hi.x), uy(lo.y, hi.y), ang(-kPi, kPi);
  int checked = 0;
  for (int it = 0; it < trials * 10 && checked < trials; ++it) {
    const Vec2 x = {ux(gen), uy(gen)};
    if (!table.inside(x)) continue;
    const double a = ang(gen);
    const Vec2 u = {std::cos(a), std::sin(a)};
    const Hit<Vec2> h = table.next_hit(x, u, g, -1, INFINITY);
    ASSERT_EQ(h.kind, HitKind::wall) << "x=" << x.x << "," << x.y;
    const Vec2 acc = {0.0, -g};
    const Vec2 p = flight_position(x, u, acc, h.t);
    EXPECT_LT(std::fabs(wall_residual(table, p)), kOnWall);
    for (int k = 1; k < 400; ++k) {
      const Vec2 q = flight_position(x, u, acc, h.t * k / 400.0);
      // a point strictly before the hit is inside (up to round-off)
      const Vec2 back = q + (-kSampleSlack) * (q - x);
      ASSERT_TRUE(table.inside(back) || std::fabs(wall_residual(table, q)) < kSampleSlack) << "k=" << k;
    }
    // continuing from the wall (deflated root) gives the next hit, not t = 0
    const Vec2 v = u + h.t * acc;
    const Vec2 vr = v + (-2.0 * dot(v, h.nu)) * h.nu;  // specular reflection
    const Hit<Vec2> h2 = table.next_hit(p, vr, g, h.part, INFINITY);
    if (h2.kind == HitKind::wall) {
      EXPECT_GT(h2.t, 1e-9);
    }
    ++checked;
  }
  EXPECT_EQ(checked, trials);
}

double disc_res(const DiscTable& t, Vec2 p) { return norm(p) - t.R; }
double ellipse_res(const EllipseTable& t, Vec2 p) { return std::sqrt(p.x * p.x / (t.a * t.a) + p.y * p.y / (t.b * t.b)) - 1.0; }
double stadium_res(const StadiumTable& t, Vec2 p) {
  const double dx = std::fabs(p.x) > t.a ? std::fabs(p.x) - t.a : 0.0;
  return std::sqrt(dx * dx + p.y * p.y) - t.R;
}
double polygon_res(const PolygonTable& t, Vec2 p) {
  double m = INFINITY;
  for (int i = 0; i < t.n; ++i) m = std::min(m, dot(t.inward_normal(i), p - t.v[i]));
  return m;
}
double sinai_res(const SinaiTable& t, Vec2 p) {
  const Vec2 c = {t.side * std::floor(p.x / t.side + 0.5), t.side * std::floor(p.y / t.side + 0.5)};
  return norm(p - c) - t.rho;
}

PolygonTable hexagon() {
  PolygonTable t;
  t.n = 6;
  for (int i = 0; i < 6; ++i) t.v[i] = {std::cos(kPi * i / 3.0), 0.7 * std::sin(kPi * i / 3.0)};
  t.diameter = 2.0;
  t.corner_tol = 1e-9;
  return t;
}

TEST(Tables, DiscFlights) {
  for (double g : {0.0, 0.7}) check_flights(DiscTable{1.3}, g, disc_res, {-1.3, -1.3}, {1.3, 1.3});
}
TEST(Tables, EllipseFlights) {
  for (double g : {0.0, 2.0}) check_flights(EllipseTable{2.0, 0.8}, g, ellipse_res, {-2, -1}, {2, 1});
}
TEST(Tables, StadiumFlights) {
  for (double g : {0.0, 1.5}) check_flights(StadiumTable{1.0, 0.6}, g, stadium_res, {-1.6, -0.6}, {1.6, 0.6});
}
TEST(Tables, PolygonFlights) {
  for (double g : {0.0, 3.0}) check_flights(hexagon(), g, polygon_res, {-1, -1}, {1, 1});
}
TEST(Tables, SinaiFlights) { check_flights(SinaiTable{1.0, 0.3}, 0.0, sinai_res, {-0.5, -0.5}, {0.5, 0.5}); }

TEST(Tables, SphereHitIsOnTheSphere) {
  const SphereTable s{2.0};
  for (double g : {0.0, 1.0}) {
    const Vec3 x = {0.3, -0.2, 0.5}, u = {0.6, 0.0, 0.8};
    const Hit<Vec3> h = s.next_hit(x, u, g, -1, INFINITY);
    ASSERT_EQ(h.kind, HitKind::wall);
    EXPECT_NEAR(norm(flight_position(x, u, Vec3{0, 0, -g}, h.t)), 2.0, 1e-12);
  }
}

TEST(Tables, CornerHitIsReported) {
  PolygonTable sq;
  sq.n = 4;
  sq.v[0] = {-1, -1};
  sq.v[1] = {1, -1};
  sq.v[2] = {1, 1};
  sq.v[3] = {-1, 1};
  sq.diameter = std::sqrt(8.0);
  sq.corner_tol = 1e-9 * sq.diameter;
  const Hit<Vec2> h = sq.next_hit({0.0, 0.0}, {1.0, 1.0}, 0.0, -1, INFINITY);
  EXPECT_EQ(h.kind, HitKind::corner);
  const Hit<Vec2> w = sq.next_hit({0.0, 0.0}, {1.0, 0.9}, 0.0, -1, INFINITY);
  EXPECT_EQ(w.kind, HitKind::wall);
}

TEST(Tables, StripWithoutHorizontalMotionNeverHits) {
  const PolygonTable p = hexagon();
  EXPECT_EQ(p.next_hit({0, 0}, {0, 0}, 0.0, -1, INFINITY).kind, HitKind::none);
}

}  // namespace
}  // namespace skipstone
