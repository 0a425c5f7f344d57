// Collision times and normals of every table, with and without in-plane gravity, over a few
// bounces per flight: every hit (the first from the interior and the next ones from the wall)
// is a wall hit at positive time, lies on the wall, reports the inward unit normal of the
// geometry there (computed here from the table's definition), and the flight before it stays
// inside (checked by dense sampling); corners are detected; polynomial roots are found exactly.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
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

constexpr double kOnWall = 1e-10;       // |F(hit point)| for O(1) tables
constexpr double kNormal = 1e-9;        // |reported normal - geometric normal| at a hit
constexpr double kSampleSlack = 1e-9;   // how far outside a sampled flight point may be
constexpr double kMinFlight = 1e-9;     // a flight from the wall that ends sooner returned to it at t ~ 0
constexpr int kBounces = 3;             // wall hits followed per random flight

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

// The geometry of a table, computed here from its definition (not from the table's code): the
// signed distance-like residual F(p) (zero on the wall) and the inward unit normal at a wall point.
template <class Table>
struct Geometry {
  double (*residual)(const Table&, Vec2);
  Vec2 (*normal)(const Table&, Vec2);
};

// Random flights from the interior, each followed over kBounces wall hits with specular
// reflections in between: every hit is a wall hit (a flight from the wall that reports a corner,
// none or a miss fails, as does a return to the wall it just left at t ~ 0), lies on the wall,
// carries the inward unit normal of the geometry there, and the flight before it stays inside.
template <class Table>
void check_flights(const Table& table, double g, Geometry<Table> geo, Vec2 lo, Vec2 hi, int trials = 300) {
  std::mt19937_64 gen(42);
  std::uniform_real_distribution<double> ux(lo.x, hi.x), uy(lo.y, hi.y), ang(-kPi, kPi);
  const Vec2 acc = {0.0, -g};
  int checked = 0;
  for (int it = 0; it < trials * 10 && checked < trials; ++it) {
    Vec2 x = {ux(gen), uy(gen)};
    if (!table.inside(x)) continue;
    const double a = ang(gen);
    Vec2 u = {std::cos(a), std::sin(a)};
    int last = -1;
    for (int bounce = 0; bounce < kBounces; ++bounce) {
      const Hit<Vec2> h = table.next_hit(x, u, g, last, INFINITY);
      ASSERT_EQ(h.kind, HitKind::wall) << "bounce " << bounce << " from x=" << x.x << "," << x.y;
      ASSERT_GT(h.t, kMinFlight) << "bounce " << bounce;
      const Vec2 p = flight_position(x, u, acc, h.t);
      EXPECT_LT(std::fabs(geo.residual(table, p)), kOnWall) << "bounce " << bounce;
      const Vec2 nu = geo.normal(table, p);
      EXPECT_LT(norm(h.nu - nu), kNormal) << "bounce " << bounce << " at p=" << p.x << "," << p.y << ": nu=" << h.nu.x
                                          << "," << h.nu.y << ", expected " << nu.x << "," << nu.y;
      for (int k = 1; k < 400; ++k) {
        const Vec2 q = flight_position(x, u, acc, h.t * k / 400.0);
        // a point strictly before the hit is inside (up to round-off)
        const Vec2 back = q + (-kSampleSlack) * (q - x);
        ASSERT_TRUE(table.inside(back) || std::fabs(geo.residual(table, q)) < kSampleSlack) << "k=" << k;
      }
      const Vec2 v = u + h.t * acc;
      u = v + (-2.0 * dot(v, nu)) * nu;  // specular reflection
      x = p;
      last = h.part;
    }
    ++checked;
  }
  EXPECT_EQ(checked, trials);
}

double disc_res(const DiscTable& t, Vec2 p) { return norm(p) - t.R; }
Vec2 disc_normal(const DiscTable&, Vec2 p) { return (-1.0 / norm(p)) * p; }

// F = x^2/a^2 + y^2/b^2 - 1; the inward normal is -grad F / |grad F|.
double ellipse_res(const EllipseTable& t, Vec2 p) { return std::sqrt(p.x * p.x / (t.a * t.a) + p.y * p.y / (t.b * t.b)) - 1.0; }
Vec2 ellipse_normal(const EllipseTable& t, Vec2 p) {
  const Vec2 grad = {2.0 * p.x / (t.a * t.a), 2.0 * p.y / (t.b * t.b)};
  return (-1.0 / norm(grad)) * grad;
}

// Flat walls y = +-R for |x| <= a, half circles of radius R about (+-a, 0) beyond.
double stadium_res(const StadiumTable& t, Vec2 p) {
  const double dx = std::fabs(p.x) > t.a ? std::fabs(p.x) - t.a : 0.0;
  return std::sqrt(dx * dx + p.y * p.y) - t.R;
}
Vec2 stadium_normal(const StadiumTable& t, Vec2 p) {
  if (std::fabs(p.x) <= t.a) return {0.0, p.y > 0.0 ? -1.0 : 1.0};
  const Vec2 d = p - Vec2{std::copysign(t.a, p.x), 0.0};
  return (-1.0 / norm(d)) * d;
}

// The edges' unit normals, each turned towards the vertex centroid (inside a convex polygon).
Vec2 edge_normal(const PolygonTable& t, int i) {
  Vec2 centroid = {0.0, 0.0};
  for (int k = 0; k < t.n; ++k) centroid = centroid + (1.0 / t.n) * t.v[k];
  const Vec2 d = t.v[(i + 1) % t.n] - t.v[i];
  const Vec2 n = (1.0 / norm(d)) * Vec2{d.y, -d.x};
  return dot(n, centroid - t.v[i]) > 0.0 ? n : -n;
}
double polygon_res(const PolygonTable& t, Vec2 p) {
  double m = INFINITY;
  for (int i = 0; i < t.n; ++i) m = std::min(m, dot(edge_normal(t, i), p - t.v[i]));
  return m;
}
Vec2 polygon_normal(const PolygonTable& t, Vec2 p) {  // of the edge nearest to p
  int best = 0;
  for (int i = 1; i < t.n; ++i)
    if (std::fabs(dot(edge_normal(t, i), p - t.v[i])) < std::fabs(dot(edge_normal(t, best), p - t.v[best]))) best = i;
  return edge_normal(t, best);
}

PolygonTable hexagon() {
  PolygonTable t;
  t.n = 6;
  for (int i = 0; i < 6; ++i) t.v[i] = {std::cos(kPi * i / 3.0), 0.7 * std::sin(kPi * i / 3.0)};
  t.diameter = 2.0;
  t.corner_tol = 1e-9;
  return t;
}

// Scatterers of radius rho about the lattice points; the domain is outside, so the normal
// points away from the nearest lattice point.
Vec2 sinai_centre(const SinaiTable& t, Vec2 p) {
  return {t.side * std::floor(p.x / t.side + 0.5), t.side * std::floor(p.y / t.side + 0.5)};
}
double sinai_res(const SinaiTable& t, Vec2 p) { return norm(p - sinai_centre(t, p)) - t.rho; }
Vec2 sinai_normal(const SinaiTable& t, Vec2 p) {
  const Vec2 d = p - sinai_centre(t, p);
  return (1.0 / norm(d)) * d;
}

TEST(Tables, DiscFlights) {
  for (double g : {0.0, 0.7}) check_flights(DiscTable{1.3}, g, {disc_res, disc_normal}, {-1.3, -1.3}, {1.3, 1.3});
}
TEST(Tables, EllipseFlights) {
  for (double g : {0.0, 2.0}) check_flights(EllipseTable{2.0, 0.8}, g, {ellipse_res, ellipse_normal}, {-2, -1}, {2, 1});
}
TEST(Tables, StadiumFlights) {
  for (double g : {0.0, 1.5}) check_flights(StadiumTable{1.0, 0.6}, g, {stadium_res, stadium_normal}, {-1.6, -0.6}, {1.6, 0.6});
}
TEST(Tables, PolygonFlights) {
  for (double g : {0.0, 3.0}) check_flights(hexagon(), g, {polygon_res, polygon_normal}, {-1, -1}, {1, 1});
}
TEST(Tables, SinaiFlights) { check_flights(SinaiTable{1.0, 0.3}, 0.0, {sinai_res, sinai_normal}, {-0.5, -0.5}, {0.5, 0.5}); }

TEST(Tables, SphereHitIsOnTheSphereWithTheInwardNormal) {
  const SphereTable s{2.0};
  for (double g : {0.0, 1.0}) {
    const Vec3 x = {0.3, -0.2, 0.5}, u = {0.6, 0.0, 0.8};
    const Hit<Vec3> h = s.next_hit(x, u, g, -1, INFINITY);
    ASSERT_EQ(h.kind, HitKind::wall);
    const Vec3 p = flight_position(x, u, Vec3{0, 0, -g}, h.t);
    EXPECT_NEAR(norm(p), 2.0, 1e-12);
    EXPECT_LT(norm(h.nu + (1.0 / norm(p)) * p), kNormal);
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
