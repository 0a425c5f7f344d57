// The raw tangent map of a no-slip stepper (tests of include/skipstone/tangent/): kDim vectors
// started as the identity and never renormalised, so that after a run they are the columns of
// the Jacobian of the flow over it. flat_wall: the tangent map with the wall's curvature (2D) or
// shape operator (3D) set to 0, what a tangent map without that term would give. With it, the
// flows of the 2D tables and the 3D models from a phase point and the largest difference between
// the tangent Jacobian and central differences of the real flow.
#pragma once
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

#include "skipstone/noslip_trajectory.hpp"
#include "skipstone/result.hpp"
#include "skipstone/sinks.hpp"
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

// A run to t_max; one Lyapunov vector where the stepper has a Lyapunov frame.
inline NoSlipRunOptions tangent_horizon(double t_max) {
  return {t_max, UINT64_MAX, 1e-9, 1.0, false, false, 0.0, 1, false, nullptr};
}

// The phase space of a stepper with positions V: its state, raw Jacobian and phase point
// z = (x, y, u, v, s) in 2D, (x, y, z, u, w) in 3D.
template <class V>
struct PhaseSpace;
template <>
struct PhaseSpace<Vec2> {
  using State = State2D;
  using Raw = RawJacobian2D;
  static constexpr int kDim = kPhaseDim2D;
  static NoSlipStart<Vec2, State2D> start(const double* z) { return {{z[0], z[1]}, {{z[2], z[3]}, z[4]}, -1, false, {}}; }
  template <class Stepper>
  static void point(const Stepper& s, double* out) {
    const double c[kDim] = {s.x.x, s.x.y, s.st.u.x, s.st.u.y, s.st.s};
    for (int i = 0; i < kDim; ++i) out[i] = c[i];
  }
};
template <>
struct PhaseSpace<Vec3> {
  using State = State3D;
  using Raw = RawJacobian3D;
  static constexpr int kDim = kPhaseDim3D;
  static NoSlipStart<Vec3, State3D> start(const double* z) {
    return {{z[0], z[1], z[2]}, {{z[3], z[4], z[5]}, {z[6], z[7], z[8]}}, -1, false, {}};
  }
  template <class Stepper>
  static void point(const Stepper& s, double* out) {
    const double c[kDim] = {s.x.x, s.x.y, s.x.z, s.st.u.x, s.st.u.y, s.st.u.z, s.st.w.x, s.st.w.y, s.st.w.z};
    for (int i = 0; i < kDim; ++i) out[i] = c[i];
  }
};

// The stepper of (table, gamma, g) run from phase point z to t_max.
template <class V, bool kGravity, class Tangent, class Table>
NoSlipStepper<Table, V, typename PhaseSpace<V>::State, kGravity, Tangent> run_flow(
    const Table& table, double gamma, double g, const double* z, double t_max, bool flat_wall = false) {
  NoSlipStepper<Table, V, typename PhaseSpace<V>::State, kGravity, Tangent> s;
  DiscardSink sink;
  if constexpr (std::is_same_v<Tangent, typename PhaseSpace<V>::Raw>) s.tangent.flat_wall = flat_wall;
  s.start(table, noslip_coefficients(gamma), g, PhaseSpace<V>::start(z), tangent_horizon(t_max), sink);
  while (s.step(sink)) {
  }
  return s;
}

// Largest |J_tangent - J_finite_difference| over the Jacobian of the flow from z over t_max
// (central differences with step h), relative to max(1, |J|); the number of impacts must not
// change under the perturbations (checked).
template <class V, bool kGravity, class Table>
double flow_jacobian_mismatch(const Table& table, double gamma, double g, const double* z, double t_max, bool flat_wall,
                              std::uint64_t* impacts) {
  using P = PhaseSpace<V>;
  constexpr double h = 1e-7;
  const auto ref = run_flow<V, kGravity, typename P::Raw>(table, gamma, g, z, t_max, flat_wall);
  EXPECT_EQ(ref.status, Status::finished);
  *impacts = ref.events;
  double worst = 0.0;
  for (int j = 0; j < P::kDim; ++j) {
    double zp[P::kDim], zm[P::kDim], fp[P::kDim], fm[P::kDim];
    for (int i = 0; i < P::kDim; ++i) zp[i] = zm[i] = z[i];
    zp[j] += h;
    zm[j] -= h;
    const auto sp = run_flow<V, kGravity, NoTangent>(table, gamma, g, zp, t_max);
    const auto sm = run_flow<V, kGravity, NoTangent>(table, gamma, g, zm, t_max);
    EXPECT_EQ(sp.events, ref.events);
    EXPECT_EQ(sm.events, ref.events);
    P::point(sp, fp);
    P::point(sm, fm);
    for (int i = 0; i < P::kDim; ++i) {
      const double fd = (fp[i] - fm[i]) / (2.0 * h);
      const double tangent = component(ref.tangent.v[j], i);
      worst = std::fmax(worst, std::fabs(tangent - fd) / std::fmax(1.0, std::fabs(fd)));
    }
  }
  return worst;
}

}  // namespace skipstone
