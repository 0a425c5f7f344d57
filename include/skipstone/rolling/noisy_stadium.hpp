// roll3:strip and roll4:planes with noisy constraints (docs/models.md "Noisy constraints"): the
// run of a rolling table with noise (noisy_passages.hpp, noisy_table.hpp's edge system) on the
// strip's wall, reported in the closed-form models' coordinates (stadium_wall.hpp). Each edge of
// the strip is a straight wall (kappa = 0), so an edge passage is the half-circle of the stadium
// with the noise acting on it as on any rolling table's edge:
//   slip (type 1): the contact point slips on the faces and over the edges (slipping_face.hpp);
//   roughness (type 2): every eta of the edge's reaction terms becomes eta (1 + n1); it has
//     nothing to act on on the faces.
// Without noise the models stay the closed form (roll3_strip.hpp, roll4_planes.hpp).
#pragma once
#include <cstdint>

#include "skipstone/rolling/noisy_passages.hpp"
#include "skipstone/rolling/noisy_table.hpp"
#include "skipstone/rolling/stadium_wall.hpp"

namespace skipstone {

// One roll3:strip (N = 6) or roll4:planes (N = 10) trajectory with noisy constraints (noise != 0,
// double only), from the closed form's plate start or a state row anywhere on the stadium.
template <int N, class Sink>
SKIPSTONE_HD TrajectoryResult simulate_noisy_stadium(const ScanSpec& spec, const ScanPoint& pt, std::uint64_t index,
                                                     Sink& sink) {
  if (plate_start_masked(spec, pt.p)) return masked_result();
  RollModel m;
  RollOptions opt;
  table_roll_model(spec, pt, m, opt);
  const StadiumWall<N> wall = stadium_wall<N>(pt.p[P_L], m.r);
  const StadiumStart<N> start = stadium_wall_start<N>(wall, spec, pt.p);
  const RollNoise noise = roll_noise(spec, pt, CounterNoise{trajectory_noise_key(spec, pt, index)});
  double* row = take_state_row(sink);
  TableRollRun<StadiumWall<N>> run;
  double y[N];
  if (start.on_edge) run.start_on_edge(wall, m, start.arc, start.y, noisy_roll_options(opt, noise.ou), sink, y);
  else run.start(wall, m, start.s, noisy_roll_options(opt, noise.ou), sink);
  return finish_noisy_roll(run, noise, start.on_edge, y, row, sink,
                           [&](const TableRollRun<StadiumWall<N>>& r) { return NoisyEdgeSystem<N>{r.sys, noise.ou}; });
}

}  // namespace skipstone
