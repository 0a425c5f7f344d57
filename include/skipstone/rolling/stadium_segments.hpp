// The exact segment propagator shared by the two "stadium" nonholonomic billiards:
//   roll3:strip  (Section 4.1, Figures 10-11): a 3D ball rolling on a vertical strip;
//   roll4:planes (Section 5.4, Theorem 13, Figures 15-17): a 4D ball rolling on the region
//                between two vertical planes (Proposition 12 with kappa = 0).
// In both, the cross-section of N_r is a stadium: two flat parts of length L joined by two
// half-circles of radius r; the centre runs around it at the constant speed |v1| (v1' = 0),
// and every other velocity/spin pair is a "rotating block" X = (a, b) with height z:
//     a' = -w b - G,   b' = w a,   z' = a,       w = w_arc on the half-circles, 0 on the flats,
// i.e. X' = w J X - G e1 with J = [[0, -1], [1, 0]] (Section 4.1: X(t) = I(t)^-1 X(0) -
// I(t)^-1 int I G; Section 5.4: (v2, S12) with G = 0 and (v3, S13) with gravity). On a segment
// w is constant and the solution is exact: X(t) = X* + R(w t)(X(0) - X*), X* = (0, -G/w), which
// we write with theta = w t in sinc form so that w -> 0 (flat parts, eta = 0) is the free
// fall without cancellation:
//     a(t) = c a - s b - G t sinc(theta),   b(t) = s a + c b - G t sin(theta/2) sinc(theta/2),
//     z(t) = z + t a sinc(theta) - t b sin(theta/2) sinc(theta/2) - (G t^2 / 2) sinc(theta/2)^2.
// No time stepping: a trajectory is a sequence of such segment maps, the extrema of z inside a
// segment are found in closed form (zeros of a(t): the parabola vertex on flats, tan(w t) =
// a w / (b w + G) on half-circles), and the run stops at t_max or after max_events completed
// half-circle (rim) passages.
//
// Stadium layout (arc length sigma, 0 <= sigma < 2 L + 2 pi r; "+ sheet" = the flat part on
// the positive side of the extra coordinate, x4 = +r for roll4:planes, x3 = +r for roll3:strip):
//   segment 0: flat, + sheet, from x1 = +L/2 (sigma = 0) to x1 = -L/2; tangent X1 = -e1
//   segment 1: half-circle around the edge x1 = -L/2, from the + sheet to the - sheet
//   segment 2: flat, - sheet, from x1 = -L/2 to x1 = +L/2; tangent X1 = +e1
//   segment 3: half-circle around the edge x1 = +L/2, back to the + sheet
// X1 is the unit tangent of the stadium in the direction of increasing sigma; v1 = v . X1 > 0
// runs 0 -> 1 -> 2 -> 3 (on the + sheet towards the plane x1 = -L/2 first, as in Figure 16:
// "rolling from the right to the left vertical plate"), v1 < 0 the other way.
#pragma once
#include <cstdint>

#include "skipstone/height_stats.hpp"
#include "skipstone/inertia.hpp"
#include "skipstone/result.hpp"
#include "skipstone/rolling/contact_force.hpp"
#include "skipstone/scan_point.hpp"
#include "skipstone/section_map.hpp"
#include "skipstone/vec.hpp"

namespace skipstone {

// sin(x)/x, accurate through x = 0.
SKIPSTONE_HD SKIPSTONE_INLINE double sinc(double x) {
  if (fabs(x) < 1e-4) {
    const double x2 = x * x;
    return 1.0 - x2 / 6.0 + x2 * x2 / 120.0;
  }
  return sin(x) / x;
}

// One rotating block: a (a velocity), b (its spin partner), z (the position a integrates).
struct RotatingBlock {
  double a, b, z;
};

// The exact map of a block over time t at constant rotation rate w under the constant
// acceleration -G on a:  a' = c a - s b - ga,  b' = s a + c b - gb,  z' = z + ta a - tb b - gz.
struct BlockMap {
  double c, s, ta, tb, ga, gb, gz;
};

SKIPSTONE_HD SKIPSTONE_INLINE BlockMap block_map(double w, double G, double t) {
  BlockMap m;
  if (w == 0.0) {
    m.c = 1.0;
    m.s = 0.0;
    m.ta = t;
    m.tb = 0.0;
    m.ga = G * t;
    m.gb = 0.0;
    m.gz = 0.5 * G * t * t;
    return m;
  }
  const double th = w * t;
  const double s1 = sinc(th);
  const double sh = sin(0.5 * th), h = sinc(0.5 * th);
  m.c = cos(th);
  m.s = sin(th);
  m.ta = t * s1;
  m.tb = t * sh * h;  // t (1 - cos theta) / theta
  m.ga = G * m.ta;
  m.gb = G * m.tb;
  m.gz = 0.5 * G * t * t * h * h;  // G t^2 (1 - cos theta) / theta^2
  return m;
}

SKIPSTONE_HD SKIPSTONE_INLINE RotatingBlock apply_block(const BlockMap& m, const RotatingBlock& x) {
  return {m.c * x.a - m.s * x.b - m.ga, m.s * x.a + m.c * x.b - m.gb, x.z + m.ta * x.a - m.tb * x.b - m.gz};
}

// The same map for a block without forcing (G = 0), whatever G the map was built with.
SKIPSTONE_HD SKIPSTONE_INLINE RotatingBlock apply_block_free(const BlockMap& m, const RotatingBlock& x) {
  return {m.c * x.a - m.s * x.b, m.s * x.a + m.c * x.b, x.z + m.ta * x.a - m.tb * x.b};
}

// Extrema of z strictly inside (0, t): the zeros of a(tau). Flats (w = 0): the parabola vertex
// tau = a/G. Rotation: a(tau) = cos(w tau) Ya - sin(w tau) Yb with Y = (a, b + G/w), zero where
// tan(w tau) = a w / (b w + G) (written without G/w, so a tiny w needs no special case).
// Valid for |w t| up to a few pi (a half-circle turns the block by pi eta < pi).
SKIPSTONE_HD SKIPSTONE_INLINE void block_extrema(const RotatingBlock& x, double w, double G, double t, double& z_min,
                                                 double& z_max) {
  if (w == 0.0) {
    if (G == 0.0) return;
    const double tv = x.a / G;
    if (tv > 0.0 && tv < t) {
      const double zv = x.z + 0.5 * x.a * tv;
      z_min = zv < z_min ? zv : z_min;
      z_max = zv > z_max ? zv : z_max;
    }
    return;
  }
  const double th0 = atan2(x.a * w, x.b * w + G);
  const double big = w * t;
  const double lo = big < 0.0 ? big : 0.0, hi = big < 0.0 ? 0.0 : big;
  double k = ceil((lo - th0) / kPi);
  for (int i = 0; i < 8; ++i, k += 1.0) {
    const double th = th0 + k * kPi;
    if (!(th < hi)) break;
    if (!(th > lo)) continue;
    const double tau = th / w;
    if (!(tau > 0.0 && tau < t)) continue;
    const double zv = apply_block(block_map(w, G, tau), x).z;
    z_min = zv < z_min ? zv : z_min;
    z_max = zv > z_max ? zv : z_max;
  }
}

// Stadium geometry (layout in the header comment).
struct Stadium {
  double L, r;
  SKIPSTONE_HD double length(int seg) const { return (seg & 1) ? kPi * r : L; }
  SKIPSTONE_HD double start(int seg) const {
    switch (seg) {
      case 0: return 0.0;
      case 1: return L;
      case 2: return L + kPi * r;
      default: return 2.0 * L + kPi * r;
    }
  }
  SKIPSTONE_HD double perimeter() const { return 2.0 * L + 2.0 * kPi * r; }
  // The segment of the arc length sigma (in [0, perimeter]) and the position inside it, `pos`
  // (at most the segment's length).
  SKIPSTONE_HD int segment_at(double sigma, double& pos) const {
    int seg = 3;
    while (seg > 0 && sigma < start(seg)) --seg;
    pos = sigma - start(seg);
    pos = pos > length(seg) ? length(seg) : pos;
    return seg;
  }
  // Ambient (x1, x_extra) of the point at position pos inside segment seg.
  SKIPSTONE_HD Vec2 point(int seg, double pos) const {
    const double half = 0.5 * L;
    const double phi = r > 0.0 ? pos / r : 0.0;  // angle from the + sheet (segment 1) or - sheet (3)
    switch (seg) {
      case 0: return {half - pos, r};
      case 1: return {-half - r * sin(phi), r * cos(phi)};
      case 2: return {-half + pos, -r};
      default: return {half + r * sin(phi), -r * cos(phi)};
    }
  }
};

// Everything a stadium run needs; blocks in the model's own variables (see the model headers).
struct StadiumSetup {
  Stadium st;
  double v1;       // signed speed along the stadium, nonzero
  double w_arc;    // rotation rate of every block on the half-circles
  double G;        // effective gravity on the height block h
  int seg;         // start: segment and position inside it
  double pos;
  RotatingBlock h;  // height block (z is the height)
  RotatingBlock q;  // second, gravity-free block (roll4:planes); all zero otherwise
  double s_const;   // a constant spin counted in the energy (roll4:planes: S23)
  bool contact;     // keep the contact observables (contact_force.hpp)
  double mu_s;      // their static friction coefficient
  double g;         // the physical gravity, G (1 + gamma^2)
};

struct StadiumStop {
  double t_max;             // INFINITY when only max_events stops the run
  std::uint64_t max_events; // completed half-circle passages
  double energy_tolerance;
  double bounded_depth;
};

SKIPSTONE_HD SKIPSTONE_INLINE StadiumStop stadium_stop(const ScanSpec& spec) {
  return {spec.t_max, spec.max_events, spec.energy_tolerance, spec.bounded_depth};
}

// Effective gravity of a rolling ball (docs/models.md; the paper's Eq. (11)):
// the physical g accelerates a rolling ball by g / (1 + gamma^2); a config gives either g or
// the paper's effective value g_effective directly (validation admits at most one nonzero).
SKIPSTONE_HD SKIPSTONE_INLINE double rolling_gravity(const ScanPoint& pt, double gamma) {
  return pt.p[P_G] / (1.0 + gamma * gamma) + pt.p[P_G_EFF];
}

// The rate eta at which the rolling constraint couples the velocity to the spin S: eta of the
// ball's moment of inertia, or 0 for a rubber ball (parameter no_twist = 1). A rubber ball may
// not spin about the contact normal, so S is held at 0 by a reaction couple and the centre
// follows the geodesics of N_r under the same effective gravity g / (1 + gamma^2): the
// equations of the rolling ball with eta = 0 and S = 0 (docs/models.md, "Rubber rolling of the
// symmetric balls").
SKIPSTONE_HD SKIPSTONE_INLINE double rolling_eta(const ScanPoint& pt, double gamma) {
  return pt.p[P_NO_TWIST] != 0.0 ? 0.0 : eta_from_gamma(gamma);
}

// The physical gravity g of a scan point, whether the config gives g or g_effective: what the
// contact force subtracts (contact_force.hpp), for a rolling and a rubber ball alike.
SKIPSTONE_HD SKIPSTONE_INLINE double ball_gravity(const ScanPoint& pt, double gamma) {
  return physical_gravity(rolling_gravity(pt, gamma), eta_from_gamma(gamma));
}

// A plate start needs v1 != 0 (the ball must reach the rim) and |x1| <= L/2 (on the plate); a
// start from a row of states (StartKind::state) v1 != 0 and 0 <= sigma <= the perimeter.
SKIPSTONE_HD SKIPSTONE_INLINE bool plate_start_masked(const ScanSpec& spec, const double* p) {
  if (spec.start == StartKind::state)
    return !(p[P_V1] != 0.0) || !(p[P_SIGMA] >= 0.0 && p[P_SIGMA] <= Stadium{p[P_L], p[P_BALL_R]}.perimeter());
  return !(p[P_V1] != 0.0) || !(fabs(p[P_X1]) <= 0.5 * p[P_L]);
}

// The plate start of roll3:strip and roll4:planes on N_r: the + sheet (segment 0) at arc
// position L/2 - x1 (a start from a row of states: the segment and position of its arc length
// sigma, the layout of the emitted sigma), speed v1 along the stadium, effective gravity, and the rotation rate on
// the half-circles w_arc = arc_sign eta v1 / r (arc_sign: the model's sign of the curvature
// term). The caller fills the blocks h and q and s_const.
SKIPSTONE_HD SKIPSTONE_INLINE StadiumSetup plate_stadium_start(const ScanSpec& spec, const ScanPoint& pt,
                                                               double arc_sign) {
  const double* p = pt.p;
  const double L = p[P_L], r = p[P_BALL_R], v1 = p[P_V1];
  const double gamma = point_gamma(spec, pt);
  StadiumSetup s;
  s.st = Stadium{L, r};
  s.v1 = v1;
  s.w_arc = arc_sign * rolling_eta(pt, gamma) * v1 / r;
  s.G = rolling_gravity(pt, gamma);
  s.contact = spec.contact_forces;
  s.mu_s = p[P_MU_S];
  s.g = ball_gravity(pt, gamma);
  s.seg = 0;
  s.pos = 0.5 * L - p[P_X1];
  if (spec.start == StartKind::state) s.seg = s.st.segment_at(p[P_SIGMA], s.pos);
  return s;
}

// Relative energy defect of a rolling run under effective gravity G: E = k/2 + G z is
// conserved, so twice the kinetic energy k at height z should be k0 - 2 G (z - z0); the
// difference is relative to the larger of the kinetic energies now and at the start (as the
// no-slip code does).
SKIPSTONE_HD SKIPSTONE_INLINE double rolling_energy_defect(double k, double k0, double G, double z, double z0) {
  const double scale = k > k0 ? k : k0;
  return fabs(k - (k0 - 2.0 * G * (z - z0))) / scale;
}

// The result of a rolling run (closed-form segments here and in roll3:inside-cylinder, GBS
// passages in roll4:disc): how and when it ended, its largest energy defect, and the height
// observables of `ob` with the final height z_final.
SKIPSTONE_HD SKIPSTONE_INLINE TrajectoryResult rolling_result(Status status, std::uint64_t events, double t,
                                                              double max_err, const HeightStats& ob, double z_final,
                                                              double bounded_depth) {
  TrajectoryResult res = empty_result();
  res.status = status;
  res.events = events;
  res.t_end = t;
  res.energy_error = max_err;
  res.z_min = ob.z_min;
  res.z_max = ob.z_max;
  res.z_final = z_final;
  res.z_drift = ob.drift();
  res.bounded = ob.bounded(bounded_depth);
  return res;
}

// Twice the kinetic energy, v1^2 + |h|^2 (+ |q|^2) + s_const^2.
template <bool kSecondBlock>
SKIPSTONE_HD SKIPSTONE_INLINE double stadium_kinetic2(const StadiumSetup& s) {
  double k = s.v1 * s.v1 + s.s_const * s.s_const + s.h.a * s.h.a + s.h.b * s.h.b;
  if (kSecondBlock) k += s.q.a * s.q.a + s.q.b * s.q.b;
  return k;
}

// Every segment map is exact, but a rim passage repeats the same rounded rotation (c^2 + s^2 =
// 1 + O(eps)) and would make |X| drift linearly over many passages (1e-11 after 1e5). Every
// kStadiumRescalePeriod rim passages the blocks are rescaled onto their exact invariants,
// |q|^2 = |q0|^2 and |h|^2 + 2 G z = |h0|^2 + 2 G z0 (as the no-slip code does at impacts); the
// energy error is measured before the rescaling.
constexpr std::uint64_t kStadiumRescalePeriod = 8;

template <bool kSecondBlock>
SKIPSTONE_HD SKIPSTONE_INLINE void stadium_rescale(StadiumSetup& s, double h2_0, double q2_0, double z0) {
  const double h2 = s.h.a * s.h.a + s.h.b * s.h.b;
  const double h2_target = h2_0 - 2.0 * s.G * (s.h.z - z0);
  if (fabs(h2 - h2_target) < 1e-8 * h2_target) {  // round-off sized corrections only
    const double f = 1.0 - 0.5 * (h2 - h2_target) / h2_target;  // sqrt(target / h2) to first order
    s.h.a *= f;
    s.h.b *= f;
  }
  const double q2 = s.q.a * s.q.a + s.q.b * s.q.b;
  if (kSecondBlock && fabs(q2 - q2_0) < 1e-8 * q2_0) {
    const double f = 1.0 - 0.5 * (q2 - q2_0) / q2_0;
    s.q.a *= f;
    s.q.b *= f;
  }
}

// The surface's force on the ball (contact_force.hpp) at a segment end, `on_arc` or on a flat
// part: the centre runs round the half-circle at the constant speed |v1| and the blocks' a' =
// -w b - G are the accelerations along the planes (q) and the axis (h), so N = -v1^2 / r on the
// half-circles and 0 on the flats, and |f| = |(w q.b, g - G - w h.b)|. N <= 0 everywhere, so
// the observables only need the segment ends: detach_time is the first half-circle and
// slip_time the start (|f| = |g - G| > 0 on a flat) or the first half-circle.
SKIPSTONE_HD SKIPSTONE_INLINE void stadium_contact(ContactStats& c, const StadiumSetup& s, double t, bool on_arc) {
  if (!c.on) return;
  const double w = on_arc ? s.w_arc : 0.0;
  const double f2 = w * s.q.b, f3 = s.g - s.G - w * s.h.b;
  c.sample(t, on_arc ? -s.v1 * s.v1 / s.st.r : 0.0, sqrt(f2 * f2 + f3 * f3));
}

// The emit hook that writes a model's rows: Emit itself, unless it wraps the model's
// (tangent/stadium_lyapunov.hpp).
template <class Emit>
struct stadium_row_emit {
  using type = Emit;
};

// One segment from the state s at arc length sigma0, at rate w for a time tau, as a curve for
// the Poincare sections (section_map.hpp: SectionSink::on_curve): its rows are the model's
// (RowCapture through the model's emit hook; roll4:planes, with the second block, 3D). Bounds:
// a block turns about (0, -G/w) at the radius rho_X (|a| <= rho_X, |a'| <= |w| rho_X; q about 0),
// or falls freely on a flat part (|a| at an end, |a'| = G).
template <class Emit, bool kSecondBlock>
struct StadiumCurve {
  static constexpr int kDim = kSecondBlock ? 3 : 2;
  StadiumSetup s;
  double sigma0, w, tau;
  SKIPSTONE_HD void row(double t, double* out) const {
    StadiumSetup at = s;
    const BlockMap m = block_map(w, s.G, t);
    at.h = apply_block(m, s.h);
    if (kSecondBlock) at.q = apply_block_free(m, s.q);
    RowCapture capture{out};
    stadium_row_emit<Emit>::type::emit(capture, 0.0, sigma0 + s.v1 * t, at);
  }
  SKIPSTONE_HD void bounds(double& speed, double& acc) const {
    const double rq2 = s.q.a * s.q.a + (w != 0.0 ? s.q.b * s.q.b : 0.0);
    double rh2;
    if (w != 0.0) {
      const double bc = s.h.b + s.G / w;
      rh2 = s.h.a * s.h.a + bc * bc;
      acc = fabs(w) * sqrt(rh2 + rq2);
    } else {
      const double a_end = s.h.a - s.G * tau;
      rh2 = s.h.a * s.h.a > a_end * a_end ? s.h.a * s.h.a : a_end * a_end;
      acc = fabs(s.G);
    }
    speed = sqrt(s.v1 * s.v1 + rh2 + rq2);
  }
};

// The run: Emit::emit(sink, t, sigma, setup-with-current-state) reports the start, every
// segment end and the final state; a sink that wants the flights gets every segment as a curve.
// kSecondBlock: propagate q as well.
template <class Emit, bool kSecondBlock, class Sink>
SKIPSTONE_HD TrajectoryResult run_stadium(StadiumSetup s, const StadiumStop& stop, Sink& sink) {
  const double speed = fabs(s.v1);
  const bool forward = s.v1 > 0.0;
  const double t_flat = s.st.L / speed, t_arc = kPi * s.st.r / speed;
  const BlockMap flat = block_map(0.0, s.G, t_flat);
  const BlockMap arc = block_map(s.w_arc, s.G, t_arc);
  const double k0 = stadium_kinetic2<kSecondBlock>(s);
  const double h2_0 = s.h.a * s.h.a + s.h.b * s.h.b, q2_0 = s.q.a * s.q.a + s.q.b * s.q.b;
  HeightStats ob;  // extremes at segment ends and interior extrema, drift at segment ends
  ob.start(s.h.z);
  ContactStats contact;
  contact.start(s.contact, s.mu_s);
  double max_err = 0.0;
  double t = 0.0;
  std::uint64_t events = 0;
  Status status = Status::finished;
  Emit::emit(sink, t, s.st.start(s.seg) + s.pos, s);
  while (events < stop.max_events && t < stop.t_max) {
    const bool on_arc = (s.seg & 1) != 0;
    const double len = s.st.length(s.seg);
    const double ahead = forward ? len - s.pos : s.pos;
    const bool whole = forward ? s.pos == 0.0 : s.pos == len;
    double dt = ahead / speed;
    bool reach_end = true;
    if (t + dt > stop.t_max) {
      dt = stop.t_max - t;
      reach_end = false;
    }
    const double w = on_arc ? s.w_arc : 0.0;
    const BlockMap m = (reach_end && whole) ? (on_arc ? arc : flat) : block_map(w, s.G, dt);
    block_extrema(s.h, w, s.G, dt, ob.z_min, ob.z_max);
    report_curve(sink, t, dt, StadiumCurve<Emit, kSecondBlock>{s, s.st.start(s.seg) + s.pos, w, dt});
    stadium_contact(contact, s, t, on_arc);
    s.h = apply_block(m, s.h);
    if (kSecondBlock) s.q = apply_block_free(m, s.q);
    stadium_contact(contact, s, t + dt, on_arc);
    if (reach_end) {
      t += dt;
      if (on_arc) ++events;
      s.seg = forward ? (s.seg + 1) & 3 : (s.seg + 3) & 3;
      s.pos = forward ? 0.0 : s.st.length(s.seg);
    } else {
      t = stop.t_max;
      s.pos += forward ? speed * dt : -speed * dt;
      s.pos = s.pos < 0.0 ? 0.0 : (s.pos > len ? len : s.pos);
    }
    ob.sample(t, s.h.z);
    const double k = stadium_kinetic2<kSecondBlock>(s);
    const double err = rolling_energy_defect(k, k0, s.G, s.h.z, ob.z0);
    max_err = err > max_err ? err : max_err;
    if (reach_end && on_arc && (events % kStadiumRescalePeriod) == 0) stadium_rescale<kSecondBlock>(s, h2_0, q2_0, ob.z0);
    Emit::emit(sink, t, s.st.start(s.seg) + s.pos, s);
    if (!(isfinite(t) && isfinite(k) && isfinite(s.h.z) && isfinite(s.q.z))) {
      status = Status::non_finite;
      break;
    }
    if (err > stop.energy_tolerance) {
      status = Status::energy_drift;
      break;
    }
  }
  TrajectoryResult res = rolling_result(status, events, t, max_err, ob, s.h.z, stop.bounded_depth);
  contact.write(res);
  return res;
}

}  // namespace skipstone
