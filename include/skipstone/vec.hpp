// Small fixed-size vectors (2D and 3D) used by the physics headers on host and device.
#pragma once
#include <cmath>

#include "skipstone/hd.hpp"

namespace skipstone {

// <cmath> puts isfinite in std only; CUDA provides std::isfinite for device code as well.
using std::isfinite;

constexpr double kPi = 3.14159265358979323846;

struct Vec2 {
  double x, y;
};
struct Vec3 {
  double x, y, z;
};

SKIPSTONE_HD SKIPSTONE_INLINE Vec2 operator+(Vec2 a, Vec2 b) { return {a.x + b.x, a.y + b.y}; }
SKIPSTONE_HD SKIPSTONE_INLINE Vec2 operator-(Vec2 a, Vec2 b) { return {a.x - b.x, a.y - b.y}; }
SKIPSTONE_HD SKIPSTONE_INLINE Vec2 operator-(Vec2 a) { return {-a.x, -a.y}; }
SKIPSTONE_HD SKIPSTONE_INLINE Vec2 operator*(double s, Vec2 a) { return {s * a.x, s * a.y}; }
SKIPSTONE_HD SKIPSTONE_INLINE double dot(Vec2 a, Vec2 b) { return a.x * b.x + a.y * b.y; }
// z-component of the planar cross product a x b.
SKIPSTONE_HD SKIPSTONE_INLINE double cross(Vec2 a, Vec2 b) { return a.x * b.y - a.y * b.x; }
// Counterclockwise rotation by pi/2 (the operator J of the paper, Section 2.3).
SKIPSTONE_HD SKIPSTONE_INLINE Vec2 rot90(Vec2 a) { return {-a.y, a.x}; }
SKIPSTONE_HD SKIPSTONE_INLINE double norm(Vec2 a) { return sqrt(dot(a, a)); }

SKIPSTONE_HD SKIPSTONE_INLINE Vec3 operator+(Vec3 a, Vec3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
SKIPSTONE_HD SKIPSTONE_INLINE Vec3 operator-(Vec3 a, Vec3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
SKIPSTONE_HD SKIPSTONE_INLINE Vec3 operator-(Vec3 a) { return {-a.x, -a.y, -a.z}; }
SKIPSTONE_HD SKIPSTONE_INLINE Vec3 operator*(double s, Vec3 a) { return {s * a.x, s * a.y, s * a.z}; }
SKIPSTONE_HD SKIPSTONE_INLINE double dot(Vec3 a, Vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
SKIPSTONE_HD SKIPSTONE_INLINE Vec3 cross(Vec3 a, Vec3 b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
SKIPSTONE_HD SKIPSTONE_INLINE double norm(Vec3 a) { return sqrt(dot(a, a)); }

}  // namespace skipstone
