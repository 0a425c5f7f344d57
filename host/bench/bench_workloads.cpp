// Configs and sizes of the benchmark workloads.
#include "bench_workloads.hpp"

namespace skipstone::bench {

using nlohmann::json;

namespace {
constexpr double kGammaSolidBall = 0.8164965809;  // sqrt(2/3)
}

WorkloadSizes workload_sizes(bool gpu, bool quick) {
  if (quick) return {64, 2000, 64, 2000, 32, 16, 20.0, 8};
  if (gpu)
    return {std::uint64_t{1} << 20, 20000, std::uint64_t{1} << 18, 20000, 4096, std::uint64_t{1} << 16, 200.0, 512};
  return {2048, 20000, 2048, 20000, 256, 64, 200.0, 32};
}

json disc_config(std::uint64_t count, std::uint64_t events) {
  return {{"system", "disc"},
          {"parameters", {{"R", 1.0}, {"gamma", kGammaSolidBall}}},
          {"initial", {{"start", "boundary"}, {"boundary_s", 0.0}, {"speed", 1.0}}},
          {"scan",
           {{"type", "random"},
            {"count", count},
            {"seed", 1},
            {"axes", {{{"param", "angle"}, {"min", -1.4}, {"max", 1.4}}, {{"param", "spin"}, {"min", -1.0}, {"max", 1.0}}}}}},
          {"stop", {{"max_events", events}}}};
}

json disc_impulse_config(std::uint64_t count, std::uint64_t events) {
  json j = disc_config(count, events);
  j["observables"] = {"status", "events", "t_end", "energy_error", "impulse_ratio_max", "impulse_ratio_mean"};
  return j;
}

json disc_holes_config(std::uint64_t count, std::uint64_t events) {
  json j = disc_config(count, events);
  j["stop"]["holes"] = {{0.5, 0.501}};
  return j;
}

json cylinder_config(std::uint64_t count, std::uint64_t events) {
  return {{"system", "cylinder:disc"},
          {"parameters", {{"R", 1.0}, {"gamma", kGammaSolidBall}, {"g", 1.0}}},
          {"initial", {{"start", "impact"}, {"boundary_s", 0.0}, {"speed", 1.0}, {"vz", 0.0}}},
          {"scan",
           {{"type", "random"},
            {"count", count},
            {"seed", 2},
            {"axes", {{{"param", "angle"}, {"min", 0.8}, {"max", 1.5}}, {{"param", "slip"}, {"min", -0.2}, {"max", 0.2}}}}}},
          {"stop", {{"max_events", events}}}};
}

json cylinder_stadium_config(std::uint64_t count, std::uint64_t events, bool lyapunov) {
  json j = {{"system", "cylinder:stadium"},
            {"parameters", {{"half_length", 1.0}, {"R", 1.0}, {"gamma", kGammaSolidBall}, {"g", 0.4}}},
            {"initial", {{"start", "impact"}, {"boundary_s", 0.1}, {"speed", 1.0}, {"vz", 0.3}}},
            {"scan",
             {{"type", "random"},
              {"count", count},
              {"seed", 3},
              {"axes", {{{"param", "angle"}, {"min", -1.4}, {"max", 1.4}}, {{"param", "slip"}, {"min", -0.2}, {"max", 0.2}}}}}},
            {"stop", {{"max_events", events}}}};
  if (lyapunov) j["observables"] = {"events", "lyapunov"};
  else j["observables"] = {"events"};
  return j;
}

json figure18_base(double rtol, double atol) {
  return {{"system", "roll4:disc-transversal"},
          {"parameters", {{"R", 1.0}, {"r", 1.0}, {"eta", 0.5}}},
          {"stop", {{"t_max", 200.0}}},
          {"options", {{"rtol", rtol}, {"atol", atol}}}};
}

json figure18_grid_config(std::uint64_t n, double tol) {
  json j = figure18_base(tol, tol);
  j["initial"] = {{"start", "rim_entry"}, {"speed", 1.0}};
  j["scan"] = {{"type", "grid"},
               {"axes", {{{"param", "v2"}, {"min", -1.0}, {"max", 1.0}, {"n", n}},
                         {{"param", "S12"}, {"min", -1.0}, {"max", 1.0}, {"n", n}}}}};
  return j;
}

json figure18_noisy_config(std::uint64_t n) {
  json j = figure18_grid_config(n);
  j["parameters"].update({{"noise", 2}, {"noise_sigma", 0.2}, {"noise_tau", 0.5}, {"noise_dt", 1e-3}});
  return j;
}

json rough_edge_config(json j) {
  j["parameters"].update({{"noise", 2}, {"noise_sigma", 0.05}, {"noise_tau", 0.2}, {"noise_dt", 1e-3}});
  return j;
}

json slipping_contact_config(json j) {
  j = rough_edge_config(j);
  j["parameters"]["noise"] = 1;
  return j;
}

json roll4_gravity_config(std::uint64_t count, double t_max) {
  return roll4_table_gravity_config("roll4:disc", {{"R", 1.0}}, count, t_max);
}

json roll4_contact_config(std::uint64_t count, double t_max) {
  json j = roll4_gravity_config(count, t_max);
  j["observables"] = {"status", "events", "t_end", "energy_error", "z_min", "normal_force_min", "friction_ratio_max",
                      "detach_time", "slip_time"};
  return j;
}

json roll4_table_gravity_config(const char* system, const json& table, std::uint64_t count, double t_max) {
  json parameters = {{"r", 0.1}, {"eta", 0.5}, {"g_effective", 1.0}};
  parameters.update(table);
  return {{"system", system},
          {"parameters", parameters},
          {"initial",
           {{"start", "plate"}, {"x1", -0.715}, {"x2", 0.0}, {"z", 0.0}, {"v2", 1.0}, {"v3", 0.0}, {"S13", 0.0},
            {"S23", -1.0}}},
          {"scan",
           {{"type", "random"},
            {"count", count},
            {"seed", 3},
            {"axes", {{{"param", "v1"}, {"min", -2.0}, {"max", -0.2}}, {{"param", "S12"}, {"min", 0.3}, {"max", 0.9}}}}}},
          {"stop", {{"t_max", t_max}}},
          {"options", {{"bounded_depth", 2.0}}}};
}

json roll4_stadium_lyapunov_config(std::uint64_t count, double t_max) {
  json j = roll4_table_gravity_config("roll4:stadium", {{"half_length", 1.0}, {"R", 1.0}}, count, t_max);
  j["observables"] = {"status", "events", "t_end", "energy_error", "z_min", "z_max", "z_final", "z_drift", "bounded",
                      "exit_time", "exit_arc", "exit_side", "lyapunov", "lyapunov_per_event"};
  return j;
}

json roll4_stadium_rubber_config(std::uint64_t count, double t_max) {
  json j = roll4_table_gravity_config("roll4:stadium", {{"half_length", 1.0}, {"R", 1.0}}, count, t_max);
  j["parameters"]["no_twist"] = 1;
  j["initial"]["S23"] = 0.0;
  j["scan"]["axes"] = {j["scan"]["axes"][0]};
  return j;
}

json roll4_stadium_escape_config(std::uint64_t count, double t_max) {
  json j = roll4_table_gravity_config("roll4:stadium", {{"half_length", 1.0}, {"R", 1.0}}, count, t_max);
  j["stop"]["holes"] = {{0.30, 0.35}};
  j["observables"] = {"status", "events", "t_end", "energy_error", "escape_time", "hole"};
  return j;
}

json closed_form_rolling_config(const char* system, std::uint64_t count, double t_max, bool lyapunov) {
  const std::string name = system;
  json parameters = {{"L", 1.0}, {"r", 0.3}, {"eta", 0.6}, {"g_effective", 0.8}};
  json initial = {{"start", "plate"}, {"x1", 0.1}, {"z", 0.0}, {"spin", -0.3}};
  if (name == "roll4:planes") {
    initial = {{"start", "plate"}, {"x1", 0.1}, {"z", 0.0}, {"v3", 0.4}, {"S12", 0.2}, {"S13", -0.3}, {"S23", 0.25}};
  } else if (name == "roll3:inside-cylinder") {
    parameters = {{"R", 1.0}, {"r", 0.2}, {"gamma", 0.6324555320336759}, {"g", 1.0}};  // a solid ball: gamma^2 = 2/5
    initial = {{"start", "wall"}, {"angle", 0.3}, {"z", 0.1}, {"spin", -0.2}};
  }
  json j = {{"system", system},
            {"parameters", parameters},
            {"initial", initial},
            {"scan",
             {{"type", "random"},
              {"count", count},
              {"seed", 5},
              {"axes", {{{"param", "v1"}, {"min", 0.5}, {"max", 1.5}}, {{"param", "v2"}, {"min", -0.5}, {"max", 0.5}}}}}},
            {"stop", {{"t_max", t_max}}}};
  j["observables"] = {"status", "events", "t_end", "energy_error", "z_min", "z_max", "z_final", "z_drift", "bounded"};
  if (lyapunov) {
    j["observables"].push_back("lyapunov");
    j["observables"].push_back("lyapunov_per_event");
  }
  return j;
}

json roll3_table_gravity_config(const char* system, const json& table, std::uint64_t count, double t_max) {
  json parameters = {{"r", 0.1}, {"eta", 0.5}, {"g_effective", 1.0}};
  parameters.update(table);
  return {{"system", system},
          {"parameters", parameters},
          {"initial", {{"start", "plate"}, {"x1", 0.0}, {"x2", 0.5}, {"v2", 0.0}}},
          {"scan",
           {{"type", "random"},
            {"count", count},
            {"seed", 4},
            {"axes", {{{"param", "v1"}, {"min", -1.0}, {"max", 1.0}}, {{"param", "S12"}, {"min", -0.5}, {"max", 0.5}}}}}},
          {"stop", {{"t_max", t_max}}}};
}

json driven_disk_config(std::uint64_t count) {
  return {{"system", "driven:disk"},
          {"parameters", {{"gamma", 1.0}, {"g", 1.0}}},
          {"initial", {{"start", "rolling"}}},
          {"scan",
           {{"type", "random"},
            {"count", count},
            {"seed", 5},
            {"axes", {{{"param", "speed"}, {"min", -2.0}, {"max", 2.0}}, {{"param", "drive"}, {"min", 0.0}, {"max", 6.0}}}}}},
          {"stop", {{"t_max", 20.0}}}};
}

json driven_ball_config(std::uint64_t count) {
  return {{"system", "driven:ball"},
          {"parameters", {{"gamma", 1.0}, {"g", 1.0}}},
          {"initial", {{"start", "rolling"}, {"wz", 0.5}}},
          {"scan",
           {{"type", "random"},
            {"count", count},
            {"seed", 5},
            {"axes", {{{"param", "wy"}, {"min", -2.0}, {"max", 2.0}}, {{"param", "drive"}, {"min", 0.0}, {"max", 6.0}}}}}},
          {"stop", {{"t_max", 20.0}}}};
}

json driven_ball_asymmetric_config(std::uint64_t count) {
  json config = driven_ball_config(count);
  config["parameters"].update({{"d1_ratio", 0.6}, {"d3_ratio", 1.3}, {"cm1", 0.1}, {"cm2", -0.05}, {"cm3", -0.2}});
  return config;
}

json roll3_stadium_rim_map_config(std::uint64_t n) {
  return {{"system", "roll3:stadium"},
          {"parameters", {{"half_length", 1.0}, {"R", 1.0}, {"r", 0.1}, {"eta", 0.5}}},
          {"initial", {{"start", "rim_entry"}, {"speed", 1.0}}},
          {"scan",
           {{"type", "grid"},
            {"axes", {{{"param", "boundary_s"}, {"min", 0.0}, {"max", 0.875}, {"n", 8}},
                      {{"param", "v2"}, {"min", -1.0}, {"max", 1.0}, {"n", n}},
                      {{"param", "S12"}, {"min", -1.0}, {"max", 1.0}, {"n", n}}}}}},
          {"stop", {{"t_max", 200.0}}}};
}

json rubber_sphere_config(std::uint64_t count, double t_max) {
  return {{"system", "rubber:sphere"},
          {"parameters", {{"a", 1.0}, {"I1", 1.0}, {"I2", 1.5}, {"I3", 2.0}, {"mu", 1.0}}},
          {"initial", {{"start", "body"}, {"phi", 0.5}, {"wx", 1.0}, {"wy", 0.0}, {"wz", 0.0}}},
          {"scan",
           {{"type", "random"},
            {"count", count},
            {"seed", 5},
            {"axes", {{{"param", "theta"}, {"min", 0.1}, {"max", 3.0}}, {{"param", "b"}, {"min", 0.5}, {"max", 3.0}}}}}},
          {"stop", {{"t_max", t_max}}}};
}

}  // namespace skipstone::bench
