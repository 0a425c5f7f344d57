// One trajectory of any model from (spec, scan point). simulate_variant has the model (and
// table, precision, gravity) fixed at compile time: what the ensemble kernels run, one kernel per
// variant. simulate_trajectory picks the variant of a spec at run time and runs the same
// function: the trace command and the scalar reference loops of tests and benchmarks (for the
// common sinks compiled once, in kernels/simulate_trajectory.cpp). The sink
// sees the events (no-slip impacts, the segment ends of roll3:strip/roll4:planes, the turns of
// roll3:inside-cylinder, the junctions and rim steps of roll4:disc and the rolling tables: on_event) or the integrator
// steps of the Figure-18 system and of rubber:sphere (on_step).
#pragma once
#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>

#include "skipstone/event_sink.hpp"
#include "skipstone/noslip_model.hpp"
#include "skipstone/rolling/disc_transversal.hpp"
#include "skipstone/rolling/driven_ball_run.hpp"
#include "skipstone/rolling/driven_disk_run.hpp"
#include "skipstone/rolling/noisy_disc.hpp"
#include "skipstone/rolling/noisy_disc_transversal.hpp"
#include "skipstone/rolling/noisy_inside_cylinder.hpp"
#include "skipstone/rolling/noisy_stadium.hpp"
#include "skipstone/rolling/noisy_table.hpp"
#include "skipstone/rolling/roll3_inside_cylinder.hpp"
#include "skipstone/rolling/roll3_strip.hpp"
#include "skipstone/rolling/roll4_disc.hpp"
#include "skipstone/rolling/roll4_planes.hpp"
#include "skipstone/rolling/rubber_sphere.hpp"
#include "skipstone/rolling/table_wall.hpp"
#include "skipstone/sinks.hpp"
#include "skipstone/system_traits.hpp"
#include "skipstone/tangent/inside_cylinder_lyapunov.hpp"
#include "skipstone/tangent/roll_lyapunov_systems.hpp"
#include "skipstone/tangent/stadium_lyapunov.hpp"

namespace skipstone {

// One kernel variant: the model, the table of a no-slip model (TableKind::none otherwise), the
// precision, for no-slip models whether any trajectory has gravity and whether the run asks for
// Lyapunov exponents (the tangent dynamics), as compile-time
// constants. The ensemble kernel is instantiated once per variant so that each holds only its
// own model's code and registers: one kernel for every model took the register budget of the
// largest (the GBS integrator) for the no-slip disc too, and a run without Lyapunov exponents
// carries no tangent vectors.
// A rolling table's scan with noisy constraints (Z) has its own kernel too: the stochastic
// passages take far more registers than the deterministic ones, which would spill on a GPU (and
// roll3:strip and roll4:planes, closed-form without noise, run the rolling table's integrator
// with it).
template <ModelKind M, TableKind T, Precision P, GravityKind G, bool L = false, bool Z = false>
struct Variant {
  static constexpr ModelKind model = M;
  static constexpr TableKind table = T;
  static constexpr Precision precision = P;
  static constexpr GravityKind gravity = G;
  static constexpr bool lyapunov = L;
  static constexpr bool noisy = Z;
};

template <class V, class Sink>
SKIPSTONE_HD TrajectoryResult simulate_variant(const ScanSpec& spec, std::uint64_t index, Sink& sink) {
  static_assert(find_system(V::model, V::table) != nullptr, "a variant is a system's (model, table): kSystems");
  static_assert(V::precision == Precision::float64 || system_traits(V::model, V::table).float_kernel,
                "a float variant of a system without a float kernel (kSystems)");
  const ScanPoint pt = scan_point(spec, index);
  constexpr ModelKind M = V::model;
  using T = scalar_of_precision<V::precision>;
  if constexpr (M == ModelKind::roll_disc_transversal) {
    if (pt.p[P_NOISE] != kNoiseNone) return simulate_noisy_transversal(spec, pt, index, sink);  // double only
    return simulate_disc_transversal<T>(spec, pt, sink);
  } else if constexpr (M == ModelKind::roll3_table && V::lyapunov) {
    return simulate_table_roll_lyapunov<6, V::table>(spec, pt, sink);
  } else if constexpr (M == ModelKind::roll4_table && V::lyapunov) {
    return simulate_table_roll_lyapunov<10, V::table>(spec, pt, sink);
  } else if constexpr (M == ModelKind::roll3_table) {
    if constexpr (V::noisy) {
      if (pt.p[P_NOISE] != kNoiseNone) return simulate_noisy_table_roll<6, V::table>(spec, pt, index, sink);
    }
    return simulate_table_roll<6, V::table, T>(spec, pt, sink);
  } else if constexpr (M == ModelKind::roll4_table) {
    if constexpr (V::noisy) {
      if (pt.p[P_NOISE] != kNoiseNone) return simulate_noisy_table_roll<10, V::table>(spec, pt, index, sink);
    }
    return simulate_table_roll<10, V::table, T>(spec, pt, sink);
  } else if constexpr (M == ModelKind::roll_disc && V::lyapunov) {
    return simulate_roll4_disc_lyapunov(spec, pt, sink);
  } else if constexpr (M == ModelKind::roll_disc) {
    if (pt.p[P_NOISE] != kNoiseNone) return simulate_noisy_roll4_disc(spec, pt, index, sink);  // double only
    return simulate_roll4_disc<T>(spec, pt, sink);
  } else if constexpr (M == ModelKind::roll_planes && V::lyapunov) {
    return simulate_roll4_planes_lyapunov(spec, pt, sink);
  } else if constexpr (M == ModelKind::roll_planes) {
    if constexpr (V::noisy) {
      if (pt.p[P_NOISE] != kNoiseNone) return simulate_noisy_stadium<10>(spec, pt, index, sink);
    }
    return run_roll4_planes(spec, pt, sink);
  } else if constexpr (M == ModelKind::roll_strip && V::lyapunov) {
    return simulate_roll3_strip_lyapunov(spec, pt, sink);
  } else if constexpr (M == ModelKind::roll_strip) {
    if constexpr (V::noisy) {
      if (pt.p[P_NOISE] != kNoiseNone) return simulate_noisy_stadium<6>(spec, pt, index, sink);
    }
    return run_roll3_strip(spec, pt, sink);
  } else if constexpr (M == ModelKind::roll_inside_cylinder && V::lyapunov) {
    return simulate_roll3_inside_cylinder_lyapunov(spec, pt, sink);
  } else if constexpr (M == ModelKind::roll_inside_cylinder) {
    if (pt.p[P_NOISE] != kNoiseNone) return simulate_noisy_inside_cylinder(spec, pt, index, sink);  // double only
    return run_roll3_inside_cylinder(spec, pt, sink);
  } else if constexpr (M == ModelKind::rubber_sphere) {
    return simulate_rubber_sphere(spec, pt, sink);
  } else if constexpr (M == ModelKind::driven_disk) {
    return simulate_driven_disk(spec, pt, sink);
  } else if constexpr (M == ModelKind::driven_ball) {
    return simulate_driven_ball(spec, pt, sink);
  } else {
    return simulate_noslip_of<M, V::table, V::precision, V::gravity, V::lyapunov>(spec, pt, sink);
  }
}

// Whether any trajectory of the scan has gravity (g fixed and nonzero, or scanned).
inline bool scan_has_gravity(const ScanSpec& spec) {
  for (int j = 0; j < spec.n_axes; ++j)
    if (spec.axes[j].param == P_G) return true;
  return spec.params[P_G] != 0.0;
}

// The models with a kernel of their own for noisy scans (in double; the config refuses float).
constexpr bool has_noisy_kernel(ModelKind m) {
  return m == ModelKind::roll3_table || m == ModelKind::roll4_table || m == ModelKind::roll_strip ||
         m == ModelKind::roll_planes;
}

// The models whose kernels can follow the tangent dynamics (in double).
constexpr bool has_tangent_kernel(ModelKind m) {
  return is_noslip(m) || m == ModelKind::roll_disc || m == ModelKind::roll3_table || m == ModelKind::roll4_table ||
         m == ModelKind::roll_planes || m == ModelKind::roll_strip || m == ModelKind::roll_inside_cylinder;
}

// f(Variant<M, T, P, G>{}) with G from the scan for a no-slip model, G = any otherwise; a
// scan in double that asks for Lyapunov exponents: f(Variant<M, T, P, any, true>{})
// (one kernel, with and without gravity: the tangent dynamics cost more than the branch); a
// rolling table's scan with noise: f(Variant<M, T, P, any, false, true>{}).
template <ModelKind M, TableKind T, Precision P, class F>
void visit_gravity_variant(const ScanSpec& spec, F&& f) {
  if constexpr (has_tangent_kernel(M) && P == Precision::float64) {
    if (spec.lyapunov_vectors > 0) {
      f(Variant<M, T, P, GravityKind::any, true>{});
      return;
    }
  }
  if constexpr (has_noisy_kernel(M) && P == Precision::float64) {
    if (scan_has_noise(spec)) {
      f(Variant<M, T, P, GravityKind::any, false, true>{});
      return;
    }
  }
  if constexpr (is_noslip(M)) {
    if (!scan_has_gravity(spec)) {
      f(Variant<M, T, P, GravityKind::none>{});
      return;
    }
  }
  f(Variant<M, T, P, GravityKind::any>{});
}

// f(Variant<...>{}) for the system kSystems[I], in the scan's precision (float only where the
// row has a float kernel: config validation rejects the others).
template <std::size_t I, class F>
void visit_system_variant(const ScanSpec& spec, F&& f) {
  constexpr SystemTraits s = kSystems[I];
  if (spec.precision == Precision::float32) {
    if constexpr (s.float_kernel) visit_gravity_variant<s.model, s.table, Precision::float32>(spec, f);
    else throw std::invalid_argument(std::string("no float kernel for system ") + s.name);
  } else {
    visit_gravity_variant<s.model, s.table, Precision::float64>(spec, f);
  }
}

// Calls f(Variant<...>{}) with the variant of spec if spec's row of kSystems is one of
// I, I + Stride, I + 2 Stride, ... (the CUDA backend's kernels are compiled in parts of such
// rows), and says whether it did.
template <std::size_t Stride, class F, std::size_t I>
bool visit_variant_among(const ScanSpec& spec, F&& f) {
  if constexpr (I >= kSystemCount) {
    return false;
  } else if (spec.model == kSystems[I].model && spec.table == kSystems[I].table) {
    visit_system_variant<I>(spec, f);
    return true;
  } else {
    return visit_variant_among<Stride, F, I + Stride>(spec, std::forward<F>(f));
  }
}

// Calls f(Variant<...>{}) with the variant of spec (host side: which kernel runs a scan): one
// model and table per row of kSystems, in each precision the row has, and for no-slip models
// with and without gravity.
template <class F>
void visit_variant(const ScanSpec& spec, F&& f) {
  if (!visit_variant_among<1, F, 0>(spec, std::forward<F>(f)))
    throw std::invalid_argument("no system has this model and table");
}

// As the ensemble kernel of spec's variant computes trajectory `index` (host side), e.g. the
// float kernel when spec.precision is float32: every model's code, instantiated for Sink.
template <class Sink>
TrajectoryResult simulate_any_variant(const ScanSpec& spec, std::uint64_t index, Sink& sink) {
  TrajectoryResult r;
  visit_variant(spec, [&](auto v) { r = simulate_variant<decltype(v)>(spec, index, sink); });
  return r;
}

// simulate_any_variant for the sinks most callers have, compiled once (simulate_trajectory.cpp):
// none (DiscardSink), or one that takes events and steps only (through EventSink).
TrajectoryResult simulate_trajectory(const ScanSpec& spec, std::uint64_t index, DiscardSink& sink);
TrajectoryResult simulate_trajectory(const ScanSpec& spec, std::uint64_t index, EventSink& sink);

// One trajectory for any sink: a sink that takes events and steps only goes through EventSink
// (the model code compiled once), one that asks for more gets the model code instantiated for it.
template <class Sink>
TrajectoryResult simulate_trajectory(const ScanSpec& spec, std::uint64_t index, Sink& sink) {
  if constexpr (takes_events_only<Sink>) {
    EventSinkOf<Sink> events(sink);
    return simulate_trajectory(spec, index, static_cast<EventSink&>(events));
  } else {
    return simulate_any_variant(spec, index, sink);
  }
}

}  // namespace skipstone
