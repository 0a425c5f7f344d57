// The observable height_series (docs/config.md, "Observables"): the height of the ball's centre
// at the times t_k = k t_max / (points - 1), k = 0 .. points - 1, of every trajectory of the
// rolling tables, roll4:disc and roll3:inside-cylinder, so that the mean and the variance of the
// height over time can be taken over a scan's realisations (noisy constraints) or starts. The
// values are the sink samples of the rolling runs (rolling/disc_output.hpp: an exact stop at each
// t_k on a face and inside a deterministic passage, the step's interpolant inside a noisy one,
// noisy_samples.hpp; the inside cylinder's closed form), read from the sample row's height
// coordinate: roll3's centre y under the in-plane gravity, roll4's axial x3, the inside
// cylinder's z (the coordinates of z_min, z_max, z_final). A time after the run's end stays
// NaN (the host makes the whole row NaN where the status is not ok).
#pragma once
#include <cmath>
#include <cstdint>

#include "skipstone/hd.hpp"
#include "skipstone/vec.hpp"

namespace skipstone {

// Time k of the grid of `points` times over [0, t_max]: the one formula of the times meta.json
// lists (host/config/section_outputs_height.cpp) and of the samples the kernels take.
SKIPSTONE_HD SKIPSTONE_INLINE double height_series_time(double t_max, std::uint64_t k, std::uint64_t points) {
  return t_max * static_cast<double>(k) / static_cast<double>(points - 1);
}

// Where a collecting chunk's height series go (host or device memory).
struct HeightSeriesTarget {
  int points = 0;          // 0: not kept
  double t_max = 0.0;
  int axis = 2;            // the sample row's coordinate that is the height: 1 (y) or 2 (z)
  double* values = nullptr;  // `points` per trajectory of the chunk
};

// One trajectory's series as its sink fills it: next_sample() and on_sample() are the sampling
// interface of the rolling runs.
struct HeightSeriesRecorder {
  double* row = nullptr;  // null: not kept
  int points = 0, axis = 2, k = 0;
  double t_max = 0.0;

  SKIPSTONE_HD void attach(const HeightSeriesTarget& t, std::uint64_t i) {
    if (t.points <= 0) return;
    row = t.values + i * static_cast<std::uint64_t>(t.points);
    points = t.points;
    axis = t.axis;
    t_max = t.t_max;
  }
  SKIPSTONE_HD double next_sample() const {
    return row && k < points ? height_series_time(t_max, k, points) : INFINITY;
  }
  SKIPSTONE_HD void on_sample(double, Vec3 x) {
    if (row && k < points) row[k] = axis == 1 ? x.y : x.z;
    ++k;
  }
};

}  // namespace skipstone
