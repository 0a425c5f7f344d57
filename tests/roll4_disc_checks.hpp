// Checks of roll4:disc shared by its double and float tests (test_rolling_disc.cpp,
// test_rolling_disc_float.cpp): the largest relative defects of the invariants E1 and E2 + G x3
// over a trace (Proposition 12), and time reversal (run, reverse velocities and spin, run back).
#pragma once
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>

#include "skipstone/rolling/roll4_disc.hpp"
#include "skipstone/sinks.hpp"

namespace skipstone::testing {

// Twice E1 and twice E2 of a trace row (ambient or frame: the same formulas, disc_junction.hpp).
inline double row_k1(const State3D& s) { return s.u.x * s.u.x + s.u.y * s.u.y + s.w.z * s.w.z; }
inline double row_k2(const State3D& s) { return s.u.z * s.u.z + s.w.x * s.w.x + s.w.y * s.w.y; }

struct EnergyDefects {
  double e1, e2;  // relative to E1(0); to the kinetic energy now or at the start, whichever is larger
};

// Over the rows of an event log (testing::EventLog<Vec3, State3D>) of a run with gravity g.
template <class Log>
EnergyDefects energy_defects(const Log& log, double g) {
  const State3D& s0 = log.events.front().state;
  const double k1_0 = row_k1(s0), k2_0 = row_k2(s0), z0 = log.events.front().x.z;
  EnergyDefects d{0.0, 0.0};
  for (const auto& ev : log.events) {
    d.e1 = std::fmax(d.e1, std::fabs(row_k1(ev.state) - k1_0) / k1_0);
    const double scale = std::fmax(row_k1(ev.state) + row_k2(ev.state), k1_0 + k2_0);
    d.e2 = std::fmax(d.e2, std::fabs(row_k2(ev.state) + 2.0 * g * (ev.x.z - z0) - k2_0) / scale);
  }
  return d;
}

// Runs `events` rim passages from s0, reverses velocities and spin and runs back for the same
// time; returns the largest difference of the end state from the start (velocities and spin
// reversed), NaN when either run did not end on a plate after `events` passages.
template <class T>
double time_reversal_error(const DiscRollModelT<T>& m, const PlateStateT<T>& s0, RollOptions opt,
                           std::uint64_t events, double* t_end = nullptr) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  DiscardSink sink;
  opt.t_max = INFINITY;
  opt.max_events = events;
  RollEndT<T> fwd;
  const TrajectoryResult a = run_roll4_disc(m, s0, opt, sink, &fwd);
  EXPECT_EQ(a.status, Status::finished);
  EXPECT_EQ(a.events, events);
  if (a.status != Status::finished || a.events != events || !fwd.on_plate) return nan;
  PlateStateT<T> back = fwd.state;
  back.u = -back.u;
  back.u3 = -back.u3;
  back.A12 = -back.A12;
  back.A13 = -back.A13;
  back.A23 = -back.A23;
  opt.t_max = a.t_end;
  opt.max_events = UINT64_MAX;
  RollEndT<T> rev;
  const TrajectoryResult b = run_roll4_disc(m, back, opt, sink, &rev);
  EXPECT_EQ(b.status, Status::finished);
  EXPECT_EQ(b.events, events);
  EXPECT_EQ(rev.state.sheet, s0.sheet);
  if (b.status != Status::finished || !rev.on_plate) return nan;
  if (t_end) *t_end = a.t_end;
  const PlateStateT<T>& e = rev.state;
  return std::fmax(
      std::fmax(std::fmax(norm(e.p - s0.p), norm(e.u + s0.u)), std::fmax(std::fabs(e.z - s0.z), std::fabs(e.u3 + s0.u3))),
      std::fmax(std::fabs(e.A12 + s0.A12), std::fmax(std::fabs(e.A13 + s0.A13), std::fabs(e.A23 + s0.A23))));
}

}  // namespace skipstone::testing
