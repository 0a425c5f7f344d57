// Exact order statistics of the finite values of a large array without copying it: a radix
// selection over the values' bits (4 counting passes of 16 bits), so the colour range of a
// heat map of 8192 x 8192 doubles costs 512 KiB of counters instead of a 512 MiB copy.
#pragma once
#include <cstddef>
#include <vector>

namespace skipstone {

// Number of finite values in v.
std::size_t count_finite(const std::vector<double>& v);

// The k-th smallest (0-based) of the finite values of v, as std::nth_element would place it;
// k must be below count_finite(v). -0.0 sorts below +0.0.
double kth_smallest_finite(const std::vector<double>& v, std::size_t k);

}  // namespace skipstone
