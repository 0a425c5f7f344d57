// The facts about each system id that the kernels, the config parser and the command line all
// depend on, in one table: its model and table, dimension, the start kinds and observables it
// has, whether a float kernel exists, how the CPU backend runs it (SIMD lanes or one trajectory
// per iteration), whether a run needs t_max and whether gravity applies, and how `trace
// --sample` samples it. Kernel dispatch (simulate.hpp: visit_variant; kernels/ensemble_cpu.cpp)
// reads this table, and compile-time checks tie the rest of the kernels to it. The host
// catalogue (host/config/systems.cpp) adds what only the host needs: parameter and start-key
// names, defaults, allowed ranges and observable names.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "skipstone/scan_spec.hpp"

namespace skipstone {

// How the CPU backend runs a system's trajectories (kernels/ensemble_cpu.cpp).
enum class Lanes : std::int32_t {
  none = 0,    // one trajectory per iteration (ensemble.inl)
  round_wall,  // no-slip SIMD lanes in a round wall (noslip_lane_block.hpp)
  rim,         // rim-passage SIMD lanes of the rolling systems (rim_lane_block.hpp)
};

// How `skipstone trace --sample` samples a trajectory.
enum class Sampling : std::int32_t {
  closed_form,  // by runs stopped at each sample time (exact flights, or the last step shortened)
  sink,         // through the sink: exact stops of the integrator (the rolling tables), closed forms
};

// Groups of observables (bits of SystemTraits::observables); a system's observables are its
// groups' observables in this order (host/config/systems.cpp names them), and its default list
// those of the groups that are not opt-in (kObsOptIn).
enum ObservableGroup : std::uint32_t {
  kObsCore = 1u << 0,     // status, events, t_end, energy_error
  kObsHeight = 1u << 1,   // z_min, z_max, z_final, z_drift, bounded
  kObsCaustic = 1u << 2,  // rho_even, rho_odd, caustic_gap: chords of a round cross-section
  kObsAnnulus = 1u << 3,  // annulus_axis, annulus_width: the sphere
  kObsExit = 1u << 4,     // exit_time, exit_arc, exit_side: one rim passage (Figure 18)
  kObsLyapunov = 1u << 5,  // lyapunov, lyapunov_per_event: the no-slip models, the rolling ones (not disc-transversal)
  kObsState = 1u << 6,     // final_state: the state at t_end (final_state.hpp)
  kObsImpulse = 1u << 7,   // impulse_ratio_max, impulse_ratio_mean: the friction a no-slip impact needs
  kObsLyapunovSpectrum = 1u << 8,  // lyapunov_spectrum: the 2D no-slip tables
  kObsEscape = 1u << 9,    // mean_free_time, coverage: the systems with boundary coordinates (boundary_map.hpp)
  kObsContact = 1u << 10,  // normal_force_min, friction_ratio_max, detach_time, slip_time: rolling contact force
  kObsRubber = 1u << 11,   // twist_max, gamma3_mean: rubber:sphere
  kObsNormalDrift = 1u << 12,  // gamma_drift: the drift of |Gamma| (rubber:sphere, driven:ball)
  kObsHoles = 1u << 13,    // escape_time, hole: stop.holes (the 2D tables, their cylinders, the rolling tables)
  kObsHeightSeries = 1u << 14,  // height_series: the height on a time grid (the rolling tables' samples, height_series.hpp)
};
// Groups a run computes only when its config names them: the tangent dynamics of the Lyapunov
// exponents cost more than the trajectory, the final state takes the collecting path, the
// impulse ratios are off the SIMD lanes, the holes group needs stop.holes, the escape group
// outputs.coverage (mean_free_time and coverage take the collecting path),
// the contact forces are evaluated at every integrator step, off the SIMD lanes, and the height
// series needs outputs.height_series (and takes the collecting path).
constexpr std::uint32_t kObsOptIn = kObsLyapunov | kObsLyapunovSpectrum | kObsState | kObsImpulse | kObsEscape |
                                    kObsContact | kObsHoles | kObsHeightSeries;

// The bit of a start kind in SystemTraits::starts.
constexpr std::uint32_t start_bit(StartKind k) { return 1u << static_cast<std::uint32_t>(k); }

struct SystemTraits {
  const char* name;         // the config's "system" id
  ModelKind model;
  TableKind table;          // the 2D table of a no-slip plane or cylinder system; none otherwise
  int dim;                  // dimension of the space the ball's centre moves in
  std::uint32_t starts;     // start kinds the system has (start_bit)
  std::uint32_t observables;  // ObservableGroup bits
  bool float_kernel;        // options.precision "float" has a kernel
  Lanes lanes;              // how the CPU backend runs it
  bool needs_t_max;         // a trajectory may never end by itself
  bool allows_gravity;
  Sampling sampling;
};

namespace traits_detail {
constexpr ModelKind plane = ModelKind::noslip_plane, cylinder = ModelKind::noslip_cylinder;
constexpr std::uint32_t wall_starts =
    start_bit(StartKind::interior) | start_bit(StartKind::boundary) | start_bit(StartKind::impact);
constexpr std::uint32_t noslip_obs = kObsCore | kObsHeight;
constexpr std::uint32_t impact_obs = noslip_obs | kObsImpulse;  // the no-slip models
constexpr std::uint32_t interior = start_bit(StartKind::interior);
constexpr std::uint32_t state_file = start_bit(StartKind::state);
constexpr SystemTraits noslip(const char* name, ModelKind m, TableKind t, bool round_wall = false) {
  const bool sinai = t == TableKind::sinai;  // a flight in a scatterer-free corridor never ends
  const std::uint32_t lyapunov = m == plane ? kObsLyapunov | kObsLyapunovSpectrum : kObsLyapunov;
  const std::uint32_t obs = (round_wall ? impact_obs | kObsCaustic : impact_obs) | lyapunov | kObsHoles | kObsEscape;
  return {name, m, t, m == plane ? 2 : 3, wall_starts | state_file, obs | kObsState,
          round_wall, round_wall ? Lanes::round_wall : Lanes::none, sinai,
          !sinai || m == cylinder,  // in-plane gravity on a torus has no floor
          Sampling::closed_form};
}
// roll3:<table> (N = 6) and roll4:<table> (N = 10) of rolling/table_roll.hpp: starts on either
// face (roll3 also at a wall point, entering the edge: Figure 18 on any table), the height
// observables (roll3: the centre's y against the in-plane gravity; roll4: the axial height), the
// first edge passage's exit and the caustics on the disc, the Lyapunov exponent (opt-in, double:
// tangent/roll_lyapunov.hpp), final_state and the start "state_file" (table_state_row.hpp), the
// height on a time grid (height_series.hpp), and a float kernel (table_wall.hpp). On
// the Sinai torus a flight in a corridor never ends, and roll3's in-plane gravity has no floor
// there.
constexpr SystemTraits rolling(const char* name, ModelKind m, TableKind t) {
  const bool sinai = t == TableKind::sinai, roll3 = m == ModelKind::roll3_table;
  const std::uint32_t faces = interior | start_bit(StartKind::plate_minus) | state_file;
  const std::uint32_t obs = noslip_obs | kObsExit | kObsContact | kObsState | kObsHeightSeries | kObsHoles | kObsEscape;
  return {name, m, t, 3, roll3 ? faces | start_bit(StartKind::rim_entry) : faces,
          (t == TableKind::disc ? obs | kObsCaustic : obs) | kObsLyapunov, true, Lanes::rim, sinai, !(sinai && roll3),
          Sampling::sink};
}
}  // namespace traits_detail

// Every system, in the order the CLI help and the documentation list them.
inline constexpr SystemTraits kSystems[] = {
    traits_detail::noslip("disc", traits_detail::plane, TableKind::disc, true),
    traits_detail::noslip("strip", traits_detail::plane, TableKind::strip),
    traits_detail::noslip("stadium", traits_detail::plane, TableKind::stadium),
    traits_detail::noslip("rectangle", traits_detail::plane, TableKind::rectangle),
    traits_detail::noslip("polygon", traits_detail::plane, TableKind::polygon),
    traits_detail::noslip("ellipse", traits_detail::plane, TableKind::ellipse),
    traits_detail::noslip("sinai", traits_detail::plane, TableKind::sinai),
    {"sphere", ModelKind::noslip_sphere, TableKind::none, 3, traits_detail::interior | traits_detail::state_file,
     traits_detail::impact_obs | kObsAnnulus | kObsLyapunov | kObsState | kObsEscape, false, Lanes::none, false, true,
     Sampling::closed_form},
    traits_detail::noslip("cylinder:disc", traits_detail::cylinder, TableKind::disc, true),
    traits_detail::noslip("cylinder:strip", traits_detail::cylinder, TableKind::strip),
    traits_detail::noslip("cylinder:stadium", traits_detail::cylinder, TableKind::stadium),
    traits_detail::noslip("cylinder:rectangle", traits_detail::cylinder, TableKind::rectangle),
    traits_detail::noslip("cylinder:polygon", traits_detail::cylinder, TableKind::polygon),
    traits_detail::noslip("cylinder:ellipse", traits_detail::cylinder, TableKind::ellipse),
    traits_detail::noslip("cylinder:sinai", traits_detail::cylinder, TableKind::sinai),
    {"roll4:disc-transversal", ModelKind::roll_disc_transversal, TableKind::none, 2, start_bit(StartKind::rim_entry),
     kObsCore | kObsExit, true, Lanes::rim, true, false, Sampling::closed_form},
    {"roll4:planes", ModelKind::roll_planes, TableKind::none, 3, traits_detail::interior | traits_detail::state_file,
     traits_detail::noslip_obs | kObsState | kObsContact | kObsLyapunov,
     false, Lanes::none, false, true, Sampling::closed_form},
    {"roll3:strip", ModelKind::roll_strip, TableKind::none, 2, traits_detail::interior | traits_detail::state_file,
     traits_detail::noslip_obs | kObsState | kObsContact | kObsLyapunov,
     false, Lanes::none, false, true, Sampling::closed_form},
    {"roll3:inside-cylinder", ModelKind::roll_inside_cylinder, TableKind::none, 3,
     traits_detail::interior | traits_detail::state_file,
     traits_detail::noslip_obs | kObsState | kObsHeightSeries | kObsContact | kObsLyapunov, false, Lanes::none, false,
     true, Sampling::sink},
    {"roll4:disc", ModelKind::roll_disc, TableKind::none, 3,
     traits_detail::interior | start_bit(StartKind::plate_minus) | traits_detail::state_file,
     traits_detail::noslip_obs | kObsCaustic | kObsLyapunov | kObsState | kObsHeightSeries | kObsContact | kObsHoles |
         kObsEscape,
     true, Lanes::rim, false, true, Sampling::sink},
    traits_detail::rolling("roll3:disc", ModelKind::roll3_table, TableKind::disc),
    traits_detail::rolling("roll3:stadium", ModelKind::roll3_table, TableKind::stadium),
    traits_detail::rolling("roll3:ellipse", ModelKind::roll3_table, TableKind::ellipse),
    traits_detail::rolling("roll3:rectangle", ModelKind::roll3_table, TableKind::rectangle),
    traits_detail::rolling("roll3:polygon", ModelKind::roll3_table, TableKind::polygon),
    traits_detail::rolling("roll3:sinai", ModelKind::roll3_table, TableKind::sinai),
    traits_detail::rolling("roll4:stadium", ModelKind::roll4_table, TableKind::stadium),
    traits_detail::rolling("roll4:ellipse", ModelKind::roll4_table, TableKind::ellipse),
    traits_detail::rolling("roll4:rectangle", ModelKind::roll4_table, TableKind::rectangle),
    traits_detail::rolling("roll4:polygon", ModelKind::roll4_table, TableKind::polygon),
    traits_detail::rolling("roll4:sinai", ModelKind::roll4_table, TableKind::sinai),
    {"rubber:sphere", ModelKind::rubber_sphere, TableKind::none, 3, traits_detail::interior | traits_detail::state_file,
     kObsCore | kObsNormalDrift | kObsRubber | kObsContact | kObsState, false,
     Lanes::none, true, false, Sampling::closed_form},
    {"driven:disk", ModelKind::driven_disk, TableKind::none, 2, traits_detail::interior | traits_detail::state_file,
     kObsCore | kObsContact | kObsState, false, Lanes::none, true, true, Sampling::closed_form},
    {"driven:ball", ModelKind::driven_ball, TableKind::none, 3, traits_detail::interior | traits_detail::state_file,
     kObsCore | kObsNormalDrift | kObsContact | kObsState, false, Lanes::none, true, true, Sampling::closed_form},
};
inline constexpr std::size_t kSystemCount = sizeof(kSystems) / sizeof(kSystems[0]);

// The no-slip models (noslip_model.hpp), whose kernels come in a gravity-free variant too.
constexpr bool is_noslip(ModelKind m) {
  return m == ModelKind::noslip_plane || m == ModelKind::noslip_sphere || m == ModelKind::noslip_cylinder;
}

// The row of (model, table), or nullptr for a pair that is no system.
constexpr const SystemTraits* find_system(ModelKind m, TableKind t) {
  for (const SystemTraits& s : kSystems)
    if (s.model == m && s.table == t) return &s;
  return nullptr;
}

// The row of a system id, or nullptr.
constexpr const SystemTraits* find_system(std::string_view name) {
  for (const SystemTraits& s : kSystems)
    if (name == s.name) return &s;
  return nullptr;
}

// The row of (model, table), which must be a system (compile-time use: a kernel's own row).
constexpr const SystemTraits& system_traits(ModelKind m, TableKind t) { return *find_system(m, t); }

namespace traits_detail {
constexpr bool rows_are_unique() {
  for (std::size_t i = 0; i < kSystemCount; ++i)
    for (std::size_t j = i + 1; j < kSystemCount; ++j)
      if ((kSystems[i].model == kSystems[j].model && kSystems[i].table == kSystems[j].table) ||
          find_system(kSystems[j].name) != &kSystems[j])
        return false;
  return true;
}
}  // namespace traits_detail
static_assert(traits_detail::rows_are_unique(), "kSystems: one row per system id and per (model, table)");

}  // namespace skipstone
