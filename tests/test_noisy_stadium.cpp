// Noisy constraints on roll3:strip and roll4:planes (include/skipstone/rolling/noisy_stadium.hpp),
// which run the rolling table's integrator on the strip's wall in the closed form's coordinates
// (stadium_wall.hpp): that wall without noise gives the closed form's final state rows on the
// faces and inside the edge passages, from plate starts and from state rows anywhere on the
// stadium; noise 0 is the closed-form kernel bit for bit; sigma = 0 gives the closed form to the
// stochastic Heun scheme's accuracy; roughness keeps the energy on every path (E = k/2 + G z),
// slip does not; realisations reproducible and different; a noisy run's final states start the
// next run; the config's refusals (no_twist, Lyapunov, contact observables); the preset
// examples/noisy_roll3_strip.json.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "config_error.hpp"
#include "npy_writer.hpp"
#include "skipstone/rolling/stadium_wall.hpp"
#include "skipstone/simulate.hpp"
#include "test_support.hpp"

namespace skipstone {
namespace {

using nlohmann::json;
using testing::config_from;

// The general integrator (GBS, rtol = atol = 1e-12) against the closed form over a few passages.
constexpr double kSameModel = 1e-8;
// sigma = 0 against the closed form at noise_dt = 1e-4, r = 0.1: Heun's error, ~(noise_dt |v| / r)^2
// per step, over the passages of the run (measured: 1.3e-6 to t 4.1, slip and roughness alike)
constexpr double kSigmaZeroTolerance = 2e-5;
// roughness through the run: the passages are projected onto the energy (round-off)
constexpr double kProjectedEnergyTolerance = 1e-12;
// slip at sigma 0.3: the energy exchanged with the contact is at least this
constexpr double kSlipEnergyChange = 1e-3;

// The strip (roll3, gravity along the strip) and the planes (roll4, gravity along the axis),
// scanned over v1 (both signs) with spin; t_max lets the runs end on faces and over edges.
json strip_config(double t_max) {
  return {{"system", "roll3:strip"},
          {"parameters", {{"L", 1.0}, {"r", 0.1}, {"eta", 0.5}, {"g_effective", 1.0}}},
          {"initial", {{"start", "plate"}, {"x1", 0.2}, {"z", 0.0}, {"v2", 0.8}, {"spin", 0.3}}},
          {"scan", {{"type", "grid"}, {"axes", {{{"param", "v1"}, {"min", -1.3}, {"max", 1.1}, {"n", 7}}}}}},
          {"stop", {{"t_max", t_max}}},
          {"options", {{"rtol", 1e-12}, {"atol", 1e-12}, {"max_steps", 10000000}}},
          {"observables", {"status", "events", "energy_error", "z_final", "final_state"}}};
}
json planes_config(double t_max) {
  json c = strip_config(t_max);
  c["system"] = "roll4:planes";
  c["initial"] = {{"start", "plate"}, {"x1", 0.2}, {"z", 0.0}, {"v2", 0.4}, {"v3", 0.8},
                  {"S12", 0.3}, {"S13", -0.2}, {"S23", 0.5}};
  return c;
}

// Keeps the last event's state row (the closed form's final state) and the row a rolling
// table writes at its end.
struct RowKeeper {
  double last[9] = {};
  double table[11] = {};  // the state row, then a noisy run's noise columns
  template <class V, class S>
  void on_event(double, V x, const S& s, V) {
    write_state_row(x, s, last);
  }
  double* take_state_row() { return table; }
  template <class T>
  void on_step(T, const T*) {}
};

// The general integrator on the strip's wall, from the scan point's start.
template <int N>
TrajectoryResult general_run(const RunConfig& rc, std::uint64_t i, RowKeeper& k) {
  const ScanPoint pt = scan_point(rc.spec, i);
  RollModel m;
  RollOptions opt;
  table_roll_model(rc.spec, pt, m, opt);
  const StadiumWall<N> wall = stadium_wall<N>(pt.p[P_L], m.r);
  const StadiumStart<N> st = stadium_wall_start<N>(wall, rc.spec, pt.p);
  if (st.on_edge) return run_table_roll_on_edge(wall, m, st.arc, st.y, opt, k);
  return run_table_roll(wall, m, st.s, opt, k);
}

double row_difference(const double* a, const double* b, int n) {
  double worst = 0.0;
  for (int j = 0; j < n; ++j) worst = std::fmax(worst, std::fabs(a[j] - b[j]));
  return worst;
}

// The closed form's final rows of a config, and the general integrator's from the same starts.
template <int N>
void expect_general_is_closed_form(const json& c, const std::string& what, int* on_edge) {
  constexpr int cols = N == 6 ? 5 : 9;
  const RunConfig rc = config_from(c);
  const double L = 1.0, r = 0.1;
  for (std::uint64_t i = 0; i < rc.spec.count; ++i) {
    RowKeeper closed, general;
    const TrajectoryResult a = simulate_trajectory(rc.spec, i, closed);
    const TrajectoryResult b = general_run<N>(rc, i, general);
    ASSERT_EQ(a.status, Status::finished) << what << " " << i;
    ASSERT_EQ(b.status, Status::finished) << what << " " << i;
    EXPECT_EQ(a.events, b.events) << what << " " << i;
    EXPECT_LE(row_difference(closed.last, general.table, cols), kSameModel) << what << " trajectory " << i;

    const double sigma = closed.last[0];
    const bool edge = (sigma > L && sigma < L + kPi * r) || sigma > 2.0 * L + kPi * r;
    *on_edge += edge;
  }
}

TEST(NoisyStadium, TheStripWallWithoutNoiseGivesTheClosedFormsFinalStates) {
  int strip_edge = 0, planes_edge = 0;
  for (double t_max : {0.37, 1.3, 2.9, 4.1}) {
    expect_general_is_closed_form<6>(strip_config(t_max), "roll3:strip t " + std::to_string(t_max), &strip_edge);
    expect_general_is_closed_form<10>(planes_config(t_max), "roll4:planes t " + std::to_string(t_max), &planes_edge);
  }
  EXPECT_GE(strip_edge, 3);  // some runs end inside an edge passage: the edge rows are compared too
  EXPECT_GE(planes_edge, 3);
}


json with_noise(json c, int kind, double sigma) {
  c["parameters"]["noise"] = kind;
  c["parameters"]["noise_sigma"] = sigma;
  c["parameters"]["noise_tau"] = 0.2;
  c["parameters"]["noise_dt"] = 1e-4;
  return c;
}

// Twice the energy per unit mass of a final state row, k + 2 G x_height (G = g_effective = 1):
// roll3 (sigma, x2, v1, v2, s) with height x2, roll4 (sigma, x2, x3, v1, v2, v3, w) with height x3.
double energy(const double* row, int cols) {
  double k = 0.0;
  for (int j = cols == 5 ? 2 : 3; j < cols; ++j) k += row[j] * row[j];
  return k + 2.0 * (cols == 5 ? row[1] : row[2]);
}

TEST(NoisyStadium, NoiseZeroIsTheClosedFormKernelBitForBit) {
  for (const json& plain_config : {strip_config(4.1), planes_config(4.1)}) {
    json c = plain_config;
    const RunConfig plain = config_from(c);
    c["parameters"]["noise"] = 0;
    c["parameters"]["noise_sigma"] = 0.3;
    c["parameters"]["realisation"] = 5;
    const RunConfig zero = config_from(c);
    c["parameters"].erase("noise");
    c["scan"]["axes"].push_back({{"param", "noise"}, {"min", 0}, {"max", 2}, {"n", 3}});
    const RunConfig scanned = config_from(c);  // the noisy kernel; its first 7 points have noise 0
    std::uint64_t events = 0;
    for (std::uint64_t i = 0; i < plain.spec.count; ++i) {
      RowKeeper a, b, d;
      const TrajectoryResult ra = simulate_trajectory(plain.spec, i, a);
      const TrajectoryResult rb = simulate_trajectory(zero.spec, i, b);
      const TrajectoryResult rd = simulate_trajectory(scanned.spec, i, d);
      events += ra.events;
      EXPECT_EQ(0, std::memcmp(&ra, &rb, sizeof ra)) << plain_config["system"] << " " << i;
      EXPECT_EQ(0, std::memcmp(&ra, &rd, sizeof ra)) << plain_config["system"] << " " << i << " (noise axis)";
      EXPECT_EQ(0, std::memcmp(a.last, d.last, sizeof a.last)) << plain_config["system"] << " " << i;
    }
    EXPECT_GE(events, 10u) << plain_config["system"];  // edge passages to compare
  }
}

TEST(NoisyStadium, SigmaZeroIsTheClosedForm) {
  for (const json& plain_config : {strip_config(4.1), planes_config(4.1)}) {
    const int cols = plain_config["system"] == "roll3:strip" ? 5 : 9;
    const RunConfig plain = config_from(plain_config);
    for (int kind : {kNoiseSlip, kNoiseRoughness}) {
      const RunConfig noisy = config_from(with_noise(plain_config, kind, 0.0));
      double worst = 0.0;
      for (std::uint64_t i = 0; i < plain.spec.count; ++i) {
        RowKeeper a, b;
        const TrajectoryResult ra = simulate_trajectory(plain.spec, i, a);
        const TrajectoryResult rb = simulate_trajectory(noisy.spec, i, b);
        const std::string what = plain_config["system"].get<std::string>() + " kind " + std::to_string(kind) + " " +
                                 std::to_string(i);
        ASSERT_EQ(rb.status, Status::finished) << what;
        EXPECT_EQ(ra.events, rb.events) << what;
        EXPECT_NEAR(ra.z_final, rb.z_final, kSigmaZeroTolerance) << what;
        worst = std::fmax(worst, row_difference(a.last, b.table, cols));
      }
      EXPECT_LE(worst, kSigmaZeroTolerance) << plain_config["system"] << " kind " << kind;
      std::printf("%s noise %d, sigma 0: final states within %.2g of the closed form\n",
                  plain_config["system"].get<std::string>().c_str(), kind, worst);
    }
  }
}

// Roughness keeps E = k/2 + G z on every path (the passages are projected onto it), slip
// exchanges energy with the contact; both move the final states away from sigma = 0.
TEST(NoisyStadium, RoughnessKeepsTheEnergySlipDoesNot) {
  for (const json& plain_config : {strip_config(4.1), planes_config(4.1)}) {
    const int cols = plain_config["system"] == "roll3:strip" ? 5 : 9;
    const std::string system = plain_config["system"];
    for (int kind : {kNoiseSlip, kNoiseRoughness}) {
      const RunConfig still = config_from(with_noise(plain_config, kind, 0.0));
      const RunConfig noisy = config_from(with_noise(plain_config, kind, 0.3));
      int changed = 0, moved = 0;
      for (std::uint64_t i = 0; i < noisy.spec.count; ++i) {
        RowKeeper a, b, start;
        simulate_trajectory(still.spec, i, a);
        const TrajectoryResult r = simulate_trajectory(noisy.spec, i, b);
        ASSERT_EQ(r.status, Status::finished) << system << " kind " << kind << " " << i;
        json once = with_noise(plain_config, kind, 0.3);
        once["stop"]["t_max"] = 1e-300;
        simulate_trajectory(config_from(once).spec, i, start);
        const double e0 = energy(start.table, cols), e1 = energy(b.table, cols);
        if (kind == kNoiseRoughness) {
          EXPECT_LE(r.energy_error, kProjectedEnergyTolerance) << system << " " << i;
          EXPECT_NEAR(e1, e0, 1e-10 * e0) << system << " " << i;
        }
        changed += std::fabs(e1 - e0) > kSlipEnergyChange * e0;
        moved += row_difference(a.table, b.table, cols) > 1e-3;
      }
      if (kind == kNoiseSlip) {
        EXPECT_GE(changed, 6) << system;
      }
      EXPECT_GE(moved, 6) << system << " kind " << kind;
    }
  }
}

TEST(NoisyStadium, RealisationsAreReproducibleAndDiffer) {
  for (const json& plain_config : {strip_config(4.1), planes_config(4.1)}) {
    json c = with_noise(plain_config, kNoiseSlip, 0.3);
    c["scan"]["axes"].push_back({{"param", "realisation"}, {"min", 0}, {"max", 1}, {"n", 2}});
    const RunConfig rc = config_from(c);
    for (std::uint64_t i = 0; i < 7; ++i) {
      RowKeeper a, again, other;
      simulate_trajectory(rc.spec, i, a);
      simulate_trajectory(rc.spec, i, again);
      simulate_trajectory(rc.spec, i + 7, other);  // the same start, realisation 1
      EXPECT_EQ(0, std::memcmp(a.table, again.table, sizeof a.table)) << plain_config["system"] << " " << i;
      EXPECT_GT(row_difference(a.table, other.table, 5), 1e-6) << plain_config["system"] << " " << i;
    }
  }
}

// A noisy run's final states are the closed form's state rows and start the next run, on a face
// or over an edge: at sigma = 0 the run to 2T is the run to T continued for T (T a whole number
// of noise steps: the same time grid) to the scheme's accuracy.
TEST(NoisyStadium, ANoisyRunGoesOnFromItsFinalStates) {
  constexpr double kSplit = 1e-8;  // measured: 2e-15 (slip), 3e-11 (roughness: projected passages)
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "skipstone_noisy_stadium";
  std::filesystem::create_directories(dir);
  for (const json& plain_config : {strip_config(2.0), planes_config(2.0)}) {
    const int cols = plain_config["system"] == "roll3:strip" ? 5 : 9;
    const std::string system = plain_config["system"];
    for (int kind : {kNoiseSlip, kNoiseRoughness}) {
      json half = with_noise(plain_config, kind, 0.0), full = half;
      full["stop"]["t_max"] = 4.0;
      const RunConfig a = config_from(half), whole = config_from(full);
      std::vector<double> rows;
      std::vector<RowKeeper> ends(a.spec.count);
      int on_edge = 0;
      for (std::uint64_t i = 0; i < a.spec.count; ++i) {
        simulate_trajectory(a.spec, i, ends[i]);
        rows.insert(rows.end(), ends[i].table, ends[i].table + cols);
        const double sigma = ends[i].table[0];
        on_edge += (sigma > 1.0 && sigma < 1.0 + kPi * 0.1) || sigma > 2.0 + kPi * 0.1;
      }
      const std::filesystem::path file = dir / (system.substr(0, 5) + std::to_string(kind) + ".npy");
      io::write_npy(file, rows, {a.spec.count, static_cast<std::size_t>(cols)});
      json cont = half;
      cont.erase("scan");
      cont["initial"] = {{"start", "state_file"}, {"file", file.string()}};
      const RunConfig b = config_from(cont);
      double worst = 0.0;
      for (std::uint64_t i = 0; i < a.spec.count; ++i) {
        RowKeeper w, c;
        simulate_trajectory(whole.spec, i, w);
        const TrajectoryResult r = simulate_trajectory(b.spec, i, c);
        ASSERT_EQ(r.status, Status::finished) << system << " " << i;
        worst = std::fmax(worst, row_difference(w.table, c.table, cols));
      }
      EXPECT_GE(on_edge, 1) << system << " kind " << kind;
      EXPECT_LE(worst, kSplit) << system << " kind " << kind;
      std::printf("%s noise %d: %d of 7 inside an edge passage at T, split in two %.2g\n", system.c_str(), kind,
                  on_edge, worst);
    }
  }
}

// The preset, its grid cut to 3 starts x 2 amplitudes x 2 realisations and t_max to 50: every
// run finishes, the energy is kept to round-off, and the noise moves the rough runs' lowest point.
TEST(NoisyStadium, PresetNoisyRoll3StripRuns) {
  std::ifstream f(std::string(SKIPSTONE_SOURCE_DIR) + "/examples/noisy_roll3_strip.json");
  json c = json::parse(f);
  c["scan"]["axes"][0]["n"] = 3;
  c["scan"]["axes"][1]["n"] = 2;
  c["scan"]["axes"][2]["max"] = 1;
  c["scan"]["axes"][2]["n"] = 2;
  c["stop"]["t_max"] = 50.0;
  const RunConfig rc = config_from(c);
  ASSERT_EQ(rc.spec.count, 12u);
  double moved = 0.0;
  for (std::uint64_t i = 0; i < rc.spec.count; i += 6) {  // i: sigma 0; i + 3: sigma 0.2, the same start
    for (std::uint64_t k = 0; k < 3; ++k) {
      DiscardSink none;
      const TrajectoryResult still = simulate_trajectory(rc.spec, i + k, none);
      const TrajectoryResult rough = simulate_trajectory(rc.spec, i + k + 3, none);
      for (const TrajectoryResult* r : {&still, &rough}) {
        EXPECT_EQ(r->status, Status::finished) << i + k;
        EXPECT_LE(r->energy_error, kProjectedEnergyTolerance) << i + k;
        EXPECT_GT(r->events, 20u) << i + k;
      }
      moved = std::fmax(moved, std::fabs(rough.z_min - still.z_min));
    }
  }
  EXPECT_GT(moved, 0.1);
}

std::string refusal(const json& config) {
  try {
    config_from(config);
  } catch (const ConfigError& e) {
    return e.key();
  }
  return "accepted";
}

TEST(NoisyStadium, BadCombinationsAreRefusedNamingTheKey) {
  for (const json& plain_config : {strip_config(4.1), planes_config(4.1)}) {
    const json c = with_noise(plain_config, kNoiseRoughness, 0.1);
    EXPECT_EQ(refusal(c), "accepted");
    json twist = c;  // a rubber ball (no spin about the contact normal) takes no noisy constraints
    twist["parameters"]["no_twist"] = 1;
    for (const char* k : {"spin", "S12", "S13", "S23"})
      if (twist["initial"].contains(k)) twist["initial"][k] = 0.0;
    EXPECT_EQ(refusal(twist), "parameters.noise");
    json lyap = c;
    lyap["observables"] = {"status", "lyapunov"};
    EXPECT_EQ(refusal(lyap), "observables[1]");
    json contact = c;
    contact["observables"] = {"status", "slip_time"};
    EXPECT_EQ(refusal(contact), "observables[1]");
  }
}

}  // namespace
}  // namespace skipstone
