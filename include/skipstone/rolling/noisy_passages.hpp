// The run of a rolling table with noisy constraints (roll4:disc: noisy_disc.hpp; roll3:<table> and
// roll4:<table>: noisy_table.hpp) after its start: the edge passages integrated by the stochastic
// Heun scheme (noisy_transversal.hpp) on the wall's noisy system, piece by piece, and the flat
// parts between them.
//   roughness (noise 2): acts on the edge only (it scales the shape operator, zero on a face);
//     the faces are the closed-form flights, and passage j of the trajectory draws its noise from
//     its own sequence (passage_noise_key), started from the stationary law: a rough wall's
//     roughness at one passage's place is independent of another's;
//   slip (noise 1): the contact slips all the time, so the faces are slipping flights
//     (slipping_face.hpp) and one Ornstein-Uhlenbeck process with one Brownian path on one time
//     grid runs through the whole trajectory: started from the stationary law at t = 0, carried
//     over every junction (the slip vector turned between the plate's and the frame's
//     coordinates there) and every break of the wall (NoiseStart), driven by one Brownian motion
//     of the plate (noisy_transversal.hpp, slip_drive_in_frame) whose increment over step j of
//     the grid is number j of the trajectory's sequence, whatever the step is spent on.
// A run from a state row with noise columns (a noisy run's final state) starts its process where
// the row says instead (slip; roughness inside an edge passage), and every run writes the
// process at its end after its state row (finish_noisy_roll), so that a continued run goes on
// with it.
// A sink that asks for samples gets them on the steps' interpolants (noisy_samples.hpp).
// A polygon's corner under slip: the slip is off on the vertex piece (noisy_table.hpp), so the
// centre's velocity along the wall differs between a corner's edge piece (w2 + eta^2 u2) and its
// vertex piece (w2). Where the one drives the contact into the corner and the other drives it
// back, neither piece can be followed on (a step on either crosses back at once): the contact
// is held at the vertex (NoisyEdgeSystem::hold, a sliding motion) until one of the two stops
// driving it there, and then goes on along the edge or over the corner.
#pragma once
#include <cmath>
#include <cstdint>

#include "skipstone/final_state.hpp"
#include "skipstone/rolling/noisy_samples.hpp"
#include "skipstone/rolling/noisy_transversal.hpp"
#include "skipstone/rolling/slipping_face.hpp"

namespace skipstone {

// After a passage that ended at a break of the wall, the run on the piece beyond it: the end
// of that piece at which a slipping contact is to be held (NoisyEdgeSystem::hold; 0: none),
// the run moved back to the piece before where that is the one to hold it on or the held
// contact goes on along it. `before`: the passage's system, `end` its state at the break.
template <class Wall, class NoisySystem, class Sys>
SKIPSTONE_HD int corner_hold(TableRollRun<Wall>& run, NoisySystem noisy_system, const Sys& before, const double* end,
                             double* y) {
  const auto back = [&] { run.wall.next_piece(run.sys, y); };
  if (before.hold != 0) {  // released
    if (before.released_along_this_piece(end)) back();
    return 0;
  }
  const Sys after = noisy_system(run);
  const double s = y[5] == after.edge.arc.q_lo ? 1.0 : -1.0;  // the direction it moved in
  const bool slips_before = before.kind() == kNoiseSlip, slips_after = after.kind() == kNoiseSlip;
  if (slips_before == slips_after || !(s * after.wall_velocity(end) < 0.0)) return 0;  // it goes on
  if (slips_after) return s > 0.0 ? -1 : 1;  // held on the edge piece it entered
  back();                                    // held on the edge piece it came from
  return s > 0.0 ? 1 : -1;
}

// The noise of one noisy rolling run: its process, its Brownian path (keyed by the trajectory:
// trajectory_noise_key; CounterNoise::m > 1 in the convergence tests), the scheme's fixed step
// and the noise a state row goes on from (row_noise; null: from the stationary law).
struct RollNoise {
  OuNoise ou;
  CounterNoise path;
  double h;
  const double* from_row;
};

SKIPSTONE_HD SKIPSTONE_INLINE RollNoise roll_noise(const ScanSpec& spec, const ScanPoint& pt, const CounterNoise& path) {
  return {noise_of(pt), path, pt.p[P_NOISE_DT], row_noise(spec, pt)};
}

// The rest of a noisy run from its start: on_edge, a passage from the frame state y follows (a
// rim_entry start, or a state row inside an edge passage), else the run starts on a face.
// noisy_system(run) makes the noisy system of the run's current piece of the wall. Returns with
// the run's end in run and y, and the noise process there in noise_end (the state row's noise
// columns: slip's two components, in the plate's coordinates on a face and the frame's (tau,
// e2) inside a passage; roughness's n inside a passage, NaN on a face; NaN where a process has
// no component). A state row's noise (noise.from_row) is read in the same coordinates.
template <class Wall, class Sink, class NoisySystem>
SKIPSTONE_HD void noisy_roll_passages(TableRollRun<Wall>& run, const RollNoise& noise, bool on_edge, double* y,
                                      double* noise_end, Sink& sink, NoisySystem noisy_system) {
  constexpr int N = TableRollRun<Wall>::N;
  const OuNoise& ou = noise.ou;
  const CounterNoise& trajectory_noise = noise.path;
  const double h = noise.h;
  const bool slip = ou.kind == kNoiseSlip;
  const double* stored = noise.from_row;
  const bool frame_noise = on_edge && stored;  // an edge row's noise is the frame's
  NoiseStart from;  // slip: the trajectory's noise, in the plate's coordinates on a face
  if (stored && (slip || on_edge)) from = {true, {stored[0], slip ? stored[1] : 0.0}, 0, 0.0, {}};
  else if (slip) from = {true, {ou.sigma * trajectory_noise.initial(0), ou.sigma * trajectory_noise.initial(1)}, 0, 0.0, {}};
  if (!on_edge) on_edge = slip ? fly_slipping(run, sink, ou, trajectory_noise, h, from, Vec2{0.0, 0.0}, y)
                               : run.fly_to_edge(sink, y);
  if (slip && on_edge && !frame_noise) from = slip_at_edge(from, run, y, true);
  std::uint64_t passage = 0;
  EdgeSectionOf<Sink, Wall, true> section{};  // the section's search of the steps
  int hold = 0;                                // slip held at a polygon's corner
  bool in_passage = false;                     // the run ends inside a passage, its noise passage_end
  double passage_end[2] = {NAN, NAN};
  while (on_edge) {
    using Sys = decltype(noisy_system(run));
    Sys sys = noisy_system(run);
    if constexpr (rim_has_breaks<Sys>::value) sys.hold = hold;
    auto steps = run.edge_steps(sink, &section);  // reads the first N components of each step's state
    NoiseStart onward;
    const CounterNoise noise_here =
        slip ? trajectory_noise : CounterNoise{passage_noise_key(trajectory_noise.key, passage), trajectory_noise.m};
    RimRun<N + 2, double> rn;
    if constexpr (wants_samples<Sink>::value) {
      SampledNoisySteps<Sys, decltype(steps), Sink> sampled{steps, sink, {sys}, run.t};
      rn = integrate_noisy_passage(sys, y, h, run.t_left(), run.steps_left(), noise_here, sampled, from, &onward);
    } else {
      rn = integrate_noisy_passage(sys, y, h, run.t_left(), run.steps_left(), noise_here, steps, from, &onward);
    }
    from = onward;
    in_passage = true;
    passage_end[0] = rn.y[N];
    passage_end[1] = slip ? rn.y[N + 1] : NAN;
    const EdgeEnd next = run.leave_piece(rim_run_head<N>(rn), y);
    if (next == EdgeEnd::next_piece) {
      if constexpr (rim_has_breaks<Sys>::value) {
        if (slip) hold = corner_hold(run, noisy_system, sys, rn.y, y);
      }
      continue;
    }
    hold = 0;
    if (next != EdgeEnd::plate) break;
    in_passage = false;
    if (!slip) {
      from = NoiseStart{};
      ++passage;
      on_edge = run.fly_to_edge(sink, y);
      continue;
    }
    const EdgePoint left = run.wall.edge_point(run.sys, y);
    from = slip_at_edge(from, run, y, false);
    on_edge = fly_slipping(run, sink, ou, trajectory_noise, h, from, left.e1, y);
    if (on_edge) from = slip_at_edge(from, run, y, true);
  }
  noise_end[0] = in_passage ? passage_end[0] : slip ? from.n[0] : NAN;
  noise_end[1] = in_passage ? passage_end[1] : slip ? from.n[1] : NAN;
}

// A noisy run's options: slip exchanges energy with the contact, so its runs never stop for
// energy drift.
SKIPSTONE_HD SKIPSTONE_INLINE RollOptions noisy_roll_options(RollOptions opt, const OuNoise& noise) {
  if (noise.kind == kNoiseSlip) opt.energy_tolerance = INFINITY;
  return opt;
}

// A noisy run from its start to its end (noisy_roll_passages), the wall's state row at the end
// written into `row` (final_state; null: not kept), a face's or an edge passage's as the
// deterministic run writes it, so that a run goes on from it, and after it the noise columns
// (noise_n1, noise_n2: the process there, as noisy_roll_passages says).
template <class Wall, class Sink, class NoisySystem>
SKIPSTONE_HD TrajectoryResult finish_noisy_roll(TableRollRun<Wall>& run, const RollNoise& noise, bool on_edge, double* y,
                                                double* row, Sink& sink, NoisySystem noisy_system) {
  double noise_end[2];
  noisy_roll_passages(run, noise, on_edge, y, noise_end, sink, noisy_system);
  if (row) {
    run.write_state_row(y, row);
    row[Wall::kStateColumns] = noise_end[0];
    row[Wall::kStateColumns + 1] = noise_end[1];
  }
  return run.result();
}

}  // namespace skipstone
