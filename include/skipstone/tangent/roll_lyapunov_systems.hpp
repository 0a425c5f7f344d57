// The Lyapunov exponent of the rolling systems' kernels (tangent/roll_lyapunov.hpp) on each wall:
// where a junction point lies and how its frame moves along the wall coordinate q (EdgeFrame,
// tangent/roll_junction.hpp), and the trajectory of a scan point that asks for the exponent
// (double only), for roll4:disc (its closed-form circle, disc_wall.hpp) and the rolling tables
// roll3:<table>, roll4:<table> (table_wall.hpp, every table through its wall pieces); a state
// row inside an edge passage (face 0) starts there, its tangent vector in edge coordinates
// (RollLyapunovRun::go_on_edge).
#pragma once
#include "skipstone/rolling/disc_wall.hpp"
#include "skipstone/rolling/roll4_disc.hpp"
#include "skipstone/rolling/table_wall.hpp"
#include "skipstone/tangent/roll_lyapunov.hpp"

namespace skipstone {

// roll4:disc's circle at the edge state y of the current passage: the rim point at the angle
// theta + q / R, q the arc length from the passage's entry.
SKIPSTONE_HD SKIPSTONE_INLINE EdgeFrame junction_frame(const DiscWall<double>& wall, const DiscRimSystem&,
                                                       const double* y) {
  const Vec2 n = rim_normal(wall.theta + y[5] / wall.R);
  return {wall.R * n, n, rot90(n), 1.0 / wall.R, 1.0};
}

// A table's wall at q = y[5] on the current piece: kappa = kn / kd and dq/dl = C / kd
// (edge_arc.hpp) give w = -kn / C and l = kd / C.
template <class Table, int N>
SKIPSTONE_HD SKIPSTONE_INLINE EdgeFrame junction_frame(const TableWall<Table, N, double>&,
                                                       const EdgeSystem<N, double>& sys, const double* y) {
  const EdgePoint e = sys.arc.point(y[5]);
  double kn, kd, C;
  sys.arc.curvature_terms(y[5], kn, kd, C);
  return {e.b, e.e1, e.e2, -kn / C, kd / C};
}

// One roll4:disc trajectory of a scan that asks for the exponent; an edge row starts at its rim
// angle theta (roll4_disc_edge_setup). A sink that asks for samples gets the plain run
// (roll_lyapunov.hpp; the config refuses the height series with the exponents).
template <class Sink>
SKIPSTONE_HD TrajectoryResult simulate_roll4_disc_lyapunov(const ScanSpec& spec, const ScanPoint& pt, Sink& sink) {
  if constexpr (wants_samples<Sink>::value) {  // only such a sink instantiates the plain run
    if (asks_for_samples(sink)) return simulate_roll4_disc<double>(spec, pt, sink);
  }
  DiscRollModel m;
  RollOptions opt;
  RollLyapunovRun<DiscWall<double>> lr;
  if (starts_on_edge_state_row(spec, pt.p)) {
    double theta, y[10];
    if (!roll4_disc_edge_setup(spec, pt, m, opt, theta, y)) return masked_result();
    return lr.go_on_edge(DiscWall<double>{m.R, 0.0, false}, RollModel{m.r, m.eta, m.G, m.g}, theta, y, opt, sink);
  }
  PlateState s;
  if (!roll4_disc_setup(spec, pt, m, s, opt)) return masked_result();
  return lr.go(DiscWall<double>{m.R, 0.0, false}, RollModel{m.r, m.eta, m.G, m.g}, s, opt, sink);
}

// One roll3:<table> (N = 6) or roll4:<table> (N = 10) trajectory of a scan that asks for the
// exponent; an edge row starts on the piece of the wall through its wall point
// (table_roll_edge_setup).
template <int N, TableKind TK, class Sink>
SKIPSTONE_HD TrajectoryResult simulate_table_roll_lyapunov(const ScanSpec& spec, const ScanPoint& pt, Sink& sink) {
  if constexpr (wants_samples<Sink>::value) {
    if (asks_for_samples(sink)) return simulate_table_roll<N, TK>(spec, pt, sink);
  }
  if (starts_on_edge_state_row(spec, pt.p))
    return with_table_roll_edge_start<N, TK>(spec, pt, [&](const auto& table, const RollModel& m,
                                                           const RollOptions& opt, const EdgeArc& arc,
                                                           const double* y) {
      RollLyapunovRun<TableWall<std::decay_t<decltype(table)>, N, double>> lr;
      return lr.go_on_edge(table_wall<N>(table), m, arc, y, opt, sink);
    });
  return with_table_roll_start<N, TK>(spec, pt, [&](const auto& table, const RollModel& m, const PlateState& s,
                                                    const RollOptions& opt, int entry_part) {
    RollLyapunovRun<TableWall<std::decay_t<decltype(table)>, N, double>> lr;
    return lr.go(table_wall<N>(table), m, s, opt, sink, nullptr, entry_part);
  });
}

}  // namespace skipstone
