// Observable catalogue and accessors.
#include "observables.hpp"

#include <cmath>
#include <stdexcept>
#include <vector>

namespace skipstone {
namespace {

template <double TrajectoryResult::*Field>
double ok_field(const TrajectoryResult& r) {
  return status_is_ok(r.status) ? r.*Field : NAN;
}
double status_value(const TrajectoryResult& r) { return static_cast<double>(r.status); }
double events_value(const TrajectoryResult& r) { return static_cast<double>(r.events); }
double exit_side_value(const TrajectoryResult& r) {
  return status_is_ok(r.status) ? static_cast<double>(r.exit_side) : NAN;
}
double no_scalar(const TrajectoryResult&) { return NAN; }
double annulus_axis_component(const TrajectoryResult& r, int k) { return r.annulus_axis[k]; }
double lyapunov_spectrum_component(const TrajectoryResult& r, int k) { return r.lyapunov_spectrum[k]; }

const std::vector<ObservableInfo>& catalogue() {
  using T = TrajectoryResult;
  using O = ObservableType;
  static const std::vector<ObservableInfo> c = {
      {"status", O::int8, "how the trajectory ended (0 finished, 1 exited, 2 escaped, 3 corner, 4 non_finite, 5 energy_drift, 6 integrator_failure, 7 masked)", status_value},
      {"events", O::uint64, "impacts (no-slip) or rim passages (rolling)", events_value},
      {"t_end", O::float64, "final time", ok_field<&T::t_end>},
      {"energy_error", O::float64, "max relative energy error over the run", ok_field<&T::energy_error>},
      {"z_min", O::float64, "minimum height", ok_field<&T::z_min>},
      {"z_max", O::float64, "maximum height", ok_field<&T::z_max>},
      {"z_final", O::float64, "final height", ok_field<&T::z_final>},
      {"z_drift", O::float64, "least-squares slope of height against time at events", ok_field<&T::z_drift>},
      {"bounded", O::float64, "1 if the height stayed above z0 - bounded_depth, else 0", ok_field<&T::bounded>},
      {"rho_even", O::float64, "mean distance of even chords from the axis", ok_field<&T::rho_even>},
      {"rho_odd", O::float64, "mean distance of odd chords from the axis", ok_field<&T::rho_odd>},
      {"caustic_gap", O::float64, "|rho_even - rho_odd|", ok_field<&T::caustic_gap>},
      {"annulus_axis", O::vector, "unit axis of the spherical annulus (direction of K = x^u - gamma R w)", no_scalar, 3,
       annulus_axis_component},
      {"annulus_width", O::float64, "angular width (radians) of the band of impact latitudes about the axis", ok_field<&T::annulus_width>},
      {"exit_time", O::float64, "time on the rim before re-entering a flat part", ok_field<&T::exit_time>},
      {"exit_arc", O::float64, "arc length along the plate boundary from entry to exit", ok_field<&T::exit_arc>},
      {"exit_side", O::float64, "+1 back to the entry side (friendly roll), -1 opposite side, 0 none by t_max; NaN where masked or failed", exit_side_value},
      {"lyapunov", O::float64, "largest finite-time Lyapunov exponent per unit time, over the run (tangent dynamics)", ok_field<&T::lyapunov>},
      {"lyapunov_per_event", O::float64, "largest finite-time Lyapunov exponent per impact, over the run", ok_field<&T::lyapunov_per_event>},
      {"lyapunov_spectrum", O::vector, "the 5 finite-time Lyapunov exponents per unit time of the phase space (x, y, u, v, s), by QR", no_scalar,
       kLyapunovSpectrumLength, lyapunov_spectrum_component},
  };
  return c;
}

}  // namespace

const ObservableInfo& observable_info(const std::string& name) {
  for (const auto& o : catalogue())
    if (o.name == name) return o;
  throw std::invalid_argument("unknown observable " + name);
}

}  // namespace skipstone
