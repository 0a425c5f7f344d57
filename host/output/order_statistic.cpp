// Radix selection of the k-th smallest finite double (order_statistic.hpp).
#include "order_statistic.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>

namespace skipstone {
namespace {

// A key whose unsigned order is the order of the doubles: flip the sign bit of positive
// values, all bits of negative ones.
std::uint64_t ordered_key(double x) {
  std::uint64_t b;
  std::memcpy(&b, &x, sizeof b);
  return (b >> 63) ? ~b : (b | (std::uint64_t{1} << 63));
}

double from_ordered_key(std::uint64_t key) {
  const std::uint64_t b = (key >> 63) ? (key & ~(std::uint64_t{1} << 63)) : ~key;
  double x;
  std::memcpy(&x, &b, sizeof x);
  return x;
}

}  // namespace

std::size_t count_finite(const std::vector<double>& v) {
  std::size_t n = 0;
  for (double x : v) n += std::isfinite(x) ? 1 : 0;
  return n;
}

double kth_smallest_finite(const std::vector<double>& v, std::size_t k) {
  constexpr int kDigitBits = 16;
  std::vector<std::uint64_t> counts(std::size_t{1} << kDigitBits);
  std::uint64_t prefix = 0;  // the key's bits above `shift`, found so far
  std::size_t below = k;     // rank of the wanted value among the keys with that prefix
  for (int shift = 64 - kDigitBits; shift >= 0; shift -= kDigitBits) {
    std::fill(counts.begin(), counts.end(), 0);
    const int high = shift + kDigitBits;  // bits above this digit must equal prefix's
    for (double x : v) {
      if (!std::isfinite(x)) continue;
      const std::uint64_t key = ordered_key(x);
      if (high < 64 && (key >> high) != (prefix >> high)) continue;
      ++counts[(key >> shift) & ((std::uint64_t{1} << kDigitBits) - 1)];
    }
    std::size_t digit = 0;
    while (digit < counts.size() && below >= counts[digit]) below -= counts[digit++];
    if (digit == counts.size()) throw std::out_of_range("kth_smallest_finite: k is not below the number of finite values");
    prefix |= static_cast<std::uint64_t>(digit) << shift;
  }
  return from_ordered_key(prefix);
}

}  // namespace skipstone
