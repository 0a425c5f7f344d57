// driven:disk, one run: the state (5.1) with the time and the motors' work (driven_disk.hpp)
// through the driven rigs' run (driven_run.hpp: GBS steps landing on the drive's kinks, the
// contact observables, the work-energy balance). Every angle (phi, theta_i) counts for the step
// limit. The sink sees every accepted step as an event in the e1-e3 plane: the centre
// (x0 - r (phi - phi(0)), r), its velocity (-r phi', 0), "spin" phi', contact normal e3, at the
// time since the start. The start "rolling": the disk at phi with speed -r phi', every mass at
// rest at rail angle theta, x0 = 0, the drive's clock at 0; a row of a state file (x, phi, speed,
// theta_1..4, theta_1..4', t: the final_state of an earlier run) starts from that state, x0 = x,
// on the drive's clock t.
#pragma once
#include <cmath>

#include "skipstone/collision.hpp"
#include "skipstone/rolling/driven_disk.hpp"
#include "skipstone/rolling/driven_run.hpp"

namespace skipstone {

// The disk as a model of simulate_driven.
struct DrivenDiskModel : DrivenDiskSystem {
  static constexpr int kTime = kDiskTime, kWork = kDiskWork;
  double x0;  // the centre at the start

  // The start state but its clock; false where it is masked (never).
  SKIPSTONE_HD bool initial(const ScanSpec& spec, const ScanPoint& pt, double* y) const {
    const bool row = spec.start == StartKind::state;
    for (int i = 0; i < kDrivenMasses; ++i) {
      y[kDiskTheta + i] = row ? pt.p[P_THETA1 + i] : pt.p[P_THETA];
      y[kDiskThetaDot + i] = row ? pt.p[P_RATE1 + i] : 0.0;
    }
    y[kDiskPhi] = pt.p[P_ANGLE];
    y[kDiskPhiDot] = -pt.p[P_SPEED] / rig.r;
    return true;
  }
  SKIPSTONE_HD double centre(const double* y, const double* y0) const {
    return x0 - rig.r * (y[kDiskPhi] - y0[kDiskPhi]);
  }
  // The final_state row: x, phi, speed, theta_1..4, theta_1..4', t.
  SKIPSTONE_HD void write_state_row(const double* y, const double* y0, double* row) const {
    row[0] = centre(y, y0);
    row[1] = y[kDiskPhi];
    row[2] = -rig.r * y[kDiskPhiDot];
    for (int i = 0; i < kDrivenMasses; ++i) {
      row[3 + i] = y[kDiskTheta + i];
      row[3 + kDrivenMasses + i] = y[kDiskThetaDot + i];
    }
    row[3 + 2 * kDrivenMasses] = y[kDiskTime];
  }
  SKIPSTONE_HD DrivenContact contact(const double* y) const {
    const DiskForces F = driven_disk_forces(rig, y);
    return {F.N, fabs(F.f)};
  }
  SKIPSTONE_HD double energy(const double* y) const { return driven_disk_energy(rig, y); }
  SKIPSTONE_HD double kinetic(const double* y) const { return driven_disk_kinetic(rig, y); }
  SKIPSTONE_HD double rate(const double* y) const {
    double w = fabs(y[kDiskPhiDot]);
    for (int i = 0; i < kDrivenMasses; ++i) w = fmax(w, fabs(y[kDiskThetaDot + i]));
    return w;
  }
  template <class Sink>
  SKIPSTONE_HD void emit(const double* y, const double* y0, Sink& sink) const {
    const double r = rig.r, phid = y[kDiskPhiDot];
    sink.on_event(y[kDiskTime] - y0[kDiskTime], Vec2{centre(y, y0), r}, State2D{Vec2{-r * phid, 0.0}, phid},
                  Vec2{0.0, 1.0});
  }
  SKIPSTONE_HD void observe(const double*, TrajectoryResult&) const {}
};

template <class Sink>
SKIPSTONE_HD TrajectoryResult simulate_driven_disk(const ScanSpec& spec, const ScanPoint& pt, Sink& sink) {
  const DrivenDiskModel model{{driven_rig(spec, pt)}, spec.start == StartKind::state ? pt.p[P_X] : 0.0};
  return simulate_driven(spec, pt, model, sink);
}

}  // namespace skipstone
