// The per-trajectory values a scan keeps, as columns (structure of arrays): one array of doubles
// per requested observable (a vector observable: `length` values per trajectory, trajectory
// by trajectory), plus the status and the event count that every reduction needs. Kernels write
// these columns instead of whole TrajectoryResults, so that a chunk moves only what the run asks
// for; observable_value is the one definition, for host and device, of the value an observable
// stores for a trajectory (docs/config.md, "Observables": NaN where the status is not ok).
#pragma once
#include <cstdint>
#include <limits>

#include "skipstone/hd.hpp"
#include "skipstone/result.hpp"

namespace skipstone {

enum class ObservableId : std::int32_t {
  status, events, t_end, energy_error, z_min, z_max, z_final, z_drift, bounded, rho_even, rho_odd, caustic_gap,
  annulus_axis, annulus_width, exit_time, exit_arc, exit_side, lyapunov, lyapunov_per_event, lyapunov_spectrum,
  final_state,  // not in a TrajectoryResult: the CPU collecting path writes it from the last event
  impulse_ratio_max, impulse_ratio_mean, escape_time, hole, mean_free_time, coverage, gamma_drift, twist_max,
  gamma3_mean, normal_force_min, friction_ratio_max, detach_time, slip_time,
  height_series,  // not in a TrajectoryResult: the collecting path writes it from the samples
};
constexpr int kObservableCount = static_cast<int>(ObservableId::height_series) + 1;

// Value k (0 for a scalar) that observable `id` stores for trajectory result r.
SKIPSTONE_HD SKIPSTONE_INLINE double observable_value(ObservableId id, const TrajectoryResult& r, int k) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const bool ok = status_is_ok(r.status);
  switch (id) {
    case ObservableId::status: return static_cast<double>(r.status);
    case ObservableId::events: return static_cast<double>(r.events);
    case ObservableId::t_end: return ok ? r.t_end : nan;
    case ObservableId::energy_error: return ok ? r.energy_error : nan;
    case ObservableId::z_min: return ok ? r.z_min : nan;
    case ObservableId::z_max: return ok ? r.z_max : nan;
    case ObservableId::z_final: return ok ? r.z_final : nan;
    case ObservableId::z_drift: return ok ? r.z_drift : nan;
    case ObservableId::bounded: return ok ? r.bounded : nan;
    case ObservableId::rho_even: return ok ? r.rho_even : nan;
    case ObservableId::rho_odd: return ok ? r.rho_odd : nan;
    case ObservableId::caustic_gap: return ok ? r.caustic_gap : nan;
    case ObservableId::annulus_axis: return ok ? r.annulus_axis[k] : nan;
    case ObservableId::annulus_width: return ok ? r.annulus_width : nan;
    case ObservableId::exit_time: return ok ? r.exit_time : nan;
    case ObservableId::exit_arc: return ok ? r.exit_arc : nan;
    case ObservableId::exit_side: return ok ? static_cast<double>(r.exit_side) : nan;
    case ObservableId::lyapunov: return ok ? r.lyapunov : nan;
    case ObservableId::lyapunov_per_event: return ok ? r.lyapunov_per_event : nan;
    case ObservableId::lyapunov_spectrum: return ok ? r.lyapunov_spectrum[k] : nan;
    case ObservableId::final_state: return nan;  // not in a result (see ObservableId)
    case ObservableId::impulse_ratio_max: return ok ? r.impulse_ratio_max : nan;
    case ObservableId::impulse_ratio_mean: return ok ? r.impulse_ratio_mean : nan;
    case ObservableId::escape_time: return ok ? r.escape_time : nan;
    case ObservableId::hole: return ok ? r.hole : nan;
    case ObservableId::mean_free_time: return ok ? r.mean_free_time : nan;
    case ObservableId::coverage: return ok ? r.coverage : nan;
    case ObservableId::gamma_drift: return ok ? r.gamma_drift : nan;
    case ObservableId::twist_max: return ok ? r.twist_max : nan;
    case ObservableId::gamma3_mean: return ok ? r.gamma3_mean : nan;
    case ObservableId::normal_force_min: return ok ? r.normal_force_min : nan;
    case ObservableId::friction_ratio_max: return ok ? r.friction_ratio_max : nan;
    case ObservableId::detach_time: return ok ? r.detach_time : nan;
    case ObservableId::slip_time: return ok ? r.slip_time : nan;
    case ObservableId::height_series: return nan;  // not in a result (see ObservableId)
  }
  return nan;
}

// One requested observable: which, and how many values per trajectory (3 for annulus_axis,
// kLyapunovSpectrumLength for lyapunov_spectrum, else 1).
struct ColumnRequest {
  ObservableId id;
  std::int32_t length;
};

// The columns of `n` trajectories as the kernels leave them; column c belongs to request c.
struct ColumnsView {
  std::uint64_t n = 0;
  const std::uint8_t* status = nullptr;
  const std::uint64_t* events = nullptr;
  const double* const* columns = nullptr;
};

// The `M` values of vector observable `id` of trajectory i into its column. M is a constant so
// that the components are read at fixed offsets: an index known only at run time would make a
// GPU thread keep its whole TrajectoryResult in local memory.
template <int M>
SKIPSTONE_HD SKIPSTONE_INLINE void write_vector(ObservableId id, const TrajectoryResult& r, std::uint64_t i,
                                                double* column) {
  for (int k = 0; k < M; ++k) column[i * M + k] = observable_value(id, r, k);
}

// Writes trajectory i's columns (shared by the CPU packer and the CUDA kernel).
SKIPSTONE_HD SKIPSTONE_INLINE void write_columns(const TrajectoryResult& r, std::uint64_t i, int count,
                                                 const ColumnRequest* requests, double* const* columns,
                                                 std::uint8_t* status, std::uint64_t* events) {
  status[i] = static_cast<std::uint8_t>(r.status);
  events[i] = r.events;
  for (int c = 0; c < count; ++c) {
    const ObservableId id = requests[c].id;
    if (id == ObservableId::annulus_axis) write_vector<3>(id, r, i, columns[c]);
    else if (id == ObservableId::lyapunov_spectrum) write_vector<kLyapunovSpectrumLength>(id, r, i, columns[c]);
    else if (id == ObservableId::final_state || id == ObservableId::height_series) continue;  // the collecting path writes them
    else columns[c][i] = observable_value(id, r, 0);
  }
}

}  // namespace skipstone
