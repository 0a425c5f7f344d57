// The Lyapunov exponents of the 2D no-slip tables (include/skipstone/tangent/): the tangent map
// against finite differences of the real map on the same trajectory, with and without the
// curvature term; the largest exponent against two neighbouring trajectories; the circular disc
// (exponent -> 0 like log(t)/t); the specular Sinai billiard against Dahlqvist's asymptotic
// formula; the specular stadium's axis orbit against the two-mirror resonator; the structure of
// the spectrum; the config errors of the observables.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "config.hpp"
#include "config_error.hpp"
#include "skipstone/noslip_model.hpp"
#include "skipstone/simulate.hpp"
#include "raw_jacobian.hpp"

namespace {

using namespace skipstone;

template <bool kGravity, class Tangent, class Table>
auto run_from(const Table& table, double gamma, double g, const double z[kPhaseDim2D], double t_max,
              bool drop_curvature = false) {
  return run_flow<Vec2, kGravity, Tangent>(table, gamma, g, z, t_max, drop_curvature);
}

template <class Stepper>
void final_state(const Stepper& s, double out[kPhaseDim2D]) {
  PhaseSpace<Vec2>::point(s, out);
}

template <bool kGravity, class Table>
double jacobian_mismatch(const Table& table, double gamma, double g, const double z[kPhaseDim2D], double t_max,
                         bool drop_curvature, std::uint64_t* impacts) {
  return flow_jacobian_mismatch<Vec2, kGravity>(table, gamma, g, z, t_max, drop_curvature, impacts);
}

// Central differences of step 1e-7 on flows of O(10) impacts: truncation ~1e-12, rounding ~1e-8.
constexpr double kJacobianTolerance = 1e-5;
// Dropping the curvature term changes the Jacobian by O(1) on a curved wall.
constexpr double kCurvatureEffect = 1e-2;

const double kStart[kPhaseDim2D] = {0.31, 0.17, 0.6, 0.8, 0.35};  // |u| = 1, spin 0.35

TEST(LyapunovTangent, MatchesFiniteDifferencesOfTheFlowOnEveryTable) {
  std::uint64_t n = 0;
  for (double gamma : {0.0, 0.8165}) {
    SCOPED_TRACE("gamma " + std::to_string(gamma));
    EXPECT_LT(jacobian_mismatch<false>(StadiumTable{1.0, 1.0}, gamma, 0.0, kStart, 6.0, false, &n), kJacobianTolerance);
    EXPECT_GE(n, 2u);
    EXPECT_LT(jacobian_mismatch<true>(StadiumTable{1.0, 1.0}, gamma, 0.4, kStart, 6.0, false, &n), kJacobianTolerance);
    EXPECT_GE(n, 2u);
    EXPECT_LT(jacobian_mismatch<false>(EllipseTable{2.0, 1.0}, gamma, 0.0, kStart, 6.0, false, &n), kJacobianTolerance);
    EXPECT_GE(n, 2u);
    EXPECT_LT(jacobian_mismatch<true>(DiscTable{1.0}, gamma, 0.5, kStart, 6.0, false, &n), kJacobianTolerance);
    EXPECT_GE(n, 2u);
    const double off_scatterer[kPhaseDim2D] = {0.41, 0.13, 0.6, 0.8, 0.35};
    EXPECT_LT(jacobian_mismatch<false>(SinaiTable{1.0, 0.25}, gamma, 0.0, off_scatterer, 4.0, false, &n),
              kJacobianTolerance);
    EXPECT_GE(n, 2u);
    PolygonTable square{};
    square.n = 4;
    square.v[0] = {-1.0, -1.0};
    square.v[1] = {1.0, -1.0};
    square.v[2] = {1.0, 1.0};
    square.v[3] = {-1.0, 1.0};
    square.diameter = std::sqrt(8.0);
    square.corner_tol = 1e-9;
    EXPECT_LT(jacobian_mismatch<true>(square, gamma, 0.3, kStart, 6.0, false, &n), kJacobianTolerance);
    EXPECT_GE(n, 2u);
    EXPECT_LT(jacobian_mismatch<true>(StripTable{1.0}, gamma, 1.0, kStart, 4.0, false, &n), kJacobianTolerance);
    EXPECT_GE(n, 2u);
  }
}

TEST(LyapunovTangent, FailsWithoutTheCurvatureTerm) {
  std::uint64_t n = 0;
  for (double gamma : {0.0, 0.8165}) {
    EXPECT_GT(jacobian_mismatch<false>(StadiumTable{1.0, 1.0}, gamma, 0.0, kStart, 6.0, true, &n), kCurvatureEffect);
    EXPECT_GT(jacobian_mismatch<false>(DiscTable{1.0}, gamma, 0.0, kStart, 6.0, true, &n), kCurvatureEffect);
    const double off_scatterer[kPhaseDim2D] = {0.41, 0.13, 0.6, 0.8, 0.35};
    EXPECT_GT(jacobian_mismatch<false>(SinaiTable{1.0, 0.25}, gamma, 0.0, off_scatterer, 4.0, true, &n),
              kCurvatureEffect);
  }
}

// The exponents of one trajectory of a config run to completion (the kernel's own function).
TrajectoryResult run_config(const std::string& text, std::uint64_t index = 0) {
  const RunConfig rc = parse_config_text(text);
  DiscardSink sink;
  return simulate_trajectory(rc.spec, index, sink);
}

std::string interior_config(const std::string& system, const std::string& parameters, double t_max,
                            const std::string& observable = "lyapunov_spectrum", const std::string& start = "") {
  return R"({"system": ")" + system + R"(", "parameters": {)" + parameters + R"(},
    "initial": {"start": "interior", )" + (start.empty() ? R"("x": 0.31, "y": 0.17, "angle": 0.927295218, "spin": 0.35)" : start) +
         R"(}, "stop": {"t_max": )" + std::to_string(t_max) + R"(}, "observables": [")" + observable + R"("]})";
}

// Benettin's two-trajectory estimate: a neighbour at distance eps along the first tangent
// vector, both flows restarted every unit of time from their states, the separation measured
// and moved back to eps along itself. Over t = 30 (rounding differences between the restarted
// and the continuous run stay below 1e-9) it gives the tangent exponent to O(eps).
TEST(LyapunovLargest, AgreesWithTwoNeighbouringTrajectories) {
  constexpr double kEps = 1e-8, kHorizon = 30.0, kTolerance = 1e-4;
  for (double gamma : {0.0, 0.8165}) {
    SCOPED_TRACE("gamma " + std::to_string(gamma));
    const StadiumTable table{1.0, 1.0};
    LyapunovFrame2D frame;
    const State2D st0{{kStart[2], kStart[3]}, kStart[4]};
    frame.start(Vec2{kStart[0], kStart[1]}, st0, 0.0, 1);
    double z[kPhaseDim2D], d[kPhaseDim2D];
    for (int i = 0; i < kPhaseDim2D; ++i) {
      z[i] = kStart[i];
      d[i] = component(frame.v[0], i);
    }
    double log_sum = 0.0;
    for (int step = 0; step < static_cast<int>(kHorizon); ++step) {
      double zp[kPhaseDim2D], fz[kPhaseDim2D], fp[kPhaseDim2D];
      for (int i = 0; i < kPhaseDim2D; ++i) zp[i] = z[i] + kEps * d[i];
      final_state(run_from<false, NoTangent>(table, gamma, 0.0, z, 1.0), fz);
      final_state(run_from<false, NoTangent>(table, gamma, 0.0, zp, 1.0), fp);
      double norm2 = 0.0;
      for (int i = 0; i < kPhaseDim2D; ++i) {
        d[i] = (fp[i] - fz[i]) / kEps;
        norm2 += d[i] * d[i];
      }
      log_sum += 0.5 * std::log(norm2);
      for (int i = 0; i < kPhaseDim2D; ++i) {
        d[i] /= std::sqrt(norm2);
        z[i] = fz[i];
      }
    }
    const auto tangent = run_from<false, LyapunovFrame2D>(table, gamma, 0.0, kStart, kHorizon);
    TrajectoryResult r = empty_result();
    tangent.tangent.write(r, tangent.t, tangent.events);
    EXPECT_NEAR(r.lyapunov, log_sum / kHorizon, kTolerance);
    EXPECT_GT(r.lyapunov, 0.05);  // the stadium separates them: the comparison is not 0 = 0
  }
}

// The circular disc is integrable (specular: the angular momentum; no-slip: the orbits are
// periodic or quasi-periodic, Section 3): a tangent vector grows at most linearly, so the
// finite-time exponent decays like log(t)/t. Bound: lambda(t) <= kDiscBound log(t)/t at
// t = 1e2, 1e3, 1e4 (R = 1, unit speed: measured ratios about 0.7).
TEST(LyapunovDisc, DecaysLikeLogTOverT) {
  constexpr double kDiscBound = 2.0;
  for (const char* gamma : {"0.0", "0.8165"}) {
    SCOPED_TRACE(std::string("gamma ") + gamma);
    for (double t : {1e2, 1e3, 1e4}) {
      const TrajectoryResult r = run_config(interior_config("disc", std::string(R"("R": 1.0, "gamma": )") + gamma, t));
      ASSERT_EQ(r.status, Status::finished);
      EXPECT_LE(r.lyapunov, kDiscBound * std::log(t) / t) << "t = " << t;
      EXPECT_GE(r.lyapunov, 0.0);
    }
  }
}

// Spectrum structure. Flights are volume-preserving in (x, u, s) (x' = u, u' = a) and the
// collision map preserves the flux form |u . nu| dA ds du: the impact point and the speed
// normal to the wall change sign only, and C_nu is orthogonal in (u, s) for each nu. So the flow
// preserves the 5D volume, the Jacobian over the run has determinant 1, and the exponents of
// the five QR vectors sum to 0 at every finite time, up to rounding (kSumTolerance). The energy
// E is conserved: dE is carried to itself, one exponent of the quotient by the energy shell is
// 0, and the flow direction gives another 0. For gamma = 0 the spin decouples (s -> -s) and
// gives a third 0, and the (x, u) flow is symplectic: lambda_1 = -lambda_5 (pairs), the middle
// three -> 0 like log(t)/t.
constexpr double kSumTolerance = 1e-12;
TEST(LyapunovSpectrum, SumsToZeroAndPairsInTheSpecularLimit) {
  for (const char* gamma : {"0.0", "0.8165"}) {
    for (const char* g : {"0.0", "0.4"}) {
      SCOPED_TRACE(std::string("gamma ") + gamma + ", g " + g);
      const TrajectoryResult r = run_config(interior_config(
          "stadium", std::string(R"("half_length": 1.0, "R": 1.0, "gamma": )") + gamma + R"(, "g": )" + g, 2000.0));
      ASSERT_EQ(r.status, Status::finished);
      double sum = 0.0;
      for (double l : r.lyapunov_spectrum) sum += l;
      EXPECT_NEAR(sum, 0.0, kSumTolerance);
      EXPECT_EQ(r.lyapunov_spectrum[0], r.lyapunov);  // the first QR vector is the single vector
      EXPECT_GT(r.lyapunov_spectrum[0], 0.05);
      for (int i = 1; i < 4; ++i) EXPECT_LT(std::fabs(r.lyapunov_spectrum[i]), 0.1 * r.lyapunov_spectrum[0]) << i;
      if (std::string(gamma) == "0.0") {
        EXPECT_NEAR(r.lyapunov_spectrum[0], -r.lyapunov_spectrum[4], 0.01);
      }
    }
  }
}

// Dahlqvist, "The Lyapunov exponent in the Sinai billiard in the small scatterer limit",
// arXiv:chao-dyn/9601007 (1996): for the disc of radius R at the centre of the unit square (the
// `sinai` table with side 1, radius R: every impact is a disc-to-disc step) the exponent of the
// disc-to-disc map is  -2 log R + C + O(R log^2 R),  C = 1 - 4 log 2 + 27 zeta(3) / (2 pi^2).
// skipstone's per-impact exponent (lyapunov_per_event) is that map's: averaged over 16
// trajectories of 20000 impacts at R = 0.02 it is 7.717 (formula 7.696; at R = 0.05 5.917
// against 5.863), within kSinaiTolerance = R log^2 R / 2 = 0.15 of the formula. A tangent map
// without the curvature term gives 0 here.
TEST(LyapunovSinai, SpecularMatchesDahlqvistsSmallScattererFormula) {
  constexpr double R = 0.02;
  const double zeta3 = 1.2020569031595942;
  const double C = 1.0 - 4.0 * std::log(2.0) + 27.0 * zeta3 / (2.0 * kPi * kPi);
  const double expected = -2.0 * std::log(R) + C;
  const double kSinaiTolerance = 0.5 * R * std::log(R) * std::log(R);
  const std::string text = R"({"system": "sinai", "parameters": {"side": 1.0, "radius": 0.02, "gamma": 0.0},
    "initial": {"start": "boundary", "speed": 1.0},
    "scan": {"type": "grid", "axes": [{"param": "boundary_s", "min": 0.0, "max": 0.9, "n": 4},
                                      {"param": "angle", "min": -1.2, "max": 1.3, "n": 4}]},
    "stop": {"t_max": 1e9, "max_events": 20000}, "observables": ["lyapunov_per_event"]})";
  const RunConfig rc = parse_config_text(text);
  DiscardSink sink;
  double sum = 0.0;
  for (std::uint64_t i = 0; i < rc.spec.count; ++i) {
    const TrajectoryResult r = simulate_trajectory(rc.spec, i, sink);
    ASSERT_EQ(r.status, Status::finished);
    sum += r.lyapunov_per_event;
  }
  EXPECT_NEAR(sum / static_cast<double>(rc.spec.count), expected, kSinaiTolerance);
}

// The specular stadium's period-2 orbit along its long axis (half_length a, caps of radius R):
// two circular mirrors at normal incidence a distance L = 2a + 2R apart, the optical resonator of
// Kogelnik and Li, "Laser beams and resonators", Appl. Opt. 5, 1550 (1966), with g = 1 - L/R;
// the orbit is unstable iff g^2 > 1 (here g = -1 - 2a/R), and in the stadium context Berry,
// Eur. J. Phys. 2, 91 (1981). Per bounce the transverse ray matrix is
// [[1, 0], [-2/R, 1]] [[1, L], [0, 1]] with trace 2g, so the orbit's exponent per impact is
// log |mu|, |mu| = |g| + sqrt(g^2 - 1), and per unit time (unit speed) log |mu| / L. A start on
// the axis stays on it exactly (the normals are (+-1, 0)), so the finite-time exponent tends to
// the orbit's like log|c| / N: kOrbitTolerance 2e-3 over 4000 impacts (measured 7.5e-5 at a = 1:
// 1.76267 against 1.76275).
TEST(LyapunovStadium, SpecularAxisOrbitMatchesTheTwoMirrorResonator) {
  constexpr double kOrbitTolerance = 2e-3;
  for (const double a : {1.0, 0.5, 2.0}) {
    SCOPED_TRACE("half_length " + std::to_string(a));
    constexpr double R = 1.0;
    const double L = 2.0 * a + 2.0 * R, g = 1.0 - L / R;
    const double per_impact = std::log(std::fabs(g) + std::sqrt(g * g - 1.0));
    const double t_max = 4000.0 * L;  // impacts at (k - 1/2) L: 4000, stopped between two of them
    const TrajectoryResult r = run_config(
        interior_config("stadium", "\"half_length\": " + std::to_string(a) + R"(, "R": 1.0, "gamma": 0.0)", t_max,
                        "lyapunov", R"("x": 0.0, "y": 0.0, "angle": 0.0, "spin": 0.0)"));
    ASSERT_EQ(r.status, Status::finished);
    ASSERT_EQ(r.events, 4000u);
    EXPECT_NEAR(r.lyapunov_per_event, per_impact, kOrbitTolerance);
    EXPECT_NEAR(r.lyapunov, per_impact / L, kOrbitTolerance / L);
  }
}

std::string rejection(const std::string& text) {
  try {
    parse_config_text(text);
  } catch (const ConfigError& e) {
    return std::string(e.key()) + ": " + e.what();
  }
  ADD_FAILURE() << "accepted:\n" << text;
  return "";
}

TEST(LyapunovConfig, ModelsWithoutTangentDynamicsAreRejectedNamingTheSystemsThatHaveThem) {
  const std::string e = rejection(R"({"system": "driven:disk", "parameters": {"gamma": 1.0}, "stop": {"t_max": 10},
                                      "observables": ["lyapunov"]})");
  EXPECT_NE(e.find("observables[0]"), std::string::npos) << e;
  EXPECT_NE(e.find("\"lyapunov\" is not an observable of system driven:disk"), std::string::npos) << e;
  EXPECT_NE(e.find("disc, strip, stadium, rectangle, polygon, ellipse, sinai, sphere, cylinder:disc"), std::string::npos) << e;
  const std::string roll = rejection(R"({"system": "roll3:stadium", "parameters": {"r": 0.1, "gamma": 0.5}, "stop": {"t_max": 10},
                                         "observables": ["lyapunov_spectrum"]})");
  EXPECT_NE(roll.find("not an observable of system roll3:stadium"), std::string::npos) << roll;
  const std::string in_float = rejection(R"({"system": "disc", "parameters": {"gamma": 0.5}, "stop": {"t_max": 10},
                                             "options": {"precision": "float"}, "observables": ["lyapunov"]})");
  EXPECT_NE(in_float.find("double only"), std::string::npos) << in_float;
}

TEST(LyapunovConfig, TheExponentsAreOptIn) {
  const RunConfig plain = parse_config_text(R"({"system": "stadium", "parameters": {"gamma": 0.5}, "stop": {"t_max": 10}})");
  EXPECT_EQ(plain.spec.lyapunov_vectors, 0);
  for (const auto& name : plain.observables) EXPECT_EQ(name.find("lyapunov"), std::string::npos) << name;
  EXPECT_EQ(parse_config_text(interior_config("stadium", R"("gamma": 0.5)", 10.0, "lyapunov")).spec.lyapunov_vectors, 1);
  EXPECT_EQ(parse_config_text(interior_config("stadium", R"("gamma": 0.5)", 10.0)).spec.lyapunov_vectors, 5);
}

}  // namespace
