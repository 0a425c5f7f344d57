// CPU backend only: W no-slip trajectories in a round wall - the disc, and the cylinder over
// the disc with or without gravity along its axis - advanced together, one impact per lane per
// round, so that the compiler runs the lanes in the CPU's SIMD registers (8 doubles or 16 floats
// per AVX-512 register: the float kernels' lanes hold float, T = scalar_of<V>, with the clock and
// the observables' sums in double as in the stepper). A lane is one NoSlipStepper in its steady
// state - a collision pending at a wall point - stored field by field (structure of arrays). A
// round is the stepper's step() from that state, run by the stepper's own pieces
// (noslip_trajectory.hpp: impact, next_hit, fly, land) on a stepper built from the lane, so a
// lane rounds as the stepper does by construction: the energy check, the no-slip map Eq. (2)/(3)
// with the rescale every kRescalePeriod impacts, the observables, the chord of the cross-section
// to the next wall point (DiscTable::next_hit from the wall) and the exact flight (a parabola
// along the axis under gravity). Whatever else step() would do (finish at t_max or the event
// budget, stop for energy drift or a non-finite state, report a miss) makes the lane stop
// before that round: the round is left uncommitted and the stepper redoes it
// (noslip_lane_block.hpp). The round has no branches (its pieces are written with selects, and
// the stepper's options that would branch are constants in a lane), which is what lets it
// vectorise.
#pragma once
#include <cstdint>
#include <cstring>
#include <type_traits>

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

// go ? a : b, by the bits of a and b. A lane commits a round with it: g++ makes `a[l] = go ? v :
// a[l]` a masked store, puts the masked stores behind a branch on whether any lane goes, and
// moves there what only they use - the chord's square root and division, which then queue
// behind the division on the impact-to-impact chain instead of running beside it.
// kSelectMask: the mask of ones or zeros is made by a select instead of by negating go. The float
// lanes use it: their round is 16 lanes in one register, with each 64-bit field (the clock, the
// sums) in two, and g++ widens a negated go into vectors of 64-bit masks there and commits each
// such register by an and and a ternary-logic op; a select leaves it a mask register, one masked
// blend per register. The double lanes (8 a register) blend with mask registers either way, and
// g++ schedules the negation better on the cylinder:disc with gravity (benchmarks/RESULTS.md).
template <bool kSelectMask, class T>
T blend(bool go, T a, T b) {
  static_assert(sizeof(T) == 8 || sizeof(T) == 4, "a lane field is 4 or 8 bytes");
  using U = std::conditional_t<sizeof(T) == 8, std::uint64_t, std::uint32_t>;
  U ua, ub;
  std::memcpy(&ua, &a, sizeof(T));
  std::memcpy(&ub, &b, sizeof(T));
  U m;
  if constexpr (kSelectMask) m = go ? ~U(0) : U(0);
  else m = U(0) - U(go);
  const U r = (ua & m) | (ub & ~m);
  T out;
  std::memcpy(&out, &r, sizeof(T));
  return out;
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
  static constexpr bool kSelectMask = sizeof(T) == 4;  // blend()

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
  std::uint64_t chord_odd[W];  // the stepper's chord_odd, 0 or 1
  std::uint64_t running[W];  // 1: the lane holds a trajectory whose rounds go on

  // Lane l takes the trajectory of s, in the lane state.
  void load(int l, const Stepper& s) {
    const DiscTableT<T>& d = round_section(s.table);
    R[l] = d.R;
    inv_R[l] = d.inv_R;
    c_beta[l] = s.k.c_beta;
    s_beta[l] = s.k.s_beta;
    g[l] = s.g;
    e0[l] = s.ob.e0;
    inv_k0[l] = s.ob.inv_k0;
    z0[l] = s.ob.h.z0;
    put(l, true, s);
    running[l] = 1;
  }

  // Writes lane l back into its stepper (which still holds the fields a lane does not change).
  void store(int l, Stepper& s) const {
    s.x = vector_at(x, l);
    s.nu = vector_at(nu, l);
    s.st = state_at(u, spin, l);
    s.t = t[l];
    s.events = events[l];
    s.ob.max_err = max_err[l];
    s.ob.h = {z0[l], z_min[l], z_max[l], h_n[l], h_st[l], h_sz[l], h_stt[l], h_stz[l]};
    s.ob.chord_start = vector_at(chord, l);
    s.ob.chord_odd = chord_odd[l] != 0;
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
  // Lane l as a stepper in the lane state: the options that step() branches on are constants
  // here (the chord observables on, the annulus and the impulse ratios off), so the stepper's pieces have no branches.
  Stepper stepper(int l, const NoSlipRunOptions& opt) const {
    Stepper s;
    s.table = table_from<Table>(R[l], inv_R[l]);
    s.k = {c_beta[l], s_beta[l]};
    s.g = g[l];
    s.opt = opt;
    s.opt.caustics = true;
    s.opt.annulus = false;
    s.opt.impulse_ratios = false;
    s.last = 0;
    s.pending = true;
    s.active = true;
    s.ob.e0 = e0[l];
    s.ob.inv_k0 = inv_k0[l];
    s.ob.have_chord = true;
    store(l, s);
    return s;
  }

  // The fields of lane l that a round changes, from s where go holds (blends, not a branch).
  void put(int l, bool go, const Stepper& s) {
    for (int k = 0; k < D; ++k) {
      x[k][l] = blend<kSelectMask>(go, component(s.x, k), x[k][l]);
      nu[k][l] = blend<kSelectMask>(go, component(s.nu, k), nu[k][l]);
      u[k][l] = blend<kSelectMask>(go, component(s.st.u, k), u[k][l]);
      chord[k][l] = blend<kSelectMask>(go, component(s.ob.chord_start, k), chord[k][l]);
    }
    for (int k = 0; k < DS; ++k) spin[k][l] = blend<kSelectMask>(go, spin_component(s.st, k), spin[k][l]);
    t[l] = blend<kSelectMask>(go, s.t, t[l]);
    events[l] = blend<kSelectMask>(go, s.events, events[l]);
    max_err[l] = blend<kSelectMask>(go, s.ob.max_err, max_err[l]);
    z_min[l] = blend<kSelectMask>(go, s.ob.h.z_min, z_min[l]);
    z_max[l] = blend<kSelectMask>(go, s.ob.h.z_max, z_max[l]);
    h_n[l] = blend<kSelectMask>(go, s.ob.h.n, h_n[l]);
    h_st[l] = blend<kSelectMask>(go, s.ob.h.st, h_st[l]);
    h_sz[l] = blend<kSelectMask>(go, s.ob.h.sz, h_sz[l]);
    h_stt[l] = blend<kSelectMask>(go, s.ob.h.stt, h_stt[l]);
    h_stz[l] = blend<kSelectMask>(go, s.ob.h.stz, h_stz[l]);
    rho_sum0[l] = blend<kSelectMask>(go, s.ob.rho_sum[0], rho_sum0[l]);
    rho_n0[l] = blend<kSelectMask>(go, s.ob.rho_n[0], rho_n0[l]);
    rho_sum1[l] = blend<kSelectMask>(go, s.ob.rho_sum[1], rho_sum1[l]);
    rho_n1[l] = blend<kSelectMask>(go, s.ob.rho_n[1], rho_n1[l]);
    chord_odd[l] = blend<kSelectMask, std::uint64_t>(go, s.ob.chord_odd, chord_odd[l]);
  }

  // One step() of lane l's stepper from the lane state, committed where it is a plain round.
  void round(int l, const NoSlipRunOptions& opt) {
    const bool was_running = running[l] != 0;  // read first: g++ vectorises the round then
    Stepper s = stepper(l, opt);
    const T err = s.template impact<true>();
    const Hit<V> hit = s.next_hit();
    // next_hit's kind is `wall` where 0 < t <= T(t_max - t); the lane tests it on t itself (a
    // test of the kind is a branch to g++, which then does not vectorise the round), with the
    // flight's end in double, compared in double: a lane goes on only where the stepper's float
    // limit holds too (rounding is monotone); where only the float comparison holds, the
    // stepper does the round. Converted outside the selects (impact()).
    const double dt_wide = hit.t;
    const bool stop = !s.finite_state() | (err > opt.energy_tolerance) | s.budget_spent() | !(hit.t > T(0)) |
                      (dt_wide > opt.t_max - s.t);
    s.fly(hit.t);
    s.land(hit);
    const bool go = !stop & was_running;
    running[l] = go ? 1 : 0;
    put(l, go, s);
  }
};

}  // namespace skipstone::cpu_lanes
