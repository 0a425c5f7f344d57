// The boundary of a 2D table as a curve, one description shared by the no-slip tables and the
// rolling models (docs/models.md, "The boundary of a table"). Every 2D table gives, as a
// function of its normalised boundary parameter s in [0, 1) (the `boundary_s` of the configs):
// the point, the unit tangent, the inward unit normal and the signed curvature (BoundaryFrame),
// the places where the curvature jumps or the tangent turns (BoundaryBreak), the total length,
// arc length <-> s, and the inverse map from a point on the wall (and the part a Hit names) to s.
//
// Conventions. Arc length l runs with the domain of centres on the LEFT (counterclockwise around
// an outer wall, clockwise around a scatterer); tangent = d point / dl; nu = J tangent (tangent
// turned counterclockwise by pi/2) is the inward normal. The curvature kappa is signed by
//   d nu / dl = kappa tangent,   d tangent / dl = -kappa nu,
// so kappa < 0 where the wall is convex seen from the domain (disc of radius R: -1/R), 0 on a
// straight wall and kappa > 0 on a scatterer seen from outside (Sinai disc of radius rho: 1/rho).
#pragma once
#include "skipstone/tables/hit.hpp"

namespace skipstone {

struct BoundaryFrame {
  Vec2 x;        // the point on the wall
  Vec2 tangent;  // unit tangent d x / dl, the domain on its left
  Vec2 nu;       // inward unit normal, J tangent
  double kappa;  // signed curvature: d nu / dl = kappa tangent
  int part;      // the boundary component, as Hit::part names it
};

// The frame of a wall point from its inward normal: tangent = -J nu, so that J tangent = nu exactly.
SKIPSTONE_HD SKIPSTONE_INLINE BoundaryFrame frame_from_normal(Vec2 x, Vec2 nu, double kappa, int part) {
  return {x, {nu.y, -nu.x}, nu, kappa, part};
}

enum class BreakKind : int {
  curvature_jump = 0,  // the tangent is continuous, kappa jumps
  vertex = 1,          // the tangent turns: a corner of the wall
};

// A place on the boundary where the frame is not smooth. "Before" and "after" are the one-sided
// limits along increasing arc length.
struct BoundaryBreak {
  double s;               // normalised boundary parameter of the break
  BreakKind kind;
  double kappa_before;    // kappa on the arc that ends here
  double kappa_after;     // kappa on the arc that starts here
  double interior_angle;  // the angle of the domain at the break, in (0, pi); pi at a curvature jump
};

// Enough for every table: a polygon has at most 16 vertices, a stadium 4 curvature jumps.
constexpr int kMaxBoundaryBreaks = 16;

// s reduced to [0, 1) (s = 1 and rounding just below 0 give 0).
SKIPSTONE_HD SKIPSTONE_INLINE double wrap_unit(double s) {
  const double r = s - floor(s);
  return r < 1.0 ? r : 0.0;
}

// The inverse map of a wall that is a circle arc: the angle of d = p - c measured counterclockwise
// from the unit direction m, in (-pi, pi].
SKIPSTONE_HD SKIPSTONE_INLINE double angle_from(Vec2 m, Vec2 d) { return atan2(cross(m, d), dot(m, d)); }

}  // namespace skipstone
