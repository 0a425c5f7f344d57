// The rig of the driven rolling disk and ball: a rigid disk or ball (mass m0, radius r, moment
// d2 about its axle or centre, centre of mass at the geometric centre) with four point masses on
// circular rails about the centre, moved by a prescribed drive (a rolling robot actuated by
// internal masses). In the disk mass i (i = 1..4, mass m_i) rides the circle of radius r_i in
// the body's E1-E3 plane (the ball's rail planes: driven_ball.hpp),
//   zeta_i(theta) = r_i (cos theta, 0, sin theta)                          (Eq. 5.4),
// and its rail angle has the prescribed acceleration
//   u_i(t) = theta_i''(t) = a (-1)^i h(t),  h = 1 on [0, t1], (t2 - t)/(t2 - t1) on [t1, t2],
//   0 after                                                                 (Eq. 5.5),
// a continuous approximation of a short step, with kinks at t1 and t2 (t1 = t2: a step). The
// amplitude a is the config's `drive`; the document's example has a = 1, t1 = 0.1, t2 = 0.2.
// The moment about the axle is given as the project's gamma: d2 = m0 gamma^2 r^2 (gamma = 1,
// a thin ring, is the document's d2 = 1 with m0 = r = 1).
#pragma once
#include <cmath>

#include "skipstone/hd.hpp"
#include "skipstone/scan_point.hpp"

namespace skipstone {

constexpr int kDrivenMasses = 4;

struct DrivenRig {
  double m0, r, d2, g;
  double m[kDrivenMasses], rail[kDrivenMasses];  // masses and rail radii
  double amp, t1, t2;                            // the drive (Eq. 5.5)
  double mu_s;                                   // static friction coefficient (slip_time)
};

SKIPSTONE_HD SKIPSTONE_INLINE double rig_mass(const DrivenRig& rig) {
  double M = rig.m0;
  for (int i = 0; i < kDrivenMasses; ++i) M += rig.m[i];
  return M;
}

// h(t) of Eq. (5.5): the drive's shape, continuous, piecewise linear.
SKIPSTONE_HD SKIPSTONE_INLINE double drive_shape(const DrivenRig& rig, double t) {
  if (t <= rig.t1) return t >= 0.0 ? 1.0 : 0.0;
  if (t < rig.t2) return (rig.t2 - t) / (rig.t2 - rig.t1);
  return 0.0;
}

// u_i(t) for mass index i = 0..3 (the document's i + 1): a (-1)^(i+1) h(t).
SKIPSTONE_HD SKIPSTONE_INLINE double drive_of(const DrivenRig& rig, int i, double t) {
  const double sign = (i % 2 == 0) ? -1.0 : 1.0;
  return sign * rig.amp * drive_shape(rig, t);
}

// The first kink of the drive after t (t1, then t2), or INFINITY: integrator steps end there.
SKIPSTONE_HD SKIPSTONE_INLINE double next_drive_break(const DrivenRig& rig, double t) {
  if (t < rig.t1) return rig.t1;
  if (t < rig.t2) return rig.t2;
  return INFINITY;
}

// The rig of a scan point (the config's parameters; gamma from gamma, eta or beta).
SKIPSTONE_HD SKIPSTONE_INLINE DrivenRig driven_rig(const ScanSpec& spec, const ScanPoint& pt) {
  const double* p = pt.p;
  const double gamma = point_gamma(spec, pt);
  DrivenRig rig;
  rig.m0 = p[P_M0];
  rig.r = p[P_BALL_R];
  rig.d2 = rig.m0 * gamma * gamma * rig.r * rig.r;
  rig.g = p[P_G];
  for (int i = 0; i < kDrivenMasses; ++i) {
    rig.m[i] = p[P_M1 + i];
    rig.rail[i] = p[P_RAIL1 + i];
  }
  rig.amp = p[P_DRIVE];
  rig.t1 = p[P_DRIVE_T1];
  rig.t2 = p[P_DRIVE_T2];
  rig.mu_s = p[P_MU_S];
  return rig;
}

}  // namespace skipstone
