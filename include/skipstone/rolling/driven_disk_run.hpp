// driven:disk, one run: the state (5.1) with the time and the motors' work (driven_disk.hpp)
// through the driven rigs' run (driven_run.hpp: GBS steps landing on the drive's kinks, the
// contact observables, the work-energy balance). Every angle (phi, theta_i) counts for the step
// limit. The sink sees every accepted step as an event in the e1-e3 plane: the centre
// (-r (phi - phi(0)), r), its velocity (-r phi', 0), "spin" phi', contact normal e3.
#pragma once
#include <cmath>

#include "skipstone/collision.hpp"
#include "skipstone/rolling/driven_disk.hpp"
#include "skipstone/rolling/driven_run.hpp"

namespace skipstone {

// The disk as a model of simulate_driven.
struct DrivenDiskModel : DrivenDiskSystem {
  static constexpr int kTime = kDiskTime, kWork = kDiskWork;

  SKIPSTONE_HD void initial(const ScanPoint& pt, double* y) const {
    for (int i = 0; i < kDrivenMasses; ++i) {
      y[kDiskTheta + i] = pt.p[P_THETA];
      y[kDiskThetaDot + i] = 0.0;
    }
    y[kDiskPhi] = pt.p[P_ANGLE];
    y[kDiskPhiDot] = -pt.p[P_SPEED] / rig.r;
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
    sink.on_event(y[kDiskTime], Vec2{-r * (y[kDiskPhi] - y0[kDiskPhi]), r}, State2D{Vec2{-r * phid, 0.0}, phid},
                  Vec2{0.0, 1.0});
  }
  SKIPSTONE_HD void observe(const double*, TrajectoryResult&) const {}
};

template <class Sink>
SKIPSTONE_HD TrajectoryResult simulate_driven_disk(const ScanSpec& spec, const ScanPoint& pt, Sink& sink) {
  const DrivenDiskModel model{{driven_rig(spec, pt)}};
  return simulate_driven(spec, pt, model, sink);
}

}  // namespace skipstone
