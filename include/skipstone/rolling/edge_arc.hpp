// The wall of a 2D table as a rolling ball moves along it (paper Section 5.2, Proposition 12 with
// a general curvature): one smooth piece of the boundary at a time, between two breaks (the
// stadium's curvature jumps) or the whole wall when it is smooth (disc, ellipse, Sinai scatterer).
//
// Frame (the paper's, Section 5.2): e2 = the unit tangent in the direction of increasing arc
// length l (the table's boundary.hpp convention: domain of centres on the left), e1 = -nu the
// outward normal of the plate, e2 = J e1, and d e1 / dl = -kappa e2 with kappa the signed
// curvature of boundary.hpp (kappa < 0 on a convex wall, > 0 around the Sinai scatterer).
//
// Along a piece the ball's position is a curve coordinate q (EdgeArc::curvature_terms gives
// kappa(q) and dq/dl, as below):
//   line    q = l;     b(q) = b_ref + (q - q_ref) e2,                  kappa = 0
//   circle  q = l;     e1(q) = e1_ref turned by -kappa (q - q_ref),    b = c - e1 / kappa
//   ellipse q = theta; b = (a cos q, b sin q), e1 along (b.x / a^2, b.y / b^2),
//                      kappa = -a b / speed^3, dq/dl = 1 / speed, speed = |db/dq|
//   vertex  q = psi;   b = the vertex, e1(q) = e1_ref turned by q (from the outward normal of
//                      the edge that ends there to that of the edge that starts there): the
//                      limit of a circle of radius rho -> 0 (kappa = -1/rho), where the centre
//                      moves on the sphere of radius r about the vertex (edge_system.hpp)
// so the ellipse is integrated along its curve parameter (no arc-length inversion) and the
// constant-curvature pieces need nothing but q. The edge system (edge_system.hpp) takes a piece's
// curvature as the quotient kappa = kn / kd and its coordinate rate dq/dl = C / kd:
//   line (0, 1, 1); circle of radius R on a convex wall (-1, R, R), around a Sinai scatterer of
//   radius rho (+1, rho, rho); vertex (-1, 0, 1), the circle's limit rho -> 0 in q = psi;
//   ellipse (-a b, speed^3, speed^2), speed = |db/dq|,
// so that 1 / (1 - r kappa sin phi) = kd / (kd - r kn sin phi) has no division by 0 at a vertex
// and no branch on the shape but the ellipse's (the CPU backend's SIMD lanes). For the same
// reason the right-hand side's sines and cosines of q (the ellipse's terms, roll3's in-plane
// gravity along e1(q) and e2(q)) are poly_sincos's, which vectorises and rounds the same in a
// lane; the wall points of the junctions and the trace rows (point) use libm.
// Each table says which piece a wall point lies on (edge_arc_at) and which piece follows a
// break (edge_arc_after); q is unwrapped, so a ball going round a stadium more than once sees q
// grow past the perimeter.
// A piece is EdgeArcT<T> in the scalar type T of the edge system (double; float for the float
// kernels): the tables build it in double (EdgeArc) and arc_as rounds it once; its right-hand
// side terms and wall points are computed in T, its arc lengths (an output) in double.
#pragma once
#include "skipstone/poly_sincos.hpp"
#include "skipstone/tables/disc.hpp"
#include "skipstone/tables/ellipse.hpp"
#include "skipstone/tables/polygon.hpp"
#include "skipstone/tables/sinai.hpp"
#include "skipstone/tables/stadium.hpp"
#include "skipstone/tables/strip.hpp"

namespace skipstone {

enum class ArcShape : int { line = 0, circle = 1, ellipse = 2, vertex = 3 };

// The ellipse's (kn, kd, C) at q (the header's).
template <class T>
SKIPSTONE_HD SKIPSTONE_INLINE void ellipse_terms(same_t<T> a, same_t<T> b, T q, T& n, T& d, T& C) {
  T s, c;
  poly_sincos(q, s, c);
  C = a * a * s * s + b * b * c * c;
  d = C * sqrt(C);
  n = -a * b;
}

// e1(q).y and e2(q).y on a line, circle or vertex piece: e1_ref turned by turn (q - q_ref).
template <class T>
SKIPSTONE_HD SKIPSTONE_INLINE void turned_normal_y(same_t<T> turn, same_t<T> q_ref, same_t<T> e1x_ref,
                                                   same_t<T> e1y_ref, T q, T& e1y, T& e2y) {
  T s, c;
  poly_sincos(turn * (q - q_ref), s, c);
  e1y = s * e1x_ref + c * e1y_ref;
  e2y = c * e1x_ref - s * e1y_ref;
}

// e1(q).y and e2(q).y on the ellipse: e1 along (cos q / a, sin q / b).
template <class T>
SKIPSTONE_HD SKIPSTONE_INLINE void ellipse_normal_y(same_t<T> a, same_t<T> b, T q, T& e1y, T& e2y) {
  T s, c;
  poly_sincos(q, s, c);
  const T gx = c / a, gy = s / b, n = T(1) / sqrt(gx * gx + gy * gy);
  e1y = n * gy;
  e2y = n * gx;
}

// A wall point in the paper's frame.
template <class T>
struct EdgePointT {
  Vec2T<T> b;       // the point of the wall
  Vec2T<T> e1, e2;  // outward normal, tangent (e2 = J e1)
};
using EdgePoint = EdgePointT<double>;

template <class T>
struct EdgeArcT {
  ArcShape shape;
  int part;                // the table's boundary part (Hit::part) of the piece
  T q_lo, q_hi;            // the piece's coordinate range; -inf, +inf on a smooth closed wall
  T kappa;                 // line, circle: the constant curvature
  T kn, kd, kc;            // line, circle, vertex: kappa = kn / kd, dq/dl = kc / kd (the header's C)
  T turn;                  // line, circle, vertex: e1(q) is e1_ref turned by turn (q - q_ref)
  T q_ref;                 // line, circle: the coordinate of the reference point (vertex: 0)
  Vec2T<T> b_ref, e1_ref;  // line: point and outward normal there; circle: centre c and e1 at q_ref
  T a, b;                  // ellipse: semi-axes along x and y
  int index;               // polygon: the edge (line) or vertex number
  T lap;                   // polygon: how many times round the wall q is (q_lo = lap perimeters + ...)

  // kn, kd, C (the header's) at q (U: T, or the Duals of the tangent dynamics, tangent/dual.hpp).
  template <class U>
  SKIPSTONE_HD void curvature_terms(U q, U& n, U& d, U& C) const {
    if (shape == ArcShape::ellipse) {
      ellipse_terms(a, b, q, n, d, C);
      return;
    }
    n = kn;
    d = kd;
    C = kc;
  }

  // e1(q).y and e2(q).y (roll3's in-plane gravity; U as curvature_terms).
  template <class U>
  SKIPSTONE_HD void normal_y(U q, U& e1y, U& e2y) const {
    if (shape == ArcShape::ellipse) ellipse_normal_y(a, b, q, e1y, e2y);
    else turned_normal_y(turn, q_ref, e1_ref.x, e1_ref.y, q, e1y, e2y);
  }

  SKIPSTONE_HD EdgePointT<T> point(T q) const {
    Vec2T<T> b_q, e1;
    if (shape == ArcShape::line) {
      e1 = e1_ref;
      b_q = b_ref + (q - q_ref) * rot90(e1_ref);
    } else if (shape == ArcShape::vertex) {
      const T c = cos(q), s = sin(q);
      e1 = {c * e1_ref.x - s * e1_ref.y, s * e1_ref.x + c * e1_ref.y};
      b_q = b_ref;
    } else if (shape == ArcShape::circle) {
      const T al = -kappa * (q - q_ref), c = cos(al), s = sin(al);
      e1 = {c * e1_ref.x - s * e1_ref.y, s * e1_ref.x + c * e1_ref.y};
      b_q = b_ref - (T(1) / kappa) * e1;
    } else {
      const T c = cos(q), s = sin(q);
      b_q = {a * c, b * s};
      const Vec2T<T> g = {c / a, s / b};
      e1 = (T(1) / norm(g)) * g;
    }
    return {b_q, e1, rot90(e1)};
  }

  // Arc length along the wall from coordinate q0 to q1 (signed; for the ellipse
  // l(theta) = b E(theta | 1 - a^2/b^2), elliptic_arc.hpp).
  SKIPSTONE_HD double arc_between(double q0, double q1) const {
    if (shape == ArcShape::vertex) return 0.0;
    if (shape != ArcShape::ellipse) return q1 - q0;
    const double ad = a, bd = b, m = 1.0 - (ad * ad) / (bd * bd);
    return bd * (elliptic_e(q1, m) - elliptic_e(q0, m));
  }
};
using EdgeArc = EdgeArcT<double>;

// A piece in scalar type T (rounded once from the tables' double one), and back.
template <class T, class U>
SKIPSTONE_HD SKIPSTONE_INLINE EdgeArcT<T> arc_as(const EdgeArcT<U>& a) {
  return {a.shape, a.part, T(a.q_lo), T(a.q_hi), T(a.kappa), T(a.kn), T(a.kd), T(a.kc), T(a.turn), T(a.q_ref),
          vec_as<T>(a.b_ref), vec_as<T>(a.e1_ref), T(a.a), T(a.b), a.index, T(a.lap)};
}

// A piece with no ends.
constexpr double kNoBreak = INFINITY;

// A piece of the given shape, range and reference frame (the polygon fields left at 0); a line's
// and a vertex's (kn, kd, C), which a circle overwrites.
SKIPSTONE_HD SKIPSTONE_INLINE EdgeArc make_arc(ArcShape shape, int part, double q_lo, double q_hi, double kappa,
                                               double q_ref, Vec2 b_ref, Vec2 e1_ref) {
  EdgeArc arc{};
  arc.shape = shape;
  arc.part = part;
  arc.q_lo = q_lo;
  arc.q_hi = q_hi;
  arc.kappa = kappa;
  arc.kn = shape == ArcShape::vertex ? -1.0 : 0.0;
  arc.kd = shape == ArcShape::vertex ? 0.0 : 1.0;
  arc.kc = 1.0;
  arc.turn = shape == ArcShape::vertex ? 1.0 : -kappa;
  arc.q_ref = q_ref;
  arc.b_ref = b_ref;
  arc.e1_ref = e1_ref;
  return arc;
}

// A circle of radius `radius` through the wall point p with outward normal e1, coordinate
// q = q_at_p there; sign -1 on a convex wall, +1 around a scatterer (kappa = sign / radius).
SKIPSTONE_HD SKIPSTONE_INLINE EdgeArc circle_arc(Vec2 p, Vec2 e1, double sign, double radius, double q_at_p, int part,
                                                 double q_lo, double q_hi) {
  const double kappa = sign / radius;
  EdgeArc arc = make_arc(ArcShape::circle, part, q_lo, q_hi, kappa, q_at_p, p + (1.0 / kappa) * e1, e1);
  arc.kn = sign;
  arc.kd = arc.kc = radius;
  return arc;
}

SKIPSTONE_HD SKIPSTONE_INLINE EdgeArc line_arc(Vec2 p, Vec2 e1, double q_at_p, int part, double q_lo, double q_hi) {
  return make_arc(ArcShape::line, part, q_lo, q_hi, 0.0, q_at_p, p, e1);
}

// ---- disc: one circle, q = arc length from the point where the ball meets the wall ----
SKIPSTONE_HD SKIPSTONE_INLINE EdgeArc edge_arc_at(const DiscTable& t, Vec2 p, int part, double& q) {
  q = 0.0;
  return circle_arc(p, (1.0 / norm(p)) * p, -1.0, t.R, 0.0, part, -kNoBreak, kNoBreak);
}

// ---- Sinai: the scatterer of the cell the point lies in, q = arc length (clockwise) ----
SKIPSTONE_HD SKIPSTONE_INLINE EdgeArc edge_arc_at(const SinaiTable& t, Vec2 p, int part, double& q) {
  q = 0.0;
  const Vec2 d = t.cell_centre(p) - p;
  return circle_arc(p, (1.0 / norm(d)) * d, 1.0, t.rho, 0.0, part, -kNoBreak, kNoBreak);
}

// ---- strip: two straight walls, q = arc length (-y on the left wall, y on the right) ----
// The strip's rolling system is roll3:strip, solved in closed form per segment; the general
// integrator runs on the strip table too, which checks one against the other.
SKIPSTONE_HD SKIPSTONE_INLINE EdgeArc edge_arc_at(const StripTable&, Vec2 p, int part, double& q) {
  q = part == 0 ? -p.y : p.y;
  return line_arc(p, {part == 0 ? -1.0 : 1.0, 0.0}, q, part, -kNoBreak, kNoBreak);
}

// ---- ellipse: q = theta, the point (a cos theta, b sin theta) ----
SKIPSTONE_HD SKIPSTONE_INLINE EdgeArc edge_arc_at(const EllipseTable& t, Vec2 p, int part, double& q) {
  q = atan2(p.y / t.b, p.x / t.a);
  EdgeArc arc = make_arc(ArcShape::ellipse, part, -kNoBreak, kNoBreak, 0.0, 0.0, {0.0, 0.0}, {0.0, 0.0});
  arc.a = t.a;
  arc.b = t.b;
  return arc;
}

// ---- stadium: q = arc length from s = 0 (boundary.hpp), lap k adds k times the perimeter ----
// The piece of part `part` (0 top segment, 1 left cap, 2 bottom segment, 3 right cap) in lap k.
SKIPSTONE_HD SKIPSTONE_INLINE EdgeArc stadium_arc(const StadiumTable& t, int part, double lap) {
  const double a = t.a, R = t.R, P = t.boundary_length();
  const double starts[5] = {0.0, 2.0 * a, 2.0 * a + kPi * R, 4.0 * a + kPi * R, P};
  const double lo = starts[part] + lap * P, hi = starts[part + 1] + lap * P;
  switch (part) {
    case 0: return line_arc({a, R}, {0.0, 1.0}, lo, 0, lo, hi);
    case 1: return circle_arc({-a, R}, {0.0, 1.0}, -1.0, R, lo, 1, lo, hi);
    case 2: return line_arc({-a, -R}, {0.0, -1.0}, lo, 2, lo, hi);
    default: return circle_arc({a, -R}, {0.0, -1.0}, -1.0, R, lo, 3, lo, hi);
  }
}

SKIPSTONE_HD SKIPSTONE_INLINE EdgeArc edge_arc_at(const StadiumTable& t, Vec2 p, int part, double& q) {
  if (!(t.a > 0.0)) {  // half_length 0: the disc of radius R, one circle without breaks
    q = t.boundary_parameter(p, part) * t.boundary_length();
    return circle_arc(p, (1.0 / norm(p)) * p, -1.0, t.R, q, part, -kNoBreak, kNoBreak);
  }
  const EdgeArc arc = stadium_arc(t, part, 0.0);
  double l = t.boundary_parameter(p, part) * t.boundary_length();
  if (part == 0 && l > arc.q_hi) l -= t.boundary_length();  // (a, R) rounded to just below s = 1
  q = l < arc.q_lo ? arc.q_lo : l > arc.q_hi ? arc.q_hi : l;
  return arc;
}

// The piece after a break: `forward` along increasing q (the ball's q' > 0 at the break).
SKIPSTONE_HD SKIPSTONE_INLINE EdgeArc edge_arc_after(const StadiumTable& t, const EdgeArc& arc, bool forward) {
  const double P = t.boundary_length();
  const double lap = floor((0.5 * (arc.q_lo + arc.q_hi)) / P);
  int part = arc.part + (forward ? 1 : -1);
  double next_lap = lap;
  if (part == 4) part = 0, next_lap += 1.0;
  if (part == -1) part = 3, next_lap -= 1.0;
  return stadium_arc(t, part, next_lap);
}

// ---- polygon and rectangle: edges (q = arc length from vertex 0, lap k adds k perimeters)
// and vertices (q = the angle turned, from 0 to the exterior angle) ----
SKIPSTONE_HD SKIPSTONE_INLINE double polygon_arc_start(const PolygonTable& t, int edge) {
  double l = 0.0;
  for (int i = 0; i < edge; ++i) l += norm(t.v[i + 1] - t.v[i]);
  return l;
}

SKIPSTONE_HD SKIPSTONE_INLINE EdgeArc polygon_edge_arc(const PolygonTable& t, int edge, double lap) {
  const double lo = polygon_arc_start(t, edge) + lap * t.boundary_length();
  const double len = norm(t.v[(edge + 1) % t.n] - t.v[edge]);
  EdgeArc arc = line_arc(t.v[edge], -1.0 * t.inward_normal(edge), lo, edge, lo, lo + len);
  arc.index = edge;
  arc.lap = lap;
  return arc;
}

// Vertex j, where edge j - 1 ends and edge j starts.
SKIPSTONE_HD SKIPSTONE_INLINE EdgeArc polygon_vertex_arc(const PolygonTable& t, int j, double lap) {
  const Vec2 before = -1.0 * t.inward_normal((j + t.n - 1) % t.n), after = -1.0 * t.inward_normal(j);
  const double exterior = atan2(cross(before, after), dot(before, after));
  EdgeArc arc = make_arc(ArcShape::vertex, j, 0.0, exterior, 0.0, 0.0, t.v[j], before);
  arc.index = j;
  arc.lap = lap;
  return arc;
}

SKIPSTONE_HD SKIPSTONE_INLINE EdgeArc edge_arc_at(const PolygonTable& t, Vec2 p, int part, double& q) {
  const EdgeArc arc = polygon_edge_arc(t, part, 0.0);
  const double l = arc.q_lo + dot(p - arc.b_ref, rot90(arc.e1_ref));
  q = l < arc.q_lo ? arc.q_lo : l > arc.q_hi ? arc.q_hi : l;
  return arc;
}

SKIPSTONE_HD SKIPSTONE_INLINE EdgeArc edge_arc_after(const PolygonTable& t, const EdgeArc& arc, bool forward) {
  const int n = t.n;
  if (arc.shape == ArcShape::line) {  // edge i: on to vertex i + 1, or back to vertex i
    const int i = arc.index;
    if (!forward) return polygon_vertex_arc(t, i, arc.lap);
    return i + 1 == n ? polygon_vertex_arc(t, 0, arc.lap + 1.0) : polygon_vertex_arc(t, i + 1, arc.lap);
  }
  const int j = arc.index;  // vertex j: on to edge j, or back to edge j - 1
  if (forward) return polygon_edge_arc(t, j, arc.lap);
  return j == 0 ? polygon_edge_arc(t, n - 1, arc.lap - 1.0) : polygon_edge_arc(t, j - 1, arc.lap);
}

// The piece that holds the wall point b with outward normal e1, q its coordinate there (a start
// on N^c from a state row, table_state_row.hpp): the smooth walls' piece at b (whose q = 0
// there), the stadium's segment or cap under b, and on a polygon the vertex piece at the vertex
// b lies on when e1 has turned from the edge normal there (q the angle turned), else the edge
// whose outward normal is nearest to e1.
SKIPSTONE_HD SKIPSTONE_INLINE EdgeArc edge_arc_through(const DiscTable& t, Vec2 b, Vec2, double& q) {
  return edge_arc_at(t, b, 0, q);
}
SKIPSTONE_HD SKIPSTONE_INLINE EdgeArc edge_arc_through(const SinaiTable& t, Vec2 b, Vec2, double& q) {
  return edge_arc_at(t, b, 0, q);
}
SKIPSTONE_HD SKIPSTONE_INLINE EdgeArc edge_arc_through(const StripTable& t, Vec2 b, Vec2 e1, double& q) {
  return edge_arc_at(t, b, e1.x < 0.0 ? 0 : 1, q);
}
SKIPSTONE_HD SKIPSTONE_INLINE EdgeArc edge_arc_through(const EllipseTable& t, Vec2 b, Vec2, double& q) {
  return edge_arc_at(t, b, 0, q);
}
SKIPSTONE_HD SKIPSTONE_INLINE EdgeArc edge_arc_through(const StadiumTable& t, Vec2 b, Vec2, double& q) {
  const int part = t.a > 0.0 && fabs(b.x) <= t.a ? (b.y > 0.0 ? 0 : 2) : (b.x < 0.0 ? 1 : 3);
  return edge_arc_at(t, b, part, q);
}
// A vertex piece is told by b at the vertex to kVertexPointTol of the polygon's diameter (its
// points are the vertex itself, rounded once in a float run) and e1 turned by more than
// kVertexTurnTol from both edges' normals.
constexpr double kVertexPointTol = 1e-6, kVertexTurnTol = 1e-12;
SKIPSTONE_HD SKIPSTONE_INLINE EdgeArc edge_arc_through(const PolygonTable& t, Vec2 b, Vec2 e1, double& q) {
  for (int j = 0; j < t.n; ++j) {
    if (!(norm(b - t.v[j]) <= kVertexPointTol * t.diameter)) continue;
    const EdgeArc arc = polygon_vertex_arc(t, j, 0.0);
    const double psi = atan2(cross(arc.e1_ref, e1), dot(arc.e1_ref, e1));
    if (psi > kVertexTurnTol && psi < arc.q_hi - kVertexTurnTol) {
      q = psi;
      return arc;
    }
  }
  int edge = 0;
  for (int i = 1; i < t.n; ++i)
    if (dot(-1.0 * t.inward_normal(i), e1) > dot(-1.0 * t.inward_normal(edge), e1)) edge = i;
  return edge_arc_at(t, b, edge, q);
}

// The smooth walls have no breaks: never called for them, but every table answers.
template <class Table>
SKIPSTONE_HD SKIPSTONE_INLINE EdgeArc edge_arc_after(const Table&, const EdgeArc& arc, bool) {
  return arc;
}

}  // namespace skipstone
