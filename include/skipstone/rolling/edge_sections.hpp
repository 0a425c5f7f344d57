// Poincare sections on the edge passages of the rolling tables (table_roll.hpp: roll3:<table>,
// roll4:<table>, roll4:disc; docs/models.md "Poincare sections of the flights"): every accepted
// integrator step on N^c goes to a sink that has on_flight as a step curve (section_map.hpp:
// SectionSink::on_step_curve), whose crossings curve_crossings.hpp finds (for_each_step_crossing).
// A step from the accepted state y0 at t0 to y1 at t0 + h is the stretch (t0, t0 + h] of the
// trajectory: its crossings are those in that half-open span, as a flight's are in (0, tau], so
// a crossing at a step's end, at a break of the wall (the next piece's first step starts there)
// or at an exit (the flight after starts there) counts once. The first step of a piece starts
// from a centre that the end of the piece before (the flight before an entry, the piece before a
// break) gives again only to round-off, as does the flight after an exit: the sink starts each
// piece from the level the one before ended at where the two differ by round-off across the
// plane (section_map.hpp: kJunctionLevel), so a plane through those points (the line of a flat
// side of the wall, a break) counts a crossing there once.
// Rejected steps and the partial steps of the exit's search are not steps of the trajectory; the
// step to a located exit or break is.
// Inside a step the state at t0 + t is one GBS step of length t from y0, projected
// (rim_partial_step: the trace's samples), so a crossing is solved on the trajectory as a run
// stopped there computes it, to the time resolution of the exit's search
// (ScalarConstants<T>::rim_newton (1 + t), in T). The passages of noisy constraints
// (noisy_table.hpp, noisy_disc.hpp: kLinear) are known only at the fixed steps of their
// stochastic scheme, so there the state inside a step is the straight line from y0 to y1, and a
// crossing is located on the path to O(h^2) in the step h.
#pragma once
#include <cmath>
#include <type_traits>

#include "skipstone/final_state.hpp"
#include "skipstone/precision.hpp"
#include "skipstone/rolling/disc_output.hpp"
#include "skipstone/section_map.hpp"

namespace skipstone {

// One accepted step of a passage over the wall's current piece, as SectionSink::on_step_curve
// takes it: at(t, x, v, row) the centre x (the row's position columns, a third 0 in a 2D row),
// its velocity v (Wall::edge_velocity) and the state
// row at t in [0, h]: the trace's edge row (Wall::edge_row) with the centre's velocity v in place
// of the frame's, so that its columns x and u mean what they mean on the flat parts (the spin w
// stays the frame's, (S23, -S13, S12)).
template <class Wall, bool kLinear = false>
struct EdgeStepCurve {
  using T = typename Wall::Scalar;
  using Sys = typename Wall::Sys;
  const Wall& wall;
  const Sys& sys;
  const T* y0;  // the step's start
  const T* y1;  // its end, h later
  double h;
  T r, rtol, atol;
  double resolution;

  SKIPSTONE_HD void at(double t, double* x, double* v, double* row) const {
    T ys[Sys::N];
    const T* y = t <= 0.0 ? y0 : y1;
    if (t > 0.0 && t < h) {
      if constexpr (kLinear) {
        const T along = T(t / h);
        for (int i = 0; i < Sys::N; ++i) ys[i] = y0[i] + along * (y1[i] - y0[i]);
      } else {
        rim_partial_step(sys, y0, T(t), ys, rtol, atol);
      }
      y = ys;
    }
    const auto e = wall.edge_row(sys, y, r);  // 3D rows, or 2D ones (roll3:strip's)
    const auto u = wall.edge_velocity(sys, y);
    constexpr int D = std::is_same_v<std::decay_t<decltype(e.x)>, Vec3> ? 3 : 2;
    x[0] = e.x.x, x[1] = e.x.y, v[0] = u.x, v[1] = u.y;
    if constexpr (D == 3) x[2] = e.x.z, v[2] = u.z;
    else x[2] = 0.0, v[2] = 0.0;
    write_state_row(e.x, e.state, row);
    for (int k = 0; k < D; ++k) row[D + k] = v[k];
  }
};

// The steps of one trajectory's passages, for a sink that has on_flight (EdgeSteps::on_step
// calls step): each step on from the last one, whose end state it keeps; kLinear: the steps of a
// noisy passage (EdgeStepCurve).
template <class Wall, bool kLinear = false>
struct EdgeSection {
  using T = typename Wall::Scalar;
  static constexpr int N = Wall::Sys::N;
  T rtol, atol;
  T t_prev;  // the last step's end, from the start of the piece (0: the piece's start)
  T y_prev[N];

  // The step of the piece started at t0 that ends at t with state y (t = 0: the piece's start).
  template <class Sink>
  SKIPSTONE_HD void step(Sink& sink, const Wall& wall, const typename Wall::Sys& sys, T r, double t0, T t,
                         const T* y) {
    if (t > T(0)) {
      const double resolution = double(ScalarConstants<T>::rim_newton) * (1.0 + double(t_prev));
      const EdgeStepCurve<Wall, kLinear> curve{wall, sys, y_prev, y, double(t - t_prev), r, rtol, atol, resolution};
      report_step(sink, t0 + double(t_prev), curve.h, curve);
    }
    t_prev = t;
    for (int i = 0; i < N; ++i) y_prev[i] = y[i];
  }
};

// What EdgeSteps keeps for a sink without sections: nothing.
struct NoEdgeSection {};

template <class Sink, class Wall, bool kLinear = false>
using EdgeSectionOf = std::conditional_t<has_on_flight<Sink>::value, EdgeSection<Wall, kLinear>, NoEdgeSection>;

}  // namespace skipstone
