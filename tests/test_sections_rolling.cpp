// Poincare sections of the closed-form rolling models (section_map.hpp: SectionSink::on_curve,
// curve_crossings.hpp): roll3:strip and roll4:planes (every segment of the stadium: flat parts
// and half-circles) and roll3:inside-cylinder (the turns about the axis). Each recorded crossing
// lies on the plane to round-off, checked on the model's own state at that time (a run stopped
// there); no crossing is missed (the sign changes of n . x - c over a fine sampling of the
// trajectory are as many, sigma's restart after a round left out); the directions add up; the root isolation finds every root of a
// function with several close ones; the noisy strip and planes at sigma = 0 cross where the
// closed form does. The config keys and the CLI: test_section_map.cpp.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "skipstone/curve_crossings.hpp"
#include "skipstone/final_state.hpp"
#include "skipstone/simulate.hpp"
#include "section_crossings.hpp"
#include "test_support.hpp"

namespace {

using namespace skipstone;
using nlohmann::json;

// A crossing's state, from a run stopped at its time, on the plane: |n . x - c| (|n| = 1;
// measured 1e-15 to 2e-15).
constexpr double kOnPlane = 1e-12;
// A change of the level between two samples larger than this is sigma's restart, not a crossing.
constexpr double kJump = 0.5;
// The root solver: |f(t)| at a root, a few ulps of t (up to 10) times the largest slope (8).
constexpr double kRootResidual = 1e-13;

// The state row at the last event.
struct LastRow {
  double row[9] = {};
  template <class V, class S>
  void on_event(double, V x, const S& st, V) {
    write_state_row(x, st, row);
  }
  template <class T>
  void on_step(T, const T*) {}
};

using Crossings = skipstone::testing::SectionCrossings;

SectionPlane plane(std::vector<double> n, double offset, int direction) {
  return skipstone::testing::section_plane(n, offset, direction, 2);
}

// n . x - c of a state row with `dim` position components.
double level(const SectionPlane& p, const double* row, int dim) {
  double v = -p.offset;
  for (int k = 0; k < dim; ++k) v += p.n[k] * row[k];
  return v;
}

// A model run to t_max into `sink` (plain, double).
template <ModelKind M, class Sink>
void run_model(const RunConfig& rc, double t_max, Sink& sink) {
  ScanSpec spec = rc.spec;
  spec.t_max = t_max;
  simulate_variant<Variant<M, TableKind::none, Precision::float64, GravityKind::any>>(spec, 0, sink);
}

// Every crossing of the run to t_max on the plane (checked on a run stopped at its time), and as
// many as the sign changes of the level over `samples` equal steps.
template <ModelKind M>
void expect_exact_crossings(const char* name, const json& j, int dim, const SectionPlane& p, double t_max,
                            int samples, std::uint64_t min_crossings) {
  const RunConfig rc = skipstone::testing::config_from(j);
  Crossings found(p);
  run_model<M>(rc, t_max, found);
  EXPECT_GE(found.count(), min_crossings) << name;
  double worst = 0.0;
  for (std::uint64_t i = 0; i < found.count(); ++i) {
    LastRow at;
    run_model<M>(rc, found.time(i), at);
    worst = std::fmax(worst, std::fabs(level(p, at.row, dim)));
    if (i > 0) {
      EXPECT_GT(found.time(i), found.time(i - 1)) << name << " " << i;
    }
  }
  std::uint64_t changes = 0;
  double prev = 0.0;
  for (int k = 0; k <= samples; ++k) {
    LastRow at;
    run_model<M>(rc, t_max * k / samples, at);
    const double v = level(p, at.row, dim);
    const bool counted = p.direction == 0 || (p.direction > 0 ? prev < 0.0 : prev > 0.0);
    // a jump is sigma restarting at 0 after a round, not a crossing (samples are 0.005 apart)
    if (k > 0 && ((prev < 0.0) != (v < 0.0)) && counted && std::fabs(v - prev) < kJump) ++changes;
    prev = v;
  }
  std::cout << name << ": " << found.count() << " crossings over t = " << t_max << " (sign changes of " << samples
            << " samples: " << changes << "), largest |n . x - c| " << worst << "\n";
  EXPECT_LT(worst, kOnPlane) << name;
  EXPECT_EQ(found.count(), changes) << name;
}

json strip_config() {
  return json::parse(R"({"system": "roll3:strip", "parameters": {"L": 1.0, "r": 0.3, "eta": 0.6, "g_effective": 0.8},
    "initial": {"start": "plate", "x1": 0.1, "z": 0.0, "v1": 1.1, "v2": 0.4, "spin": -0.3}, "stop": {"t_max": 10.0}})");
}
json planes_config() {
  return json::parse(R"({"system": "roll4:planes", "parameters": {"L": 1.0, "r": 0.3, "eta": 0.6, "g_effective": 0.8},
    "initial": {"start": "plate", "x1": 0.1, "z": 0.0, "v1": -1.1, "v2": 0.3, "v3": 0.4, "S12": 0.2,
                "S13": -0.3, "S23": 0.25}, "stop": {"t_max": 10.0}})");
}
json cylinder_config() {
  return json::parse(R"({"system": "roll3:inside-cylinder", "parameters": {"R": 1.0, "r": 0.2, "gamma": 0.6324555320336759, "g": 1.0},
    "initial": {"start": "wall", "angle": 0.3, "z": 0.1, "v1": 1.3, "v2": 0.4, "spin": -0.2}, "stop": {"t_max": 10.0}})");
}

TEST(CurveCrossings, FindsEveryRootOfAFunctionWithCloseOnes) {
  // f(t) = sin(7 t) + 0.98 sin(t): roots close together where the two nearly cancel
  const auto f = [](double t, double& rate) {
    rate = 7.0 * std::cos(7.0 * t) + 0.98 * std::cos(t);
    return std::sin(7.0 * t) + 0.98 * std::sin(t);
  };
  std::vector<double> roots;
  for_each_crossing(f, 10.0, 7.98, 49.98, [&](double t, double) { roots.push_back(t); });
  std::uint64_t changes = 0;
  double prev = 0.0;  // f(0) = 0: the root at 0 is not in (0, 10]
  for (int k = 1; k <= 200000; ++k) {
    double rate;
    const double v = f(10.0 * k / 200000, rate);
    if (k > 1 && ((prev < 0.0) != (v < 0.0))) ++changes;
    prev = v;
  }
  EXPECT_EQ(roots.size(), changes);
  for (std::size_t i = 0; i < roots.size(); ++i) {
    double rate;
    EXPECT_LT(std::fabs(f(roots[i], rate)), kRootResidual) << i;
    if (i > 0) {
      EXPECT_GT(roots[i], roots[i - 1]);
    }
  }
}

TEST(RollingSections, StripCrossingsAreExactAndComplete) {
  // the height x2 = -0.1 (flat parts and half-circles), and a plane across sigma and x2
  expect_exact_crossings<ModelKind::roll_strip>("roll3:strip, x2 = -0.1", strip_config(), 2, plane({0, 1}, -0.1, 0),
                                                40.0, 8000, 10);
  expect_exact_crossings<ModelKind::roll_strip>("roll3:strip, sigma + 3 x2 = 1.5", strip_config(), 2,
                                                plane({1, 3}, 1.5, 1), 40.0, 8000, 5);
}

// With noisy constraints at sigma = 0 the strip and the planes run on the rolling tables'
// integrator (noisy_stadium.hpp): crossings on the flat parts from the exact flights, over the
// edges from the stochastic scheme's steps (the line between them). They are the closed form's
// crossings, in the same order and direction, to the scheme's accuracy (noise_dt 1e-4, r = 0.3:
// measured: up to 1.1e-6 in time and coordinates over t = 40).
TEST(RollingSections, NoisyStripAndPlanesAtSigmaZeroCrossWhereTheClosedFormDoes) {
  constexpr double kSigmaZeroCrossing = 2e-5;
  const auto compare = [&](auto variant_plain, auto variant_noisy, const json& base, const SectionPlane& p,
                           const char* name) {
    using Plain = decltype(variant_plain);
    using Noisy = decltype(variant_noisy);
    for (int kind : {1, 2}) {
      json j = base;
      j["parameters"]["noise"] = kind;
      j["parameters"]["noise_dt"] = 1e-4;
      j["stop"]["t_max"] = 40.0;
      json plain = base;
      plain["stop"]["t_max"] = 40.0;
      const RunConfig closed = skipstone::testing::config_from(plain), noisy = skipstone::testing::config_from(j);
      Crossings a(p), b(p);
      simulate_variant<Plain>(closed.spec, 0, a);
      simulate_variant<Noisy>(noisy.spec, 0, b);
      ASSERT_GE(a.count(), 5u) << name;
      ASSERT_EQ(a.count(), b.count()) << name << " noise " << kind;
      double worst = 0.0;
      for (std::uint64_t i = 0; i < a.count(); ++i) {
        const std::size_t f = a.section.crossings.fields;
        EXPECT_EQ(a.rows[i * f], b.rows[i * f]) << name << " crossing " << i << ": direction";
        for (std::size_t k = 1; k < f; ++k) worst = std::fmax(worst, std::fabs(a.rows[i * f + k] - b.rows[i * f + k]));
      }
      EXPECT_LE(worst, kSigmaZeroCrossing) << name << " noise " << kind;
      std::cout << name << ", noise " << kind << " at sigma 0: " << a.count() << " crossings, largest difference "
                << worst << "\n";
    }
  };
  using StripPlain = Variant<ModelKind::roll_strip, TableKind::none, Precision::float64, GravityKind::any>;
  using StripNoisy = Variant<ModelKind::roll_strip, TableKind::none, Precision::float64, GravityKind::any, false, true>;
  using PlanesPlain = Variant<ModelKind::roll_planes, TableKind::none, Precision::float64, GravityKind::any>;
  using PlanesNoisy = Variant<ModelKind::roll_planes, TableKind::none, Precision::float64, GravityKind::any, false, true>;
  compare(StripPlain{}, StripNoisy{}, strip_config(), plane({0, 1}, -0.1, 0), "roll3:strip, x2 = -0.1");
  compare(StripPlain{}, StripNoisy{}, strip_config(), plane({1, 0}, 0.5, 1), "roll3:strip, sigma = 0.5");
  compare(PlanesPlain{}, PlanesNoisy{}, planes_config(), plane({0, 0, 1}, 0.05, 0), "roll4:planes, x3 = 0.05");
  compare(PlanesPlain{}, PlanesNoisy{}, planes_config(), plane({1, 0, 0}, 0.5, 0), "roll4:planes, sigma = 0.5");
}

TEST(RollingSections, PlanesCrossingsAreExactAndComplete) {
  expect_exact_crossings<ModelKind::roll_planes>("roll4:planes, sigma = 0.5", planes_config(), 3,
                                                 plane({1, 0, 0}, 0.5, 0), 40.0, 8000, 10);
  expect_exact_crossings<ModelKind::roll_planes>("roll4:planes, x2 + x3 = 0.05", planes_config(), 3,
                                                 plane({0, 1, 1}, 0.05, 0), 40.0, 8000, 5);
}

TEST(RollingSections, InsideCylinderCrossingsAreExactAndComplete) {
  expect_exact_crossings<ModelKind::roll_inside_cylinder>("roll3:inside-cylinder, y = 0", cylinder_config(), 3,
                                                          plane({0, 1, 0}, 0.0, 1), 40.0, 8000, 5);
  // a tilted plane: the turn about the axis and the height's oscillation together
  expect_exact_crossings<ModelKind::roll_inside_cylinder>("roll3:inside-cylinder, 0.3 y + z = 0.05", cylinder_config(),
                                                          3, plane({0, 0.3, 1}, 0.05, 0), 40.0, 8000, 10);
}

TEST(RollingSections, TheDirectionsAddUp) {
  const RunConfig rc = skipstone::testing::config_from(planes_config());
  std::uint64_t n[3];
  for (int dir : {-1, 0, 1}) {
    Crossings c(plane({0, 1, 1}, 0.05, dir));
    run_model<ModelKind::roll_planes>(rc, 40.0, c);
    n[dir + 1] = c.count();
  }
  EXPECT_GT(n[0], 0u);
  EXPECT_GT(n[2], 0u);
  EXPECT_EQ(n[0] + n[2], n[1]);
}

}  // namespace
