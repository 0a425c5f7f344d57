// One trajectory of any model from (spec, scan point). simulate_variant has the model (and
// table, precision, gravity) fixed at compile time: what the ensemble kernels run, one kernel per
// variant. simulate_trajectory picks the variant of a spec at run time and runs the same
// function: the trace command and the scalar reference loops of tests and benchmarks. The sink
// sees the events (no-slip impacts, the segment ends of roll3:strip/roll4:planes, the turns of
// roll3:inside-cylinder, the junctions and rim steps of roll4:disc: on_event) or the integrator
// steps of the Figure-18 system (on_step).
#pragma once
#include <stdexcept>

#include "skipstone/noslip_model.hpp"
#include "skipstone/rolling/disc_transversal.hpp"
#include "skipstone/rolling/roll3_inside_cylinder.hpp"
#include "skipstone/rolling/roll3_strip.hpp"
#include "skipstone/rolling/roll4_disc.hpp"
#include "skipstone/rolling/roll4_planes.hpp"
#include "skipstone/sinks.hpp"

namespace skipstone {

// One kernel variant: the model, the table of a no-slip model (TableKind::none otherwise), the
// precision and, for no-slip models, whether any trajectory has gravity, as compile-time
// constants. The ensemble kernel is instantiated once per variant so that each holds only its
// own model's code and registers: one kernel for every model took the register budget of the
// largest (the GBS integrator: 255 registers per thread on sm_90) for the no-slip disc too.
template <ModelKind M, TableKind T, Precision P, GravityKind G>
struct Variant {
  static constexpr ModelKind model = M;
  static constexpr TableKind table = T;
  static constexpr Precision precision = P;
  static constexpr GravityKind gravity = G;
};

template <class V, class Sink>
SKIPSTONE_HD TrajectoryResult simulate_variant(const ScanSpec& spec, std::uint64_t index, Sink& sink) {
  const ScanPoint pt = scan_point(spec, index);
  constexpr ModelKind M = V::model;
  using T = scalar_of_precision<V::precision>;
  if constexpr (M == ModelKind::roll_disc_transversal) {
    return simulate_disc_transversal<T>(spec, pt, sink);
  } else if constexpr (M == ModelKind::roll_disc) {
    return simulate_roll4_disc<T>(spec, pt, sink);
  } else if constexpr (M == ModelKind::roll_planes) {
    return simulate_roll4_planes(spec, pt, sink);
  } else if constexpr (M == ModelKind::roll_strip) {
    return simulate_roll3_strip(spec, pt, sink);
  } else if constexpr (M == ModelKind::roll_inside_cylinder) {
    return simulate_roll3_inside_cylinder(spec, pt, sink);
  } else {
    return simulate_noslip_of<M, V::table, V::precision, V::gravity>(spec, pt, sink);
  }
}

// Whether any trajectory of the scan has gravity (g fixed and nonzero, or scanned).
inline bool scan_has_gravity(const ScanSpec& spec) {
  for (int j = 0; j < spec.n_axes; ++j)
    if (spec.axes[j].param == P_G) return true;
  return spec.params[P_G] != 0.0;
}

// f(Variant<M, T, P, G>{}) with G from the scan (no-slip models).
template <ModelKind M, TableKind T, Precision P, class F>
void visit_gravity_variant(const ScanSpec& spec, F&& f) {
  if (scan_has_gravity(spec)) f(Variant<M, T, P, GravityKind::any>{});
  else f(Variant<M, T, P, GravityKind::none>{});
}

template <ModelKind M, class F>
void visit_table_variant(const ScanSpec& spec, F&& f) {
  constexpr Precision D = Precision::float64;
  if (spec.precision == Precision::float32) {
    if (spec.table != TableKind::disc) throw std::invalid_argument("float kernels of no-slip models: table disc only");
    visit_gravity_variant<M, TableKind::disc, Precision::float32>(spec, f);
    return;
  }
  switch (spec.table) {
    case TableKind::disc: visit_gravity_variant<M, TableKind::disc, D>(spec, f); return;
    case TableKind::strip: visit_gravity_variant<M, TableKind::strip, D>(spec, f); return;
    case TableKind::stadium: visit_gravity_variant<M, TableKind::stadium, D>(spec, f); return;
    case TableKind::rectangle: visit_gravity_variant<M, TableKind::rectangle, D>(spec, f); return;
    case TableKind::polygon: visit_gravity_variant<M, TableKind::polygon, D>(spec, f); return;
    case TableKind::ellipse: visit_gravity_variant<M, TableKind::ellipse, D>(spec, f); return;
    case TableKind::sinai: visit_gravity_variant<M, TableKind::sinai, D>(spec, f); return;
    case TableKind::none: break;
  }
  throw std::invalid_argument("no-slip model without a table");
}

// f(Variant<M, none, P, any>{}) with P the scan's precision (the rolling models with a float kernel).
template <ModelKind M, class F>
void visit_precision_variant(const ScanSpec& spec, F&& f) {
  if (spec.precision == Precision::float32) f(Variant<M, TableKind::none, Precision::float32, GravityKind::any>{});
  else f(Variant<M, TableKind::none, Precision::float64, GravityKind::any>{});
}

// Calls f(Variant<...>{}) with the variant of spec (host side: which kernel runs a scan). Float
// kernels exist for roll4:disc, roll4:disc-transversal and the no-slip disc and cylinder:disc
// (config validation rejects the others).
template <class F>
void visit_variant(const ScanSpec& spec, F&& f) {
  constexpr Precision D = Precision::float64;
  constexpr TableKind none = TableKind::none;
  constexpr GravityKind any = GravityKind::any;
  switch (spec.model) {
    case ModelKind::roll_disc_transversal: visit_precision_variant<ModelKind::roll_disc_transversal>(spec, f); return;
    case ModelKind::roll_disc: visit_precision_variant<ModelKind::roll_disc>(spec, f); return;
    case ModelKind::roll_planes: f(Variant<ModelKind::roll_planes, none, D, any>{}); return;
    case ModelKind::roll_strip: f(Variant<ModelKind::roll_strip, none, D, any>{}); return;
    case ModelKind::roll_inside_cylinder: f(Variant<ModelKind::roll_inside_cylinder, none, D, any>{}); return;
    case ModelKind::noslip_sphere: visit_gravity_variant<ModelKind::noslip_sphere, none, D>(spec, f); return;
    case ModelKind::noslip_plane: visit_table_variant<ModelKind::noslip_plane>(spec, f); return;
    case ModelKind::noslip_cylinder: visit_table_variant<ModelKind::noslip_cylinder>(spec, f); return;
  }
  throw std::invalid_argument("unknown model");
}

// As the ensemble kernel of spec's variant computes trajectory `index` (host side), e.g. the
// float kernel when spec.precision is float32.
template <class Sink>
TrajectoryResult simulate_trajectory(const ScanSpec& spec, std::uint64_t index, Sink& sink) {
  TrajectoryResult r;
  visit_variant(spec, [&](auto v) { r = simulate_variant<decltype(v)>(spec, index, sink); });
  return r;
}

}  // namespace skipstone
