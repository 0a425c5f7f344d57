// poly_sincos (include/skipstone/poly_sincos.hpp), the sine and cosine that the rolling tables'
// right-hand side and its SIMD lanes share, against libm: within a few rounding units of 1 over
// the range its header promises, exact at 0, and on the unit circle.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "skipstone/poly_sincos.hpp"

namespace skipstone {
namespace {

constexpr double kSinCosTol = 3.0e-16;  // |poly_sincos - libm|, values in [-1, 1]: ~1.5 rounding units of 1
constexpr double kUnitCircleTol = 5.0e-16;
constexpr double kHalfPi = 1.5707963267948966;

void expect_close(double x) {
  double s, c;
  poly_sincos(x, s, c);
  EXPECT_NEAR(s, std::sin(x), kSinCosTol) << "sin at x = " << x;
  EXPECT_NEAR(c, std::cos(x), kSinCosTol) << "cos at x = " << x;
  EXPECT_NEAR(s * s + c * c, 1.0, kUnitCircleTol) << "x = " << x;
}

TEST(PolySinCos, MatchesLibmOverTheRange) {
  std::mt19937_64 rng(5);
  for (double span : {1.0, 10.0, 1e3, 1e6}) {
    std::uniform_real_distribution<double> u(-span, span);
    for (int i = 0; i < 200000; ++i) expect_close(u(rng));
  }
}

// The quadrant boundaries, where the reduction picks the neighbouring k or the other polynomial.
TEST(PolySinCos, MatchesLibmAtTheQuadrantBoundaries) {
  for (int k = -4000; k <= 4000; ++k)
    for (double d : {-1e-9, -1e-15, 0.0, 1e-15, 1e-9, 0.7853981, -0.7853981})
      expect_close(k * kHalfPi + d);
  for (double k : {123456.0, -654321.0})
    for (double d : {-0.5, 0.0, 0.5}) expect_close(k * kHalfPi + d);
}

TEST(PolySinCos, ExactAtZero) {
  double s, c;
  poly_sincos(0.0, s, c);
  EXPECT_EQ(0.0, s);
  EXPECT_EQ(1.0, c);
  poly_sincos(1e-300, s, c);
  EXPECT_EQ(1e-300, s);
  EXPECT_EQ(1.0, c);
}

// The float overload (the rolling tables' float kernels): within a few float rounding units
// (eps 1.2e-7) over the range its header promises, exact at 0.
constexpr float kFloatSinCosTol = 2.4e-7f;

TEST(PolySinCos, FloatMatchesLibmOverItsRange) {
  std::mt19937_64 rng(6);
  for (float span : {1.0f, 10.0f, 1e3f, 6e3f}) {
    std::uniform_real_distribution<float> u(-span, span);
    for (int i = 0; i < 200000; ++i) {
      const float x = u(rng);
      float s, c;
      poly_sincos(x, s, c);
      EXPECT_NEAR(s, std::sin(double(x)), kFloatSinCosTol) << "sin at x = " << x;
      EXPECT_NEAR(c, std::cos(double(x)), kFloatSinCosTol) << "cos at x = " << x;
    }
  }
  float s, c;
  poly_sincos(0.0f, s, c);
  EXPECT_EQ(0.0f, s);
  EXPECT_EQ(1.0f, c);
}

}  // namespace
}  // namespace skipstone
