// CPU backend only: W no-slip disc trajectories without gravity advanced together, one impact
// per lane per round, so that the compiler runs the lanes in the CPU's SIMD registers (8
// doubles per AVX-512 register). A lane is one NoSlipStepper<DiscTable, ..., false> in its
// steady state - a collision pending at a wall point - stored field by field (structure of
// arrays). A round is exactly the stepper's step() from that state: the energy check, the
// no-slip map Eq. (2) with the rescale every kRescalePeriod impacts, the observables, then
// the chord t = -2 x.u / |u|^2 to the next wall point (the disc's next_hit from the wall),
// written with the same helpers in the same order, so a lane rounds as the stepper does.
// Whatever else step() would do (finish at t_max or the event budget, stop for energy drift
// or a non-finite state, report a miss) makes the lane stop before that round: the round is
// left uncommitted and the stepper redoes it (ensemble_cpu.cpp).
#pragma once
#include <cstdint>

#include "skipstone/noslip_trajectory.hpp"
#include "skipstone/tables/disc.hpp"

namespace skipstone::cpu_lanes {

using DiscStepper = NoSlipStepper<DiscTable, Vec2, State2D, false>;

// Whether step() of s would be one lane round: a collision pending on the wall, with the chord
// observables (always on in the disc) already started.
inline bool in_lane_state(const DiscStepper& s) {
  return s.active && s.pending && s.last == 0 && s.opt.caustics && s.ob.have_chord;
}

template <int W>
struct DiscLanes {
  // per lane: the table and coefficients
  double R[W], inv_R[W], c_beta[W], s_beta[W];
  // the state
  double x[W], y[W], nu_x[W], nu_y[W], u_x[W], u_y[W], spin[W], t[W];
  std::uint64_t events[W];
  // the observers (NoSlipObservers, HeightStats)
  double e0[W], inv_k0[W], max_err[W];
  double z0[W], z_min[W], z_max[W], h_n[W], h_st[W], h_sz[W], h_stt[W], h_stz[W];
  double chord_x[W], chord_y[W], rho_sum0[W], rho_sum1[W], rho_n0[W], rho_n1[W];
  double chord_odd[W];  // parity of chord_index, 0 or 1 (the stepper's chord_index advances
                        // with events in the lane state)
  std::uint64_t running[W];  // 1: the lane holds a trajectory whose rounds go on

  void load(int l, const DiscStepper& s) {
    R[l] = s.table.R;
    inv_R[l] = s.table.inv_R;
    c_beta[l] = s.k.c_beta;
    s_beta[l] = s.k.s_beta;
    x[l] = s.x.x;
    y[l] = s.x.y;
    nu_x[l] = s.nu.x;
    nu_y[l] = s.nu.y;
    u_x[l] = s.st.u.x;
    u_y[l] = s.st.u.y;
    spin[l] = s.st.s;
    t[l] = s.t;
    events[l] = s.events;
    e0[l] = s.ob.e0;
    inv_k0[l] = s.ob.inv_k0;
    max_err[l] = s.ob.max_err;
    const HeightStats& h = s.ob.h;
    z0[l] = h.z0;
    z_min[l] = h.z_min;
    z_max[l] = h.z_max;
    h_n[l] = h.n;
    h_st[l] = h.st;
    h_sz[l] = h.sz;
    h_stt[l] = h.stt;
    h_stz[l] = h.stz;
    chord_x[l] = s.ob.chord_start.x;
    chord_y[l] = s.ob.chord_start.y;
    rho_sum0[l] = s.ob.rho_sum[0];
    rho_sum1[l] = s.ob.rho_sum[1];
    rho_n0[l] = s.ob.rho_n[0];
    rho_n1[l] = s.ob.rho_n[1];
    chord_odd[l] = (s.ob.chord_index & 1u) != 0 ? 1.0 : 0.0;
    running[l] = 1;
  }

  // Writes lane l back into its stepper (which still holds the fields a lane does not change,
  // and the event count of the load).
  void store(int l, DiscStepper& s) const {
    s.ob.chord_index += events[l] - s.events;
    s.x = {x[l], y[l]};
    s.nu = {nu_x[l], nu_y[l]};
    s.st = {{u_x[l], u_y[l]}, spin[l]};
    s.t = t[l];
    s.events = events[l];
    s.ob.max_err = max_err[l];
    s.ob.h = {z0[l], z_min[l], z_max[l], h_n[l], h_st[l], h_sz[l], h_stt[l], h_stz[l]};
    s.ob.chord_start = {chord_x[l], chord_y[l]};
    s.ob.rho_sum[0] = rho_sum0[l];
    s.ob.rho_sum[1] = rho_sum1[l];
    s.ob.rho_n[0] = rho_n0[l];
    s.ob.rho_n[1] = rho_n1[l];
  }

  // Rounds in every running lane until one of them stops running (its next round is not a
  // plain one; its state stays as before that round) or `rounds` are done. Returns whether a
  // lane stopped. The lane loop has no branches (| instead of ||, selects instead of ifs), so
  // that it vectorises.
  bool advance(int rounds, const NoSlipRunOptions& opt) {
    std::uint64_t was_running = running_count();
    for (int r = 0; r < rounds; ++r) {
#pragma GCC ivdep
      for (int l = 0; l < W; ++l) {
        const Vec2 X = {x[l], y[l]}, nu = {nu_x[l], nu_y[l]};
        // the collision (NoSlipStepper::step, pending part, without gravity)
        const double k_target = 2.0 * e0[l];
        const State2D in = {{u_x[l], u_y[l]}, spin[l]};
        const double k_before = dot(in.u, in.u) + spin_sq(in);
        const State2D mapped = noslip_collide(in, nu, NoSlipCoefficients{c_beta[l], s_beta[l]});
        const std::uint64_t ev = events[l] + 1;
        const double k_after = dot(mapped.u, mapped.u) + spin_sq(mapped);
        State2D rescaled = mapped;
        rescale(rescaled, 1.0 - 0.5 * (k_after - k_target) * inv_k0[l]);
        const bool rescale_now = ((ev % kRescalePeriod) == 0) & (k_target > 0.0);
        const State2D st = {{rescale_now ? rescaled.u.x : mapped.u.x, rescale_now ? rescaled.u.y : mapped.u.y},
                            rescale_now ? rescaled.s : mapped.s};
        const double err = fabs(k_before - k_target) * inv_k0[l];
        HeightStats h = {z0[l], z_min[l], z_max[l], h_n[l], h_st[l], h_sz[l], h_stt[l], h_stz[l]};
        h.sample(t[l], height(X));
        // the chord that ends here (caustics)
        const Vec2 a = {chord_x[l], chord_y[l]}, d = X - a;
        const double len = norm(d);
        const double rho = fabs(cross(a, d)) / len;
        const bool odd = chord_odd[l] != 0.0;
        const bool count_even = (len > 0.0) & !odd, count_odd = (len > 0.0) & odd;
        bool stop = !(isfinite(t[l]) & isfinite(X.x) & isfinite(X.y) & isfinite(st.u.x) & isfinite(st.u.y)) | (err > opt.energy_tolerance);
        stop |= (ev >= opt.max_events) | (t[l] >= opt.t_max);
        // the flight to the next wall point (DiscTable::next_hit from the wall, g = 0)
        const double dt = dot(-2.0 * X, st.u) / dot(st.u, st.u);
        stop |= !(dt > 0.0) | (dt > opt.t_max - t[l]);
        const Vec2 p = X + dt * st.u;
        const Vec2 nu_next = round_wall_inward_normal(p, inv_R[l]);
        const Vec2 x_next = settle_on_round_wall(p, inv_R[l]);
        const bool go = !stop & (running[l] != 0);
        running[l] = go ? 1 : 0;
        x[l] = go ? x_next.x : x[l];
        y[l] = go ? x_next.y : y[l];
        nu_x[l] = go ? nu_next.x : nu_x[l];
        nu_y[l] = go ? nu_next.y : nu_y[l];
        u_x[l] = go ? st.u.x : u_x[l];
        u_y[l] = go ? st.u.y : u_y[l];
        spin[l] = go ? st.s : spin[l];
        t[l] = go ? t[l] + dt : t[l];
        events[l] = go ? ev : events[l];
        max_err[l] = go ? (err > max_err[l] ? err : max_err[l]) : max_err[l];
        z_min[l] = go ? h.z_min : z_min[l];
        z_max[l] = go ? h.z_max : z_max[l];
        h_n[l] = go ? h.n : h_n[l];
        h_st[l] = go ? h.st : h_st[l];
        h_sz[l] = go ? h.sz : h_sz[l];
        h_stt[l] = go ? h.stt : h_stt[l];
        h_stz[l] = go ? h.stz : h_stz[l];
        rho_sum0[l] = go & count_even ? rho_sum0[l] + rho : rho_sum0[l];
        rho_n0[l] = go & count_even ? rho_n0[l] + 1.0 : rho_n0[l];
        rho_sum1[l] = go & count_odd ? rho_sum1[l] + rho : rho_sum1[l];
        rho_n1[l] = go & count_odd ? rho_n1[l] + 1.0 : rho_n1[l];
        chord_odd[l] = go ? 1.0 - chord_odd[l] : chord_odd[l];
        chord_x[l] = go ? X.x : chord_x[l];
        chord_y[l] = go ? X.y : chord_y[l];
      }
      if (running_count() != was_running) return true;
    }
    return false;
  }

  std::uint64_t running_count() const {
    std::uint64_t n = 0;
    for (int l = 0; l < W; ++l) n += running[l];
    return n;
  }
};

}  // namespace skipstone::cpu_lanes
