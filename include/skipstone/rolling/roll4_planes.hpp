// roll4:planes: a 4D ball of radius r rolling on the region P = {|x1| <= L/2} x R^2 between
// two vertical planes in R^3 (paper Section 5.4, Theorem 13, Figures 15-17). N_r is the stadium
// of stadium_segments.hpp in the (x1, x4) plane times R^2 (x2 along the planes, x3 vertical).
// Frame X1 = unit tangent of the stadium (direction of increasing arc length), X2 = e2,
// X3 = e3, spin components S_ij = X_i . S X_j (the convention for which Proposition 12 reads as
// printed). With kappa = 0, Proposition 12 / Section 5.4:
//     v1' = 0,  v2' = -zeta S12,  S12' = zeta v2,
//     v3' = -zeta S13 - g_eff,  S13' = zeta v3,  S23' = 0,  x2' = v2,  x3' = v3,
// zeta = eta v1 / r on the half-circles and 0 on the flat parts, g_eff = g / (1 + gamma^2)
// (Eq. (11); or the paper's effective value `g_effective` directly). Hence the blocks
// h = (v3, S13, x3) with G = g_eff and q = (v2, S12, x2) with G = 0, both with w_arc = eta v1/r:
// a rim passage (time pi r / |v1|) turns both by pi eta sign(v1), a flat passage (L / |v1|) is
// free fall in x3. Exact per segment, no time stepping.
//
// Start "plate": on the + sheet (x4 = +r) at x1 = `x1` with (v1, v2, v3, S12, S13, S23), x3 = `z`,
// x2 = 0. Start "state_file": a row (sigma, x2, x3, v1, v2, v3, wx, wy, wz) as the sink sees the
// state (below), e.g. the final state of a run (any segment). events = completed rim passages.
//
// Sink: one on_event per segment end (plus the start and the final state), as
//   x = (sigma, x2, x3) with sigma the arc length on the stadium (layout in stadium_segments.hpp;
//       x1 and x4 follow from it), u = (v1, v2, v3), w = (S23, -S13, S12), nu = 0 (so the trace's
//       contact columns repeat x).
// w is minus the frame spin vector of S (S x = w_S x x gives w_S = (-S23, S13, -S12)): with this
// sign the frame state is the no-slip state of the 3D ball between two planes (cylinder:strip)
// after the frame change X1 -> (X1 . e1) e1, i.e. ambient u = ((X1.e1) v1, v2, v3),
// w = (S23, -(X1.e1) S13, (X1.e1) S12), and a rim passage is the no-slip map Eq. (3) with
// beta = +pi eta (Theorem 8, Eq. (13); tested). Eq. (13) fixes only cos(beta); the sign is this
// choice of orientation (the paper's Eq. (12) as printed turns the other way from the ODE above
// it).
#pragma once
#include "skipstone/collision.hpp"
#include "skipstone/rolling/stadium_segments.hpp"

namespace skipstone {

struct PlanesEmit {
  template <class Sink>
  SKIPSTONE_HD static void emit(Sink& sink, double t, double sigma, const StadiumSetup& s) {
    const State3D st = {{s.v1, s.q.a, s.h.a}, {s.s_const, -s.h.b, s.q.b}};
    sink.on_event(t, Vec3{sigma, s.q.z, s.h.z}, st, Vec3{0.0, 0.0, 0.0});
  }
};

// The start of a scan point; false where it is masked.
SKIPSTONE_HD SKIPSTONE_INLINE bool roll4_planes_setup(const ScanSpec& spec, const ScanPoint& pt, StadiumSetup& s) {
  const double* p = pt.p;
  if (plate_start_masked(spec, p)) return false;
  s = plate_stadium_start(spec, pt, 1.0);
  if (spec.start == StartKind::state) {  // the row's w = (S23, -S13, S12), as emitted
    s.h = {p[P_V3], -p[P_WY], p[P_Z]};
    s.q = {p[P_V2], p[P_WZ], p[P_X2]};
    s.s_const = p[P_WX];
  } else {
    s.h = {p[P_V3], p[P_S13], p[P_Z]};
    s.q = {p[P_V2], p[P_S12], 0.0};
    s.s_const = p[P_S23];
  }
  return true;
}

template <class Sink>
SKIPSTONE_HD TrajectoryResult simulate_roll4_planes(const ScanSpec& spec, const ScanPoint& pt, Sink& sink) {
  StadiumSetup s;
  if (!roll4_planes_setup(spec, pt, s)) return masked_result();
  return run_stadium<PlanesEmit, true>(s, stadium_stop(spec), sink);
}

}  // namespace skipstone
