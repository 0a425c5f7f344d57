// Observable catalogue and accessors.
#include "observables.hpp"

#include <stdexcept>
#include <vector>

namespace skipstone {
namespace {

const std::vector<ObservableInfo>& catalogue() {
  using O = ObservableType;
  using I = ObservableId;
  static const std::vector<ObservableInfo> c = {
      {"status", O::int8, "how the trajectory ended (0 finished, 1 exited, 2 escaped, 3 corner, 4 non_finite, 5 energy_drift, 6 integrator_failure, 7 masked, 8 through_hole)", I::status},
      {"events", O::uint64, "impacts (no-slip) or rim passages (rolling)", I::events},
      {"t_end", O::float64, "final time", I::t_end},
      {"energy_error", O::float64, "max relative energy error over the run", I::energy_error},
      {"z_min", O::float64, "minimum height", I::z_min},
      {"z_max", O::float64, "maximum height", I::z_max},
      {"z_final", O::float64, "final height", I::z_final},
      {"z_drift", O::float64, "least-squares slope of height against time at events", I::z_drift},
      {"bounded", O::float64, "1 if the height stayed above z0 - bounded_depth, else 0", I::bounded},
      {"rho_even", O::float64, "mean distance of even chords from the axis", I::rho_even},
      {"rho_odd", O::float64, "mean distance of odd chords from the axis", I::rho_odd},
      {"caustic_gap", O::float64, "|rho_even - rho_odd|", I::caustic_gap},
      {"annulus_axis", O::vector, "unit axis of the spherical annulus (direction of K = x^u - gamma R w)", I::annulus_axis, 3},
      {"annulus_width", O::float64, "angular width (radians) of the band of impact latitudes about the axis", I::annulus_width},
      {"exit_time", O::float64, "time on the rim before re-entering a flat part", I::exit_time},
      {"exit_arc", O::float64, "arc length along the plate boundary from entry to exit", I::exit_arc},
      {"exit_side", O::float64, "+1 back to the entry side (friendly roll), -1 opposite side, 0 none by t_max; NaN where masked or failed", I::exit_side},
      {"lyapunov", O::float64, "largest finite-time Lyapunov exponent per unit time, over the run (tangent dynamics)", I::lyapunov},
      {"lyapunov_per_event", O::float64, "largest finite-time Lyapunov exponent per impact, over the run", I::lyapunov_per_event},
      {"lyapunov_spectrum", O::vector, "the 5 finite-time Lyapunov exponents per unit time of the phase space (x, y, u, v, s), by QR", I::lyapunov_spectrum,
       kLyapunovSpectrumLength},
      {"final_state", O::vector, "the state at t_end (the last event), one row per trajectory; columns: meta.json observables.final_state.columns", I::final_state,
       0},  // length: the system's state columns (values_per_trajectory)
      {"impulse_ratio_max", O::float64, "largest |tangential| / normal impulse of an impact: the least friction coefficient the run's impacts need", I::impulse_ratio_max},
      {"impulse_ratio_mean", O::float64, "mean over the impacts of |tangential| / normal impulse", I::impulse_ratio_mean},
      {"escape_time", O::float64, "time at which the trajectory left through a hole of stop.holes; NaN if it did not", I::escape_time},
      {"hole", O::float64, "index in stop.holes of the hole it left through, -1 none; NaN where masked or failed", I::hole},
      {"mean_free_time", O::float64, "mean flight time between consecutive impacts: (t of the last impact - t of the first) / (impacts - 1)", I::mean_free_time},
      {"coverage", O::float64, "fraction of the cells of outputs.coverage (boundary coordinates s, p) that its impacts visited", I::coverage},
      {"gamma_drift", O::float64, "largest ||gamma| - 1| over the run: drift of the unit contact normal (body frame)", I::gamma_drift},
      {"twist_max", O::float64, "largest |Omega . gamma| / |Omega0| over the run: drift off the no-twist constraint", I::twist_max},
      {"gamma3_mean", O::float64, "time mean of gamma_3: where on the ball (along body axis 3) the contact lies on average", I::gamma3_mean},
      {"normal_force_min", O::float64, "least normal part N of the surface's force on the ball per unit mass over the run (< 0: the surface must pull)", I::normal_force_min},
      {"friction_ratio_max", O::float64, "largest |friction| / N over the times where N > 0: the least static friction coefficient the run needs; +inf if somewhere N < 0, or N = 0 with friction (no finite coefficient holds the ball there)", I::friction_ratio_max},
      {"detach_time", O::float64, "first time N < 0 (a real ball would leave the surface); NaN if never", I::detach_time},
      {"slip_time", O::float64, "first time |friction| > mu_s N (parameters.mu_s); NaN if never", I::slip_time},
      {"height_series", O::vector, "the height at the times of outputs.height_series, one row per trajectory (NaN after its end); times: meta.json observables.height_series.times", I::height_series,
       0},  // length: the grid's points (values_per_trajectory)
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
