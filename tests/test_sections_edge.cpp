// Poincare sections on the edge passages of the rolling tables (rolling/edge_sections.hpp,
// curve_crossings.hpp: for_each_step_crossing): planes that the ball's centre crosses while it
// rolls over the edge (within r of the wall), on roll4:stadium (a plane along a straight side,
// a tilted one at a cap, the line through the breaks where the caps meet the sides), roll3:ellipse
// (a height between the faces, reached on the edge only) and roll4:disc. Each recorded crossing
// lies on the plane, and on the trajectory (a run stopped at its time ends on the plane); the
// crossings are as many, per direction, as the sign changes of n . x - c over a dense trace of the
// same trajectory (the trace's exact samples), so none is missed or counted twice at a step's
// end, a break or a junction; and planes that only the edge reaches do get crossings. With noisy
// constraints (roughness), the crossings of the straight lines between the scheme's steps: as
// many as the sign changes over the steps, each on its step's chord, and with noise_sigma = 0
// those of the deterministic run.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <string>
#include <vector>

#include "skipstone/final_state.hpp"
#include "skipstone/simulate.hpp"
#include "section_crossings.hpp"
#include "test_support.hpp"

namespace {

using namespace skipstone;
using nlohmann::json;

// |n . x - c| of a recorded crossing (|n| = 1): the root is solved to the exit's time resolution
// (1e-15 (1 + t)) times the speed (~1.5); double.
constexpr double kOnPlane = 1e-12;
// The same for a float run (rim_newton 5.4e-7 (1 + t), the float rows).
constexpr double kFloatOnPlane = 1e-4;
// A run stopped at a crossing's time ends on the plane to the integrator's tolerance (rtol =
// atol = 1e-12 over the passage) and the round-off of the two clocks.
constexpr double kOnTrajectory = 1e-9;
// The dense trace's spacing: far below the time between two crossings of these planes.
constexpr double kSampleStep = 1e-3;

using Crossings = skipstone::testing::SectionCrossings;

// The centre at the samples k * kSampleStep of a run (the trace's exact stops).
struct Trace {
  std::vector<double> x;
  std::uint64_t k = 1;
  double next_sample() const { return k * kSampleStep; }
  template <class V, class S>
  void on_sample(double, V c, const S&, V) {
    x.insert(x.end(), {double(c.x), double(c.y), double(c.z)});
    ++k;
  }
  template <class V, class S>
  void on_event(double, V, const S&, V) {}
  template <class T>
  void on_step(T, const T*) {}
};

// The centre at the last event of a run.
struct LastCentre {
  double x[3] = {};
  template <class V, class S>
  void on_event(double, V c, const S&, V) {
    x[0] = c.x, x[1] = c.y, x[2] = c.z;
  }
  template <class T>
  void on_step(T, const T*) {}
};

SectionPlane plane(std::vector<double> n, double offset, int direction) {
  return skipstone::testing::section_plane(n, offset, direction, 3);
}

double level(const SectionPlane& p, const double* x) {
  return p.n[0] * x[0] + p.n[1] * x[1] + p.n[2] * x[2] - p.offset;
}

template <ModelKind M, TableKind TK, Precision P = Precision::float64, class Sink>
void run_model(const RunConfig& rc, double t_max, Sink& sink) {
  ScanSpec spec = rc.spec;
  spec.t_max = t_max;
  simulate_variant<Variant<M, TK, P, GravityKind::any>>(spec, 0, sink);
}

struct Case {
  const char* name;
  json config;
  std::vector<double> n;
  double offset;
  double t_max;
  std::uint64_t min_crossings;  // per direction
};

// The crossings of each direction against the dense trace's sign changes; on the plane; on the
// trajectory (double).
template <ModelKind M, TableKind TK, Precision P = Precision::float64>
void expect_complete_crossings(const Case& c) {
  const RunConfig rc = skipstone::testing::config_from(c.config);
  Trace trace;
  run_model<M, TK, P>(rc, c.t_max, trace);
  const SectionPlane both = plane(c.n, c.offset, 0);
  std::uint64_t changes[2] = {0, 0};  // down, up
  for (std::size_t k = 3; k < trace.x.size(); k += 3) {
    const double a = level(both, &trace.x[k - 3]), b = level(both, &trace.x[k]);
    if ((a < 0.0) != (b < 0.0)) ++changes[b > a ? 1 : 0];
  }
  const double on_plane = P == Precision::float64 ? kOnPlane : kFloatOnPlane;
  for (int dir : {-1, 1}) {
    Crossings found(plane(c.n, c.offset, dir));
    run_model<M, TK, P>(rc, c.t_max, found);
    double worst = 0.0, worst_run = 0.0;
    for (std::uint64_t i = 0; i < found.count(); ++i) {
      worst = std::fmax(worst, std::fabs(level(found.plane, found.centre(i))));
      if (i > 0) {
        EXPECT_GT(found.time(i), found.time(i - 1)) << c.name << " " << i;
      }
      if (P == Precision::float64 && i < 12) {
        LastCentre at;
        run_model<M, TK, P>(rc, found.time(i), at);
        worst_run = std::fmax(worst_run, std::fabs(level(found.plane, at.x)));
      }
    }
    std::cout << c.name << ", direction " << dir << ": " << found.count() << " crossings to t = " << c.t_max
              << " (sign changes over the trace: " << changes[dir > 0] << "), largest |n . x - c| " << worst
              << ", of a run stopped there " << worst_run << "\n";
    EXPECT_GE(found.count(), c.min_crossings) << c.name << " " << dir;
    EXPECT_EQ(found.count(), changes[dir > 0]) << c.name << " " << dir;
    EXPECT_LT(worst, on_plane) << c.name << " " << dir;
    if (P == Precision::float64) {
      EXPECT_LT(worst_run, kOnTrajectory) << c.name << " " << dir;
    }
  }
}

json stadium_config(const char* precision = "double") {
  json j = json::parse(R"({"system": "roll4:stadium",
    "parameters": {"half_length": 1.0, "R": 1.0, "r": 0.1, "eta": 0.5, "g_effective": 0.05},
    "initial": {"start": "plate", "x1": 0.3, "x2": 0.0, "z": 0.0, "v1": 0.7, "v2": 0.9, "v3": 0.2,
                "S12": 0.3, "S13": -0.1, "S23": 0.2},
    "stop": {"t_max": 30.0},
    "options": {"rtol": 1e-12, "atol": 1e-12, "max_steps": 1000000}})");
  j["options"]["precision"] = precision;
  if (std::string(precision) == "float") j["options"]["rtol"] = j["options"]["atol"] = 1e-5;
  return j;
}

json ellipse_config() {
  return json::parse(R"({"system": "roll3:ellipse",
    "parameters": {"a": 1.5, "b": 1.0, "r": 0.1, "gamma": 0.6325, "g_effective": 0.2},
    "initial": {"start": "plate", "x1": 0.2, "x2": -0.1, "v1": 0.8, "v2": 0.5, "S12": 0.4},
    "stop": {"t_max": 30.0},
    "options": {"rtol": 1e-12, "atol": 1e-12, "max_steps": 1000000}})");
}

json disc_config() {
  return json::parse(R"({"system": "roll4:disc",
    "parameters": {"R": 1.0, "r": 0.1, "eta": 0.5, "g_effective": 0.0},
    "initial": {"start": "plate", "x1": 0.1, "x2": 0.2, "z": 0.0, "v1": 0.9, "v2": 0.3, "v3": 0.1,
                "S12": 0.3, "S13": 0.1, "S23": -0.2},
    "stop": {"t_max": 30.0},
    "options": {"rtol": 1e-12, "atol": 1e-12, "max_steps": 1000000}})");
}

TEST(EdgeSections, StadiumSideAndCapPlanes) {
  // x2 = 1.05: along a straight side, inside the edge band 1 < x2 < 1.1 (sin phi = 1/2 there)
  expect_complete_crossings<ModelKind::roll4_table, TableKind::stadium>(
      {"roll4:stadium, x2 = 1.05", stadium_config(), {0, 1, 0}, 1.05, 100.0, 3});
  // x1 + x2 = 1 + 1.05 sqrt(2): tilted, at the cap (x1 > 1), beyond the plate (x1 + x2 <= 1 + sqrt 2 there)
  expect_complete_crossings<ModelKind::roll4_table, TableKind::stadium>(
      {"roll4:stadium, x1 + x2 = 2.485", stadium_config(), {1, 1, 0}, 1.0 + 1.05 * std::sqrt(2.0), 100.0, 2});
}

TEST(EdgeSections, StadiumBreaksAndJunctionsCountOnce) {
  // x1 = 1 through the breaks where the cap meets the sides (a passage over the break crosses it
  // there, at the end of one piece and the start of the next), crossed on the plate too (the
  // flights end and start at the junctions before and after)
  expect_complete_crossings<ModelKind::roll4_table, TableKind::stadium>(
      {"roll4:stadium, x1 = 1", stadium_config(), {1, 0, 0}, 1.0, 100.0, 5});
}

// x2 = 1, the line of a straight side: every passage over that side enters and leaves the edge on
// the plane itself, where the flight's end and the edge's first row (or the edge's last row and
// the flight after) are one point computed twice. Starts in eight directions at speed 1.1 (each
// lost 1 to 6 of its 6 to 24 downward crossings, at the exits, before the sink started a piece
// from the level the piece before ended at).
TEST(EdgeSections, StadiumSideLineThroughEveryEntryAndExit) {
  for (const double angle : {0.38, 0.87, 1.01, 1.36, 1.50, 1.57, 1.78, 1.92}) {
    json config = stadium_config();
    config["initial"]["v1"] = 1.1 * std::cos(angle);
    config["initial"]["v2"] = 1.1 * std::sin(angle);
    const std::string name = "roll4:stadium, x2 = 1, start angle " + std::to_string(angle);
    expect_complete_crossings<ModelKind::roll4_table, TableKind::stadium>(
        {name.c_str(), config, {0, 1, 0}, 1.0, 100.0, 3});
  }
}

TEST(EdgeSections, StadiumFloat) {
  expect_complete_crossings<ModelKind::roll4_table, TableKind::stadium, Precision::float32>(
      {"roll4:stadium (float), x2 = 1.05", stadium_config("float"), {0, 1, 0}, 1.05, 100.0, 3});
}

TEST(EdgeSections, EllipseHeightBetweenTheFaces) {
  // z = r cos(phi) = 0.05: on the edge only (the faces are at z = +-r); roll3 with in-plane gravity
  expect_complete_crossings<ModelKind::roll3_table, TableKind::ellipse>(
      {"roll3:ellipse, z = 0.05", ellipse_config(), {0, 0, 1}, 0.05, 30.0, 3});
}

TEST(EdgeSections, DiscRimBand) {
  // x1 = 0.95: crossed on the plate and, by the passages over the rim near angle 0, on the edge
  expect_complete_crossings<ModelKind::roll_disc, TableKind::none>(
      {"roll4:disc, x1 = 0.95", disc_config(), {1, 0, 0}, 0.95, 30.0, 3});
}

TEST(EdgeSections, EllipseEdgePresetCrossesOnTheEdgeOnly) {
  // examples/roll3_ellipse_edge_section.json: z = 0.05 downward, coords (x1, x2, v3); a spread of
  // its starts, each crossing outside the plate (within r of the ellipse) and going down
  std::ifstream in(std::string(SKIPSTONE_SOURCE_DIR) + "/examples/roll3_ellipse_edge_section.json");
  const RunConfig rc = skipstone::testing::config_from(json::parse(in));
  std::uint64_t total = 0;
  for (std::uint64_t i = 0; i < 768; i += 29) {
    Crossings found(rc.plane);
    simulate_variant<Variant<ModelKind::roll3_table, TableKind::ellipse, Precision::float64, GravityKind::any>>(
        rc.spec, i, found);
    for (std::uint64_t k = 0; k < found.count(); ++k) {
      const double* c = found.centre(k);
      const double e = c[0] * c[0] / (1.5 * 1.5) + c[1] * c[1];
      EXPECT_GT(e, 1.0) << i << " " << k;
      EXPECT_LT(c[2], 0.0) << i << " " << k;
    }
    total += found.count();
  }
  std::cout << "roll3_ellipse_edge_section: " << total << " crossings over 27 starts\n";
  EXPECT_GE(total, 10u);
}

// Noisy constraints: the passages are known at the fixed steps of the stochastic scheme only, and
// a crossing is located on the straight line between two steps (edge_sections.hpp: kLinear).

// The crossings of a noisy run and its steps: the centre at every event (each step of an edge
// passage, each entry and exit).
struct NoisyCrossings : Crossings {
  std::vector<double> t, x;
  using Crossings::Crossings;
  template <class V, class S>
  void on_event(double time, V c, const S&, V) {
    t.push_back(time);
    x.insert(x.end(), {double(c.x), double(c.y), double(c.z)});
  }
};

// A crossing lies on the chord between the centres of the two steps around it, up to the centre
// path's bend inside a step (the state is interpolated linearly, the centre is not linear in it:
// at most h^2 |v|^2 / (8 r) ~ 1e-6 with h = 1e-3, |v| <~ 1, r = 0.1; these cases reach 1.1e-7).
// The deterministic partial step in place of the line (the GBS passages' curve) puts the noisy
// crossings 4.6e-7 to 1.1e-6 off their chords.
constexpr double kOnChord = 3e-7;
constexpr double kNoiseDt = 1e-3;  // the scheme's step (noise_dt)
// noise_sigma = 0: the fixed-step scheme's crossings against the GBS passage's, at noise_dt =
// 1e-3 (Heun's global error O(dt^2), grown over a few passages: 9.1e-5 at most here).
constexpr double kZeroSigmaTime = 2e-4;

template <ModelKind M, TableKind TK, class Sink>
void run_noisy(const RunConfig& rc, double t_max, Sink& sink) {
  ScanSpec spec = rc.spec;
  spec.t_max = t_max;
  simulate_variant<Variant<M, TK, Precision::float64, GravityKind::any, false, true>>(spec, 0, sink);
}

// Each direction's crossings against the sign changes of n . x - c over the steps' centres, on
// the plane, and those inside a step of a passage (not on a flight) on the chord of their step.
template <ModelKind M, TableKind TK>
void expect_noisy_crossings(const Case& c) {
  const RunConfig rc = skipstone::testing::config_from(c.config);
  for (int dir : {-1, 1}) {
    NoisyCrossings found(plane(c.n, c.offset, dir));
    run_noisy<M, TK>(rc, c.t_max, found);
    ASSERT_GE(found.t.size(), 2u) << c.name << ": the run's steps";
    std::uint64_t changes = 0;
    for (std::size_t k = 3; k < found.x.size(); k += 3) {
      const double a = level(found.plane, &found.x[k - 3]), b = level(found.plane, &found.x[k]);
      if ((a < 0.0) != (b < 0.0) && (b > a) == (dir > 0)) ++changes;
    }
    double worst_plane = 0.0, worst_chord = 0.0;
    std::uint64_t on_steps = 0;
    for (std::uint64_t i = 0; i < found.count(); ++i) {
      const double* p = found.centre(i);
      worst_plane = std::fmax(worst_plane, std::fabs(level(found.plane, p)));
      std::size_t k = 1;  // the step that ends at or after the crossing
      while (k + 1 < found.t.size() && found.t[k] < found.time(i)) ++k;
      if (found.t[k] - found.t[k - 1] > kNoiseDt * (1.0 + 1e-9)) continue;  // on a flight (closed form)
      ++on_steps;
      const double* a = &found.x[3 * (k - 1)];
      const double* b = &found.x[3 * k];
      double ab[3], ap[3], along = 0.0, len2 = 0.0;
      for (int j = 0; j < 3; ++j) ab[j] = b[j] - a[j], ap[j] = p[j] - a[j], along += ab[j] * ap[j], len2 += ab[j] * ab[j];
      along = len2 > 0.0 ? along / len2 : 0.0;
      double off = 0.0;
      for (int j = 0; j < 3; ++j) off += (ap[j] - along * ab[j]) * (ap[j] - along * ab[j]);
      worst_chord = std::fmax(worst_chord, std::sqrt(off));
    }
    std::cout << c.name << " (noisy), direction " << dir << ": " << found.count() << " crossings (sign changes over "
              << found.t.size() << " steps: " << changes << "), largest |n . x - c| " << worst_plane
              << ", largest distance from the step's chord " << worst_chord << " (" << on_steps
              << " crossings inside a step)\n";
    EXPECT_GE(found.count(), c.min_crossings) << c.name << " " << dir;
    EXPECT_GT(on_steps, 0u) << c.name << " " << dir;
    EXPECT_EQ(found.count(), changes) << c.name << " " << dir;
    EXPECT_LT(worst_plane, kOnPlane) << c.name << " " << dir;
    EXPECT_LT(worst_chord, kOnChord) << c.name << " " << dir;
  }
}

json noisy(json j, double sigma) {
  j["parameters"]["noise"] = 2;  // roughness
  j["parameters"]["noise_sigma"] = sigma;
  j["parameters"]["noise_tau"] = 0.5;
  j["parameters"]["noise_dt"] = kNoiseDt;
  return j;
}

TEST(EdgeSections, NoisyEllipseAndDiscCrossOnTheirSteps) {
  // z = 0.05, between the faces, and x1 = 1.02, beyond the disc's rim: crossed on the noisy edge
  // passages only
  expect_noisy_crossings<ModelKind::roll3_table, TableKind::ellipse>(
      {"roll3:ellipse, z = 0.05", noisy(ellipse_config(), 0.3), {0, 0, 1}, 0.05, 30.0, 3});
  expect_noisy_crossings<ModelKind::roll_disc, TableKind::none>(
      {"roll4:disc, x1 = 1.02", noisy(disc_config(), 0.3), {1, 0, 0}, 1.02, 60.0, 2});
}

TEST(EdgeSections, NoisyStadiumAcrossItsBreaks) {
  // x1 = 1 through the breaks of the stadium's wall: a noisy passage over a break goes on over
  // the next piece from the break's located point
  expect_noisy_crossings<ModelKind::roll4_table, TableKind::stadium>(
      {"roll4:stadium, x1 = 1", noisy(stadium_config(), 0.3), {1, 0, 0}, 1.0, 100.0, 5});
}

TEST(EdgeSections, NoisyWithoutNoiseIsTheGbsPassage) {
  // noise_sigma = 0: the fixed-step passages' crossings are the deterministic run's
  const RunConfig det = skipstone::testing::config_from(ellipse_config());
  const RunConfig rough = skipstone::testing::config_from(noisy(ellipse_config(), 0.0));
  for (int dir : {-1, 1}) {
    Crossings exact(plane({0, 0, 1}, 0.05, dir));
    NoisyCrossings stepped(plane({0, 0, 1}, 0.05, dir));
    run_model<ModelKind::roll3_table, TableKind::ellipse>(det, 10.0, exact);
    run_noisy<ModelKind::roll3_table, TableKind::ellipse>(rough, 10.0, stepped);
    ASSERT_GE(exact.count(), 1u) << dir;
    ASSERT_EQ(stepped.count(), exact.count()) << dir;
    double worst = 0.0;
    for (std::uint64_t i = 0; i < exact.count(); ++i) worst = std::fmax(worst, std::fabs(stepped.time(i) - exact.time(i)));
    std::cout << "roll3:ellipse, z = 0.05, noise_sigma 0, direction " << dir << ": " << exact.count()
              << " crossings, largest time difference from the GBS run " << worst << "\n";
    EXPECT_LT(worst, kZeroSigmaTime) << dir;
  }
}

}  // namespace
