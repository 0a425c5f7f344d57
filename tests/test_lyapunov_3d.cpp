// The largest Lyapunov exponent of the 3D no-slip models, the sphere and the cylinders
// cylinder:<table> (include/skipstone/tangent/collision3d.hpp): the tangent map against finite
// differences of the real map on the same trajectory, with and without the wall's shape
// operator; the exponent against two neighbouring trajectories; the integrable cases (sphere
// without gravity, cylinder:disc) -> 0; the mirror symmetry; a cylinder's exponent equal to its
// cross-section's 2D one (the axial motion decouples); the config of the observables.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "config.hpp"
#include "config_error.hpp"
#include "skipstone/noslip_model.hpp"
#include "skipstone/simulate.hpp"
#include "raw_jacobian.hpp"

namespace {

using namespace skipstone;

constexpr int kDim = kPhaseDim3D;

template <bool kGravity, class Tangent, class Table>
auto run_from(const Table& table, double gamma, double g, const double z[kDim], double t_max, bool drop_shape = false) {
  return run_flow<Vec3, kGravity, Tangent>(table, gamma, g, z, t_max, drop_shape);
}

template <class Stepper>
void final_state(const Stepper& s, double out[kDim]) {
  PhaseSpace<Vec3>::point(s, out);
}

template <bool kGravity, class Table>
double jacobian_mismatch(const Table& table, double gamma, double g, const double z[kDim], double t_max,
                         bool drop_shape, std::uint64_t* impacts) {
  return flow_jacobian_mismatch<Vec3, kGravity>(table, gamma, g, z, t_max, drop_shape, impacts);
}

// Central differences of step 1e-7 on flows of O(10) impacts: truncation ~1e-12, rounding ~1e-8.
constexpr double kJacobianTolerance = 1e-5;
// Dropping the shape operator changes the Jacobian by O(1) on a curved wall.
constexpr double kShapeEffect = 1e-2;

// |u| = 1 with an axial part, a spin with all three components.
const double kStart[kDim] = {0.31, 0.17, 0.05, 0.48, 0.64, 0.6, 0.2, -0.15, 0.35};

template <class Section>
CylinderTable<Section> cyl(const Section& s) {
  return CylinderTable<Section>{s};
}

PolygonTable unit_square() {
  PolygonTable square{};
  square.n = 4;
  square.v[0] = {-1.0, -1.0};
  square.v[1] = {1.0, -1.0};
  square.v[2] = {1.0, 1.0};
  square.v[3] = {-1.0, 1.0};
  square.diameter = std::sqrt(8.0);
  square.corner_tol = 1e-9;
  return square;
}

TEST(Lyapunov3DTangent, MatchesFiniteDifferencesOfTheFlowInTheSphereAndEveryCylinder) {
  std::uint64_t n = 0;
  const double off_scatterer[kDim] = {0.41, 0.13, 0.05, 0.48, 0.64, 0.6, 0.2, -0.15, 0.35};
  for (double gamma : {0.0, 0.8165}) {
    SCOPED_TRACE("gamma " + std::to_string(gamma));
    EXPECT_LT(jacobian_mismatch<false>(SphereTable{1.0}, gamma, 0.0, kStart, 6.0, false, &n), kJacobianTolerance);
    EXPECT_GE(n, 2u);
    EXPECT_LT(jacobian_mismatch<true>(SphereTable{1.0}, gamma, 0.5, kStart, 6.0, false, &n), kJacobianTolerance);
    EXPECT_GE(n, 2u);
    EXPECT_LT(jacobian_mismatch<false>(cyl(StadiumTable{1.0, 1.0}), gamma, 0.0, kStart, 6.0, false, &n),
              kJacobianTolerance);
    EXPECT_GE(n, 2u);
    EXPECT_LT(jacobian_mismatch<true>(cyl(StadiumTable{1.0, 1.0}), gamma, 0.4, kStart, 6.0, false, &n),
              kJacobianTolerance);
    EXPECT_GE(n, 2u);
    EXPECT_LT(jacobian_mismatch<false>(cyl(EllipseTable{2.0, 1.0}), gamma, 0.0, kStart, 6.0, false, &n),
              kJacobianTolerance);
    EXPECT_GE(n, 2u);
    EXPECT_LT(jacobian_mismatch<true>(cyl(DiscTable{1.0}), gamma, 0.5, kStart, 6.0, false, &n), kJacobianTolerance);
    EXPECT_GE(n, 2u);
    EXPECT_LT(jacobian_mismatch<false>(cyl(SinaiTable{1.0, 0.25}), gamma, 0.0, off_scatterer, 6.0, false, &n),
              kJacobianTolerance);
    EXPECT_GE(n, 2u);
    EXPECT_LT(jacobian_mismatch<true>(cyl(unit_square()), gamma, 0.3, kStart, 6.0, false, &n), kJacobianTolerance);
    EXPECT_GE(n, 2u);
    EXPECT_LT(jacobian_mismatch<true>(cyl(StripTable{1.0}), gamma, 1.0, kStart, 8.0, false, &n), kJacobianTolerance);
    EXPECT_GE(n, 2u);
  }
}

TEST(Lyapunov3DTangent, FailsWithoutTheWallsShapeOperator) {
  std::uint64_t n = 0;
  for (double gamma : {0.0, 0.8165}) {
    EXPECT_GT(jacobian_mismatch<false>(SphereTable{1.0}, gamma, 0.0, kStart, 6.0, true, &n), kShapeEffect);
    EXPECT_GT(jacobian_mismatch<false>(cyl(StadiumTable{1.0, 1.0}), gamma, 0.0, kStart, 6.0, true, &n), kShapeEffect);
  }
}

// Mirror x -> -x of the 3D phase space: positions and velocities are polar vectors, the spin an
// axial one (w -> (w_x, -w_y, -w_z)). The sphere and the stadium cylinder are symmetric under
// it, so the Jacobian of the mirrored trajectory is M J M; the exponents of mirrored initial
// conditions are then those of the same Jacobian's singular values (kMirrorTolerance: the
// rounding of O(10) impacts, relative).
constexpr double kMirrorTolerance = 1e-9;
const double kMirror[kDim] = {-1, 1, 1, -1, 1, 1, 1, -1, -1};

template <bool kGravity, class Table>
double mirror_mismatch(const Table& table, double gamma, double g) {
  double zm[kDim];
  for (int i = 0; i < kDim; ++i) zm[i] = kMirror[i] * kStart[i];
  const auto a = run_from<kGravity, RawJacobian3D>(table, gamma, g, kStart, 6.0);
  const auto b = run_from<kGravity, RawJacobian3D>(table, gamma, g, zm, 6.0);
  EXPECT_EQ(a.events, b.events);
  double worst = 0.0;
  for (int j = 0; j < kDim; ++j)
    for (int i = 0; i < kDim; ++i) {
      const double ja = kMirror[i] * component(a.tangent.v[j], i) * kMirror[j];
      worst = std::fmax(worst, std::fabs(ja - component(b.tangent.v[j], i)) / std::fmax(1.0, std::fabs(ja)));
    }
  return worst;
}

TEST(Lyapunov3DSymmetry, TheMirroredTrajectoryHasTheMirroredJacobian) {
  for (double gamma : {0.0, 0.8165}) {
    EXPECT_LT(mirror_mismatch<true>(SphereTable{1.0}, gamma, 0.5), kMirrorTolerance);
    EXPECT_LT(mirror_mismatch<true>(cyl(StadiumTable{1.0, 1.0}), gamma, 0.4), kMirrorTolerance);
  }
}

// The exponents of one trajectory of a config run to completion (the kernel's own function).
TrajectoryResult run_config(const std::string& text) {
  const RunConfig rc = parse_config_text(text);
  DiscardSink sink;
  return simulate_trajectory(rc.spec, 0, sink);
}

std::string config_3d(const std::string& system, const std::string& parameters, double t_max,
                      const std::string& observable = "lyapunov") {
  return R"({"system": ")" + system + R"(", "parameters": {)" + parameters + R"(},
    "initial": {"start": "interior", "x": 0.31, "y": 0.17, "z": 0.05, "vx": 0.48, "vy": 0.64, "vz": 0.6,
                "wx": 0.2, "wy": -0.15, "wz": 0.35},
    "stop": {"t_max": )" + std::to_string(t_max) + R"(}, "observables": [")" + observable + R"("]})";
}

// Benettin's two-trajectory estimate (as in the 2D test): a neighbour at distance eps along
// the first tangent vector, both flows restarted every unit of time from their states, the
// separation measured and moved back to eps along itself; over t = 30 it gives the tangent
// exponent to O(eps) (kTwoTrajectoryTolerance).
constexpr double kTwoTrajectoryTolerance = 1e-4;
template <bool kGravity, class Table>
void expect_two_trajectory_agreement(const Table& table, double gamma, double g, double min_exponent) {
  constexpr double kEps = 1e-8, kHorizon = 30.0;
  LyapunovFrame3D frame;
  frame.start(Vec3{}, State3D{{kStart[3], kStart[4], kStart[5]}, {kStart[6], kStart[7], kStart[8]}},
              kGravity ? g : 0.0, 1);
  double z[kDim], d[kDim];
  for (int i = 0; i < kDim; ++i) {
    z[i] = kStart[i];
    d[i] = component(frame.v[0], i);
  }
  double log_sum = 0.0;
  for (int step = 0; step < static_cast<int>(kHorizon); ++step) {
    double zp[kDim], fz[kDim], fp[kDim];
    for (int i = 0; i < kDim; ++i) zp[i] = z[i] + kEps * d[i];
    const auto a = run_from<kGravity, NoTangent>(table, gamma, g, z, 1.0);
    final_state(a, fz);
    final_state(run_from<kGravity, NoTangent>(table, gamma, g, zp, 1.0), fp);
    double norm2 = 0.0;
    for (int i = 0; i < kDim; ++i) {
      d[i] = (fp[i] - fz[i]) / kEps;
      norm2 += d[i] * d[i];
    }
    log_sum += 0.5 * std::log(norm2);
    for (int i = 0; i < kDim; ++i) {
      d[i] /= std::sqrt(norm2);
      z[i] = fz[i];
    }
  }
  const auto tangent = run_from<kGravity, LyapunovFrame3D>(table, gamma, g, kStart, kHorizon);
  TrajectoryResult r = empty_result();
  tangent.tangent.write(r, tangent.t, tangent.events);
  EXPECT_NEAR(r.lyapunov, log_sum / kHorizon, kTwoTrajectoryTolerance);
  EXPECT_GT(r.lyapunov, min_exponent);
}

TEST(Lyapunov3DLargest, AgreesWithTwoNeighbouringTrajectories) {
  for (double gamma : {0.0, 0.8165}) {
    SCOPED_TRACE("gamma " + std::to_string(gamma));
    // the stadium separates them: the comparison is not 0 = 0
    expect_two_trajectory_agreement<false>(cyl(StadiumTable{1.0, 1.0}), gamma, 0.0, 0.05);
    expect_two_trajectory_agreement<true>(cyl(StadiumTable{1.0, 1.0}), gamma, 0.4, 0.05);
    expect_two_trajectory_agreement<true>(SphereTable{1.0}, gamma, 0.5, -1.0);
  }
}

// Integrable cases: the sphere without gravity (the invariant K = x ^ u - gamma R w and the
// energy: the orbit stays on an annulus, Figure 6) and cylinder:disc (the cross-section is the
// integrable disc, the axial motion decouples: below). A tangent vector grows at most
// polynomially, so the finite-time exponent decays like log(t)/t: lambda(t) <= kIntegrableBound
// log(t)/t at t = 1e2, 1e3, 1e4 (R = 1, unit speed).
TEST(Lyapunov3DIntegrable, SphereAndDiscCylinderDecayLikeLogTOverT) {
  constexpr double kIntegrableBound = 3.0;
  for (const char* gamma : {"0.0", "0.8165"}) {
    SCOPED_TRACE(std::string("gamma ") + gamma);
    for (double t : {1e2, 1e3, 1e4}) {
      for (const char* system : {"sphere", "cylinder:disc"}) {
        const TrajectoryResult r = run_config(config_3d(system, std::string(R"("R": 1.0, "gamma": )") + gamma, t));
        ASSERT_EQ(r.status, Status::finished) << system;
        EXPECT_LE(r.lyapunov, kIntegrableBound * std::log(t) / t) << system << ", t = " << t;
        EXPECT_GE(r.lyapunov, 0.0) << system;
      }
    }
  }
}

// In a cylinder the cross-section motion (x, y, u_x, u_y, w_z) is the 2D table's on its own:
// collision times depend on it only, and the collision maps it by the 2D map (collision.hpp),
// while the axial part (z, u_z, w_x, w_y) follows, its (u_z, w_x, w_y) turned orthogonally at
// each impact (|u_z|^2 + |w_h|^2 is conserved) and z moved by u_z (and gravity). So the
// Jacobian of the flow is block-triangular: on the cross-section block the 2D table's Jacobian
// of the same cross-section motion, no dependence of the cross-section on the axial part, and
// an orthogonal (u_z, w_x, w_y) block. The largest exponent of cylinder:<table> is then the 2D
// table's for the same cross-section motion (the axial block's exponents are 0), with or without
// gravity. Checked on the Jacobians over t = 30 (the 3D and 2D runs round differently, so their
// chaotic trajectories part after a few hundred units of time and their long-run finite-time
// exponents differ by the fluctuations of two different trajectories; over t = 30 they agree to
// rounding): kBlockTolerance relative.
constexpr double kBlockTolerance = 1e-7;
TEST(Lyapunov3DCylinder, TheCrossSectionBlockIsThe2DTablesJacobian) {
  const int h[5] = {0, 1, 3, 4, 8};  // x, y, u_x, u_y, w_z in the 3D components
  const int axial_velocity[3] = {5, 6, 7};  // u_z, w_x, w_y
  const StadiumTable stadium{1.0, 1.0};
  const double z2[kPhaseDim2D] = {kStart[0], kStart[1], kStart[3], kStart[4], kStart[8]};
  for (double gamma : {0.0, 0.8165}) {
    for (double g : {0.0, 0.4}) {
      SCOPED_TRACE("gamma " + std::to_string(gamma) + ", g " + std::to_string(g));
      const auto a = run_from<true, RawJacobian3D>(cyl(stadium), gamma, g, kStart, 30.0);
      NoSlipStepper<StadiumTable, Vec2, State2D, false, RawJacobian2D> b;
      DiscardSink sink;
      b.start(stadium, noslip_coefficients(gamma), 0.0, {{z2[0], z2[1]}, {{z2[2], z2[3]}, z2[4]}, -1, false, {}},
              tangent_horizon(30.0), sink);
      while (b.step(sink)) {
      }
      ASSERT_EQ(a.events, b.events);
      ASSERT_GE(a.events, 10u);
      double worst = 0.0, largest = 0.0;
      for (int i = 0; i < 5; ++i) {
        for (int j = 0; j < 5; ++j) {
          const double j2 = component(b.tangent.v[j], i);
          worst = std::fmax(worst, std::fabs(component(a.tangent.v[h[j]], h[i]) - j2) / std::fmax(1.0, std::fabs(j2)));
          largest = std::fmax(largest, std::fabs(j2));
        }
        for (int j : {2, 5, 6, 7}) worst = std::fmax(worst, std::fabs(component(a.tangent.v[j], h[i])));
      }
      EXPECT_LT(worst, kBlockTolerance);
      EXPECT_GT(largest, 100.0);  // the stadium's Jacobian has grown: the comparison is not 1 = 1
      for (int i : axial_velocity)
        for (int j : axial_velocity) {
          double gram = 0.0;
          for (int k : axial_velocity) gram += component(a.tangent.v[i], k) * component(a.tangent.v[j], k);
          EXPECT_NEAR(gram, i == j ? 1.0 : 0.0, kBlockTolerance) << i << ", " << j;
        }
    }
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

TEST(Lyapunov3DConfig, TheSpectrumStaysWithThe2DTables) {
  EXPECT_EQ(parse_config_text(config_3d("cylinder:stadium", R"("gamma": 0.5)", 10.0)).spec.lyapunov_vectors, 1);
  EXPECT_EQ(parse_config_text(config_3d("sphere", R"("gamma": 0.5)", 10.0, "lyapunov_per_event")).spec.lyapunov_vectors,
            1);
  const std::string e = rejection(config_3d("sphere", R"("gamma": 0.5)", 10.0, "lyapunov_spectrum"));
  EXPECT_NE(e.find("not an observable of system sphere"), std::string::npos) << e;
  EXPECT_NE(e.find("disc, strip, stadium, rectangle, polygon, ellipse and sinai"), std::string::npos) << e;
}

}  // namespace
