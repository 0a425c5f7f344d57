// Reference no-slip collision map in any dimension n, straight from Eq. (2) of the paper with
// the spin as an n x n skew matrix S (velocity units, S = gamma r U):
//   C(S, u) = (S_bar, 0) + (0, -(u.nu) nu) + (nu ^ (s_b u_bar - c_b W), c_b u_bar + s_b W),
//   u_bar = Pi u, W = S nu, S_bar = Pi S Pi, (a ^ b) w = (a.w) b - (b.w) a.
// Host-only (Eigen); the tests compare the fast 2D/3D kernels against it.
#pragma once
// g++ 12 with -march=native on AVX-512 flags Eigen's own packet code (gemm packing,
// avx512fintrin.h) as maybe-uninitialized; the warning is about Eigen, not us.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <Eigen/Dense>
#pragma GCC diagnostic pop

namespace skipstone {

struct ReferenceState {
  Eigen::MatrixXd S;  // skew-symmetric spin
  Eigen::VectorXd u;  // centre velocity
};

// The generalised cross product a ^ b as a matrix: (a ^ b) w = (a.w) b - (b.w) a.
inline Eigen::MatrixXd wedge(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  return b * a.transpose() - a * b.transpose();
}

inline ReferenceState reference_collide(const ReferenceState& in, const Eigen::VectorXd& nu, double gamma) {
  const double g2 = gamma * gamma;
  const double c = (1.0 - g2) / (1.0 + g2), s = 2.0 * gamma / (1.0 + g2);
  const Eigen::Index n = nu.size();
  const Eigen::MatrixXd Pi = Eigen::MatrixXd::Identity(n, n) - nu * nu.transpose();
  const Eigen::VectorXd u_bar = Pi * in.u;
  const Eigen::VectorXd W = in.S * nu;
  const Eigen::MatrixXd S_bar = Pi * in.S * Pi;
  ReferenceState out;
  out.S = S_bar + wedge(nu, s * u_bar - c * W);
  out.u = -(in.u.dot(nu)) * nu + c * u_bar + s * W;
  return out;
}

// Kinetic energy per unit mass, E = (Tr(S S^T)/2 + |u|^2)/2.
inline double reference_energy(const ReferenceState& x) {
  return 0.5 * (0.5 * (x.S * x.S.transpose()).trace() + x.u.squaredNorm());
}

}  // namespace skipstone
