// The boundary description of every 2D table (include/skipstone/tables/boundary.hpp): the
// tangent is the arc-length derivative of the point, the normal is J tangent and points into
// the table (checked with inside tests written here, not the tables' own), the curvature is the
// derivative of the normal with the documented sign, the breaks are where the curvature jumps or
// the tangent turns and nowhere else, the inverse maps undo the forward ones, and the point of a
// real collision (next_hit) maps to a parameter whose point is that collision point, and each
// table's clearance is a lower bound on the distance to the wall (exact where it says so).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "skipstone/tables/disc.hpp"
#include "skipstone/tables/ellipse.hpp"
#include "skipstone/tables/polygon.hpp"
#include "skipstone/tables/sinai.hpp"
#include "skipstone/tables/stadium.hpp"
#include "skipstone/tables/strip.hpp"

namespace skipstone {
namespace {

// |tangent| = 1 and nu = J tangent: a few rounding errors of the unit normal.
constexpr double kUnitTol = 1e-15;
// Central differences with step kStep in arc length: truncation h^2 |x'''| / 6 <= h^2 kappa_max^2 / 6
// (kappa_max = 20 on the 5 x 0.5 ellipse: 7e-9) plus rounding eps |x| / h (6e-11).
constexpr double kStep = 1e-5;
constexpr double kTangentTol = 1e-7;
// kappa from the normal's central difference: truncation h^2 |nu'''| / 6, |nu'''| <= about 1e4 on
// the 5 x 0.5 ellipse (kappa'' ~ kappa / radius of curvature^2), relative to 1 + |kappa|.
constexpr double kCurvatureTol = 1e-6;
// How far inside (and outside) a point eps along +nu (-nu) must be, and how far from a break.
constexpr double kInsideStep = 1e-6;
constexpr double kAwayFromBreak = 1e-4;
// s -> point -> s and l -> s -> l: a few rounding errors of atan2, of the elliptic integrals and
// of the Newton iteration.
constexpr double kRoundTrip = 1e-12;
// The point of the parameter of a collision point is that point: along the wall up to rounding,
// across it up to how far from the wall the flight solver puts a hit (as in test_tables).
constexpr double kHitPoint = 1e-12;
constexpr double kOnWall = 1e-10;
// The table's normal at a collision vs the frame's at its parameter.
constexpr double kHitNormal = 1e-12;
// One-sided limits at a break are taken this far (in s) from it.
constexpr double kBreakSide = 1e-9;
// Interior angles at vertices, from the tangents on either side.
constexpr double kAngleTol = 1e-12;
// Two descriptions of the same circle (ellipse with a = b, stadium with half_length 0, disc).
constexpr double kSameCircle = 1e-14;

// distance of two parameters on the circle [0, 1)
double circular_gap(double s, double t) {
  const double d = std::fabs(s - t);
  return std::fmin(d, 1.0 - d);
}
double dist(Vec2 a, Vec2 b) { return norm(a - b); }

PolygonTable make_polygon(const std::vector<Vec2>& v) {
  PolygonTable p;
  p.n = int(v.size());
  double diam = 0.0;
  for (int i = 0; i < p.n; ++i) {
    p.v[i] = v[i];
    for (const Vec2& w : v) diam = std::fmax(diam, norm(v[i] - w));
  }
  p.diameter = diam;
  p.corner_tol = 1e-9 * diam;
  return p;
}

PolygonTable rectangle(double w, double h) {
  return make_polygon({{-0.5 * w, -0.5 * h}, {0.5 * w, -0.5 * h}, {0.5 * w, 0.5 * h}, {-0.5 * w, 0.5 * h}});
}
PolygonTable regular_polygon(int n, double r, double phase) {
  std::vector<Vec2> v;
  for (int i = 0; i < n; ++i) v.push_back({r * std::cos(phase + 2.0 * kPi * i / n), r * std::sin(phase + 2.0 * kPi * i / n)});
  return make_polygon(v);
}
// A convex polygon: n points at sorted random angles on an ellipse, counterclockwise.
PolygonTable random_polygon(int n, unsigned seed) {
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<double> u(0.0, 2.0 * kPi);
  std::vector<double> th(n);
  for (double& t : th) t = u(gen);
  std::sort(th.begin(), th.end());
  std::vector<Vec2> v;
  for (double t : th) v.push_back({1.7 * std::cos(t), 0.9 * std::sin(t)});
  return make_polygon(v);
}

// Inside tests of our own (strict: a point on the wall is neither inside nor outside).
using Inside = std::function<bool(Vec2)>;
Inside disc_inside(double R) {
  return [R](Vec2 x) { return x.x * x.x + x.y * x.y < R * R; };
}
Inside ellipse_inside(double a, double b) {
  return [a, b](Vec2 x) { return (x.x / a) * (x.x / a) + (x.y / b) * (x.y / b) < 1.0; };
}
Inside stadium_inside(double a, double R) {
  // distance to the segment [-a, a] x {0} below R
  return [a, R](Vec2 x) {
    const double cx = std::fmax(-a, std::fmin(a, x.x));
    return std::hypot(x.x - cx, x.y) < R;
  };
}
Inside polygon_inside(const PolygonTable& p) {
  return [p](Vec2 x) {
    for (int i = 0; i < p.n; ++i)
      if (cross(p.v[(i + 1) % p.n] - p.v[i], x - p.v[i]) <= 0.0) return false;
    return true;
  };
}
Inside sinai_inside(double side, double rho) {
  return [side, rho](Vec2 x) {
    const double cx = side * std::round(x.x / side), cy = side * std::round(x.y / side);
    return std::hypot(x.x - cx, x.y - cy) > rho;
  };
}

template <class Table>
struct Case {
  std::string name;
  Table table;
  Inside inside;
};

std::vector<Case<DiscTable>> discs() { return {{"disc R=1.3", DiscTable{1.3}, disc_inside(1.3)}}; }
std::vector<Case<StadiumTable>> stadiums() {
  return {{"stadium 0.7 x 1.1", StadiumTable{0.7, 1.1}, stadium_inside(0.7, 1.1)},
          {"stadium 2 x 0.5", StadiumTable{2.0, 0.5}, stadium_inside(2.0, 0.5)}};
}
std::vector<Case<EllipseTable>> ellipses() {
  return {{"ellipse 2 x 1", EllipseTable{2.0, 1.0}, ellipse_inside(2.0, 1.0)},
          {"ellipse 1 x 3", EllipseTable{1.0, 3.0}, ellipse_inside(1.0, 3.0)},
          {"ellipse 5 x 0.5", EllipseTable{5.0, 0.5}, ellipse_inside(5.0, 0.5)}};
}
std::vector<Case<PolygonTable>> polygons() {
  std::vector<Case<PolygonTable>> c;
  const PolygonTable list[] = {rectangle(2.0, 1.2), regular_polygon(3, 1.0, 0.3), regular_polygon(5, 1.0, 0.1),
                               random_polygon(7, 3), random_polygon(16, 11)};
  const char* names[] = {"rectangle 2 x 1.2", "triangle", "pentagon", "random 7-gon", "random 16-gon"};
  for (int i = 0; i < 5; ++i) c.push_back({names[i], list[i], polygon_inside(list[i])});
  return c;
}
std::vector<Case<SinaiTable>> sinais() { return {{"sinai 1 / 0.3", SinaiTable{1.0, 0.3}, sinai_inside(1.0, 0.3)}}; }

template <class Table>
std::vector<BoundaryBreak> breaks_of(const Table& t) {
  BoundaryBreak b[kMaxBoundaryBreaks];
  const int n = t.boundary_breaks(b);
  return std::vector<BoundaryBreak>(b, b + n);
}
// Whether a break lies within margin_s of the parameter s.
template <class Table>
bool near_break(const Table& t, double s, double margin_s) {
  for (const BoundaryBreak& b : breaks_of(t))
    if (circular_gap(b.s, s) < margin_s) return true;
  return false;
}

template <class Table>
BoundaryFrame frame_at_length(const Table& t, double l) {
  return t.boundary_frame(t.s_at_arc_length(l));
}

// Sample arc lengths spread over the whole boundary (deterministic).
std::vector<double> sample_lengths(double L, int n, unsigned seed) {
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<double> u(0.0, L);
  std::vector<double> l(n);
  for (double& x : l) x = u(gen);
  return l;
}

template <class Table>
void check_frame_derivatives(const Case<Table>& c) {
  SCOPED_TRACE(c.name);
  const Table& t = c.table;
  const double L = t.boundary_length();
  for (double l : sample_lengths(L, 400, 5)) {
    const double s = t.s_at_arc_length(l);
    if (near_break(t, s, 3.0 * kStep / L)) continue;
    const BoundaryFrame f = t.boundary_frame(s);
    const BoundaryFrame fp = frame_at_length(t, l + kStep), fm = frame_at_length(t, l - kStep);
    // |tangent| = 1, nu = J tangent
    EXPECT_NEAR(norm(f.tangent), 1.0, kUnitTol);
    EXPECT_LE(dist(f.nu, rot90(f.tangent)), kUnitTol);
    // tangent = d x / dl
    const Vec2 dx = (0.5 / kStep) * (fp.x - fm.x);
    EXPECT_LE(dist(dx, f.tangent), kTangentTol) << "s = " << s;
    // d nu / dl = kappa tangent and d tangent / dl = -kappa nu
    const Vec2 dnu = (0.5 / kStep) * (fp.nu - fm.nu), dtan = (0.5 / kStep) * (fp.tangent - fm.tangent);
    const double tol = kCurvatureTol * (1.0 + std::fabs(f.kappa));
    EXPECT_NEAR(dot(dnu, f.tangent), f.kappa, tol) << "s = " << s;
    EXPECT_NEAR(-dot(dtan, f.nu), f.kappa, tol) << "s = " << s;
    EXPECT_NEAR(dot(dnu, f.nu), 0.0, tol);
  }
}

template <class Table>
void check_normal_points_inside(const Case<Table>& c) {
  SCOPED_TRACE(c.name);
  const Table& t = c.table;
  for (int i = 0; i < 1000; ++i) {
    const double s = (i + 0.5) / 1000.0;
    if (near_break(t, s, kAwayFromBreak)) continue;
    const BoundaryFrame f = t.boundary_frame(s);
    EXPECT_TRUE(c.inside(f.x + kInsideStep * f.nu)) << "s = " << s;
    EXPECT_FALSE(c.inside(f.x - kInsideStep * f.nu)) << "s = " << s;
  }
}

template <class Table>
void check_round_trips(const Case<Table>& c) {
  SCOPED_TRACE(c.name);
  const Table& t = c.table;
  const double L = t.boundary_length();
  std::vector<double> ss;
  for (int i = 0; i < 2000; ++i) ss.push_back(i / 2000.0);
  for (const BoundaryBreak& b : breaks_of(t)) ss.push_back(b.s);
  ss.push_back(std::nextafter(1.0, 0.0));
  for (double s : ss) {
    const BoundaryFrame f = t.boundary_frame(s);
    EXPECT_LE(circular_gap(t.boundary_parameter(f.x, f.part), s), kRoundTrip) << "s = " << s;
    EXPECT_LE(circular_gap(t.s_at_arc_length(t.arc_length(s)), wrap_unit(s)), kRoundTrip) << "s = " << s;
  }
  for (double l : sample_lengths(L, 500, 9)) EXPECT_NEAR(t.arc_length(t.s_at_arc_length(l)), l, kRoundTrip * L);
  // arc length is periodic: l and l + L are the same point
  EXPECT_LE(circular_gap(t.s_at_arc_length(0.3 * L + L), t.s_at_arc_length(0.3 * L)), kRoundTrip);
}

template <class Table>
void check_breaks(const Case<Table>& c) {
  SCOPED_TRACE(c.name);
  const Table& t = c.table;
  const std::vector<BoundaryBreak> br = breaks_of(t);
  for (size_t i = 0; i < br.size(); ++i) {
    const BoundaryBreak& b = br[i];
    EXPECT_GE(b.s, 0.0);
    EXPECT_LT(b.s, 1.0);
    if (i > 0) {
      EXPECT_GT(b.s, br[i - 1].s);
    }
    const BoundaryFrame before = t.boundary_frame(wrap_unit(b.s - kBreakSide));
    const BoundaryFrame after = t.boundary_frame(wrap_unit(b.s + kBreakSide));
    EXPECT_EQ(before.kappa, b.kappa_before) << "break at s = " << b.s;
    EXPECT_EQ(after.kappa, b.kappa_after) << "break at s = " << b.s;
    // the interior angle is pi minus the turn of the tangent across the break
    const double turn = std::atan2(cross(before.tangent, after.tangent), dot(before.tangent, after.tangent));
    EXPECT_NEAR(kPi - turn, b.interior_angle, kAngleTol + 2.0 * kBreakSide * t.boundary_length() * std::fabs(b.kappa_before) +
                                                  2.0 * kBreakSide * t.boundary_length() * std::fabs(b.kappa_after));
    if (b.kind == BreakKind::curvature_jump) {
      EXPECT_NE(b.kappa_before, b.kappa_after) << "break at s = " << b.s;
      EXPECT_EQ(b.interior_angle, kPi);
    } else {
      EXPECT_LT(b.interior_angle, kPi - 1e-3) << "vertex at s = " << b.s;
      EXPECT_GT(b.interior_angle, 0.0);
    }
  }
  // and nowhere else: on a fine grid, a jump of kappa (a step much larger than its neighbours'
  // steps) or a turn of the tangent much larger than |kappa| dl lies next to a listed break
  const int n = 20000;
  const double dl = t.boundary_length() / n;
  std::vector<BoundaryFrame> f(n + 1);
  for (int i = 0; i <= n; ++i) f[i] = t.boundary_frame(t.s_at_arc_length(i * dl));
  for (int i = 0; i < n; ++i) {
    const double jump = std::fabs(f[i + 1].kappa - f[i].kappa);
    const double prev = std::fabs(f[i].kappa - f[(i + n - 1) % n].kappa);
    const double next = std::fabs(f[(i + 2) % n].kappa - f[i + 1].kappa);
    const double turn = std::fabs(std::atan2(cross(f[i].tangent, f[i + 1].tangent), dot(f[i].tangent, f[i + 1].tangent)));
    const double smooth_turn = 2.0 * dl * std::fmax(std::fabs(f[i].kappa), std::fabs(f[i + 1].kappa)) + 1e-12;
    if (jump > 100.0 * (prev + next) + 1e-12 || turn > smooth_turn) {
      EXPECT_TRUE(near_break(t, t.s_at_arc_length((i + 0.5) * dl), 1.0 / n)) << "unlisted break near l = " << i * dl;
    }
  }
}

template <class Table>
void check_all(const std::vector<Case<Table>>& cases) {
  for (const Case<Table>& c : cases) {
    check_frame_derivatives(c);
    check_normal_points_inside(c);
    check_round_trips(c);
    check_breaks(c);
  }
}

TEST(BoundaryGeometry, DiscFrameIsDifferentiableUnitInwardAndInvertible) { check_all(discs()); }
TEST(BoundaryGeometry, StadiumFrameIsDifferentiableUnitInwardAndInvertible) { check_all(stadiums()); }
TEST(BoundaryGeometry, EllipseFrameIsDifferentiableUnitInwardAndInvertible) { check_all(ellipses()); }
TEST(BoundaryGeometry, PolygonFrameIsDifferentiableUnitInwardAndInvertible) { check_all(polygons()); }
TEST(BoundaryGeometry, SinaiFrameIsDifferentiableUnitInwardAndInvertible) { check_all(sinais()); }

TEST(BoundaryGeometry, CurvatureSignConvexWallNegativeScattererPositive) {
  const DiscTable disc{1.3};
  const SinaiTable sinai{1.0, 0.3};
  const StadiumTable stadium{0.7, 1.1};
  for (int i = 0; i < 100; ++i) {
    const double s = (i + 0.5) / 100.0;
    EXPECT_DOUBLE_EQ(disc.boundary_frame(s).kappa, -1.0 / 1.3);
    EXPECT_DOUBLE_EQ(sinai.boundary_frame(s).kappa, 1.0 / 0.3);
    const BoundaryFrame f = stadium.boundary_frame(s);
    EXPECT_DOUBLE_EQ(f.kappa, (f.part == 1 || f.part == 3) ? -1.0 / 1.1 : 0.0);
    for (const Case<EllipseTable>& e : ellipses()) EXPECT_LT(e.table.boundary_frame(s).kappa, 0.0);
    for (const Case<PolygonTable>& p : polygons()) EXPECT_EQ(p.table.boundary_frame(s).kappa, 0.0);
  }
}

// The Sinai flight walks cell by cell; 2^63 cells out the index cannot step any more. That is a
// miss (the runs end in integrator_failure) rather than a walk that never ends; 2^40 cells out
// the walk still finds the scatterer it finds at the origin.
TEST(BoundaryGeometry, SinaiFlightFromFarOutIsAMissNotAnEndlessWalk) {
  const SinaiTable sinai{1.0, 0.25};
  const Vec2 u{-0.56, 0.83};
  EXPECT_EQ(sinai.next_hit(Vec2{0.5, 9223372036854775808.0}, u, 0.0, -1, 10.0).kind, HitKind::miss);
  const Hit<Vec2> near = sinai.next_hit(Vec2{0.5, -0.25}, u, 0.0, -1, 10.0);
  const Hit<Vec2> far = sinai.next_hit(Vec2{0.5, -0.25 + 1099511627776.0}, u, 0.0, -1, 10.0);
  ASSERT_EQ(near.kind, HitKind::wall);
  ASSERT_EQ(far.kind, HitKind::wall);
  EXPECT_NEAR(far.t, near.t, 1e-3);  // the far start's position is resolved to 2^-12
}

TEST(BoundaryGeometry, LengthsAreThePerimeters) {
  EXPECT_NEAR(DiscTable{1.3}.boundary_length(), 2.0 * kPi * 1.3, 1e-15);
  EXPECT_NEAR((StadiumTable{0.7, 1.1}.boundary_length()), 4.0 * 0.7 + 2.0 * kPi * 1.1, 1e-15);
  EXPECT_NEAR(rectangle(2.0, 1.2).boundary_length(), 6.4, 1e-15);
  EXPECT_NEAR((SinaiTable{1.0, 0.3}.boundary_length()), 2.0 * kPi * 0.3, 1e-15);
  // ellipse: the periodic trapezoid rule of the speed converges geometrically
  for (const Case<EllipseTable>& c : ellipses()) {
    const int n = 4000;
    double sum = 0.0;
    for (int i = 0; i < n; ++i) sum += c.table.curve_speed(2.0 * kPi * i / n);
    EXPECT_NEAR(c.table.boundary_length(), sum * 2.0 * kPi / n, kRoundTrip * sum) << c.name;
  }
}

// The ellipse's arc length against Simpson's rule of its speed, so that an error shared by the
// forward and inverse maps (which the round trips cannot see) is caught.
TEST(BoundaryGeometry, EllipseArcLengthIsTheIntegralOfTheSpeed) {
  for (const Case<EllipseTable>& c : ellipses()) {
    for (double s : {0.03, 0.2, 0.25, 0.37, 0.5, 0.61, 0.9}) {
      const double th = 2.0 * kPi * s;
      const int n = 200000;  // Simpson: error ~ (th / n)^4 |speed''''| far below 1e-12
      double sum = c.table.curve_speed(0.0) + c.table.curve_speed(th);
      for (int i = 1; i < n; ++i) sum += (i % 2 ? 4.0 : 2.0) * c.table.curve_speed(th * i / n);
      EXPECT_NEAR(c.table.arc_length(s), sum * th / (3.0 * n), 1e-11) << c.name << " s = " << s;
    }
  }
}

TEST(BoundaryGeometry, EllipseCurveParameterSpeedIsDerivativeOfPoint) {
  for (const Case<EllipseTable>& c : ellipses()) {
    const EllipseTable& e = c.table;
    for (int i = 0; i < 200; ++i) {
      const double th = 2.0 * kPi * (i + 0.5) / 200.0;
      const BoundaryFrame f = e.curve_frame(th);
      EXPECT_EQ(f.x.x, e.a * std::cos(th));
      EXPECT_EQ(f.x.y, e.b * std::sin(th));
      const Vec2 dx = (0.5 / kStep) * (e.curve_frame(th + kStep).x - e.curve_frame(th - kStep).x);
      EXPECT_NEAR(norm(dx), e.curve_speed(th), kTangentTol * e.a) << c.name;
      EXPECT_LE(dist((1.0 / e.curve_speed(th)) * dx, f.tangent), kTangentTol * e.a / e.b) << c.name;
    }
  }
}

TEST(BoundaryGeometry, EllipseWithEqualAxesIsTheDisc) {
  const DiscTable disc{1.3};
  const EllipseTable ellipse{1.3, 1.3};
  EXPECT_NEAR(ellipse.boundary_length(), disc.boundary_length(), kSameCircle);
  for (int i = 0; i < 500; ++i) {
    const double s = i / 500.0;
    const BoundaryFrame d = disc.boundary_frame(s), e = ellipse.boundary_frame(s);
    EXPECT_LE(dist(d.x, e.x), kSameCircle);
    EXPECT_LE(dist(d.nu, e.nu), kSameCircle);
    EXPECT_LE(dist(d.tangent, e.tangent), kSameCircle);
    EXPECT_NEAR(d.kappa, e.kappa, kSameCircle);
    EXPECT_NEAR(disc.arc_length(s), ellipse.arc_length(s), kSameCircle * 10.0);
    EXPECT_LE(circular_gap(disc.boundary_parameter(d.x, 0), ellipse.boundary_parameter(d.x, 0)), kSameCircle);
  }
}

// docs/config.md: the stadium starts at the right end of its top segment, (0, R) when the
// segments vanish, a quarter turn after the disc's start (R, 0).
TEST(BoundaryGeometry, StadiumWithoutSegmentsIsTheDiscTurnedByAQuarter) {
  const DiscTable disc{1.1};
  const StadiumTable stadium{0.0, 1.1};
  EXPECT_TRUE(breaks_of(stadium).empty());
  EXPECT_NEAR(stadium.boundary_length(), disc.boundary_length(), kSameCircle);
  for (int i = 0; i < 500; ++i) {
    const double s = i / 500.0;
    const BoundaryFrame st = stadium.boundary_frame(s), d = disc.boundary_frame(wrap_unit(s + 0.25));
    EXPECT_LE(dist(st.x, d.x), kSameCircle) << "s = " << s;
    EXPECT_LE(dist(st.nu, d.nu), kSameCircle);
    EXPECT_LE(dist(st.tangent, d.tangent), kSameCircle);
    EXPECT_NEAR(st.kappa, d.kappa, kSameCircle);
  }
}

TEST(BoundaryGeometry, PolygonVerticesAreTheBreaksWithTheirInteriorAngles) {
  const PolygonTable rect = rectangle(2.0, 1.2);
  for (const BoundaryBreak& b : breaks_of(rect)) EXPECT_NEAR(b.interior_angle, 0.5 * kPi, kAngleTol);
  for (const BoundaryBreak& b : breaks_of(regular_polygon(5, 1.0, 0.1))) EXPECT_NEAR(b.interior_angle, 0.6 * kPi, kAngleTol);
  for (const BoundaryBreak& b : breaks_of(regular_polygon(3, 1.0, 0.3))) EXPECT_NEAR(b.interior_angle, kPi / 3.0, kAngleTol);
  for (const Case<PolygonTable>& c : polygons()) {
    const std::vector<BoundaryBreak> br = breaks_of(c.table);
    ASSERT_EQ(int(br.size()), c.table.n) << c.name;
    double sum = 0.0;
    for (int i = 0; i < c.table.n; ++i) {
      EXPECT_EQ(br[i].kind, BreakKind::vertex);
      EXPECT_LE(dist(c.table.boundary_frame(br[i].s).x, c.table.v[i]), kRoundTrip) << c.name << " vertex " << i;
      sum += br[i].interior_angle;
    }
    EXPECT_NEAR(sum, (c.table.n - 2) * kPi, 1e-12) << c.name;
  }
  // the rectangle of the configs starts at its lower left corner and runs along the bottom
  EXPECT_EQ(rect.boundary_frame(0.0).x.x, -1.0);
  EXPECT_EQ(rect.boundary_frame(0.0).x.y, -0.6);
  EXPECT_NEAR(breaks_of(rect)[1].s, 2.0 / 6.4, 1e-15);
}

TEST(BoundaryGeometry, StadiumCurvatureJumpsAtTheFourJunctions) {
  const StadiumTable st{0.7, 1.1};
  const std::vector<BoundaryBreak> br = breaks_of(st);
  ASSERT_EQ(br.size(), 4u);
  const double L = st.boundary_length();
  const double l[4] = {0.0, 1.4, 1.4 + kPi * 1.1, 2.8 + kPi * 1.1};
  for (int i = 0; i < 4; ++i) {
    EXPECT_NEAR(br[i].s * L, l[i], 1e-14);
    EXPECT_EQ(br[i].kind, BreakKind::curvature_jump);
    // segments end into caps at 1 and 3, caps into segments at 0 and 2
    EXPECT_EQ(br[i].kappa_after, i % 2 ? -1.0 / 1.1 : 0.0);
    EXPECT_EQ(br[i].kappa_before, i % 2 ? 0.0 : -1.0 / 1.1);
  }
}

// A collision point found by the flight solver maps (with the part of its Hit) to a parameter
// whose frame is the collision point with the table's normal; the flights continue by specular
// reflection so that every part is visited.
template <class Table>
void check_hits(const Case<Table>& c, double g, Vec2 lo, Vec2 hi) {
  SCOPED_TRACE(c.name + " g = " + std::to_string(g));
  const Table& t = c.table;
  std::mt19937_64 gen(17);
  std::uniform_real_distribution<double> ux(lo.x, hi.x), uy(lo.y, hi.y), ang(-kPi, kPi);
  Vec2 x;
  do x = {ux(gen), uy(gen)};
  while (!c.inside(x));
  // speed 3: enough energy to reach every wall under g = 0.7 in these tables
  const double a = ang(gen);
  Vec2 u = {3.0 * std::cos(a), 3.0 * std::sin(a)};
  int last = -1, checked = 0;
  std::vector<int> parts_seen;
  for (int k = 0; k < 2000; ++k) {
    const Hit<Vec2> h = t.next_hit(x, u, g, last, 1e9);
    ASSERT_TRUE(h.kind == HitKind::wall || h.kind == HitKind::corner) << "impact " << k;
    const Vec2 p = flight_position(x, u, Vec2{0.0, -g}, h.t);
    const Vec2 v = {u.x, u.y - g * h.t};
    const double s = t.boundary_parameter(p, h.part);
    const BoundaryFrame f = t.boundary_frame(s);
    // a Sinai point is unfolded: the frame is on the scatterer of cell (0, 0)
    Vec2 cell = {0.0, 0.0};
    if constexpr (std::is_same_v<Table, SinaiTable>)
      cell = {t.side * std::round(p.x / t.side), t.side * std::round(p.y / t.side)};
    // along the wall: the inverse map's error; across it: the flight solver's residual
    EXPECT_LE(std::fabs(dot(f.x + cell - p, f.tangent)), kHitPoint) << "impact " << k;
    EXPECT_LE(std::fabs(dot(f.x + cell - p, f.nu)), kOnWall) << "impact " << k;
    EXPECT_LE(dist(f.nu, h.nu), kHitNormal) << "impact " << k;
    EXPECT_EQ(f.part, h.part) << "impact " << k;
    ++checked;
    if (std::find(parts_seen.begin(), parts_seen.end(), h.part) == parts_seen.end()) parts_seen.push_back(h.part);
    if (h.kind == HitKind::corner) break;
    x = p;
    u = v - (2.0 * dot(v, h.nu)) * h.nu;
    last = h.part;
  }
  EXPECT_GT(checked, 100);
  if constexpr (std::is_same_v<Table, PolygonTable>) {
    EXPECT_EQ(int(parts_seen.size()), t.n);
  } else if constexpr (std::is_same_v<Table, StadiumTable>) {
    EXPECT_EQ(parts_seen.size(), 4u);
  }
}

TEST(BoundaryGeometry, CollisionPointsMapToTheirParameter) {
  for (double g : {0.0, 0.7}) {
    for (const auto& c : discs()) check_hits(c, g, {-1.3, -1.3}, {1.3, 1.3});
    for (const auto& c : stadiums()) check_hits(c, g, {-3.0, -1.2}, {3.0, 1.2});
    for (const auto& c : ellipses()) check_hits(c, g, {-5.0, -3.0}, {5.0, 3.0});
    for (const auto& c : polygons()) check_hits(c, g, {-1.8, -1.8}, {1.8, 1.8});
  }
  for (const auto& c : sinais()) check_hits(c, 0.0, {-0.5, -0.5}, {0.5, 0.5});
}

TEST(BoundaryGeometry, StripWallsRunWithTheDomainOnTheLeft) {
  const StripTable strip{2.0};
  for (double s : {0.0, 0.2, 0.49, 0.5, 0.7, 0.99}) {
    const BoundaryFrame f = strip.boundary_frame(s);
    EXPECT_EQ(f.part, s < 0.5 ? 0 : 1);
    EXPECT_EQ(f.x.x, s < 0.5 ? -1.0 : 1.0);
    EXPECT_EQ(f.kappa, 0.0);
    EXPECT_LE(dist(f.nu, rot90(f.tangent)), kUnitTol);
    EXPECT_LT(std::fabs(f.x.x + kInsideStep * f.nu.x), 1.0);  // into the strip
    EXPECT_GT(std::fabs(f.x.x - kInsideStep * f.nu.x), 1.0);
    // the parameter of a wall point at any height picks the same wall
    const Vec2 p = {f.x.x, 3.7};
    EXPECT_EQ(strip.boundary_frame(strip.boundary_parameter(p, f.part)).part, f.part);
  }
  EXPECT_EQ(strip.boundary_frame(0.1).tangent.y, -1.0);  // left wall: downwards
  EXPECT_EQ(strip.boundary_frame(0.6).tangent.y, 1.0);   // right wall: upwards
  const Hit<Vec2> h = strip.next_hit({0.3, 0.0}, {1.0, 0.4}, 1.0, -1, 1e9);
  EXPECT_EQ(strip.boundary_frame(strip.boundary_parameter({1.0, 0.28}, h.part)).nu.x, h.nu.x);
}

// The start of a boundary or impact run reads the frame: boundary_point is the frame's point,
// normal and part, bit for bit.
TEST(BoundaryGeometry, BoundaryPointIsTheFrame) {
  for (int i = 0; i < 100; ++i) {
    const double s = i / 100.0;
    const auto same = [s](const auto& table) {
      const BoundaryFrame f = table.boundary_frame(s);
      const auto bp = table.boundary_point(s);
      EXPECT_EQ(bp.x.x, f.x.x);
      EXPECT_EQ(bp.x.y, f.x.y);
      EXPECT_EQ(bp.nu.x, f.nu.x);
      EXPECT_EQ(bp.nu.y, f.nu.y);
      EXPECT_EQ(bp.part, f.part);
    };
    same(DiscTable{1.3});
    same(StadiumTable{0.7, 1.1});
    same(EllipseTable{2.0, 1.0});
    same(rectangle(2.0, 1.2));
    same(SinaiTable{1.0, 0.3});
    same(StripTable{2.0});
  }
}

// ---- clearance: a lower bound on the distance to the wall (the slipping faces' step test) ----
// The distance of a point to the boundary, from a dense sample of boundary points: at most the
// sample spacing's sagitta (spacing^2 / (8 radius of curvature)) plus half a spacing's
// projection onto a straight part above the true distance (kDenseGap).
constexpr int kDenseSamples = 20000;
constexpr double kDenseGap = 1e-3;
// clearance above the true distance: rounding only.
constexpr double kClearanceRounding = 1e-12;

template <class Table>
std::vector<Vec2> dense_boundary(const Table& t) {
  std::vector<Vec2> b(kDenseSamples);
  for (int i = 0; i < kDenseSamples; ++i) b[i] = frame_at_length(t, t.boundary_length() * i / kDenseSamples).x;
  return b;
}
double sampled_distance(const std::vector<Vec2>& boundary, Vec2 p) {
  double d = INFINITY;
  for (const Vec2& b : boundary) d = std::fmin(d, dist(p, b));
  return d;
}

// Points of the box [-hx, hx] x [-hy, hy]: clearance never above the distance to the wall and
// positive inside (<= 0 outside); `exact`: within kDenseGap of it inside.
template <class Table>
void check_clearance(const Case<Table>& c, double hx, double hy, bool exact) {
  std::mt19937_64 gen(17);
  std::uniform_real_distribution<double> ux(-hx, hx), uy(-hy, hy);
  const std::vector<Vec2> boundary = dense_boundary(c.table);
  for (int i = 0; i < 300; ++i) {
    const Vec2 p{ux(gen), uy(gen)};
    const double d = sampled_distance(boundary, p), cl = c.table.clearance(p);
    if (!c.inside(p)) {
      EXPECT_LE(cl, kClearanceRounding) << c.name << " outside at (" << p.x << ", " << p.y << ")";
      continue;
    }
    EXPECT_GT(cl, 0.0) << c.name << " at (" << p.x << ", " << p.y << ")";
    EXPECT_LE(cl, d + kClearanceRounding) << c.name << " at (" << p.x << ", " << p.y << ")";
    if (exact) {
      EXPECT_GE(cl, d - kDenseGap) << c.name << " at (" << p.x << ", " << p.y << ")";
    }
  }
}

TEST(BoundaryGeometry, ClearanceIsALowerBoundOnTheDistanceToTheWall) {
  for (const auto& c : discs()) check_clearance(c, 1.4, 1.4, true);
  for (const auto& c : stadiums()) check_clearance(c, c.table.a + c.table.R + 0.1, c.table.R + 0.1, true);
  for (const auto& c : polygons()) check_clearance(c, 1.8, 1.3, true);
  for (const auto& c : sinais()) check_clearance(c, 0.5, 0.5, true);  // one cell: its scatterer is the nearest
  for (const auto& c : ellipses()) {
    check_clearance(c, c.table.a + 0.1, c.table.b + 0.1, false);
    // the bound at the centre is the distance there, the smaller semi-axis
    EXPECT_DOUBLE_EQ(c.table.clearance({0.0, 0.0}), std::fmin(c.table.a, c.table.b)) << c.name;
  }
  const StripTable strip{2.0};
  for (double x : {-0.9, -0.2, 0.0, 0.5, 0.99}) {
    const Vec2 p{x, 3.0};
    const double left = strip.next_hit(p, {-1.0, 0.0}, 0.0, -1, 1e9).t, right = strip.next_hit(p, {1.0, 0.0}, 0.0, -1, 1e9).t;
    EXPECT_NEAR(strip.clearance(p), std::fmin(left, right), kClearanceRounding) << "strip at x " << x;
  }
}

}  // namespace
}  // namespace skipstone
