// CPU backend only: W no-slip trajectories in a round wall - the disc, and the cylinder over
// the disc with or without gravity along its axis - advanced together, one impact per lane per
// round, so that the compiler runs the lanes in the CPU's SIMD registers (8 doubles or 16 floats
// per AVX-512 register: the float kernels' lanes hold float, T = scalar_of<V>, with the clock and
// the observables' sums in double as in the stepper). A lane is one NoSlipStepper in its steady
// state - a collision pending at a wall point - stored field by field (structure of arrays). A
// round is exactly the stepper's step() from that state (noslip_trajectory.hpp): the energy
// check, the no-slip map Eq. (2)/(3) with
// the rescale every kRescalePeriod impacts, the observables, the chord t = -2 x.u / |u|^2 of the
// cross-section to the next wall point (DiscTable::next_hit from the wall) and the exact flight
// (a parabola along the axis under gravity), with the same helpers in the same order, so a
// lane rounds as the stepper does. Whatever else step() would do (finish at t_max or the event
// budget, stop for energy drift or a non-finite state, report a miss) makes the lane stop
// before that round: the round is left uncommitted and the stepper redoes it
// (noslip_lane_block.hpp). The round has no branches (| instead of ||, selects instead of
// ifs), which is what lets it vectorise.
#pragma once
#include <cstdint>

#include "skipstone/noslip_trajectory.hpp"
#include "skipstone/tables/cylinder.hpp"
#include "skipstone/tables/disc.hpp"

namespace skipstone::cpu_lanes {

// The round cross-section of a lane's table, and the table rebuilt from it.
template <class T>
const DiscTableT<T>& round_section(const DiscTableT<T>& t) {
  return t;
}
template <class T>
const DiscTableT<T>& round_section(const CylinderTable<DiscTableT<T>>& t) {
  return t.section;
}
template <class Table, class T>
Table table_from(T R, T inv_R) {
  DiscTableT<T> d;
  d.R = R;
  d.inv_R = inv_R;
  if constexpr (std::is_same_v<Table, DiscTableT<T>>) return d;
  else return Table{d};
}

// Components of vectors and states, for the structure-of-arrays storage.
template <class T>
constexpr int dimension(Vec2T<T>) {
  return 2;
}
template <class T>
constexpr int dimension(Vec3T<T>) {
  return 3;
}
template <class T>
T component(Vec2T<T> v, int k) {
  return k == 0 ? v.x : v.y;
}
template <class T>
T component(Vec3T<T> v, int k) {
  return k == 0 ? v.x : (k == 1 ? v.y : v.z);
}
template <class T, int W>
Vec2T<T> vector_at(const T (&a)[2][W], int l) {
  return {a[0][l], a[1][l]};
}
template <class T, int W>
Vec3T<T> vector_at(const T (&a)[3][W], int l) {
  return {a[0][l], a[1][l], a[2][l]};
}
template <class T>
Vec2T<T> select(bool c, Vec2T<T> a, Vec2T<T> b) {
  return {c ? a.x : b.x, c ? a.y : b.y};
}
template <class T>
Vec3T<T> select(bool c, Vec3T<T> a, Vec3T<T> b) {
  return {c ? a.x : b.x, c ? a.y : b.y, c ? a.z : b.z};
}
template <class T>
State2DT<T> select(bool c, const State2DT<T>& a, const State2DT<T>& b) {
  return {select(c, a.u, b.u), c ? a.s : b.s};
}
template <class T>
State3DT<T> select(bool c, const State3DT<T>& a, const State3DT<T>& b) {
  return {select(c, a.u, b.u), select(c, a.w, b.w)};
}
template <class T>
constexpr int spin_components(const State2DT<T>&) {
  return 1;
}
template <class T>
constexpr int spin_components(const State3DT<T>&) {
  return 3;
}
template <class T>
T spin_component(const State2DT<T>& s, int) {
  return s.s;
}
template <class T>
T spin_component(const State3DT<T>& s, int k) {
  return component(s.w, k);
}
template <class T, int W>
State2DT<T> state_at(const T (&u)[2][W], const T (&w)[1][W], int l) {
  return {{u[0][l], u[1][l]}, w[0][l]};
}
template <class T, int W>
State3DT<T> state_at(const T (&u)[3][W], const T (&w)[3][W], int l) {
  return {{u[0][l], u[1][l], u[2][l]}, {w[0][l], w[1][l], w[2][l]}};
}

// Whether step() of s would be one lane round: a collision pending on the wall, with the chord
// observables (always on in round tables) already started.
template <class Stepper>
bool in_lane_state(const Stepper& s) {
  return s.active && s.pending && s.last == 0 && s.opt.caustics && s.ob.have_chord;
}

template <class Table, class V, class S, bool kGravity, int W>
struct NoSlipLanes {
  using Stepper = NoSlipStepper<Table, V, S, kGravity>;
  using T = scalar_of<V>;
  static constexpr int D = dimension(V{});
  static constexpr int DS = spin_components(S{});

  // per lane: the table, coefficients and gravity
  T R[W], inv_R[W], c_beta[W], s_beta[W], g[W];
  // the state (the clock in double, as in the stepper)
  T x[D][W], nu[D][W], u[D][W], spin[DS][W];
  double t[W];
  std::uint64_t events[W];
  // the observers (NoSlipObservers, HeightStats: the sums in double)
  T e0[W], inv_k0[W], max_err[W];
  double z0[W], z_min[W], z_max[W], h_n[W], h_st[W], h_sz[W], h_stt[W], h_stz[W];
  T chord[D][W];
  double rho_sum0[W], rho_sum1[W], rho_n0[W], rho_n1[W];
  T chord_odd[W];            // parity of chord_index, 0 or 1 (in the lane state the stepper's
                             // chord_index advances with its events)
  std::uint64_t running[W];  // 1: the lane holds a trajectory whose rounds go on

  void load(int l, const Stepper& s) {
    const DiscTableT<T>& d = round_section(s.table);
    R[l] = d.R;
    inv_R[l] = d.inv_R;
    c_beta[l] = s.k.c_beta;
    s_beta[l] = s.k.s_beta;
    g[l] = s.g;
    for (int k = 0; k < D; ++k) {
      x[k][l] = component(s.x, k);
      nu[k][l] = component(s.nu, k);
      u[k][l] = component(s.st.u, k);
    }
    for (int k = 0; k < DS; ++k) spin[k][l] = spin_component(s.st, k);
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
    for (int k = 0; k < D; ++k) chord[k][l] = component(s.ob.chord_start, k);
    rho_sum0[l] = s.ob.rho_sum[0];
    rho_sum1[l] = s.ob.rho_sum[1];
    rho_n0[l] = s.ob.rho_n[0];
    rho_n1[l] = s.ob.rho_n[1];
    chord_odd[l] = (s.ob.chord_index & 1u) != 0 ? T(1) : T(0);
    running[l] = 1;
  }

  // Writes lane l back into its stepper (which still holds the fields a lane does not change,
  // and the event count of the load).
  void store(int l, Stepper& s) const {
    s.ob.chord_index += events[l] - s.events;
    s.x = vector_at(x, l);
    s.nu = vector_at(nu, l);
    s.st = state_at(u, spin, l);
    s.t = t[l];
    s.events = events[l];
    s.ob.max_err = max_err[l];
    s.ob.h = {z0[l], z_min[l], z_max[l], h_n[l], h_st[l], h_sz[l], h_stt[l], h_stz[l]};
    s.ob.chord_start = vector_at(chord, l);
    s.ob.rho_sum[0] = rho_sum0[l];
    s.ob.rho_sum[1] = rho_sum1[l];
    s.ob.rho_n[0] = rho_n0[l];
    s.ob.rho_n[1] = rho_n1[l];
  }

  // Rounds in every running lane until one of them stops running (its next round is not a
  // plain one; its state stays as before that round) or `rounds` are done. Returns whether a
  // lane stopped.
  __attribute__((flatten)) bool advance(int rounds, const NoSlipRunOptions& opt) {
    const std::uint64_t was_running = running_count();
    for (int r = 0; r < rounds; ++r) {
#pragma GCC ivdep
      for (int l = 0; l < W; ++l) round(l, opt);
      if (running_count() != was_running) return true;
    }
    return false;
  }

  std::uint64_t running_count() const {
    std::uint64_t n = 0;
    for (int l = 0; l < W; ++l) n += running[l];
    return n;
  }

 private:
  void round(int l, const NoSlipRunOptions& opt) {
    const V X = vector_at(x, l), normal = vector_at(nu, l);
    const T z = height(X);
    // the collision (NoSlipStepper::step, pending part)
    const T k_target = collision_k_target<kGravity>(e0[l], g[l], z - z0[l]);
    const S in = state_at(u, spin, l);
    const T k_before = twice_kinetic(in);
    const S mapped = noslip_collide(in, normal, NoSlipCoefficientsT<T>{c_beta[l], s_beta[l]});
    const std::uint64_t ev = events[l] + 1;
    // both computed, one selected: the rescale is not a branch here
    const S st = select(rescale_impact(ev, k_target), onto_energy_shell<kGravity>(mapped, k_target, inv_k0[l]), mapped);
    const T err = energy_defect<kGravity>(k_before, k_target, e0[l], inv_k0[l]);
    HeightStats h = {z0[l], z_min[l], z_max[l], h_n[l], h_st[l], h_sz[l], h_stt[l], h_stz[l]};
    h.sample(t[l], z);
    // the chord of the cross-section that ends here (caustics)
    const Vec2T<T> a = {chord[0][l], chord[1][l]}, d = planar(X) - a;
    const T len = norm(d);
    const T rho = chord_distance(a, d, len);
    const bool odd = chord_odd[l] != T(0);
    const bool count_even = (len > T(0)) & !odd, count_odd = (len > T(0)) & odd;
    bool stop = !(isfinite(t[l]) & all_finite(X) & all_finite(st.u)) | (err > opt.energy_tolerance);
    stop |= (ev >= opt.max_events) | (t[l] >= opt.t_max);
    // the flight to the next wall point (the section's next_hit from the wall)
    const Vec2T<T> xh = planar(X), uh = planar(st.u);
    const T dt = dot(T(-2) * xh, uh) / dot(uh, uh);
    // the flight's end in double, compared in double: a lane goes on only where the stepper's
    // float limit T(t_max - t) >= dt holds too (rounding is monotone); where only the float
    // comparison holds, the stepper does the round. Converted here, outside any select: a
    // conversion inside one may trap (-ftrapping-math), which stops g++ from if-converting, and
    // so from vectorising, the float lanes.
    const double dt_wide = dt;
    stop |= !(dt > T(0)) | (dt_wide > opt.t_max - t[l]);
    const Vec2T<T> nu_h = round_wall_inward_normal(xh + dt * uh, inv_R[l]);
    V x_next = X + dt * st.u;
    V u_next = st.u;
    if constexpr (kGravity) {
      const V acc = gravity_vector(X, g[l]);
      const T v_up = height(st.u);
      const T tv = v_up / g[l];
      HeightStats with_apex = h;
      with_apex.extremum(z + T(0.5) * v_up * tv);
      const bool apex_inside = (tv > T(0)) & (tv < dt);
      h.z_min = apex_inside ? with_apex.z_min : h.z_min;
      h.z_max = apex_inside ? with_apex.z_max : h.z_max;
      x_next = flight_position(X, st.u, acc, dt);
      u_next = st.u + dt * acc;
    }
    x_next = table_from<Table>(R[l], inv_R[l]).settle(x_next, 0);
    V nu_next;
    if constexpr (D == 2) nu_next = nu_h;
    else nu_next = {nu_h.x, nu_h.y, T(0)};
    const double t_next = t[l] + dt_wide, rho_wide = rho;  // converted outside the selects (above)
    const bool go = !stop & (running[l] != 0);
    running[l] = go ? 1 : 0;
    for (int k = 0; k < D; ++k) {
      x[k][l] = go ? component(x_next, k) : x[k][l];
      nu[k][l] = go ? component(nu_next, k) : nu[k][l];
      u[k][l] = go ? component(u_next, k) : u[k][l];
      chord[k][l] = go ? component(X, k) : chord[k][l];
    }
    for (int k = 0; k < DS; ++k) spin[k][l] = go ? spin_component(st, k) : spin[k][l];
    t[l] = go ? t_next : t[l];
    events[l] = go ? ev : events[l];
    max_err[l] = go ? (err > max_err[l] ? err : max_err[l]) : max_err[l];
    z_min[l] = go ? h.z_min : z_min[l];
    z_max[l] = go ? h.z_max : z_max[l];
    h_n[l] = go ? h.n : h_n[l];
    h_st[l] = go ? h.st : h_st[l];
    h_sz[l] = go ? h.sz : h_sz[l];
    h_stt[l] = go ? h.stt : h_stt[l];
    h_stz[l] = go ? h.stz : h_stz[l];
    rho_sum0[l] = go & count_even ? rho_sum0[l] + rho_wide : rho_sum0[l];
    rho_n0[l] = go & count_even ? rho_n0[l] + 1.0 : rho_n0[l];
    rho_sum1[l] = go & count_odd ? rho_sum1[l] + rho_wide : rho_sum1[l];
    rho_n1[l] = go & count_odd ? rho_n1[l] + 1.0 : rho_n1[l];
    chord_odd[l] = go ? T(1) - chord_odd[l] : chord_odd[l];
  }
};

}  // namespace skipstone::cpu_lanes
