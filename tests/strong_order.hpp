// The observed strong order of a stochastic scheme, for the tests of the noisy constraints: the
// errors at steps h = h_coarse, h_coarse / 2, ... down to h_finest (each against a reference on
// the same Brownian path, error(h)), and their slope: log2 of the error's ratio per halving.
#pragma once
#include <cmath>
#include <cstdio>
#include <vector>

namespace skipstone::testing {

constexpr double kDesignStrongOrder = 1.0;  // stochastic Heun, additive noise in the augmented state
constexpr double kOrderSlack = 0.25;  // observed order within the design order +- this

template <class Error>
double observed_strong_order(double h_coarse, double h_finest, const char* label, Error&& error) {
  std::vector<double> err;
  for (double h = h_coarse; h >= h_finest * 0.99; h *= 0.5) err.push_back(error(h));
  const double order = std::log2(err.front() / err.back()) / static_cast<double>(err.size() - 1);
  std::printf("%s strong errors:", label);
  for (double x : err) std::printf(" %.3e", x);
  std::printf("  observed strong order %.3f\n", order);
  return order;
}

}  // namespace skipstone::testing
