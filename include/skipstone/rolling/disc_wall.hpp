// The circular wall of roll4:disc in closed form, for the rolling run of table_roll.hpp (paper
// Sections 5.1-5.5, Proposition 12 with kappa = -1/R; Figures 19-20):
//   flat parts: the centre's projection on a straight chord of C, its end where it meets the
//     circle in closed form (time_to_rim);
//   N^c: both blocks of Proposition 12 with the constant curvature,
//     transversal  (v1, v2, S12; phi, s) as in disc_transversal.hpp, s the arc length along the
//                  rim from the entry point at the rim angle theta (theta + s / R later on),
//     longitudinal v3'  = eta (f_s v2 S23 - v1 S13 / r) - G,
//                  S13' = -f_c v2 S23 + eta v1 v3 / r,
//                  S23' =  f_c v2 S13 - eta f_s v2 v3,      x3' = v3,
//   each xi' = A xi (- G e1) with A skew, so E1 and E2 + G x3 are invariants; after every step
//   (v1, v2, S12) is rescaled onto 2 E1 and (v3, S13, S23) onto 2 (E2 + G x3) - 2 G x3 of the
//   trajectory's start (the latter only where the correction is a round-off-sized one);
//   the circle has no breaks; a passage ends at phi = 0 (back to N^+) or phi = pi (over to N^-).
// The general wall (table_wall.hpp) on the disc table integrates the same equations along the
// wall's arc length from a fixed origin and finds the chords by the no-slip disc's flight solve;
// this one keeps roll4:disc's own arithmetic, in double or float (T): the float kernel sets the
// trajectory up in double and rounds it, and integrates at the float tolerances (rtol, atol >=
// 1e-5), as the float no-slip kernels do.
#pragma once
#include "skipstone/precision.hpp"
#include "skipstone/rolling/contact_force.hpp"
#include "skipstone/rolling/disc_junction.hpp"
#include "skipstone/rolling/disc_output.hpp"
#include "skipstone/rolling/disc_transversal.hpp"
#include "skipstone/rolling/table_roll.hpp"
#include "skipstone/rolling/table_state_row.hpp"
#include "skipstone/tables/disc.hpp"

namespace skipstone {

// Both blocks on N^c, y = (v1, v2, S12, cos phi, sin phi, s, v3, S13, S23, x3); component k
// at y[k * S] (S = W for the CPU backend's lanes, as in disc_transversal_rhs).
template <int S = 1, class T>
SKIPSTONE_HD SKIPSTONE_INLINE void disc_rim_rhs(same_t<T> kappa, same_t<T> r, same_t<T> eta, same_t<T> G, const T* y,
                                                T* f) {
  T fc, fs;
  disc_transversal_rhs<S>(kappa, r, eta, y, f, fc, fs);
  longitudinal_rhs<S>(fc, fs, r, eta, G, y, f);
}

template <class T>
struct DiscRimSystemT {
  T kappa, r, eta, G;
  T xi;        // sqrt(2 E1)
  T k2_total;  // 2 (E2 + G x3)
  T g;         // the physical gravity (contact forces; RollModelT::g)
  static constexpr int N = 10;

  // (a template over the scalar U: T, and the Duals of the tangent dynamics, tangent/rim_tangent.hpp)
  template <class U>
  SKIPSTONE_HD void rhs(const U* y, U* f) const {
    disc_rim_rhs(kappa, r, eta, G, y, f);
  }
  // The surface's force on the ball per unit mass at y (contact_force.hpp), gravity along the axis.
  SKIPSTONE_HD ContactForce<T> contact(const T* y) const {
    T fc, fs, f[N];
    disc_transversal_rhs(kappa, r, eta, y, f, fc, fs);
    longitudinal_rhs(fc, fs, r, eta, G, y, f);
    return edge_contact(y, f, fc, fs, r, T(0), T(0), T(0), f[6] + g);
  }
  SKIPSTONE_HD void project(T* y) const {
    project_transversal(y, xi);
    rescale_block(y + 6, k2_total - T(2) * G * y[9]);
  }
  SKIPSTONE_HD T radius() const { return r; }
  SKIPSTONE_HD T h_max() const { return r / xi; }
};
using DiscRimSystem = DiscRimSystemT<double>;

template <class T>
struct DiscWall {
  using Scalar = T;
  using Sys = DiscRimSystemT<T>;
  static constexpr bool kChords = true;
  static constexpr bool kHasBreaks = false;
  static constexpr bool kStateRows = true;  // roll4's rows of table_state_row.hpp
  static constexpr int kStateColumns = 12;
  using Piece = T;                          // a start on N^c: the rim angle of its point (resume)

  T R;
  T theta;     // the rim angle where the current passage started
  bool on_rim;  // the flat part starts on the rim (a chord)

  // A start on the circle (up to round-off) is moved onto it: it may be moving outward and
  // enters N^c at once.
  SKIPSTONE_HD void start(PlateStateT<T>& s) {
    const T pp = dot(s.p, s.p), R2 = R * R;
    on_rim = pp >= R2 * (T(1) - ScalarConstants<T>::on_rim);
    if (on_rim) s.p = (R / sqrt(pp)) * s.p;
  }
  SKIPSTONE_HD bool on_wall() const { return on_rim; }
  // For a slipping face's flight (slipping_face.hpp): off the rim after its first step; whether
  // a point lies on the plate C, and its distance to the rim; the wall part a flight from the
  // rim starts on.
  SKIPSTONE_HD void off_wall() { on_rim = false; }
  SKIPSTONE_HD bool contains(Vec2T<T> p) const { return dot(p, p) <= R * R; }
  SKIPSTONE_HD double clearance(Vec2 p) const { return double(R) - norm(p); }
  SKIPSTONE_HD int wall_part() const { return 0; }

  SKIPSTONE_HD T time_to_wall(const PlateStateT<T>& s, T, double, int& part) const {
    part = 0;
    return time_to_rim(s.p, s.u, R, on_rim);
  }

  SKIPSTONE_HD void enter(const PlateStateT<T>& s, int, const RollModelT<T>& m, T k1, T k2, Sys& sys, T* y) {
    theta = atan2(s.p.y, s.p.x);
    plate_to_rim(s, theta, y);
    sys = {T(-1) / R, m.r, m.eta, m.G, sqrt(k1), k2, m.g};
  }

  // A start on N^c at the rim angle theta0 (y[5] = 0 there); sys's invariants are left to
  // set_invariants.
  SKIPSTONE_HD void resume(T theta0, const T*, const RollModelT<T>& m, Sys& sys) {
    theta = theta0;
    on_rim = false;
    sys = {T(-1) / R, m.r, m.eta, m.G, T(0), T(0), m.g};
  }
  SKIPSTONE_HD static void set_invariants(Sys& sys, T k1, T k2) {
    sys.xi = sqrt(k1);
    sys.k2_total = k2;
  }

  SKIPSTONE_HD double boundary_parameter(const PlateStateT<T>& s, int) const {
    return DiscTable(R).boundary_parameter(Vec2{s.p.x, s.p.y}, 0);
  }
  SKIPSTONE_HD T edge_height(const Sys&, const T* y) const { return y[9]; }
  SKIPSTONE_HD DiscRow edge_row(const Sys&, const T* y, T r) const { return rim_row(y, theta, R, r); }
  // A face's row (disc_output.hpp) and the acceleration of its position columns under G (the axis).
  SKIPSTONE_HD DiscRow plate_row(const PlateStateT<T>& s, T r) const { return skipstone::plate_row<10>(s, r); }
  static SKIPSTONE_HD Vec3 flight_acceleration(double G) { return Vec3{0.0, 0.0, -G}; }
  // The rim point of the frame state y and its frame (e1 the outward normal, e2 along the rim).
  SKIPSTONE_HD EdgePointT<T> edge_point(const Sys&, const T* y) const {
    const Vec2T<T> n = rim_normal(theta + y[5] / R);
    return {R * n, n, rot90(n)};
  }
  SKIPSTONE_HD Vec3 edge_velocity(const Sys& sys, const T* y) const {
    const EdgePointT<T> e = edge_point(sys, y);
    return edge_row_velocity<10>(y, e.e1, e.e2);
  }
  SKIPSTONE_HD double passage_arc(const Sys&, const T* y) const { return y[5]; }

  SKIPSTONE_HD void write_plate_row(const PlateStateT<T>& s, double* row) const { write_plate_state_row<10>(s, row); }
  SKIPSTONE_HD void write_edge_row(const Sys& sys, const T* y, double* row) const {
    write_edge_state_row<10>(edge_point(sys, y), y, row);
  }

  SKIPSTONE_HD PlateStateT<T> leave(const Sys&, const T* y) {
    on_rim = true;
    return rim_to_plate(y, theta + y[5] / R, R);
  }
};

}  // namespace skipstone
