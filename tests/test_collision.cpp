// The no-slip collision map (Eq. (1)-(3)): involution, energy, identity on the rolling
// subspace, specular limit, and the fast 2D/3D kernels against the n-dimensional reference.
#include <gtest/gtest.h>

#include <random>

#include "reference_collision.hpp"
#include "skipstone/collision.hpp"

namespace skipstone {
namespace {

constexpr double kRoundOff = 1e-14;  // a few ulps of O(1) quantities

Eigen::MatrixXd skew2(double s) {
  Eigen::MatrixXd S(2, 2);
  S << 0.0, -s, s, 0.0;  // S = s J, J counterclockwise
  return S;
}
Eigen::MatrixXd skew3(Vec3 w) {
  Eigen::MatrixXd S(3, 3);
  S << 0.0, -w.z, w.y, w.z, 0.0, -w.x, -w.y, w.x, 0.0;  // S x = w x x
  return S;
}

struct Rng {
  std::mt19937_64 gen{12345};
  std::uniform_real_distribution<double> d{-1.0, 1.0};
  double operator()() { return d(gen); }
  Vec2 unit2() {
    const double a = 3.14159265358979 * d(gen);
    return {std::cos(a), std::sin(a)};
  }
  Vec3 unit3() {
    Vec3 v{d(gen), d(gen), d(gen)};
    return (1.0 / norm(v)) * v;
  }
};

TEST(Collision, TwoDMatchesReference) {
  Rng rng;
  for (int i = 0; i < 1000; ++i) {
    const double gamma = 2.0 * std::fabs(rng());
    const Vec2 nu = rng.unit2();
    const State2D in{{rng(), rng()}, rng()};
    const State2D out = noslip_collide(in, nu, noslip_coefficients(gamma));
    ReferenceState ref{skew2(in.s), Eigen::Vector2d(in.u.x, in.u.y)};
    const ReferenceState r = reference_collide(ref, Eigen::Vector2d(nu.x, nu.y), gamma);
    EXPECT_NEAR(out.u.x, r.u(0), kRoundOff);
    EXPECT_NEAR(out.u.y, r.u(1), kRoundOff);
    EXPECT_NEAR(out.s, r.S(1, 0), kRoundOff);
    EXPECT_NEAR(r.S(0, 1), -r.S(1, 0), kRoundOff);
  }
}

TEST(Collision, ThreeDMatchesReference) {
  Rng rng;
  for (int i = 0; i < 1000; ++i) {
    const double gamma = 2.0 * std::fabs(rng());
    const Vec3 nu = rng.unit3();
    const State3D in{{rng(), rng(), rng()}, {rng(), rng(), rng()}};
    const State3D out = noslip_collide(in, nu, noslip_coefficients(gamma));
    ReferenceState ref{skew3(in.w), Eigen::Vector3d(in.u.x, in.u.y, in.u.z)};
    const ReferenceState r = reference_collide(ref, Eigen::Vector3d(nu.x, nu.y, nu.z), gamma);
    const Eigen::MatrixXd S_out = skew3(out.w);
    EXPECT_LT((S_out - r.S).cwiseAbs().maxCoeff(), kRoundOff);
    EXPECT_NEAR(out.u.x, r.u(0), kRoundOff);
    EXPECT_NEAR(out.u.y, r.u(1), kRoundOff);
    EXPECT_NEAR(out.u.z, r.u(2), kRoundOff);
  }
}

TEST(Collision, ReferenceIsAnEnergyPreservingInvolutionInEveryDimension) {
  Rng rng;
  for (int n = 2; n <= 6; ++n) {
    for (int i = 0; i < 100; ++i) {
      const double gamma = 2.0 * std::fabs(rng());
      Eigen::VectorXd nu = Eigen::VectorXd::NullaryExpr(n, [&] { return rng(); });
      nu.normalize();
      Eigen::MatrixXd A = Eigen::MatrixXd::NullaryExpr(n, n, [&] { return rng(); });
      const ReferenceState in{A - A.transpose(), Eigen::VectorXd::NullaryExpr(n, [&] { return rng(); })};
      const ReferenceState once = reference_collide(in, nu, gamma);
      const ReferenceState twice = reference_collide(once, nu, gamma);
      EXPECT_NEAR(reference_energy(once), reference_energy(in), kRoundOff) << "n=" << n;
      EXPECT_LT((twice.S - in.S).cwiseAbs().maxCoeff(), 1e-13) << "n=" << n;
      EXPECT_LT((twice.u - in.u).cwiseAbs().maxCoeff(), 1e-13) << "n=" << n;
      EXPECT_LT((once.S + once.S.transpose()).cwiseAbs().maxCoeff(), kRoundOff) << "S stays skew";
      // rolling subspace u = r U nu = S nu / gamma (tangential) is fixed
      if (gamma > 0.1) {
        const Eigen::VectorXd u_roll = in.S * nu / gamma;
        const ReferenceState roll{in.S, u_roll};
        const ReferenceState r = reference_collide(roll, nu, gamma);
        EXPECT_LT((r.S - roll.S).cwiseAbs().maxCoeff(), 1e-13);
        EXPECT_LT((r.u - roll.u).cwiseAbs().maxCoeff(), 1e-13);
      }
    }
  }
}

TEST(Collision, FastMapsAreEnergyPreservingInvolutions) {
  Rng rng;
  for (int i = 0; i < 1000; ++i) {
    const NoSlipCoefficients k = noslip_coefficients(3.0 * std::fabs(rng()));
    const Vec2 nu2 = rng.unit2();
    const State2D a{{rng(), rng()}, rng()};
    const State2D b = noslip_collide(noslip_collide(a, nu2, k), nu2, k);
    const State2D once = noslip_collide(a, nu2, k);
    EXPECT_NEAR(dot(once.u, once.u) + once.s * once.s, dot(a.u, a.u) + a.s * a.s, kRoundOff);
    EXPECT_NEAR(b.u.x, a.u.x, kRoundOff);
    EXPECT_NEAR(b.u.y, a.u.y, kRoundOff);
    EXPECT_NEAR(b.s, a.s, kRoundOff);
    const Vec3 nu3 = rng.unit3();
    const State3D c{{rng(), rng(), rng()}, {rng(), rng(), rng()}};
    const State3D c1 = noslip_collide(c, nu3, k);
    const State3D c2 = noslip_collide(c1, nu3, k);
    EXPECT_NEAR(dot(c1.u, c1.u) + dot(c1.w, c1.w), dot(c.u, c.u) + dot(c.w, c.w), kRoundOff);
    EXPECT_LT(norm(c2.u - c.u) + norm(c2.w - c.w), 1e-13);
  }
}

TEST(Collision, RollingImpactIsFixed2DAnd3D) {
  const double gamma = std::sqrt(0.5);
  const NoSlipCoefficients k = noslip_coefficients(gamma);
  // 2D: grazing (u_hat = 0) with s = gamma u_bar: contact point at rest
  const Vec2 nu{0.6, 0.8};
  const Vec2 tau = rot90(nu);
  const State2D a{1.7 * tau, gamma * 1.7};
  const State2D b = noslip_collide(a, nu, k);
  EXPECT_NEAR(b.u.x, a.u.x, kRoundOff);
  EXPECT_NEAR(b.u.y, a.u.y, kRoundOff);
  EXPECT_NEAR(b.s, a.s, kRoundOff);
  // 3D: u tangent, W = w x nu = gamma u, any normal spin
  const Vec3 n3{0.0, 0.6, 0.8};
  const Vec3 ut{1.0, 0.8, -0.6};
  const Vec3 w = 0.3 * n3 + cross(n3, gamma * ut);
  const State3D c{ut, w};
  const State3D d = noslip_collide(c, n3, k);
  EXPECT_LT(norm(d.u - c.u) + norm(d.w - c.w), 1e-14);
}

TEST(Collision, GammaZeroIsSpecular) {
  const NoSlipCoefficients k = noslip_coefficients(0.0);
  const Vec2 nu{0.0, 1.0};
  const State2D out = noslip_collide(State2D{{0.3, -0.7}, 0.9}, nu, k);
  EXPECT_DOUBLE_EQ(out.u.x, 0.3);
  EXPECT_DOUBLE_EQ(out.u.y, 0.7);
  EXPECT_DOUBLE_EQ(out.s, -0.9);  // W = s tau -> -W: spin sign flips, |s| and energy unchanged
  const Vec3 n3{1.0, 0.0, 0.0};
  const State3D o3 = noslip_collide(State3D{{-0.5, 0.2, 0.1}, {0.4, 0.3, -0.2}}, n3, k);
  EXPECT_DOUBLE_EQ(o3.u.x, 0.5);
  EXPECT_DOUBLE_EQ(o3.u.y, 0.2);
  EXPECT_DOUBLE_EQ(o3.u.z, 0.1);
}

TEST(Collision, ParameterConversions) {
  for (double gamma : {0.0, 0.3, std::sqrt(0.5), 1.0, 2.5}) {
    EXPECT_NEAR(gamma_from_eta(eta_from_gamma(gamma)), gamma, 1e-14);
    EXPECT_NEAR(gamma_from_beta(beta_from_gamma(gamma)), gamma, 1e-14);
    const NoSlipCoefficients k = noslip_coefficients(gamma);
    EXPECT_NEAR(std::cos(beta_from_gamma(gamma)), k.c_beta, 1e-15);
    EXPECT_NEAR(std::sin(beta_from_gamma(gamma)), k.s_beta, 1e-15);
  }
}

}  // namespace
}  // namespace skipstone
