// A test sink that records the crossings of one section plane (section_map.hpp: SectionSink) of
// every kind of motion a model reports: closed-form flights (on_flight), closed-form curves of
// the strip, the planes and the cylinder (on_curve) and the integrated steps of the rolling
// tables' edge passages (on_step_curve). Each row: the direction, the time, then the plane's
// coordinates.
#pragma once
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "skipstone/section_map.hpp"

namespace skipstone::testing {

struct SectionCrossings {
  static constexpr bool kWantsFlights = true;
  SectionPlane plane{};
  SectionSink section;
  std::vector<double> rows;
  explicit SectionCrossings(const SectionPlane& p, std::size_t capacity = 100000) : plane(p), rows(capacity * 5) {
    section.plane = &plane;
    section.crossings.rows = rows.data();
    section.crossings.capacity = capacity;
    section.crossings.fields = 2 + plane.n_coords;
  }
  template <class V, class S>
  void on_event(double, V, const S&, V) {}
  template <class T>
  void on_step(T, const T*) {}
  template <class V, class S, class A>
  void on_flight(double t0, double tau, V x, const S& st, A a) {
    section.on_flight(t0, tau, x, st, a);
  }
  template <class Curve>
  void on_curve(double t0, double tau, const Curve& c) {
    section.on_curve(t0, tau, c);
  }
  template <class Step>
  void on_step_curve(double t0, double h, const Step& step) {
    section.on_step_curve(t0, h, step);
  }
  std::uint64_t count() const { return section.crossings.points; }
  double time(std::uint64_t i) const { return rows[i * section.crossings.fields + 1]; }
  // The first three coordinates of crossing i (the centre, for coords x1, x2, x3).
  const double* centre(std::uint64_t i) const { return &rows[i * section.crossings.fields + 2]; }
};

// The plane n . x = offset (n normalised here) crossed in `direction` (+1, -1, 0 both), with the
// first n_coords state columns as its coordinates.
inline SectionPlane section_plane(const std::vector<double>& n, double offset, int direction, int n_coords) {
  double len = 0.0;
  for (double v : n) len += v * v;
  SectionPlane p{};
  for (std::size_t k = 0; k < n.size(); ++k) p.n[k] = n[k] / std::sqrt(len);
  p.offset = offset / std::sqrt(len);
  p.direction = direction;
  p.n_coords = n_coords;
  for (int k = 0; k < n_coords; ++k) p.column[k] = k;
  return p;
}

}  // namespace skipstone::testing
