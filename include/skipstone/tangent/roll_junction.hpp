// The tangent map of a rolling ball's flat parts and junctions (rolling/table_roll.hpp; paper
// Sections 5.1-5.3, the junction maps of rolling/disc_junction.hpp), in the coordinates the
// run keeps its state in:
//   on a flat part, P = N - 1 components: roll3 (N = 6) (p.x, p.y, u.x, u.y, A12); roll4
//     (N = 10) (p.x, p.y, u.x, u.y, A12, u3, A13, A23, z);
//   on N^c the frame state y itself, N components (v1, v2, S12, cos phi, sin phi, q[, v3, S13,
//     S23, x3]), with q the wall coordinate varied absolutely (roll4:disc's arc length from the
//     reference trajectory's entry point: a neighbour's q is measured from the same origin).
// Flight: the closed form is affine in the state, dp += t du (roll4 also dz += t du3).
// Junctions: the saltation matrix of a flow that switches at the event g = 0,
//   delta+ = J delta- + (f+ - J f-) (grad g . delta-) / (grad g . f-),
// J the Jacobian of the junction map at the event, f- and f+ the vector fields on either side;
// written as the neighbour's own event: it meets g = 0 a time dt = -(grad g . delta-) /
// (grad g . f-) later, there its state differs by delta- + f- dt, the junction map carries that
// through J, and the reference has moved on by f+ dt meanwhile:
//   delta+ = J (delta- + f- dt) - f+ dt.
//   entry (flat part -> N^c): g = e1 . (p - b), the wall's outward normal at the hit point b;
//     J is the derivative of plate_to_edge with the frame (e1, e2) and q moving with the contact
//     point along the wall;
//   exit (N^c -> flat part): g = sin phi = y[4]; J the derivative of edge_to_plate, the wall
//     point and its frame moving with q;
//   break of the wall (rolling/table_wall.hpp: next_piece, where the curvature jumps): g = q -
//     q_end, J the identity but on q, which the next piece may count afresh (a polygon's vertex
//     piece: the angle from 0); (delta- + f- dt) has no q component, so only f+ - f- remains.
// How the frame moves with q is all the junctions need of the wall (EdgeFrame): de1/dq =
// w e2, de2/dq = -w e1, db/dq = l e2; from a piece's (kn, kd, C) of rolling/edge_arc.hpp
// (kappa = kn / kd, dq/dl = C / kd, d e1 / dl = -kappa e2): w = -kn / C, l = kd / C.
#pragma once
#include "skipstone/rolling/disc_junction.hpp"
#include "skipstone/vec.hpp"

namespace skipstone {

// The wall at a junction point: its point, frame and their rates along the coordinate q.
struct EdgeFrame {
  Vec2 b, e1, e2;
  double w;  // de1/dq = w e2, de2/dq = -w e1
  double l;  // db/dq = l e2
};

// The vector field of a flat part at s (plate coordinates): roll3 under the in-plane gravity G
// along -y, roll4 under G along the axis.
template <int N>
SKIPSTONE_HD SKIPSTONE_INLINE void plate_flow(const PlateState& s, double G, double* f) {
  f[0] = s.u.x;
  f[1] = s.u.y;
  f[2] = 0.0;
  f[3] = N == 6 ? -G : 0.0;
  f[4] = 0.0;
  if constexpr (N == 10) {
    f[5] = -G;
    f[6] = f[7] = 0.0;
    f[8] = s.u3;
  }
}

// The flight over time t (plate coordinates).
template <int N>
SKIPSTONE_HD SKIPSTONE_INLINE void tangent_plate_flight(double* d, double t) {
  d[0] += t * d[2];
  d[1] += t * d[3];
  if constexpr (N == 10) d[8] += t * d[5];
}

// Entry from the flat part (state s at the hit, tangent dp in plate coordinates) into N^c at
// the frame fr (q: the entry state y's coordinate, f_edge = f(y)); writes the edge tangent dy.
// saltation = false leaves out the time shift (the tests show what it is worth).
template <int N>
SKIPSTONE_HD void tangent_enter_edge(const double* dp, const PlateState& s, double G, const EdgeFrame& fr,
                                     const double* f_edge, double* dy, bool saltation = true) {
  constexpr int P = N - 1;
  double fp[P], d[P];
  plate_flow<N>(s, G, fp);
  const double dt = saltation ? -(fr.e1.x * dp[0] + fr.e1.y * dp[1]) / dot(fr.e1, s.u) : 0.0;
  for (int i = 0; i < P; ++i) d[i] = dp[i] + fp[i] * dt;
  const double sg = s.sheet > 0 ? 1.0 : -1.0;
  const double dq = (fr.e2.x * d[0] + fr.e2.y * d[1]) / fr.l;  // along the wall
  const Vec2 de1 = (fr.w * dq) * fr.e2, de2 = (-fr.w * dq) * fr.e1;
  const Vec2 du = {d[2], d[3]};
  dy[0] = sg * (dot(du, fr.e1) + dot(s.u, de1));
  dy[1] = dot(du, fr.e2) + dot(s.u, de2);
  dy[2] = sg * d[4];
  dy[3] = dy[4] = 0.0;
  dy[5] = dq;
  if constexpr (N == 10) {
    const Vec2 a = {s.A13, s.A23}, da = {d[6], d[7]};
    dy[6] = d[5];
    dy[7] = sg * (dot(da, fr.e1) + dot(a, de1));
    dy[8] = dot(da, fr.e2) + dot(a, de2);
    dy[9] = d[8];
  }
  for (int i = 0; i < N; ++i) dy[i] -= f_edge[i] * dt;
}

// Exit from N^c at the edge state y (sin phi = 0, f_edge = f(y), tangent dy) onto the flat part
// with state s at the frame fr; writes the plate tangent dp.
template <int N>
SKIPSTONE_HD void tangent_leave_edge(const double* dy, const double* y, const double* f_edge, const EdgeFrame& fr,
                                     const PlateState& s, double G, double* dp, bool saltation = true) {
  constexpr int P = N - 1;
  const double dt = saltation ? -dy[4] / f_edge[4] : 0.0;
  double d[N];
  for (int i = 0; i < N; ++i) d[i] = dy[i] + f_edge[i] * dt;
  const double sg = y[3] > 0.0 ? 1.0 : -1.0;
  const double dq = d[5];
  const Vec2 de1 = (fr.w * dq) * fr.e2, de2 = (-fr.w * dq) * fr.e1, db = (fr.l * dq) * fr.e2;
  const Vec2 du = (sg * d[0]) * fr.e1 + d[1] * fr.e2 + (sg * y[0]) * de1 + y[1] * de2;
  dp[0] = db.x;
  dp[1] = db.y;
  dp[2] = du.x;
  dp[3] = du.y;
  dp[4] = sg * d[2];
  if constexpr (N == 10) {
    const Vec2 da = (sg * d[7]) * fr.e1 + d[8] * fr.e2 + (sg * y[7]) * de1 + y[8] * de2;
    dp[5] = d[6];
    dp[6] = da.x;
    dp[7] = da.y;
    dp[8] = d[9];
  }
  double fp[P];
  plate_flow<N>(s, G, fp);
  for (int i = 0; i < P; ++i) dp[i] -= fp[i] * dt;
}

// Across a break of the wall at the edge state y (f_before the old piece's vector field there,
// f_after the next piece's at the relabelled state), in place.
template <int N>
SKIPSTONE_HD SKIPSTONE_INLINE void tangent_cross_break(double* dy, const double* f_before, const double* f_after,
                                                       bool saltation = true) {
  const double dt = saltation ? -dy[5] / f_before[5] : 0.0;
  for (int i = 0; i < N; ++i) dy[i] += f_before[i] * dt;
  if (saltation) dy[5] = 0.0;
  for (int i = 0; i < N; ++i) dy[i] -= f_after[i] * dt;
}

}  // namespace skipstone
