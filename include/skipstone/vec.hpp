// Small fixed-size vectors (2D and 3D) used by the physics headers on host and device, in the
// kernels' scalar type T (precision.hpp): Vec2 and Vec3 are the double ones every model uses,
// Vec2T<float> and Vec3T<float> those of the float kernels. A scalar factor is converted to the
// vector's type (same_t), so 0.5 * v stays in float for a float v.
#pragma once
#include <cmath>

#include "skipstone/hd.hpp"
#include "skipstone/precision.hpp"

namespace skipstone {

// <cmath> puts isfinite in std only; CUDA provides std::isfinite for device code as well.
using std::isfinite;

constexpr double kPi = 3.14159265358979323846;

template <class T>
struct Vec2T {
  T x, y;
};
template <class T>
struct Vec3T {
  T x, y, z;
};
using Vec2 = Vec2T<double>;
using Vec3 = Vec3T<double>;

// The scalar type of a vector.
template <class V>
using scalar_of = decltype(V{}.x);

template <class T>
SKIPSTONE_HD SKIPSTONE_INLINE Vec2T<T> operator+(Vec2T<T> a, Vec2T<T> b) { return {a.x + b.x, a.y + b.y}; }
template <class T>
SKIPSTONE_HD SKIPSTONE_INLINE Vec2T<T> operator-(Vec2T<T> a, Vec2T<T> b) { return {a.x - b.x, a.y - b.y}; }
template <class T>
SKIPSTONE_HD SKIPSTONE_INLINE Vec2T<T> operator-(Vec2T<T> a) { return {-a.x, -a.y}; }
template <class T>
SKIPSTONE_HD SKIPSTONE_INLINE Vec2T<T> operator*(same_t<T> s, Vec2T<T> a) { return {s * a.x, s * a.y}; }
template <class T>
SKIPSTONE_HD SKIPSTONE_INLINE T dot(Vec2T<T> a, Vec2T<T> b) { return a.x * b.x + a.y * b.y; }
// z-component of the planar cross product a x b.
template <class T>
SKIPSTONE_HD SKIPSTONE_INLINE T cross(Vec2T<T> a, Vec2T<T> b) { return a.x * b.y - a.y * b.x; }
// Counterclockwise rotation by pi/2 (the operator J of the paper, Section 2.3).
template <class T>
SKIPSTONE_HD SKIPSTONE_INLINE Vec2T<T> rot90(Vec2T<T> a) { return {-a.y, a.x}; }
template <class T>
SKIPSTONE_HD SKIPSTONE_INLINE T norm(Vec2T<T> a) { return sqrt(dot(a, a)); }

template <class T>
SKIPSTONE_HD SKIPSTONE_INLINE Vec3T<T> operator+(Vec3T<T> a, Vec3T<T> b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
template <class T>
SKIPSTONE_HD SKIPSTONE_INLINE Vec3T<T> operator-(Vec3T<T> a, Vec3T<T> b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
template <class T>
SKIPSTONE_HD SKIPSTONE_INLINE Vec3T<T> operator-(Vec3T<T> a) { return {-a.x, -a.y, -a.z}; }
template <class T>
SKIPSTONE_HD SKIPSTONE_INLINE Vec3T<T> operator*(same_t<T> s, Vec3T<T> a) { return {s * a.x, s * a.y, s * a.z}; }
template <class T>
SKIPSTONE_HD SKIPSTONE_INLINE T dot(Vec3T<T> a, Vec3T<T> b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
template <class T>
SKIPSTONE_HD SKIPSTONE_INLINE Vec3T<T> cross(Vec3T<T> a, Vec3T<T> b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
template <class T>
SKIPSTONE_HD SKIPSTONE_INLINE T norm(Vec3T<T> a) { return sqrt(dot(a, a)); }

// c ? a : b component by component: a select, not a branch (the CPU backend's SIMD lanes).
template <class T>
SKIPSTONE_HD SKIPSTONE_INLINE Vec2T<T> select(bool c, Vec2T<T> a, Vec2T<T> b) {
  return {c ? a.x : b.x, c ? a.y : b.y};
}
template <class T>
SKIPSTONE_HD SKIPSTONE_INLINE Vec3T<T> select(bool c, Vec3T<T> a, Vec3T<T> b) {
  return {c ? a.x : b.x, c ? a.y : b.y, c ? a.z : b.z};
}

// A vector in another scalar type (the float kernels' start from a double setup).
template <class T, class U>
SKIPSTONE_HD SKIPSTONE_INLINE Vec2T<T> vec_as(Vec2T<U> a) { return {static_cast<T>(a.x), static_cast<T>(a.y)}; }
template <class T, class U>
SKIPSTONE_HD SKIPSTONE_INLINE Vec3T<T> vec_as(Vec3T<U> a) {
  return {static_cast<T>(a.x), static_cast<T>(a.y), static_cast<T>(a.z)};
}

}  // namespace skipstone
