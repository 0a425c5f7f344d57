// The Lyapunov exponent of the closed-form rolling models roll3:strip, roll4:planes
// (tangent/stadium_lyapunov.hpp) and roll3:inside-cylinder (tangent/inside_cylinder_lyapunov.hpp):
// the rate derivative of the block map against central differences; the tangent map over several
// half-circle passages (or turns) against central differences of the trajectory, and on the
// stadium models that it fails without the saltation at the segment ends; the exponent against
// two neighbouring trajectories; the decay of the integrable exponent, log(t)/t for a generic
// vector and 1/t for one without a change of the speed v1; the other observables bit-identical
// with and without the exponent; float refused.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "backends.hpp"
#include "config_error.hpp"
#include "skipstone/final_state.hpp"
#include "skipstone/simulate.hpp"
#include "test_support.hpp"

namespace {

using namespace skipstone;
using nlohmann::json;

// The rate derivative of the block map against central differences of step 1e-6 in w.
constexpr double kRateDerivativeTolerance = 1e-8;
// The tangent map against central differences of step 1e-6 of the closed-form trajectory:
// truncation ~1e-12 (relative), rounding ~1e-10 (measured 1e-10 to 2e-10).
constexpr double kJacobianTolerance = 1e-8;
// Without the saltation terms the map is wrong by O(1).
constexpr double kSaltationEffect = 1e-2;
// The exponent against log(|x_eps(t) - x(t)| / eps) / t with eps = 1e-9 (no renormalisation:
// the separation grows linearly): O(eps t) relative in the separation.
constexpr double kTwoTrajectoryTolerance = 1e-6;
// log(|delta(t)| / t) for the generic vector, and log |delta(t)| for one with dv1 = 0, stay in
// a band of this width over t = 1e2 ... 1e5 (a linear or a bounded growth).
constexpr double kDecayBand = 2.0;

// The state row the models' sink writes (final_state.hpp), recorded at the last event.
struct LastRow {
  double row[9] = {};
  double t = 0.0;
  template <class V, class S>
  void on_event(double time, V x, const S& st, V) {
    write_state_row(x, st, row);
    t = time;
  }
  template <class T>
  void on_step(T, const T*) {}
};

RunConfig config(const json& j) { return skipstone::testing::config_from(j); }

json strip_config() {
  return json::parse(R"({"system": "roll3:strip", "parameters": {"L": 1.0, "r": 0.3, "eta": 0.6, "g_effective": 0.8},
    "initial": {"start": "plate", "x1": 0.1, "z": 0.0, "v1": 1.1, "v2": 0.4, "spin": -0.3},
    "stop": {"t_max": 10.0}})");
}
json planes_config() {
  return json::parse(R"({"system": "roll4:planes", "parameters": {"L": 1.0, "r": 0.3, "eta": 0.6, "g_effective": 0.8},
    "initial": {"start": "plate", "x1": 0.1, "z": 0.0, "v1": -1.1, "v2": 0.3, "v3": 0.4, "S12": 0.2,
                "S13": -0.3, "S23": 0.25},
    "stop": {"t_max": 10.0}})");
}
json cylinder_config() {
  return json::parse(R"({"system": "roll3:inside-cylinder", "parameters": {"R": 1.0, "r": 0.2, "gamma": 0.6324555320336759, "g": 1.0},
    "initial": {"start": "wall", "angle": 0.3, "z": 0.1, "v1": 1.3, "v2": 0.4, "spin": -0.2},
    "stop": {"t_max": 10.0}})");
}

// ---- the stadium models -------------------------------------------------------------------

// Where each tangent component sits in the model's state row, and its sign there
// (roll3_strip.hpp, roll4_planes.hpp).
struct RowSlot {
  int column;
  double sign;
};
const RowSlot kStripSlots[kStripTangentDim] = {{0, 1}, {2, 1}, {3, 1}, {4, 1}, {1, 1}};
const RowSlot kPlanesSlots[kPlanesTangentDim] = {{0, 1}, {3, 1}, {5, 1}, {7, -1}, {2, 1},
                                                 {4, 1}, {8, 1}, {1, 1}, {6, 1}};

struct StadiumCase {
  bool planes;
  StadiumSetup s;
  StadiumStop stop;
  int dim() const { return planes ? kPlanesTangentDim : kStripTangentDim; }
  const RowSlot* slots() const { return planes ? kPlanesSlots : kStripSlots; }
};

StadiumCase stadium_case(bool planes, double t_max, double G = -1.0) {
  json j = planes ? planes_config() : strip_config();
  if (G >= 0.0) j["parameters"]["g_effective"] = G;
  const RunConfig rc = config(j);
  StadiumCase c{planes, {}, stadium_stop(rc.spec)};
  const ScanPoint pt = scan_point(rc.spec, 0);
  EXPECT_TRUE(planes ? roll4_planes_setup(rc.spec, pt, c.s) : roll3_strip_setup(rc.spec, pt, c.s));
  EXPECT_EQ(c.s.seg, 0);
  c.stop.t_max = t_max;
  return c;
}

// The start moved by e along tangent component i (the start lies inside segment 0, where sigma
// is the position; a change of v1 changes the half-circles' rate with it).
StadiumSetup perturbed(StadiumSetup s, int i, double e) {
  switch (i) {
    case kTSigma: s.pos += e; break;
    case kTV1: {
      const double k = s.w_arc / s.v1;
      s.v1 += e;
      s.w_arc = k * s.v1;
      break;
    }
    case kTHa: s.h.a += e; break;
    case kTHb: s.h.b += e; break;
    case kTHz: s.h.z += e; break;
    case kTQa: s.q.a += e; break;
    case kTQb: s.q.b += e; break;
    case kTQz: s.q.z += e; break;
    default: s.s_const += e; break;
  }
  return s;
}

// The state at the end of the run as tangent components (sigma unwrapped by the caller).
void end_state(const StadiumCase& c, const StadiumSetup& s, double* out, TrajectoryResult* res = nullptr) {
  LastRow last;
  const TrajectoryResult r = c.planes ? run_stadium<PlanesEmit, true>(s, c.stop, last)
                                      : run_stadium<StripEmit, false>(s, c.stop, last);
  if (res) *res = r;
  for (int i = 0; i < c.dim(); ++i) out[i] = c.slots()[i].sign * last.row[c.slots()[i].column];
}

// The tangent run from the start vector d0; the end vector in d_end.
TrajectoryResult tangent_run(const StadiumCase& c, const double* d0, double* d_end, bool saltation = true,
                             bool renormalise = false) {
  DiscardSink sink;
  if (c.planes) {
    StadiumLyapunovSink<true, DiscardSink> ts(sink, d0);
    ts.saltation = saltation;
    ts.renormalise = renormalise;
    const TrajectoryResult r = run_stadium_lyapunov<PlanesEmit>(c.s, c.stop, ts);
    for (int i = 0; i < c.dim(); ++i) d_end[i] = ts.d[i];
    return r;
  }
  StadiumLyapunovSink<false, DiscardSink> ts(sink, d0);
  ts.saltation = saltation;
  ts.renormalise = renormalise;
  const TrajectoryResult r = run_stadium_lyapunov<StripEmit>(c.s, c.stop, ts);
  for (int i = 0; i < c.dim(); ++i) d_end[i] = ts.d[i];
  return r;
}

// max over the columns |J_tangent e_i - J_fd e_i| / max |J_fd e_i|.
double stadium_jacobian_mismatch(const StadiumCase& c, bool saltation) {
  constexpr double h = 1e-6;
  const double perimeter = c.s.st.perimeter();
  double worst = 0.0, scale = 0.0;
  for (int i = 0; i < c.dim(); ++i) {
    double fp[9], fm[9], e[9] = {}, d[9];
    e[i] = 1.0;
    end_state(c, perturbed(c.s, i, h), fp);
    end_state(c, perturbed(c.s, i, -h), fm);
    tangent_run(c, e, d, saltation);
    for (int k = 0; k < c.dim(); ++k) {
      const double diff = k == kTSigma ? std::remainder(fp[k] - fm[k], perimeter) : fp[k] - fm[k];
      const double fd = diff / (2.0 * h);
      worst = std::fmax(worst, std::fabs(d[k] - fd));
      scale = std::fmax(scale, std::fabs(fd));
    }
  }
  return worst / scale;
}

TEST(BlockTangent, RateDerivativeMatchesFiniteDifferences) {
  constexpr double h = 1e-6;
  for (double w : {-2.1, -0.3, 1e-3, 0.7, 3.0}) {
    const double G = 0.8, t = 1.3;
    const BlockMap d = block_map_rate_derivative(w, G, t), p = block_map(w + h, G, t), m = block_map(w - h, G, t);
    const double got[7] = {d.c, d.s, d.ta, d.tb, d.ga, d.gb, d.gz};
    const double plus[7] = {p.c, p.s, p.ta, p.tb, p.ga, p.gb, p.gz}, minus[7] = {m.c, m.s, m.ta, m.tb, m.ga, m.gb, m.gz};
    for (int k = 0; k < 7; ++k) EXPECT_NEAR(got[k], (plus[k] - minus[k]) / (2.0 * h), kRateDerivativeTolerance) << w << " " << k;
  }
}

TEST(StadiumTangent, MatchesFiniteDifferencesOfTheTrajectory) {
  for (bool planes : {false, true}) {
    for (double G : {0.0, 0.8}) {
      // six half-circle passages, then to t = 10.5 inside a flat part or 11.5 inside a half-circle
      for (double t : {10.5, 11.5}) {
        const StadiumCase c = stadium_case(planes, t, G);
        const double with = stadium_jacobian_mismatch(c, true), without = stadium_jacobian_mismatch(c, false);
        double d[9], e[9] = {};
        e[0] = 1.0;
        const TrajectoryResult r = tangent_run(c, e, d);
        std::cout << (planes ? "roll4:planes" : "roll3:strip") << ", G " << G << ", t " << t << " (" << r.events
                  << " half-circles): relative mismatch " << with << ", without saltation " << without << "\n";
        EXPECT_EQ(r.events, 6u);
        EXPECT_LT(with, kJacobianTolerance) << planes << " " << G << " " << t;
        EXPECT_GT(without, kSaltationEffect) << planes << " " << G << " " << t;
      }
    }
  }
}

// log(|x_eps(t) - x(t)| / eps) / t for the neighbour along the uniform vector, against the
// exponent of the tangent run.
TEST(StadiumLyapunov, AgreesWithTwoNeighbouringTrajectories) {
  constexpr double kEps = 1e-9;
  for (bool planes : {false, true}) {
    const StadiumCase c = stadium_case(planes, 100.0);
    StadiumSetup s = c.s;
    for (int i = 0; i < c.dim(); ++i) s = perturbed(s, i, kEps / std::sqrt(double(c.dim())));
    double a[9], b[9];
    end_state(c, c.s, a);
    end_state(c, s, b);
    double n2 = 0.0;
    for (int k = 0; k < c.dim(); ++k) {
      const double diff = k == kTSigma ? std::remainder(b[k] - a[k], c.s.st.perimeter()) : b[k] - a[k];
      n2 += diff * diff;
    }
    const double two = std::log(std::sqrt(n2) / kEps) / 100.0;
    double d[9];
    const TrajectoryResult r = tangent_run(c, nullptr, d, true, true);
    std::cout << (planes ? "roll4:planes" : "roll3:strip") << ": lyapunov " << r.lyapunov << " (per passage "
              << r.lyapunov_per_event << "), two trajectories " << two << "\n";
    EXPECT_NEAR(r.lyapunov, two, kTwoTrajectoryTolerance);
  }
}

// The exponent t lambda(t) = log |delta(t)|: a generic vector grows linearly (the shear of dv1),
// one with dv1 = 0 stays bounded.
TEST(StadiumLyapunov, DecaysLikeLogTOverTAndLikeOneOverTWithoutASpeedChange) {
  for (bool planes : {false, true}) {
    const int n = planes ? kPlanesTangentDim : kStripTangentDim;
    double no_speed[9];
    for (int i = 0; i < n; ++i) no_speed[i] = i == kTV1 ? 0.0 : 1.0 / std::sqrt(double(n - 1));
    double lo_lin = INFINITY, hi_lin = -INFINITY, lo_b = INFINITY, hi_b = -INFINITY;
    for (double t : {1e2, 1e3, 1e4, 1e5}) {
      const StadiumCase c = stadium_case(planes, t);
      double d[9];
      const double generic = tangent_run(c, nullptr, d, true, true).lyapunov;
      const double bounded = tangent_run(c, no_speed, d, true, true).lyapunov;
      std::cout << (planes ? "roll4:planes" : "roll3:strip") << ": t " << t << " lyapunov " << generic
                << " (t lambda - log t " << generic * t - std::log(t) << "), with dv1 = 0 " << bounded
                << " (t lambda " << bounded * t << ")\n";
      lo_lin = std::fmin(lo_lin, generic * t - std::log(t));
      hi_lin = std::fmax(hi_lin, generic * t - std::log(t));
      lo_b = std::fmin(lo_b, bounded * t);
      hi_b = std::fmax(hi_b, bounded * t);
    }
    EXPECT_LT(hi_lin - lo_lin, kDecayBand) << planes;
    EXPECT_LT(hi_b - lo_b, kDecayBand) << planes;
  }
}

// ---- roll3:inside-cylinder ------------------------------------------------------------------

// The end state (rho theta, v1, v2, s, z) of the run from the config's start moved by e along
// component i; the angle continued from the unperturbed end angle theta_ref.
void cylinder_end(const json& base, double t_max, int i, double e, double theta_ref, double* out,
                  TrajectoryResult* res = nullptr, const double* d0 = nullptr, double* d_end = nullptr) {
  json j = base;
  j["stop"]["t_max"] = t_max;
  const RunConfig rc0 = config(j);
  const double rho = rc0.spec.params[P_R] - rc0.spec.params[P_BALL_R];
  const char* keys[5] = {"angle", "v1", "v2", "spin", "z"};
  j["initial"][keys[i]] = j["initial"][keys[i]].get<double>() + (i == 0 ? e / rho : e);
  const RunConfig rc = config(j);
  LastRow last;
  const TrajectoryResult r = d0 ? simulate_roll3_inside_cylinder_lyapunov(rc.spec, scan_point(rc.spec, 0), last, d0, d_end)
                                : simulate_roll3_inside_cylinder(rc.spec, scan_point(rc.spec, 0), last);
  if (res) *res = r;
  const double th = std::atan2(last.row[1], last.row[0]);
  const double theta = theta_ref + std::remainder(th - theta_ref, 2.0 * kPi);
  const double er[2] = {std::cos(th), std::sin(th)};
  out[0] = rho * theta;
  out[1] = -er[1] * last.row[3] + er[0] * last.row[4];  // u . e_theta
  out[2] = last.row[5];
  out[3] = er[0] * last.row[6] + er[1] * last.row[7];  // w . e_rho
  out[4] = last.row[2];
}

double cylinder_jacobian_mismatch(double t_max, double g) {
  constexpr double h = 1e-6;
  json base = cylinder_config();
  base["parameters"]["g"] = g;
  double ref[5];
  cylinder_end(base, t_max, 0, 0.0, 0.0, ref);
  const double rho = 0.8, theta_ref = ref[0] / rho;
  double worst = 0.0, scale = 0.0;
  for (int i = 0; i < 5; ++i) {
    double fp[5], fm[5], e[5] = {}, d[5], unused[5];
    e[i] = 1.0;
    cylinder_end(base, t_max, i, h, theta_ref, fp);
    cylinder_end(base, t_max, i, -h, theta_ref, fm);
    cylinder_end(base, t_max, 0, 0.0, theta_ref, unused, nullptr, e, d);
    for (int k = 0; k < 5; ++k) {
      const double fd = (fp[k] - fm[k]) / (2.0 * h);
      worst = std::fmax(worst, std::fabs(d[k] - fd));
      scale = std::fmax(scale, std::fabs(fd));
    }
  }
  return worst / scale;
}

TEST(InsideCylinderTangent, MatchesFiniteDifferencesOfTheTrajectory) {
  for (double g : {0.0, 1.0}) {
    const double mismatch = cylinder_jacobian_mismatch(25.3, g);  // about six turns
    std::cout << "roll3:inside-cylinder, g " << g << ", t 25.3: relative mismatch " << mismatch << "\n";
    EXPECT_LT(mismatch, kJacobianTolerance) << g;
  }
}

TEST(InsideCylinderLyapunov, AgreesWithTwoNeighbouringTrajectories) {
  constexpr double kEps = 1e-9, t = 100.0;
  double a[5], b[5];
  TrajectoryResult r;
  const double uniform[5] = {1 / std::sqrt(5.0), 1 / std::sqrt(5.0), 1 / std::sqrt(5.0), 1 / std::sqrt(5.0), 1 / std::sqrt(5.0)};
  double d[5];
  cylinder_end(cylinder_config(), t, 0, 0.0, 0.0, a, &r, uniform, d);
  // the neighbour along the uniform vector: every start key moved by eps / sqrt(5)
  json j = cylinder_config();
  const double e = kEps / std::sqrt(5.0), rho = 0.8;
  j["initial"]["angle"] = j["initial"]["angle"].get<double>() + e / rho;
  for (const char* k : {"v1", "v2", "spin", "z"}) j["initial"][k] = j["initial"][k].get<double>() + e;
  cylinder_end(j, t, 0, 0.0, a[0] / rho, b);
  double n2 = 0.0;
  for (int k = 0; k < 5; ++k) n2 += (b[k] - a[k]) * (b[k] - a[k]);
  const double two = std::log(std::sqrt(n2) / kEps) / t;
  std::cout << "roll3:inside-cylinder: lyapunov " << r.lyapunov << " (per turn " << r.lyapunov_per_event
            << "), two trajectories " << two << "\n";
  EXPECT_NEAR(r.lyapunov, two, kTwoTrajectoryTolerance);
}

TEST(InsideCylinderLyapunov, DecaysLikeLogTOverTAndLikeOneOverTWithoutASpeedChange) {
  const double no_speed[5] = {0.5, 0.0, 0.5, 0.5, 0.5};
  double lo_lin = INFINITY, hi_lin = -INFINITY, lo_b = INFINITY, hi_b = -INFINITY;
  for (double t : {1e2, 1e3, 1e4, 1e5}) {
    json j = cylinder_config();
    j["stop"]["t_max"] = t;
    const RunConfig rc = config(j);
    DiscardSink sink;
    const TrajectoryResult generic = simulate_roll3_inside_cylinder_lyapunov(rc.spec, scan_point(rc.spec, 0), sink);
    const TrajectoryResult bounded =
        simulate_roll3_inside_cylinder_lyapunov(rc.spec, scan_point(rc.spec, 0), sink, no_speed);
    std::cout << "roll3:inside-cylinder: t " << t << " lyapunov " << generic.lyapunov << " (t lambda - log t "
              << generic.lyapunov * t - std::log(t) << "), with dv1 = 0 " << bounded.lyapunov << " (t lambda "
              << bounded.lyapunov * t << ")\n";
    lo_lin = std::fmin(lo_lin, generic.lyapunov * t - std::log(t));
    hi_lin = std::fmax(hi_lin, generic.lyapunov * t - std::log(t));
    lo_b = std::fmin(lo_b, bounded.lyapunov * t);
    hi_b = std::fmax(hi_b, bounded.lyapunov * t);
  }
  EXPECT_LT(hi_lin - lo_lin, kDecayBand);
  EXPECT_LT(hi_b - lo_b, kDecayBand);
}

// ---- every model: the scan ------------------------------------------------------------------

json scan_config(json j, const json& observables) {
  j["initial"].erase("v2");
  j["scan"] = {{"type", "grid"}, {"axes", {{{"param", "v2"}, {"min", -0.5}, {"max", 0.5}, {"n", 5}}}}};
  j["stop"]["t_max"] = 50.0;
  if (!observables.is_null()) j["observables"] = observables;
  return j;
}

TEST(ClosedFormLyapunov, RequestingItLeavesTheOtherObservablesBitIdentical) {
  for (const json& base : {strip_config(), planes_config(), cylinder_config()}) {
    SCOPED_TRACE(base["system"].get<std::string>());
    const RunConfig plain = config(scan_config(base, nullptr));
    json with = plain.observables;
    with.push_back("lyapunov");
    with.push_back("lyapunov_per_event");
    const RunConfig lyap = config(scan_config(base, with));
    EXPECT_EQ(lyap.spec.lyapunov_vectors, 1);
    const std::uint64_t n = 5;
    std::vector<TrajectoryResult> a(n), b(n);
    cpu::run_chunk(plain.spec, 0, n, a.data());
    cpu::run_chunk(lyap.spec, 0, n, b.data());
    for (std::uint64_t i = 0; i < n; ++i) {
      EXPECT_GT(b[i].events, 0u) << i;
      EXPECT_TRUE(std::isfinite(b[i].lyapunov)) << i;
      EXPECT_TRUE(std::isnan(a[i].lyapunov)) << i;
      b[i].lyapunov = a[i].lyapunov;
      b[i].lyapunov_per_event = a[i].lyapunov_per_event;
      EXPECT_EQ(std::memcmp(&a[i], &b[i], sizeof(TrajectoryResult)), 0) << i;
    }
  }
}

TEST(ClosedFormLyapunovConfig, FloatIsRefused) {
  for (json j : {strip_config(), planes_config(), cylinder_config()}) {
    j["observables"] = {"lyapunov"};
    j["options"] = {{"precision", "float"}};
    std::string err;
    try {
      config(j);
    } catch (const ConfigError& e) {
      err = e.what();
    }
    EXPECT_NE(err.find("float"), std::string::npos) << err;
  }
}

}  // namespace
