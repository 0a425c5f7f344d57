// One no-slip billiard trajectory, impact to impact (paper Section 2): exact free flights
// (straight lines, or parabolas under gravity) between collisions located by the table, the
// no-slip map Eq. (2)/(3) at each collision, and the per-trajectory observables (docs/config.md,
// "Observables") accumulated on the way in registers. The same template serves the 2D tables, the
// sphere and the cylinders, on host and device; `Sink` receives every event (the trace
// command records them, ensembles pass a no-op) and, when it has on_flight, every flight
// (section_map.hpp). The scalar type T of the flights and collisions is the state's: double, or
// float in the float kernels of the disc and cylinder:disc (set up in double, then rounded); the
// clock and the sums of the observables (height drift, caustic radii) are double in both, so
// that their accuracy does not decay with the number of impacts.
#pragma once
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "skipstone/boundary_map.hpp"
#include "skipstone/collision.hpp"
#include "skipstone/height_stats.hpp"
#include "skipstone/holes.hpp"
#include "skipstone/result.hpp"
#include "skipstone/section_map.hpp"
#include "skipstone/tables/hit.hpp"
#include "skipstone/tangent/lyapunov_frame.hpp"
#include "skipstone/tangent/wall_curvature.hpp"

namespace skipstone {

constexpr std::uint64_t kRescalePeriod = 8;

struct NoSlipRunOptions {
  double t_max;                // INFINITY when only the event budget stops the run
  std::uint64_t max_events;    // UINT64_MAX when only t_max stops the run
  double energy_tolerance;     // relative energy error that stops the run (Status::energy_drift)
  double bounded_depth;        // H of the `bounded` observable
  bool caustics;               // disc cross-section: accumulate rho_even / rho_odd
  bool annulus;                // sphere: annulus axis and width
  double annulus_gamma_R;      // gamma * R, for the sphere invariant K = x ^ u - gamma R w
  int tangent_vectors;         // Lyapunov tangent vectors followed (stepper with a LyapunovFrame)
  bool impulse_ratios;         // accumulate the impacts' impulse ratios (impulse_ratio_max, _mean)
  const HoleSet* holes;        // holes in the wall of a 2D table or cylinder (null: none; the SIMD lanes take none)
};

// The tangent dynamics a stepper carries: none (every run that asks for no Lyapunov exponent:
// its code is not instantiated), or a tangent/lyapunov_frame.hpp frame (LyapunovFrame2D on the
// 2D tables, LyapunovFrame3D in the sphere and the cylinders).
struct NoTangent {};

// Dimension-dependent pieces, overloaded on the state type.
template <class T>
SKIPSTONE_HD SKIPSTONE_INLINE T height(Vec2T<T> x) { return x.y; }
template <class T>
SKIPSTONE_HD SKIPSTONE_INLINE T height(Vec3T<T> x) { return x.z; }
template <class T>
SKIPSTONE_HD SKIPSTONE_INLINE Vec2T<T> gravity_vector(Vec2T<T>, T g) { return {T(0), -g}; }
template <class T>
SKIPSTONE_HD SKIPSTONE_INLINE Vec3T<T> gravity_vector(Vec3T<T>, T g) { return {T(0), T(0), -g}; }
template <class T>
SKIPSTONE_HD SKIPSTONE_INLINE Vec2T<T> planar(Vec2T<T> x) { return x; }
template <class T>
SKIPSTONE_HD SKIPSTONE_INLINE Vec2T<T> planar(Vec3T<T> x) { return {x.x, x.y}; }
template <class T>
SKIPSTONE_HD SKIPSTONE_INLINE T spin_sq(const State2DT<T>& s) { return s.s * s.s; }
template <class T>
SKIPSTONE_HD SKIPSTONE_INLINE T spin_sq(const State3DT<T>& s) { return dot(s.w, s.w); }
template <class T>
SKIPSTONE_HD SKIPSTONE_INLINE Vec3T<T> spin_vector(const State3DT<T>& s) { return s.w; }
template <class T>
SKIPSTONE_HD SKIPSTONE_INLINE Vec3T<T> spin_vector(const State2DT<T>& s) { return {T(0), T(0), s.s}; }
template <class T>
SKIPSTONE_HD SKIPSTONE_INLINE void rescale(State2DT<T>& s, same_t<T> f) {
  s.u = f * s.u;
  s.s *= f;
}
template <class T>
SKIPSTONE_HD SKIPSTONE_INLINE void rescale(State3DT<T>& s, same_t<T> f) {
  s.u = f * s.u;
  s.w = f * s.w;
}
template <class T>
SKIPSTONE_HD SKIPSTONE_INLINE Vec3T<T> as3(Vec2T<T> x) { return {x.x, x.y, T(0)}; }
template <class T>
SKIPSTONE_HD SKIPSTONE_INLINE Vec3T<T> as3(Vec3T<T> x) { return x; }
// & rather than &&: no branches, so that the SIMD lanes of the CPU backend can use them.
template <class T>
SKIPSTONE_HD SKIPSTONE_INLINE bool all_finite(Vec2T<T> a) { return isfinite(a.x) & isfinite(a.y); }
template <class T>
SKIPSTONE_HD SKIPSTONE_INLINE bool all_finite(Vec3T<T> a) { return isfinite(a.x) & isfinite(a.y) & isfinite(a.z); }


// The energy bookkeeping of a collision (NoSlipStepper::impact). The map is orthogonal and flights are exact, so twice the kinetic energy at the collision is
// known exactly, k_target = 2 (E0 - g (z - z0)); the state's own value before the map is
// compared with it, relative to the larger of k_target and 2 E0 (without gravity both are 2 E0,
// whose inverse inv_k0 is known: no division next to the chain's).
template <class S>
SKIPSTONE_HD SKIPSTONE_ALWAYS_INLINE auto twice_kinetic(const S& s) {
  return dot(s.u, s.u) + spin_sq(s);
}
template <bool kGravity, class T>
SKIPSTONE_HD SKIPSTONE_ALWAYS_INLINE T collision_k_target(T e0, same_t<T> g, same_t<T> dz) {
  return kGravity ? T(2) * (e0 - g * dz) : T(2) * e0;
}
template <bool kGravity, class T>
SKIPSTONE_HD SKIPSTONE_ALWAYS_INLINE T energy_defect(T k_before, same_t<T> k_target, same_t<T> e0, same_t<T> inv_k0) {
  const T inv_scale = kGravity ? T(1) / (k_target > T(2) * e0 ? k_target : T(2) * e0) : inv_k0;
  return fabs(k_before - k_target) * inv_scale;
}
// The state after the map moved onto the energy shell k_target (one Newton step for the scale
// factor: the defect is O(eps)).
template <bool kGravity, class S, class T>
SKIPSTONE_HD SKIPSTONE_ALWAYS_INLINE S onto_energy_shell(S st, T k_target, same_t<T> inv_k0) {
  const T inv_target = kGravity ? T(1) / k_target : inv_k0;
  rescale(st, T(1) - T(0.5) * (twice_kinetic(st) - k_target) * inv_target);
  return st;
}
// Whether the impact numbered `events` (from 1) is rescaled.
template <class T>
SKIPSTONE_HD SKIPSTONE_ALWAYS_INLINE bool rescale_impact(std::uint64_t events, T k_target) {
  return ((events % kRescalePeriod) == 0) & (k_target > T(0));
}
// Distance from the axis of the cross-section chord from a to a + d of length len (caustics).
template <class T>
SKIPSTONE_HD SKIPSTONE_ALWAYS_INLINE T chord_distance(Vec2T<T> a, Vec2T<T> d, same_t<T> len) {
  return fabs(cross(a, d)) / len;
}

// Start of a trajectory: position, state, the boundary part it stands on (-1: interior) and,
// for impact starts, the wall normal of the collision to apply at t = 0.
template <class V, class S>
struct NoSlipStart {
  V x;
  S state;
  int part;
  bool collide_first;
  V nu;
};

template <class V>
struct NoSlipObservers {
  using T = scalar_of<V>;
  HeightStats h;          // sampled at events
  T e0, inv_k0, max_err;  // inv_k0 = 1 / (2 E0)
  bool have_chord;
  V chord_start;
  bool chord_odd;  // parity of the number of chords ended so far
  double rho_sum[2], rho_n[2];
  Vec3T<T> axis;
  T lat_min, lat_max;
  T ratio_max;       // largest impulse ratio
  double ratio_sum;  // sum of the impulse ratios
};

// The impulse a no-slip impact gives the ball is m (u+ - u-): its normal part 2 m |u- . nu| (the
// normal velocity reverses) and its tangential part m |(u+ - u-) - ((u+ - u-) . nu) nu|, the
// part a real contact would have to supply by friction. Their ratio is the least Coulomb
// friction coefficient the impact needs: 0 for specular reflection (gamma = 0) and for a ball
// arriving in the rolling subspace, (1 - cos beta) |tan theta| / 2 for a spinless ball
// arriving at angle theta from the normal (2D).
template <class V>
SKIPSTONE_HD SKIPSTONE_INLINE scalar_of<V> impulse_ratio(V u_before, V u_after, V nu) {
  const V du = u_after - u_before;
  const scalar_of<V> normal = dot(du, nu);
  return norm(du - normal * nu) / normal;
}

// One trajectory as a resumable stepper: step() processes one collision and the flight after
// it. Gravity is a compile-time choice: without it a flight is x + t u, with no acceleration
// terms on the impact-to-impact dependency chain. So is the tangent dynamics (Tangent:
// NoTangent or a LyapunovFrame), which follows the flights and impacts where a run asks for
// Lyapunov exponents.
template <class Table, class V, class S, bool kGravity, class Tangent = NoTangent>
struct NoSlipStepper {
  using T = scalar_of<V>;
  static constexpr bool kTangent = !std::is_same_v<Tangent, NoTangent>;
  Table table;
  NoSlipCoefficientsT<T> k;
  T g;
  NoSlipRunOptions opt;
  V x, nu;
  S st;
  int last;
  double t;
  std::uint64_t events;
  bool pending, active;
  Status status;
  NoSlipObservers<V> ob;
  Tangent tangent;

  template <class Sink>
  SKIPSTONE_HD void start(const Table& tab, NoSlipCoefficientsT<T> coef, T grav, const NoSlipStart<V, S>& s0,
                          const NoSlipRunOptions& options, Sink& sink) {
    table = tab;
    k = coef;
    g = grav;
    opt = options;
    x = s0.x;
    st = s0.state;
    last = s0.part;
    nu = s0.nu;
    t = 0.0;
    events = 0;
    pending = s0.collide_first;
    active = true;
    status = Status::finished;
    ob.h.start(height(x));
    ob.e0 = T(0.5) * twice_kinetic(st);  // kinetic energy; potential counted from z0
    ob.inv_k0 = T(1) / (T(2) * ob.e0);
    ob.max_err = T(0);
    ob.have_chord = s0.part >= 0;
    ob.chord_start = x;
    ob.chord_odd = false;
    ob.rho_sum[0] = ob.rho_sum[1] = ob.rho_n[0] = ob.rho_n[1] = 0.0;
    ob.lat_min = T(INFINITY);
    ob.lat_max = -T(INFINITY);
    ob.axis = {T(0), T(0), T(0)};
    ob.ratio_max = T(0);
    ob.ratio_sum = 0.0;
    if (opt.annulus) {
      // K = x ^ u - gamma R w is invariant under flights and impacts in the sphere; its
      // direction is the axis of the annulus holding the trajectory (Figure 6).
      const Vec3T<T> K = cross(as3(x), as3(st.u)) - opt.annulus_gamma_R * spin_vector(st);
      ob.axis = (T(1) / norm(K)) * K;
    }
    if constexpr (kTangent) tangent.start(x, st, kGravity ? g : T(0), opt.tangent_vectors);
    sink.on_event(t, x, st, s0.nu);
  }

  // Advances to the next collision (or the end). Returns whether the trajectory goes on.
  template <class Sink>
  SKIPSTONE_HD bool step(Sink& sink) {
    if (pending) {
      const T err = impact();
      sink.on_event(t, x, st, nu);
      report_impact(sink, table, last, t, x, st, nu);
      pending = false;
      if (!finite_state()) return finish(Status::non_finite);
      if (err > opt.energy_tolerance) return finish(Status::energy_drift);
    }
    if (budget_spent()) return finish(Status::finished);
    const Hit<V> hit = next_hit();
    if (hit.kind == HitKind::miss) return finish(Status::integrator_failure);
    const bool to_end = hit.kind == HitKind::none;
    if (to_end && !isfinite(opt.t_max)) return finish(Status::escaped);
    const T tau = to_end ? static_cast<T>(opt.t_max - t) : hit.t;
    report_flight(sink, t, tau, x, st, kGravity ? gravity_vector(x, g) : V{});
    fly(tau);
    if (to_end) {
      t = opt.t_max;
      ob.h.sample(t, height(x));
      sink.on_event(t, x, st, V{});
      return finish(Status::finished);
    }
    if (hit.kind == HitKind::corner) {
      sink.on_event(t, x, st, hit.nu);
      return finish(Status::corner);
    }
    land(hit);
    if (opt.holes && hole_here() >= 0) {
      sink.on_event(t, x, st, V{});  // the escape point, no collision (nu = 0, as at t_max)
      return finish(Status::through_hole);
    }
    return true;
  }

  // The hole of opt.holes at the wall point where the flight ended, or -1: the boundary
  // parameter of the 2D tables, and of a cylinder's cross-section at the impact's (x, y), so that
  // a hole there is a slot over the whole height (the sphere has none).
  SKIPSTONE_HD int hole_here() const {
    if constexpr (has_boundary_parameter<Table>::value) return hole_at(*opt.holes, wall_parameter(table, x, last));
    return -1;
  }

  // The pieces of step(). The CPU backend's SIMD lanes (kernels/noslip_lanes.hpp) run them too,
  // on a stepper per lane built from the lane, so that a lane rounds as the stepper does by
  // construction; what they do is written without branches wherever a lane needs it (selects,
  // & rather than &&), and the stepper's branches are on its options, which are constants there.

  // The collision at the current point, with the observables of the impact. Returns the energy
  // defect before the map. The map is orthogonal and flights are exact, so the energy
  // E0 = K + g (z - z0) is known exactly; the kinetic energy before the map is compared with it
  // (energy_error: the largest relative defect seen), and the state after the map is rescaled
  // onto it every kRescalePeriod impacts. Without this, orbits that are (nearly) periodic repeat
  // the same rounding every period and the energy drifts linearly. kBranchFree: the rescaled
  // state is computed at every impact and selected (the lanes); otherwise only when it is used.
  template <bool kBranchFree = false>
  SKIPSTONE_HD SKIPSTONE_ALWAYS_INLINE T impact() {
    const T k_target = collision_k_target<kGravity>(ob.e0, g, height(x) - ob.h.z0);
    const T k_before = twice_kinetic(st);
    [[maybe_unused]] const S before = st;
    st = noslip_collide(st, nu, k);
    if (opt.impulse_ratios) {
      const T ratio = impulse_ratio(before.u, st.u, nu);
      ob.ratio_max = ratio > ob.ratio_max ? ratio : ob.ratio_max;
      ob.ratio_sum += static_cast<double>(ratio);
    }
    if constexpr (kTangent)
      tangent.collide({nu, wall_curvature(table, x, last), kGravity ? gravity_vector(x, g) : V{}, before, st, k});
    ++events;
    const bool rescaled = rescale_impact(events, k_target);
    if constexpr (kBranchFree) {
      st = select(rescaled, onto_energy_shell<kGravity>(st, k_target, ob.inv_k0), st);
    } else {
      if (rescaled) st = onto_energy_shell<kGravity>(st, k_target, ob.inv_k0);
    }
    const T err = energy_defect<kGravity>(k_before, k_target, ob.e0, ob.inv_k0);
    ob.max_err = err > ob.max_err ? err : ob.max_err;
    ob.h.sample(t, height(x));
    if (opt.caustics) end_chord();
    if (opt.annulus) {
      const Vec3T<T> p = as3(x);
      const T s = dot(p, ob.axis) / norm(p);
      const T lat = asin(s > T(1) ? T(1) : (s < T(-1) ? T(-1) : s));
      ob.lat_min = lat < ob.lat_min ? lat : ob.lat_min;
      ob.lat_max = lat > ob.lat_max ? lat : ob.lat_max;
    }
    return err;
  }

  // Caustics: the chord of the cross-section that ends at this impact enters the mean distance
  // from the axis of the even or the odd chords (a chord of length 0 in neither).
  SKIPSTONE_HD SKIPSTONE_ALWAYS_INLINE void end_chord() {
    const Vec2T<T> a = planar(ob.chord_start), d = planar(x) - a;
    const T len = norm(d);
    const double rho = chord_distance(a, d, len);  // converted outside the selects: a conversion
    // inside one may trap (-ftrapping-math), which stops g++ from vectorising the float lanes
    const bool counted = ob.have_chord & (len > T(0));
    const bool even = counted & !ob.chord_odd, odd = counted & ob.chord_odd;
    ob.rho_sum[0] = even ? ob.rho_sum[0] + rho : ob.rho_sum[0];
    ob.rho_n[0] = even ? ob.rho_n[0] + 1.0 : ob.rho_n[0];
    ob.rho_sum[1] = odd ? ob.rho_sum[1] + rho : ob.rho_sum[1];
    ob.rho_n[1] = odd ? ob.rho_n[1] + 1.0 : ob.rho_n[1];
    ob.chord_odd = ob.chord_odd != ob.have_chord;
    ob.have_chord = true;
    ob.chord_start = x;
  }

  SKIPSTONE_HD SKIPSTONE_ALWAYS_INLINE bool finite_state() const {
    return isfinite(t) & all_finite(x) & all_finite(st.u);
  }
  // The event budget or t_max is reached.
  SKIPSTONE_HD SKIPSTONE_ALWAYS_INLINE bool budget_spent() const {
    return (events >= opt.max_events) | (t >= opt.t_max);
  }
  SKIPSTONE_HD SKIPSTONE_ALWAYS_INLINE Hit<V> next_hit() const {
    return table.next_hit(x, st.u, kGravity ? g : T(0), last, static_cast<T>(opt.t_max - t));
  }

  // The exact flight of duration dt, with the height extremum inside it (the vertex of the
  // parabola) under gravity.
  SKIPSTONE_HD SKIPSTONE_ALWAYS_INLINE void fly(T dt) {
    if constexpr (kGravity) {
      const V acc = gravity_vector(x, g);
      const T v_up = height(st.u);
      const T tv = v_up / g;
      const double z_vertex = height(x) + T(0.5) * v_up * tv;  // converted outside the selects
      ob.h.extremum_where((tv > T(0)) & (tv < dt), z_vertex);
      x = flight_position(x, st.u, acc, dt);
      st.u = st.u + dt * acc;
    } else {
      x = x + dt * st.u;
    }
    if constexpr (kTangent) tangent.fly(dt);
    const double dt_wide = dt;  // converted outside the selects
    t = t + dt_wide;
  }

  // Stands at the wall point of the hit, its collision pending.
  SKIPSTONE_HD SKIPSTONE_ALWAYS_INLINE void land(const Hit<V>& hit) {
    if constexpr (has_settle<Table, V>::value) x = table.settle(x, hit.part);
    last = hit.part;
    nu = hit.nu;
    pending = true;
  }

  SKIPSTONE_HD bool finish(Status s) {
    status = s;
    active = false;
    return false;
  }

  SKIPSTONE_HD TrajectoryResult result() const {
    TrajectoryResult res = empty_result();
    res.status = status;
    res.events = events;
    res.t_end = t;
    res.energy_error = ob.max_err;
    res.z_min = ob.h.z_min;
    res.z_max = ob.h.z_max;
    res.z_final = height(x);
    res.z_drift = ob.h.drift();
    res.bounded = ob.h.bounded(opt.bounded_depth);
    if (opt.caustics) {
      res.rho_even = ob.rho_n[0] > 0.0 ? ob.rho_sum[0] / ob.rho_n[0] : NAN;
      res.rho_odd = ob.rho_n[1] > 0.0 ? ob.rho_sum[1] / ob.rho_n[1] : NAN;
      res.caustic_gap = fabs(res.rho_even - res.rho_odd);
    }
    if (opt.annulus && events > 0) {
      res.annulus_axis[0] = ob.axis.x;
      res.annulus_axis[1] = ob.axis.y;
      res.annulus_axis[2] = ob.axis.z;
      res.annulus_width = ob.lat_max - ob.lat_min;
    }
    if (opt.impulse_ratios && events > 0) {
      res.impulse_ratio_max = ob.ratio_max;
      res.impulse_ratio_mean = ob.ratio_sum / static_cast<double>(events);
    }
    if constexpr (kTangent) tangent.write(res, t, events);
    if (status == Status::through_hole) {
      res.escape_time = t;
      res.hole = hole_here();
    }
    return res;
  }
};

template <class Table, class V, class S, bool kGravity, class Tangent, class T, class Sink>
SKIPSTONE_HD TrajectoryResult run_stepper(const Table& table, NoSlipCoefficientsT<T> k, T g,
                                          const NoSlipStart<V, S>& start, const NoSlipRunOptions& opt, Sink& sink) {
  NoSlipStepper<Table, V, S, kGravity, Tangent> s;
  s.start(table, k, g, start, opt, sink);
  while (s.step(sink)) {
  }
  return s.result();
}

// Whether the trajectories of a kernel may have gravity. A scan whose g is 0 at every point runs
// a kernel without the gravity code (parabolic flights, quartic roots, the apex): on sm_90 the
// disc kernel needs 98 registers instead of 128 with 40 B of spills in double, 80 instead of
// 128 with 136 B of spills in float. GravityKind::none only where g = 0 (the host chose the
// kernel from the scan: scan_has_gravity).
enum class GravityKind : std::int32_t { any = 0, none = 1 };

template <GravityKind G = GravityKind::any, class Tangent = NoTangent, class Table, class V, class S, class T,
          class Sink>
SKIPSTONE_HD TrajectoryResult integrate_noslip(const Table& table, NoSlipCoefficientsT<T> k, T g,
                                               const NoSlipStart<V, S>& start, const NoSlipRunOptions& opt,
                                               Sink& sink) {
  if constexpr (G == GravityKind::any)
    if (g != T(0)) return run_stepper<Table, V, S, true, Tangent>(table, k, g, start, opt, sink);
  return run_stepper<Table, V, S, false, Tangent>(table, k, g, start, opt, sink);
}

}  // namespace skipstone
