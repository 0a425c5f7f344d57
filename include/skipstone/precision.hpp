// The scalar types the kernels are compiled for - double everywhere; float also for roll4:disc,
// its Figure-18 transversal system and the rolling tables roll3:<table>, roll4:<table> (Proposition
// 12: the GBS integrator and the rim passage) and
// for the no-slip disc and cylinder:disc - and the constants of the templated arithmetic that
// depend on the type's rounding unit eps. The
// double values are the ones the double-only kernels always used (so the double instantiation is
// unchanged); the float values are the same multiples of eps_float = 2^-23 ~ 1.19e-7 where
// the comment beside them says nothing else.
#pragma once
#include <cmath>
#include <cstdint>
#include <type_traits>

namespace skipstone {

// <cmath> puts the float overloads of the math functions in std only (CUDA provides them for
// device code too); for double these are the same functions as ::sqrt etc.
using std::atan2;
using std::cos;
using std::fabs;
using std::pow;
using std::sin;
using std::sqrt;

enum class Precision : std::int32_t { float64 = 0, float32 = 1 };

// The Precision of a kernel computing in scalar type T.
template <class T>
constexpr Precision precision_of = std::is_same_v<T, float> ? Precision::float32 : Precision::float64;

// The scalar type of a kernel compiled for Precision P.
template <Precision P>
using scalar_of_precision = std::conditional_t<P == Precision::float32, float, double>;

// T in a parameter list where it must not be deduced: a call deduces the scalar type from the
// state it works on, and constants such as 0.0 or INFINITY are converted to it.
template <class T>
struct non_deduced {
  using type = T;
};
template <class T>
using same_t = typename non_deduced<T>::type;

template <class T>
struct ScalarConstants;

template <>
struct ScalarConstants<double> {
  static constexpr double rim_newton = 1e-15;    // exit-time Newton step, relative to 1 + t (4.5 eps)
  static constexpr double rim_min_step = 1e-14;  // smallest rim step, relative to 1 + t (45 eps)
  // roll4:disc's projection onto E2 + G x3 corrects a relative mismatch below this only (larger
  // ones mean a target near 0, where rescaling is no round-off-sized correction): 4.5e7 eps
  static constexpr double rim_projection_window = 1e-8;
  // a start within this relative distance of the rim circle is on it, not outside the disc
  // (4.5e3 eps)
  static constexpr double on_rim = 1e-12;
};

template <>
struct ScalarConstants<float> {
  static constexpr float rim_newton = 5.4e-7f;
  static constexpr float rim_min_step = 5.4e-6f;
  // not a multiple of eps: a float GBS step at rtol 1e-5 leaves mismatches of ~1e-5, which the
  // projection must still correct
  static constexpr float rim_projection_window = 1e-2f;
  // 64 eps: a start set up on the rim in double and rounded is within ~3 eps of it; an interior
  // start closer than this is moved onto the rim by at most ~4e-6 R
  static constexpr float on_rim = 7.6e-6f;
};

}  // namespace skipstone
