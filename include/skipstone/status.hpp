// How a trajectory ended (docs/usage.md). Counts of every status are part of every result;
// observables of failed trajectories are never averaged in.
#pragma once
#include <cstdint>

namespace skipstone {

enum class Status : std::int32_t {
  finished = 0,            // reached t_max or the event budget
  exited = 1,              // left through the monitored exit (exit maps, Figure 18)
  escaped = 2,             // free flight that never meets the boundary again (e.g. vertical fall in a strip)
  corner = 3,              // hit a corner of the table: outcome undefined, stopped
  non_finite = 4,          // a NaN or infinity appeared in the state
  energy_drift = 5,        // relative energy error above options.energy_tolerance
  integrator_failure = 6,  // step size underflow, step budget exhausted, or a root solve that found nothing
  masked = 7,              // initial condition outside the allowed set (e.g. off the energy sphere)
  through_hole = 8,        // left the table through a hole in its wall (stop.holes)
};
constexpr int kStatusCount = 9;

// A trajectory whose observables are valid numbers.
inline constexpr bool status_is_ok(Status s) {
  return s == Status::finished || s == Status::exited || s == Status::escaped || s == Status::through_hole;
}

inline const char* status_name(Status s) {
  switch (s) {
    case Status::finished: return "finished";
    case Status::exited: return "exited";
    case Status::escaped: return "escaped";
    case Status::corner: return "corner";
    case Status::non_finite: return "non_finite";
    case Status::energy_drift: return "energy_drift";
    case Status::integrator_failure: return "integrator_failure";
    case Status::masked: return "masked";
    case Status::through_hole: return "through_hole";
  }
  return "unknown";
}

}  // namespace skipstone
