// roll3:strip: a 3D ball of radius r rolling on a vertical strip P = {|x1| <= L/2} of the
// vertical plane (x1, x2) in R^3, gravity along -x2 (paper Section 4.1, Figures 10-11). N_r is
// a cylinder over the stadium of stadium_segments.hpp in the (x1, x3) plane. Parallel frame
// E1 = unit tangent of the stadium (direction of increasing arc length), E2 = e2 (vertical),
// v = v1 E1 + v2 E2, S = s E1^E2. Section 4.1, Eq. (11) with a constant force:
//     v1' = 0 (= u),   v2' = -eta u k s - g_eff,   s' = eta u k v2,   x2' = v2,
// k = -1/r on the two half-cylinders and 0 on the flat parts (the paper's sign convention),
// g_eff = g / (1 + gamma^2) (Eq. (11); or `g_effective` directly). This is the block
// h = (v2, s, x2) of stadium_segments.hpp with w_arc = -eta u / r and G = g_eff, solved exactly
// per segment (the closed form X(t) = I(t)^-1 X(0) - I(t)^-1 int_0^t I G of Section 4.1).
//
// Start "plate": on the + sheet (x3 = +r) at x1 = `x1`, v1 = `v1`, v2 = `v2`, s = `spin`, height
// x2 = `z`. Start "state_file": a row (sigma, x2, v1, v2, s), the final state of a run (any
// segment). events = completed passages over a half-cylinder.
//
// Sink: one on_event per segment end (plus the start and the final state), as x = (sigma, x2)
// with sigma the arc length on the stadium (x1 and x3 follow from it), u = (v1, v2), spin s,
// nu = 0 (the trace's contact columns repeat x).
// No-slip correspondence (Theorem 8, r -> 0; tested against the 2D `strip`): the passage over
// an edge is the no-slip map Eq. (3) with beta = +pi eta when the 2D state is taken as
// u = ((E1 . e1) v1, v2), spin_noslip = -(E1 . e1) s (on the + sheet E1 = -e1: spin_noslip = s).
// Eq. (13) fixes only cos(beta); the sign of this identification is the convention.
#pragma once
#include "skipstone/collision.hpp"
#include "skipstone/rolling/stadium_segments.hpp"

namespace skipstone {

struct StripEmit {
  template <class Sink>
  SKIPSTONE_HD static void emit(Sink& sink, double t, double sigma, const StadiumSetup& s) {
    const State2D st = {{s.v1, s.h.a}, s.h.b};
    sink.on_event(t, Vec2{sigma, s.h.z}, st, Vec2{0.0, 0.0});
  }
};

// The start of a scan point; false where it is masked.
SKIPSTONE_HD SKIPSTONE_INLINE bool roll3_strip_setup(const ScanSpec& spec, const ScanPoint& pt, StadiumSetup& s) {
  const double* p = pt.p;
  if (plate_start_masked(spec, p)) return false;
  s = plate_stadium_start(spec, pt, -1.0);  // w_arc = eta u k with k = -1/r
  s.h = {p[P_V2], p[P_SPIN], p[P_Z]};
  s.q = {0.0, 0.0, 0.0};
  s.s_const = 0.0;
  return true;
}

template <class Sink>
SKIPSTONE_HD TrajectoryResult simulate_roll3_strip(const ScanSpec& spec, const ScanPoint& pt, Sink& sink) {
  StadiumSetup s;
  if (!roll3_strip_setup(spec, pt, s)) return masked_result();
  return run_stadium<StripEmit, false>(s, stadium_stop(spec), sink);
}

}  // namespace skipstone
