// Height observables shared by every model (docs/config.md, "Observables"): extremes, the least-squares
// drift of z against t over the sampled events, and `bounded` (z stayed above z0 - H).
#pragma once
#include <cmath>

#include "skipstone/hd.hpp"

namespace skipstone {

struct HeightStats {
  double z0, z_min, z_max;
  double n, st, sz, stt, stz;  // least-squares sums of (t, z - z0)

  SKIPSTONE_HD void start(double z) {
    z0 = z_min = z_max = z;
    n = st = sz = stt = stz = 0.0;
    sample(0.0, z);
  }
  // An event at time t: enters the drift fit and the extremes.
  SKIPSTONE_HD void sample(double t, double z) {
    const double dz = z - z0;
    n += 1.0;
    st += t;
    sz += dz;
    stt += t * t;
    stz += t * dz;
    extremum(z);
  }
  // A height reached between events (e.g. the apex of a flight): extremes only.
  SKIPSTONE_HD void extremum(double z) {
    z_min = z < z_min ? z : z_min;
    z_max = z > z_max ? z : z_max;
  }
  // extremum(z) where c holds, by selects: no branch (the CPU backend's SIMD lanes).
  SKIPSTONE_HD void extremum_where(bool c, double z) {
    z_min = c & (z < z_min) ? z : z_min;
    z_max = c & (z > z_max) ? z : z_max;
  }
  SKIPSTONE_HD double drift() const {
    const double den = n * stt - st * st;
    return (n >= 2.0 && den > 0.0) ? (n * stz - st * sz) / den : NAN;
  }
  SKIPSTONE_HD double bounded(double depth) const { return z_min >= z0 - depth ? 1.0 : 0.0; }
};

}  // namespace skipstone
