// driven:ball, the equations: a ball rolling without slipping on a horizontal plane under gravity
// g along -e3, moved by the four point masses of its rig (driven_rig.hpp), the 3D case of which
// driven:disk is the plane one. The ball without its masses has mass m0, its centre of mass at
// chi_0 from the geometric centre (body frame; 0 by default) and the principal moments
// I = diag(d1, d2, d3) about that centre of mass along the body axes E1, E2, E3 (d2 = m0 gamma^2
// r^2, d1 and d3 its multiples; isotropic by default). Mass i (i = 0..3, the rig's i + 1) rides
// the circle of radius r_i about the geometric centre in the body plane through E3 at the angle
// alpha_i = i tau from E1 (tau: the rails' twist),
//   zeta_i(theta) = r_i (cos theta cos alpha_i, cos theta sin alpha_i, sin theta),
// so tau = 0 puts every rail in the E1-E3 plane (the disk's rails) and the default tau = pi/4
// puts them in four different planes through E3; its rail angle follows the drive of the rig.
// With Lambda the orientation (body to space), Gamma = Lambda^-1 e3, s_i = r Gamma + zeta_i,
// chi_i' = theta_i' zeta_i', chi_i'' = theta_i'^2 zeta_i'' + u_i zeta_i' (Eq. 3.1) and the ball
// itself as the mass m0 at s_0 = r Gamma + chi_0 (chi_0' = chi_0'' = 0), all in the body frame:
//   Omega' = [sum m_i hat(s_i)^2 - I]^-1 [Omega x I Omega + sum m_i s_i x {g Gamma
//            + Omega x (Omega x chi_i + 2 chi_i') + chi_i''}]                 (2.20), (3.2)
// (no external force), and with the body-frame acceleration of each mass
// a_i = Omega' x s_i + Omega x (Omega x chi_i + 2 chi_i') + chi_i'' (Eq. 2.8) and
// S = sum m_i a_i (the ball's a_0 included), the normal force and the static friction on the
// ball (force units) are
//   N = M g + S . Gamma                                                      (2.10), (3.3)
//   f = (Lambda S)_12                                                        (2.11), (3.4).
// Kinematics: Lambda' = Lambda hat(Omega), carried as a quaternion q with q' = q (0, Omega) / 2,
// and the geometric centre (and the contact point under it) moves at Lambda (Omega x r Gamma),
// which is horizontal. The right-hand side uses the rotation of q / |q|: the norm of q never
// enters the dynamics, and its drift from 1 (an integration error only: the flow keeps |q|) is
// reported as gamma_drift, ||Gamma| - 1| for the Gamma of the unnormalised q, i.e. ||q|^2 - 1|.
// The state is y = (q, Omega, x, y, theta_1..4, theta_1..4', t, W), W the motors' work,
// W' = sum_i m_i theta_i' (a_i + g Gamma) . zeta_i', so that E(t) - E(0) = W(t) for the energy
//   E = 1/2 Omega . I Omega + sum_{i >= 0} [1/2 m_i |Omega x s_i + chi_i'|^2 + g m_i chi_i . Gamma].
#pragma once
#include <cmath>

#include "skipstone/rolling/driven_rig.hpp"
#include "skipstone/vec.hpp"

namespace skipstone {

// Indices into the state.
constexpr int kBallQuat = 0, kBallOmega = 4, kBallPos = 7, kBallTheta = 9, kBallThetaDot = kBallTheta + kDrivenMasses,
              kBallTime = kBallThetaDot + kDrivenMasses, kBallWork = kBallTime + 1;
constexpr int kBallStateSize = kBallWork + 1;

// The rig of a ball: the driven rig, the planes of its rails, the ball's principal moments
// (d1, d2, d3) and the offset chi_0 of its centre of mass.
struct DrivenBallRig : DrivenRig {
  double ca[kDrivenMasses], sa[kDrivenMasses];  // cos alpha_i, sin alpha_i
  Vec3 moments, chi0;
};

// The ball of a rig with rails of twist tau, isotropic (d2 about every axis) and balanced.
SKIPSTONE_HD SKIPSTONE_INLINE DrivenBallRig driven_ball_rig(const DrivenRig& rig, double twist) {
  DrivenBallRig b;
  static_cast<DrivenRig&>(b) = rig;
  for (int i = 0; i < kDrivenMasses; ++i) {
    b.ca[i] = cos(i * twist);
    b.sa[i] = sin(i * twist);
  }
  b.moments = Vec3{rig.d2, rig.d2, rig.d2};
  b.chi0 = Vec3{0.0, 0.0, 0.0};
  return b;
}

// The ball of a scan point: rail_twist, d1 = d1_ratio d2, d3 = d3_ratio d2, chi_0 = (cm1, cm2, cm3).
SKIPSTONE_HD SKIPSTONE_INLINE DrivenBallRig driven_ball_rig(const ScanSpec& spec, const ScanPoint& pt) {
  const double* p = pt.p;
  DrivenBallRig b = driven_ball_rig(driven_rig(spec, pt), p[P_BALL_TWIST]);
  b.moments = Vec3{p[P_D1_RATIO] * b.d2, b.d2, p[P_D3_RATIO] * b.d2};
  b.chi0 = Vec3{p[P_CM1], p[P_CM2], p[P_CM3]};
  return b;
}

// I Omega for the principal moments of the ball.
SKIPSTONE_HD SKIPSTONE_INLINE Vec3 ball_moment_times(const DrivenBallRig& b, Vec3 w) {
  return {b.moments.x * w.x, b.moments.y * w.y, b.moments.z * w.z};
}

// The rotation of q / |q| (body to space), row by row.
struct Rotation {
  double R[3][3];
  SKIPSTONE_HD Vec3 apply(Vec3 v) const {
    return {R[0][0] * v.x + R[0][1] * v.y + R[0][2] * v.z, R[1][0] * v.x + R[1][1] * v.y + R[1][2] * v.z,
            R[2][0] * v.x + R[2][1] * v.y + R[2][2] * v.z};
  }
  SKIPSTONE_HD Vec3 gamma() const { return {R[2][0], R[2][1], R[2][2]}; }  // Lambda^-1 e3
};

SKIPSTONE_HD SKIPSTONE_INLINE Rotation quat_rotation(const double* q) {
  const double w = q[0], x = q[1], y = q[2], z = q[3], s = 2.0 / (w * w + x * x + y * y + z * z);
  Rotation L;
  L.R[0][0] = 1.0 - s * (y * y + z * z);
  L.R[0][1] = s * (x * y - w * z);
  L.R[0][2] = s * (x * z + w * y);
  L.R[1][0] = s * (x * y + w * z);
  L.R[1][1] = 1.0 - s * (x * x + z * z);
  L.R[1][2] = s * (y * z - w * x);
  L.R[2][0] = s * (x * z - w * y);
  L.R[2][1] = s * (y * z + w * x);
  L.R[2][2] = 1.0 - s * (x * x + y * y);
  return L;
}

// One mass on its rail at a state: zeta, zeta' (d/dtheta), theta', u; zeta'' = -zeta.
struct BallRailPoint {
  Vec3 z, d;
  double rate, u;
};

SKIPSTONE_HD SKIPSTONE_INLINE BallRailPoint ball_rail_point(const DrivenBallRig& b, int i, const double* y) {
  const double th = y[kBallTheta + i], c = cos(th), s = sin(th), ri = b.rail[i];
  return {Vec3{ri * c * b.ca[i], ri * c * b.sa[i], ri * s}, Vec3{-ri * s * b.ca[i], -ri * s * b.sa[i], ri * c},
          y[kBallThetaDot + i], drive_of(b, i, y[kBallTime])};
}

// Omega' (2.20), N (2.10), the friction (2.11) in space and the motors' power W' at a state.
struct BallForces {
  Vec3 Omega_dot;
  double N, f1, f2, power;
};

// x solving A x = b for a symmetric 3x3 A, by its adjugate.
SKIPSTONE_HD SKIPSTONE_INLINE Vec3 solve_symmetric3(const double A[3][3], Vec3 b) {
  const double c00 = A[1][1] * A[2][2] - A[1][2] * A[1][2], c01 = A[0][2] * A[1][2] - A[0][1] * A[2][2],
               c02 = A[0][1] * A[1][2] - A[0][2] * A[1][1], c11 = A[0][0] * A[2][2] - A[0][2] * A[0][2],
               c12 = A[0][2] * A[0][1] - A[0][0] * A[1][2], c22 = A[0][0] * A[1][1] - A[0][1] * A[0][1];
  const double det = A[0][0] * c00 + A[0][1] * c01 + A[0][2] * c02;
  return {(c00 * b.x + c01 * b.y + c02 * b.z) / det, (c01 * b.x + c11 * b.y + c12 * b.z) / det,
          (c02 * b.x + c12 * b.y + c22 * b.z) / det};
}

SKIPSTONE_HD inline BallForces driven_ball_forces(const DrivenBallRig& b, const double* y) {
  const DrivenRig& rig = b;
  const Rotation L = quat_rotation(y + kBallQuat);
  const Vec3 G = L.gamma(), W{y[kBallOmega], y[kBallOmega + 1], y[kBallOmega + 2]};
  BallRailPoint q[kDrivenMasses];
  Vec3 s[kDrivenMasses], acc[kDrivenMasses];  // s_i and the part of a_i without Omega'
  // A = sum m_i hat(s_i)^2 - I, hat(s)^2 = s s^T - |s|^2 I; the ball itself has s_0 = r Gamma + chi_0
  const Vec3 s0 = rig.r * G + b.chi0, acc0 = cross(W, cross(W, b.chi0));
  double A[3][3];
  const double sv0[3] = {s0.x, s0.y, s0.z}, moment[3] = {b.moments.x, b.moments.y, b.moments.z};
  for (int j = 0; j < 3; ++j)
    for (int k = 0; k < 3; ++k)
      A[j][k] = rig.m0 * (sv0[j] * sv0[k] - (j == k ? dot(s0, s0) : 0.0)) - (j == k ? moment[j] : 0.0);
  Vec3 rhs = cross(W, ball_moment_times(b, W)) + rig.m0 * cross(s0, rig.g * G + acc0);
  for (int i = 0; i < kDrivenMasses; ++i) {
    q[i] = ball_rail_point(b, i, y);
    s[i] = rig.r * G + q[i].z;
    const Vec3 chidd = q[i].u * q[i].d - (q[i].rate * q[i].rate) * q[i].z;  // zeta'' = -zeta
    acc[i] = cross(W, cross(W, q[i].z) + (2.0 * q[i].rate) * q[i].d) + chidd;
    const double sv[3] = {s[i].x, s[i].y, s[i].z}, ss = dot(s[i], s[i]);
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 3; ++k) A[j][k] += rig.m[i] * (sv[j] * sv[k] - (j == k ? ss : 0.0));
    rhs = rhs + rig.m[i] * cross(s[i], rig.g * G + acc[i]);
  }
  BallForces out;
  out.Omega_dot = solve_symmetric3(A, rhs);
  const Vec3 Wd = out.Omega_dot;
  Vec3 S = rig.m0 * (cross(Wd, s0) + acc0);
  out.power = 0.0;
  for (int i = 0; i < kDrivenMasses; ++i) {
    const Vec3 a = cross(Wd, s[i]) + acc[i];
    S = S + rig.m[i] * a;
    out.power += rig.m[i] * q[i].rate * dot(a + rig.g * G, q[i].d);
  }
  out.N = rig_mass(rig) * rig.g + dot(S, G);
  const Vec3 spatial = L.apply(S);
  out.f1 = spatial.x;
  out.f2 = spatial.y;
  return out;
}

// The kinetic part of E: the scale of the energy's error (energy_error).
SKIPSTONE_HD inline double driven_ball_kinetic(const DrivenBallRig& b, const double* y) {
  const DrivenRig& rig = b;
  const Vec3 G = quat_rotation(y + kBallQuat).gamma(), W{y[kBallOmega], y[kBallOmega + 1], y[kBallOmega + 2]};
  const Vec3 v0 = cross(W, rig.r * G + b.chi0);
  double T = 0.5 * (dot(W, ball_moment_times(b, W)) + rig.m0 * dot(v0, v0));
  for (int i = 0; i < kDrivenMasses; ++i) {
    const BallRailPoint q = ball_rail_point(b, i, y);
    const Vec3 v = cross(W, rig.r * G + q.z) + q.rate * q.d;
    T += 0.5 * rig.m[i] * dot(v, v);
  }
  return T;
}

// The energy E of the header.
SKIPSTONE_HD inline double driven_ball_energy(const DrivenBallRig& b, const double* y) {
  const Vec3 G = quat_rotation(y + kBallQuat).gamma();
  double E = driven_ball_kinetic(b, y) + b.m0 * b.g * dot(b.chi0, G);
  for (int i = 0; i < kDrivenMasses; ++i) E += b.m[i] * b.g * dot(ball_rail_point(b, i, y).z, G);
  return E;
}

// The right-hand side with the time and the motors' work: y' = f.
struct DrivenBallSystem {
  DrivenBallRig rig;
  static constexpr int N = kBallStateSize;

  SKIPSTONE_HD void rhs(const double* y, double* f) const {
    const BallForces F = driven_ball_forces(rig, y);
    const double qw = y[kBallQuat], qx = y[kBallQuat + 1], qy = y[kBallQuat + 2], qz = y[kBallQuat + 3];
    const Vec3 W{y[kBallOmega], y[kBallOmega + 1], y[kBallOmega + 2]};
    // q' = q (0, Omega) / 2 = (-v . Omega, w Omega + v x Omega) / 2 for q = (w, v)
    f[kBallQuat] = -0.5 * (qx * W.x + qy * W.y + qz * W.z);
    f[kBallQuat + 1] = 0.5 * (qw * W.x + qy * W.z - qz * W.y);
    f[kBallQuat + 2] = 0.5 * (qw * W.y + qz * W.x - qx * W.z);
    f[kBallQuat + 3] = 0.5 * (qw * W.z + qx * W.y - qy * W.x);
    f[kBallOmega] = F.Omega_dot.x;
    f[kBallOmega + 1] = F.Omega_dot.y;
    f[kBallOmega + 2] = F.Omega_dot.z;
    const Rotation L = quat_rotation(y + kBallQuat);
    const Vec3 vel = L.apply(cross(W, rig.r * L.gamma()));
    f[kBallPos] = vel.x;
    f[kBallPos + 1] = vel.y;
    for (int i = 0; i < kDrivenMasses; ++i) {
      f[kBallTheta + i] = y[kBallThetaDot + i];
      f[kBallThetaDot + i] = drive_of(rig, i, y[kBallTime]);
    }
    f[kBallTime] = 1.0;
    f[kBallWork] = F.power;
  }
};

}  // namespace skipstone
