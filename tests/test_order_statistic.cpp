// The radix selection that sets the colour range of heat maps (host/order_statistic.*) against
// std::nth_element on a copy of the finite values: the same values, bit for bit, for every
// rank tried, with NaN, infinities, negatives, signed zeros, subnormals and ties in the data.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "order_statistic.hpp"

namespace {

std::vector<double> awkward_values(std::size_t n, unsigned seed) {
  std::mt19937_64 gen(seed);
  std::normal_distribution<double> normal(0.0, 10.0);
  std::uniform_int_distribution<int> kind(0, 19);
  const double specials[] = {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(),
                             -std::numeric_limits<double>::infinity(), 0.0, -0.0, 1.0, -1.0,
                             std::numeric_limits<double>::denorm_min(), -std::numeric_limits<double>::max(),
                             std::numeric_limits<double>::max()};
  std::vector<double> v(n);
  for (double& x : v) {
    const int k = kind(gen);
    x = k < 10 ? specials[k] : normal(gen);
  }
  return v;
}

std::uint64_t bits(double x) {
  std::uint64_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}

TEST(OrderStatistic, MatchesNthElementOnTheFiniteValues) {
  for (unsigned seed = 1; seed <= 3; ++seed) {
    const std::vector<double> v = awkward_values(20000, seed);
    std::vector<double> finite;
    for (double x : v)
      if (std::isfinite(x)) finite.push_back(x);
    ASSERT_EQ(skipstone::count_finite(v), finite.size());
    std::sort(finite.begin(), finite.end(), [](double a, double b) {
      return a < b || (a == b && std::signbit(a) && !std::signbit(b));  // -0 below +0
    });
    for (std::size_t k : {std::size_t{0}, finite.size() / 200, finite.size() / 3, finite.size() / 2,
                          finite.size() - 1 - finite.size() / 200, finite.size() - 1}) {
      const double got = skipstone::kth_smallest_finite(v, k);
      EXPECT_EQ(bits(got), bits(finite[k])) << "seed " << seed << ", k " << k << ": " << got << " vs " << finite[k];
      std::vector<double> copy = finite;
      std::nth_element(copy.begin(), copy.begin() + static_cast<std::ptrdiff_t>(k), copy.end());
      EXPECT_EQ(got, copy[k]);  // equal as numbers to what nth_element places there
    }
  }
}

TEST(OrderStatistic, RankBeyondTheFiniteValuesIsAnError) {
  const std::vector<double> v = {1.0, std::numeric_limits<double>::quiet_NaN(), 2.0};
  EXPECT_EQ(skipstone::kth_smallest_finite(v, 1), 2.0);
  EXPECT_THROW(skipstone::kth_smallest_finite(v, 2), std::out_of_range);
}

}  // namespace
