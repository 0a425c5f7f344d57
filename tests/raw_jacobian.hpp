// The raw tangent map of a no-slip stepper (tests of include/skipstone/tangent/): kDim vectors
// started as the identity and never renormalised, so that after a run they are the columns of
// the Jacobian of the flow over it. flat_wall: the tangent map with the wall's curvature (2D) or
// shape operator (3D) set to 0, what a tangent map without that term would give.
#pragma once
#include <cstdint>

#include "skipstone/result.hpp"
#include "skipstone/tangent/collision.hpp"
#include "skipstone/tangent/collision3d.hpp"
#include "skipstone/tangent/flight.hpp"

namespace skipstone {

inline void flatten(TangentImpact& im) { im.kappa = 0.0; }
inline void flatten(TangentImpact3D& im) { im.shape = {{0.0, 0.0, 0.0}, 0.0, 0.0}; }

template <class PV, class Impact>
struct RawJacobian {
  PV v[PV::kDim];
  bool flat_wall = false;
  template <class V, class S>
  void start(V, const S&, double, int) {
    for (int j = 0; j < PV::kDim; ++j) {
      double c[PV::kDim] = {};
      c[j] = 1.0;
      v[j] = PV::from_components(c);
    }
  }
  void fly(double dt) {
    for (PV& w : v) w = tangent_flight(w, dt);
  }
  void collide(Impact im) {
    if (flat_wall) flatten(im);
    for (PV& w : v) w = tangent_collide(w, im);
  }
  void write(TrajectoryResult&, double, std::uint64_t) const {}
};
using RawJacobian2D = RawJacobian<PhaseVector2D, TangentImpact>;
using RawJacobian3D = RawJacobian<PhaseVector3D, TangentImpact3D>;

}  // namespace skipstone
