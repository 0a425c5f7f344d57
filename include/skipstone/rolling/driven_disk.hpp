// driven:disk, the equations: a disk rolling without slipping on a horizontal line under gravity
// g, moved by the point masses of its rig (driven_rig.hpp), the planar case of a ball actuated by
// internal masses. phi is the angle from e1 to the body axis E1, counterclockwise in the e1-e3
// plane; the centre moves at z' = -r phi' along e1 (the document's convention: phi' > 0 rolls
// towards -e1). With Gamma = (sin phi, 0, cos phi), s_i = r Gamma + zeta_i and, for each mass,
//   P_i1 = -2 phi' theta_i' zeta_i3' + theta_i'^2 zeta_i1'' + u_i zeta_i1',
//   P_i3 =  2 phi' theta_i' zeta_i1' + theta_i'^2 zeta_i3'' + u_i zeta_i3',
// (the rail's own acceleration and the Coriolis term, Eq. 3.1), the equations are
//   phi'' = sum m_i K_i / (d2 + sum m_i |s_i|^2),                            (4.1)
//   K_i = (g + r phi'^2)(zeta_i3 sin phi - zeta_i1 cos phi) + s_i3 P_i1 - s_i1 P_i3,   (4.2)
//   N = M g + sum m_i [(-phi'' zeta_i3 - phi'^2 zeta_i1 + P_i1) sin phi
//                     + (phi'' zeta_i1 - phi'^2 zeta_i3 + P_i3) cos phi],       (4.3)
//   f = -{M r phi'' + sum m_i [(phi'' zeta_i3 + phi'^2 zeta_i1 - P_i1) cos phi
//                             + (phi'' zeta_i1 - phi'^2 zeta_i3 + P_i3) sin phi]},   (4.4)
// sums over i = 0..4 with the disk itself as i = 0 (zeta_0 = 0, no rail), N the normal force
// and f the e1 component of the static friction on the disk, both in force units. (4.1), (4.3),
// (4.4) are the ball's Omega' (2.20), N (2.10) and friction (2.11) with Omega = (0, -phi', 0);
// tests/test_driven_rolling.cpp checks that against the 3D equations. The state (Eq. 5.1) is
// y = (theta_1..4, theta_1..4', phi, phi', t, W): the time t, since the drive depends on it,
// and the work W done by the drive's motors, W' = sum_i m_i theta_i' (A_i + g Gamma) . zeta_i'
// (A_i the mass's acceleration in the body frame, Eq. 2.8: the motors push along the rails; the
// rolling contact does no work), so that E(t) - E(0) = W(t) for the energy
//   E = 1/2 d2 phi'^2 + sum 1/2 m_i |Omega x s_i + zeta_i' theta_i'|^2 + g sum m_i zeta_i . Gamma.
#pragma once
#include <cmath>

#include "skipstone/rolling/driven_rig.hpp"

namespace skipstone {

// Indices into the state.
constexpr int kDiskTheta = 0, kDiskThetaDot = kDrivenMasses, kDiskPhi = 2 * kDrivenMasses,
              kDiskPhiDot = kDiskPhi + 1, kDiskTime = kDiskPhi + 2, kDiskWork = kDiskPhi + 3;
constexpr int kDiskStateSize = kDiskWork + 1;

// One mass on its rail at a state: zeta, zeta' (d/dtheta), theta', u; zeta'' = -zeta on a circle.
struct RailPoint {
  double z1, z3, d1, d3, rate, u;
};

SKIPSTONE_HD SKIPSTONE_INLINE RailPoint rail_point(const DrivenRig& rig, int i, const double* y) {
  const double th = y[kDiskTheta + i], c = cos(th), s = sin(th), ri = rig.rail[i];
  return {ri * c, ri * s, -ri * s, ri * c, y[kDiskThetaDot + i], drive_of(rig, i, y[kDiskTime])};
}

// The velocity (v1, v3) of the mass at rail point q, the disk (radius r, angle phi: sp = sin phi,
// cp = cos phi) turning at phid: the disk's rotation of the mass's position plus its motion along
// the rail.
struct MassVelocity {
  double v1, v3;
};
SKIPSTONE_HD SKIPSTONE_INLINE MassVelocity mass_velocity(double r, double sp, double cp, double phid, const RailPoint& q) {
  return {-phid * (r * cp + q.z3) + q.rate * q.d1, phid * (r * sp + q.z1) + q.rate * q.d3};
}

// P_i1, P_i3 of a mass at angular velocity phi'.
SKIPSTONE_HD SKIPSTONE_INLINE void rail_terms(const RailPoint& q, double phid, double& P1, double& P3) {
  const double w2 = q.rate * q.rate;
  P1 = -2.0 * phid * q.rate * q.d3 - w2 * q.z1 + q.u * q.d1;
  P3 = 2.0 * phid * q.rate * q.d1 - w2 * q.z3 + q.u * q.d3;
}

// phi'' (4.1), N (4.3) and f (4.4) at a state, and the motors' power W'.
struct DiskForces {
  double phidd, N, f, power;
};

SKIPSTONE_HD inline DiskForces driven_disk_forces(const DrivenRig& rig, const double* y) {
  const double phi = y[kDiskPhi], phid = y[kDiskPhiDot], sp = sin(phi), cp = cos(phi), r = rig.r;
  const double M = rig_mass(rig);
  double num = 0.0, den = rig.d2 + rig.m0 * r * r;
  RailPoint q[kDrivenMasses];
  double P1[kDrivenMasses], P3[kDrivenMasses];
  for (int i = 0; i < kDrivenMasses; ++i) {
    q[i] = rail_point(rig, i, y);
    rail_terms(q[i], phid, P1[i], P3[i]);
    const double s1 = r * sp + q[i].z1, s3 = r * cp + q[i].z3;
    const double K = (rig.g + r * phid * phid) * (q[i].z3 * sp - q[i].z1 * cp) + s3 * P1[i] - s1 * P3[i];
    num += rig.m[i] * K;
    den += rig.m[i] * (s1 * s1 + s3 * s3);
  }
  DiskForces out;
  out.phidd = num / den;
  const double a = out.phidd, w2 = phid * phid;
  out.N = M * rig.g;
  out.power = 0.0;
  double fsum = M * r * a;
  for (int i = 0; i < kDrivenMasses; ++i) {
    const double z1 = q[i].z1, z3 = q[i].z3, mi = rig.m[i];
    out.N += mi * ((-a * z3 - w2 * z1 + P1[i]) * sp + (a * z1 - w2 * z3 + P3[i]) * cp);
    fsum += mi * ((a * z3 + w2 * z1 - P1[i]) * cp + (a * z1 - w2 * z3 + P3[i]) * sp);
    // the mass's acceleration in the body frame (Eq. 2.8) plus gravity, along its rail
    const double A1 = -a * (r * cp + z3) - w2 * z1 + P1[i], A3 = a * (r * sp + z1) - w2 * z3 + P3[i];
    out.power += mi * q[i].rate * ((A1 + rig.g * sp) * q[i].d1 + (A3 + rig.g * cp) * q[i].d3);
  }
  out.f = -fsum;
  return out;
}

// The energy E of the header.
SKIPSTONE_HD inline double driven_disk_energy(const DrivenRig& rig, const double* y) {
  const double phi = y[kDiskPhi], phid = y[kDiskPhiDot], sp = sin(phi), cp = cos(phi), r = rig.r;
  double E = 0.5 * (rig.d2 + rig.m0 * r * r) * phid * phid;
  for (int i = 0; i < kDrivenMasses; ++i) {
    const RailPoint q = rail_point(rig, i, y);
    const MassVelocity v = mass_velocity(r, sp, cp, phid, q);
    E += rig.m[i] * (0.5 * (v.v1 * v.v1 + v.v3 * v.v3) + rig.g * (q.z1 * sp + q.z3 * cp));
  }
  return E;
}

// The kinetic part of E: the scale of driven_disk_energy's error (energy_error).
SKIPSTONE_HD inline double driven_disk_kinetic(const DrivenRig& rig, const double* y) {
  const double phi = y[kDiskPhi], phid = y[kDiskPhiDot], sp = sin(phi), cp = cos(phi), r = rig.r;
  double T = 0.5 * (rig.d2 + rig.m0 * r * r) * phid * phid;
  for (int i = 0; i < kDrivenMasses; ++i) {
    const MassVelocity v = mass_velocity(r, sp, cp, phid, rail_point(rig, i, y));
    T += 0.5 * rig.m[i] * (v.v1 * v.v1 + v.v3 * v.v3);
  }
  return T;
}

// The right-hand side of (5.2) with the time and the motors' work: y' = f.
struct DrivenDiskSystem {
  DrivenRig rig;
  static constexpr int N = kDiskStateSize;

  SKIPSTONE_HD void rhs(const double* y, double* f) const {
    const DiskForces F = driven_disk_forces(rig, y);
    for (int i = 0; i < kDrivenMasses; ++i) {
      f[kDiskTheta + i] = y[kDiskThetaDot + i];
      f[kDiskThetaDot + i] = drive_of(rig, i, y[kDiskTime]);
    }
    f[kDiskPhi] = y[kDiskPhiDot];
    f[kDiskPhiDot] = F.phidd;
    f[kDiskTime] = 1.0;
    f[kDiskWork] = F.power;
  }
};

}  // namespace skipstone
