// driven:ball, one run: the state of driven_ball.hpp through the driven rigs' run (driven_run.hpp:
// GBS steps landing on the drive's kinks, the contact observables with |f| the length of the
// horizontal friction, the work-energy balance). Every rail angle and |Omega| count for the step
// limit. The start "rolling": the orientation Lambda0 = R_e3(heading) R_e2(-phi) R_e1(lean)
// (phi as driven:disk's, lean tips the rails' common plane out of e1-e3, heading turns the whole
// ball about the vertical), Omega0 = (wx, wy, wz) in the body frame, every rail angle theta,
// at rest on its rail, the contact point at the origin, the drive's clock at 0; a row of a state
// file (x, y, q, Omega, theta_1..4, theta_1..4', t: the final_state of an earlier run) starts from
// that state (q normalised; q = 0 is masked) on the drive's clock t. gamma_drift: the largest
// ||q|^2 - 1| over the accepted steps. The sink sees every accepted step as an event in space at
// the time since the start: the centre (x, y, r), its velocity, the spatial angular velocity
// Lambda Omega, contact normal e3.
#pragma once
#include <cmath>

#include "skipstone/collision.hpp"
#include "skipstone/rolling/driven_ball.hpp"
#include "skipstone/rolling/driven_run.hpp"

namespace skipstone {

// The product of quaternions a b, (w, x, y, z).
SKIPSTONE_HD SKIPSTONE_INLINE void quat_mul(const double* a, const double* b, double* out) {
  out[0] = a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];
  out[1] = a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2];
  out[2] = a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1];
  out[3] = a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0];
}

// The ball as a model of simulate_driven.
struct DrivenBallModel : DrivenBallSystem {
  static constexpr int kTime = kBallTime, kWork = kBallWork;

  // The start state but its clock; false where it is masked.
  SKIPSTONE_HD bool initial(const ScanSpec& spec, const ScanPoint& pt, double* y) const {
    const double* p = pt.p;
    if (spec.start == StartKind::state) {
      const double n = sqrt(p[P_Q0] * p[P_Q0] + p[P_Q1] * p[P_Q1] + p[P_Q2] * p[P_Q2] + p[P_Q3] * p[P_Q3]);
      if (!(n > 0.0)) return false;
      for (int k = 0; k < 4; ++k) y[kBallQuat + k] = p[P_Q0 + k] / n;
      y[kBallPos] = p[P_X];
      y[kBallPos + 1] = p[P_Y];
      for (int i = 0; i < kDrivenMasses; ++i) {
        y[kBallTheta + i] = p[P_THETA1 + i];
        y[kBallThetaDot + i] = p[P_RATE1 + i];
      }
    } else {
      initial_rolling(p, y);
    }
    y[kBallOmega] = p[P_WX];
    y[kBallOmega + 1] = p[P_WY];
    y[kBallOmega + 2] = p[P_WZ];
    return true;
  }
  // The start "rolling" but Omega.
  SKIPSTONE_HD static void initial_rolling(const double* p, double* y) {
    const double hz = 0.5 * p[P_BALL_HEADING], hy = -0.5 * p[P_ANGLE], hx = 0.5 * p[P_BALL_LEAN];
    const double qz[4] = {cos(hz), 0.0, 0.0, sin(hz)}, qy[4] = {cos(hy), 0.0, sin(hy), 0.0},
                 qx[4] = {cos(hx), sin(hx), 0.0, 0.0};
    double zy[4];
    quat_mul(qz, qy, zy);
    quat_mul(zy, qx, y + kBallQuat);
    y[kBallPos] = y[kBallPos + 1] = 0.0;
    for (int i = 0; i < kDrivenMasses; ++i) {
      y[kBallTheta + i] = p[P_THETA];
      y[kBallThetaDot + i] = 0.0;
    }
  }
  SKIPSTONE_HD DrivenContact contact(const double* y) const {
    const BallForces F = driven_ball_forces(rig, y);
    return {F.N, sqrt(F.f1 * F.f1 + F.f2 * F.f2)};
  }
  SKIPSTONE_HD double energy(const double* y) const { return driven_ball_energy(rig, y); }
  SKIPSTONE_HD double kinetic(const double* y) const { return driven_ball_kinetic(rig, y); }
  SKIPSTONE_HD double rate(const double* y) const {
    const double* w = y + kBallOmega;
    double r = sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
    for (int i = 0; i < kDrivenMasses; ++i) r = fmax(r, fabs(y[kBallThetaDot + i]));
    return r;
  }
  template <class Sink>
  SKIPSTONE_HD void emit(const double* y, const double* y0, Sink& sink) const {
    const Rotation L = quat_rotation(y + kBallQuat);
    const Vec3 W{y[kBallOmega], y[kBallOmega + 1], y[kBallOmega + 2]};
    const Vec3 v = L.apply(cross(W, rig.r * L.gamma()));
    sink.on_event(y[kBallTime] - y0[kBallTime], Vec3{y[kBallPos], y[kBallPos + 1], rig.r},
                  State3D{Vec3{v.x, v.y, 0.0}, L.apply(W)}, Vec3{0.0, 0.0, 1.0});
  }
  // The final_state row: x, y, q, Omega, theta_1..4, theta_1..4', t (the state but the work).
  SKIPSTONE_HD void write_state_row(const double* y, const double*, double* row) const {
    row[0] = y[kBallPos];
    row[1] = y[kBallPos + 1];
    for (int k = 0; k < 4; ++k) row[2 + k] = y[kBallQuat + k];
    for (int k = 0; k < 3; ++k) row[6 + k] = y[kBallOmega + k];
    for (int i = 0; i < kDrivenMasses; ++i) {
      row[9 + i] = y[kBallTheta + i];
      row[9 + kDrivenMasses + i] = y[kBallThetaDot + i];
    }
    row[9 + 2 * kDrivenMasses] = y[kBallTime];
  }
  SKIPSTONE_HD void observe(const double* y, TrajectoryResult& res) const {
    const double* q = y + kBallQuat;
    const double drift = fabs(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3] - 1.0);
    res.gamma_drift = fmax(res.gamma_drift, drift);  // NaN at the start: fmax takes drift
  }
};

template <class Sink>
SKIPSTONE_HD TrajectoryResult simulate_driven_ball(const ScanSpec& spec, const ScanPoint& pt, Sink& sink) {
  const DrivenBallModel model{{driven_ball_rig(spec, pt)}};
  return simulate_driven(spec, pt, model, sink);
}

}  // namespace skipstone
