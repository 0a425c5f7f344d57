// The system catalogue: parameters, defaults, allowed ranges, start kinds, observables.
#include "systems.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

#include "config_error.hpp"
#include "state_layout.hpp"
#include "skipstone/inertia.hpp"
#include "skipstone/rolling/driven_rig.hpp"

namespace skipstone {
namespace {

bool positive(double v) { return v > 0.0; }
bool nonneg(double v) { return v >= 0.0; }
bool any(double) { return true; }
bool unit_interval(double v) { return v >= 0.0 && v <= 1.0; }
bool nonzero(double v) { return v != 0.0; }
bool zero_or_one(double v) { return v == 0.0 || v == 1.0; }
bool half_turn(double v) { return std::fabs(v) < 0.5 * kPi; }
bool noise_kind(double v) { return v == 0.0 || v == 1.0 || v == 2.0; }
bool index_value(double v) { return v >= 0.0 && v == std::floor(v) && v < 9.007199254740992e15; }

ParamRule rule(const std::string& n, Param p, std::optional<double> d, bool (*ok)(double), const std::string& allowed) {
  return {n, p, d, ok, allowed};
}

// Parameters of the rolling models with gravity: the size of the plate or wall (`size`, none
// for a polygon, whose `vertices` are read apart), the ball radius r (required; `r_allowed` says
// what it may be) and gravity, given as g or as g_effective.
std::vector<ParamRule> rolling_parameters(std::vector<ParamRule> size, const std::string& r_allowed) {
  size.push_back(rule("r", P_BALL_R, std::nullopt, positive, r_allowed));
  size.push_back(rule("g", P_G, 0.0, any, "any number (physical gravity; the rolling ball falls at g/(1+gamma^2))"));
  size.push_back(rule("g_effective", P_G_EFF, 0.0, any,
                      "any number (the paper's effective gravity g/(1+gamma^2); give g or g_effective, not both)"));
  size.push_back(rule("mu_s", P_MU_S, 1.0, nonneg, ">= 0 (static friction coefficient of the observable slip_time)"));
  size.push_back(rule("no_twist", P_NO_TWIST, 0.0, zero_or_one,
                      "0 or 1 (1: a rubber ball, no spin about the contact normal; the start's spins must be 0)"));
  return size;
}

// The parameters of noisy constraints on the rim or the edge (include/skipstone/rolling/noisy_transversal.hpp).
void add_noise_rules(std::vector<ParamRule>& rules) {
  rules.push_back(rule("noise", P_NOISE, 0.0, noise_kind, "0 (none), 1 (slip of the contact point) or 2 (roughness)"));
  rules.push_back(rule("noise_sigma", P_NOISE_SIGMA, 0.0, nonneg, ">= 0 (standard deviation of the noise)"));
  rules.push_back(rule("noise_tau", P_NOISE_TAU, 1.0, positive, "> 0 (correlation time of the noise)"));
  rules.push_back(rule("noise_dt", P_NOISE_DT, 1e-3, positive, "> 0 (step of the stochastic integrator)"));
  rules.push_back(rule("realisation", P_REALISATION, 0.0, index_value, "an integer >= 0 (which noise path)"));
}

}  // namespace

std::vector<std::string> observable_names(std::uint32_t groups) {
  static const std::pair<std::uint32_t, std::vector<std::string>> named[] = {
      {kObsCore, {"status", "events", "t_end", "energy_error"}},
      {kObsHeight, {"z_min", "z_max", "z_final", "z_drift", "bounded"}},
      {kObsCaustic, {"rho_even", "rho_odd", "caustic_gap"}},
      {kObsAnnulus, {"annulus_axis", "annulus_width"}},
      {kObsExit, {"exit_time", "exit_arc", "exit_side"}},
      {kObsLyapunov, {"lyapunov", "lyapunov_per_event"}},
      {kObsLyapunovSpectrum, {"lyapunov_spectrum"}},
      {kObsHoles, {"escape_time", "hole"}},
      {kObsEscape, {"mean_free_time", "coverage"}},
      {kObsState, {"final_state"}},
      {kObsHeightSeries, {"height_series"}},
      {kObsImpulse, {"impulse_ratio_max", "impulse_ratio_mean"}},
      {kObsNormalDrift, {"gamma_drift"}},
      {kObsRubber, {"twist_max", "gamma3_mean"}},
      {kObsContact, {"normal_force_min", "friction_ratio_max", "detach_time", "slip_time"}}};
  std::vector<std::string> names;
  for (const auto& [group, of_group] : named)
    if (groups & group) names.insert(names.end(), of_group.begin(), of_group.end());
  return names;
}

namespace {

std::vector<ParamRule> table_rules(TableKind t) {
  switch (t) {
    case TableKind::disc: return {rule("R", P_R, 1.0, positive, "> 0")};
    case TableKind::strip: return {rule("L", P_L, 1.0, positive, "> 0")};
    case TableKind::stadium:
      return {rule("half_length", P_HALF_LENGTH, 1.0, nonneg, ">= 0"), rule("R", P_R, 1.0, positive, "> 0")};
    case TableKind::rectangle:
      return {rule("width", P_WIDTH, 2.0, positive, "> 0"), rule("height", P_HEIGHT, 1.0, positive, "> 0")};
    case TableKind::ellipse: return {rule("a", P_A, 2.0, positive, "> 0"), rule("b", P_B, 1.0, positive, "> 0")};
    case TableKind::sinai:
      return {rule("side", P_SIDE, 1.0, positive, "> 0"), rule("radius", P_RADIUS, 0.25, positive, "> 0")};
    default: return {};
  }
}

std::map<std::string, StartSchema> plane_starts(TableKind t) {
  const ParamRule speed = rule("speed", P_SPEED, 1.0, positive, "> 0");
  const ParamRule angle_wall = rule("angle", P_ANGLE, 0.0, half_turn, "in (-pi/2, pi/2), radians from the inward normal");
  const ParamRule bs = rule("boundary_s", P_BOUNDARY_S, 0.0, unit_interval, "in [0, 1]");
  std::vector<ParamRule> boundary = {bs, angle_wall, speed, rule("spin", P_SPIN, 0.0, any, "any number")};
  std::vector<ParamRule> impact = {bs, angle_wall, speed, rule("slip", P_SLIP, 0.0, any, "any number")};
  if (t == TableKind::strip) {
    boundary.push_back(rule("y", P_Y, 0.0, any, "any number"));
    impact.push_back(rule("y", P_Y, 0.0, any, "any number"));
  }
  return {
      {"interior",
       {StartKind::interior,
        {rule("x", P_X, 0.0, any, "any number"), rule("y", P_Y, 0.0, any, "any number"),
         rule("angle", P_ANGLE, 0.0, any, "any number (radians from the +x axis)"), speed,
         rule("spin", P_SPIN, 0.0, any, "any number")}}},
      {"boundary", {StartKind::boundary, boundary}},
      {"impact", {StartKind::impact, impact}},
  };
}

std::vector<ParamRule> vec3_rules(const char* a, const char* b, const char* c, Param pa) {
  return {rule(a, pa, 0.0, any, "any number"), rule(b, static_cast<Param>(pa + 1), 0.0, any, "any number"),
          rule(c, static_cast<Param>(pa + 2), 0.0, any, "any number")};
}

std::vector<ParamRule> concat(std::vector<ParamRule> a, const std::vector<ParamRule>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

StartSchema interior3() {
  std::vector<ParamRule> k = concat(vec3_rules("x", "y", "z", P_X), vec3_rules("vx", "vy", "vz", P_VX));
  k = concat(k, vec3_rules("wx", "wy", "wz", P_WX));
  k[3].fallback = 1.0;  // vx
  return {StartKind::interior, k};
}

std::map<std::string, StartSchema> cylinder_starts() {
  const ParamRule bs = rule("boundary_s", P_BOUNDARY_S, 0.0, unit_interval, "in [0, 1]");
  const ParamRule z = rule("z", P_Z, 0.0, any, "any number");
  const ParamRule angle = rule("angle", P_ANGLE, 0.0, half_turn, "in (-pi/2, pi/2), radians from the inward normal");
  const ParamRule speed = rule("speed", P_SPEED, 1.0, positive, "> 0 (horizontal speed)");
  const ParamRule vz = rule("vz", P_VZ, 0.0, any, "any number");
  return {
      {"interior", interior3()},
      {"boundary", {StartKind::boundary, concat({bs, z, angle, speed, vz}, vec3_rules("wx", "wy", "wz", P_WX))}},
      {"impact",
       {StartKind::impact,
        {bs, z, angle, speed, vz, rule("slip", P_SLIP, 0.0, any, "any number"),
         rule("slip_z", P_SLIP_Z, 0.0, any, "any number"), rule("spin_normal", P_SPIN_NORMAL, 0.0, any, "any number")}}},
  };
}

}  // namespace

std::vector<std::string> system_names() {
  std::vector<std::string> names;
  for (const SystemTraits& t : kSystems) names.emplace_back(t.name);
  return names;
}

namespace {
std::string listed(const std::vector<std::string>& names) {
  std::string text;
  for (std::size_t i = 0; i < names.size(); ++i)
    text += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
  return text;
}
}  // namespace

std::string systems_with(bool (*has)(const SystemTraits&)) {
  std::vector<std::string> names;
  for (const SystemTraits& t : kSystems)
    if (has(t)) names.emplace_back(t.name);
  return listed(names);
}

std::string systems_with_observable(const std::string& name) {
  std::vector<std::string> names;
  for (const SystemTraits& t : kSystems) {
    const std::vector<std::string> obs = observable_names(t.observables);
    if (std::find(obs.begin(), obs.end(), name) != obs.end()) names.emplace_back(t.name);
  }
  return listed(names);
}

namespace {

// The catalogue entry of a system, but for the start "state_file" (system_schema adds it).
SystemSchema model_schema(const std::string& name, const SystemTraits* traits) {
  SystemSchema s;
  s.name = name;
  s.traits = *traits;
  s.observables = observable_names(traits->observables);
  s.default_observables = observable_names(traits->observables & ~kObsOptIn);
  const ParamRule r_noslip = rule("r", P_BALL_R, 0.0, nonneg, ">= 0 (ball radius; sets the contact point)");
  const ParamRule g = rule("g", P_G, 0.0, any, "any number (acceleration along -y in 2D, -z in 3D)");
  switch (traits->model) {
    case ModelKind::roll_disc_transversal:
      s.parameters = {rule("R", P_R, 1.0, positive, "> 0 (plate cross-section radius)"),
                      rule("r", P_BALL_R, std::nullopt, positive, "> 0 (rolling ball radius)")};
      add_noise_rules(s.parameters);
      s.starts = {{"rim_entry",
                   {StartKind::rim_entry,
                    {rule("v2", P_V2, 0.0, any, "any number; v2^2 + S12^2 < speed^2 else the pixel is masked"),
                     rule("S12", P_S12, 0.0, any, "any number"),
                     rule("speed", P_SPEED, 1.0, positive, "> 0 (radius of the energy sphere)")}}}};
      s.default_start = "rim_entry";
      return s;
    case ModelKind::roll_disc: {
      // Sections 5.1-5.5, Proposition 12 (include/skipstone/rolling/roll4_disc.hpp)
      s.parameters = rolling_parameters(
          {rule("R", P_R, 1.0, positive, "> 0 (radius of the cross-section disc of the solid cylinder)")},
          "> 0 (rolling ball radius)");
      add_noise_rules(s.parameters);
      const std::vector<ParamRule> face = {
          rule("x1", P_X1, 0.0, any, "any number (position on the face; outside the disc the trajectory is masked)"),
          rule("x2", P_X2, 0.0, any, "any number"), rule("z", P_Z, 0.0, any, "any number (initial height)"),
          rule("v1", P_V1, 1.0, any, "any number (ambient velocity, e1)"),
          rule("v2", P_V2, 0.0, any, "any number (ambient velocity, e2)"),
          rule("v3", P_V3, 0.0, any, "any number (vertical velocity)"),
          rule("S12", P_S12, 0.0, any, "any number (ambient spin S_ij = e_i . S e_j)"),
          rule("S13", P_S13, 0.0, any, "any number"), rule("S23", P_S23, 0.0, any, "any number")};
      s.starts = {{"plate", {StartKind::interior, face}},             // N^+, x4 = +r
                  {"plate_minus", {StartKind::plate_minus, face}}};  // N^-, x4 = -r
      s.default_start = "plate";
      return s;
    }
    case ModelKind::roll3_table:
    case ModelKind::roll4_table: {
      // Sections 5.1-5.5, Proposition 12 with the wall's curvature (include/skipstone/rolling/table_roll.hpp)
      const bool roll4 = traits->model == ModelKind::roll4_table;
      s.parameters = rolling_parameters(table_rules(traits->table), traits->table == TableKind::sinai
                                                                         ? "> 0 and < radius (rolling ball radius)"
                                                                         : "> 0 (rolling ball radius)");
      add_noise_rules(s.parameters);
      std::vector<ParamRule> face = {
          rule("x1", P_X1, 0.0, any, "any number (position on the face; off the plate the trajectory is masked)"),
          rule("x2", P_X2, 0.0, any, "any number"),
          rule("v1", P_V1, 1.0, any, "any number (ambient velocity, e1)"),
          rule("v2", P_V2, 0.0, any, "any number (ambient velocity, e2)"),
          rule("S12", P_S12, 0.0, any, "any number (ambient spin S_12 = e_1 . S e_2)")};
      if (roll4) {
        face.insert(face.begin() + 2, rule("z", P_Z, 0.0, any, "any number (initial height along the axis)"));
        face.insert(face.begin() + 5, rule("v3", P_V3, 0.0, any, "any number (velocity along the axis)"));
        face.push_back(rule("S13", P_S13, 0.0, any, "any number"));
        face.push_back(rule("S23", P_S23, 0.0, any, "any number"));
      }
      s.starts = {{"plate", {StartKind::interior, face}},             // N^+
                  {"plate_minus", {StartKind::plate_minus, face}}};  // N^-
      if (!roll4)
        s.starts["rim_entry"] = {
            StartKind::rim_entry,
            {rule("boundary_s", P_BOUNDARY_S, 0.0, unit_interval,
                  "in [0, 1] (the wall point where the ball enters the edge from the face N^+)"),
             rule("v2", P_V2, 0.0, any, "any number (velocity along the wall); v2^2 + S12^2 < speed^2 else masked"),
             rule("S12", P_S12, 0.0, any, "any number"),
             rule("speed", P_SPEED, 1.0, positive, "> 0 (radius of the energy sphere)")}};
      s.default_start = "plate";
      return s;
    }
    case ModelKind::roll_planes:
    case ModelKind::roll_strip: {
      // Sections 5.4 and 4.1: exact per segment (include/skipstone/rolling/stadium_segments.hpp)
      const bool planes = traits->model == ModelKind::roll_planes;
      s.parameters = rolling_parameters(
          {rule("L", P_L, 1.0, positive, "> 0 (width of the plate: length of the flat parts of N_r)")},
          "> 0 (rolling ball radius)");
      add_noise_rules(s.parameters);
      std::vector<ParamRule> keys = {
          rule("x1", P_X1, 0.0, any, "any number (position on the + sheet; outside [-L/2, L/2] the trajectory is masked)"),
          rule("z", P_Z, 0.0, any, "any number (initial height)"),
          rule("v1", P_V1, 1.0, nonzero, "!= 0 (speed along the stadium; > 0 rolls towards x1 = -L/2 first)"),
          rule("v2", P_V2, 0.0, any, planes ? "any number (velocity along the planes)" : "any number (vertical velocity)")};
      if (planes) {
        keys.push_back(rule("v3", P_V3, 0.0, any, "any number (vertical velocity)"));
        keys.push_back(rule("S12", P_S12, 0.0, any, "any number"));
        keys.push_back(rule("S13", P_S13, 0.0, any, "any number"));
        keys.push_back(rule("S23", P_S23, 0.0, any, "any number"));
      } else {
        keys.push_back(rule("spin", P_SPIN, 0.0, any, "any number (s, S = s E1^E2)"));
      }
      s.starts = {{"plate", {StartKind::interior, keys}}};
      s.default_start = "plate";
      return s;
    }
    case ModelKind::roll_inside_cylinder:
      // Figure 2 (left), classical: closed form (include/skipstone/rolling/roll3_inside_cylinder.hpp)
      s.parameters = rolling_parameters({rule("R", P_R, 1.0, positive, "> 0 (radius of the cylinder wall)")},
                                        "> 0 and < R (rolling ball radius)");
      add_noise_rules(s.parameters);
      s.starts = {{"wall",
                   {StartKind::interior,
                    {rule("angle", P_ANGLE, 0.0, any, "any number (angular position of the centre, radians)"),
                     rule("z", P_Z, 0.0, any, "any number (initial height)"),
                     rule("v1", P_V1, 1.0, any, "any number (horizontal speed; > 0 counterclockwise seen from above)"),
                     rule("v2", P_V2, 0.0, any, "any number (vertical velocity)"),
                     rule("spin", P_SPIN, 0.0, any, "any number (s = eta r omega . e_rho, spin about the wall normal)")}}}};
      s.default_start = "wall";
      return s;
    case ModelKind::rubber_sphere:
      // the rubber Chaplygin ball over a fixed sphere (include/skipstone/rolling/rubber_sphere.hpp)
      s.moment = false;
      s.parameters = {
          rule("a", P_A, 1.0, positive, "> 0 (radius of the fixed sphere)"),
          rule("b", P_B, 1.0, nonzero,
               "!= 0 and != -a (radius of the ball: > 0 outside the fixed sphere, in (-a, 0) inside it, < -a around "
               "it)"),
          rule("I1", P_I1, 1.0, positive, "> 0, and each moment <= the sum of the other two (principal moments)"),
          rule("I2", P_I2, 1.5, positive, "> 0, and each moment <= the sum of the other two"),
          rule("I3", P_I3, 2.0, positive, "> 0, and each moment <= the sum of the other two"),
          rule("mu", P_MU, 1.0, positive, "> 0 (mass of the ball)"),
          rule("mu_s", P_MU_S, 1.0, nonneg, ">= 0 (static friction coefficient of the observable slip_time)")};
      s.starts = {{"body",
                   {StartKind::interior,
                    {rule("theta", P_THETA, 1.0, any, "any number (polar angle of gamma0 from body axis 3, radians)"),
                     rule("phi", P_PHI, 0.5, any, "any number (azimuth of gamma0 about body axis 3, radians)"),
                     rule("wx", P_WX, 1.0, any, "any number (Omega0 in the body frame; its component along gamma0 is "
                                                "dropped)"),
                     rule("wy", P_WY, 0.0, any, "any number"), rule("wz", P_WZ, 0.0, any, "any number")}}}};
      s.default_start = "body";
      return s;
    case ModelKind::driven_disk:
    case ModelKind::driven_ball: {
      // The rolling robot (include/skipstone/rolling/driven_disk.hpp, driven_ball.hpp); the
      // defaults are the example of the document: m0 = 1, r = 1, d2 = 1 (gamma = 1), four unit
      // masses on circles of radii 0.9, 0.63.., 0.36.., 0.1, g = 1, the drive with kinks at 0.1
      // and 0.2. The ball's rails lie in planes pi/4 apart about E3 unless rail_twist says.
      const bool ball = traits->model == ModelKind::driven_ball;
      const std::string body = ball ? "ball" : "disk";
      s.parameters = {rule("r", P_BALL_R, 1.0, positive, "> 0 (" + body + " radius)"),
                      rule("m0", P_M0, 1.0, positive, "> 0 (mass of the " + body + " without the point masses)"),
                      rule("g", P_G, 1.0, nonneg, ">= 0 (gravity, along -e3)")};
      const double rails[kDrivenMasses] = {0.9, 1.9 / 3.0, 1.1 / 3.0, 0.1};
      for (int i = 0; i < kDrivenMasses; ++i)
        s.parameters.push_back(rule("m" + std::to_string(i + 1), static_cast<Param>(P_M1 + i), 1.0, nonneg,
                                    ">= 0 (point mass " + std::to_string(i + 1) + ")"));
      for (int i = 0; i < kDrivenMasses; ++i)
        s.parameters.push_back(rule("r" + std::to_string(i + 1), static_cast<Param>(P_RAIL1 + i), rails[i], nonneg,
                                    ">= 0 and < r (radius of the rail of mass " + std::to_string(i + 1) + ")"));
      s.parameters.push_back(rule("drive", P_DRIVE, 1.0, any,
                                  "any number (amplitude a of the rail accelerations u_i = a (-1)^i h(t))"));
      s.parameters.push_back(rule("drive_t1", P_DRIVE_T1, 0.1, nonneg, ">= 0 (end of the drive's plateau h = 1)"));
      s.parameters.push_back(rule("drive_t2", P_DRIVE_T2, 0.2, nonneg,
                                  ">= drive_t1 (end of the linear ramp down to h = 0)"));
      s.parameters.push_back(rule("mu_s", P_MU_S, 0.5, nonneg, ">= 0 (static friction coefficient: slip_time)"));
      const ParamRule theta = rule("theta", P_THETA, -0.5 * kPi, any,
                                   "any number (rail angle of every mass, radians; -pi/2 at phi = 0: below the centre)");
      if (ball) {
        s.parameters.push_back(rule("rail_twist", P_BALL_TWIST, 0.25 * kPi, any,
                                    "any number (rail i + 1 lies in the body plane through E3 at the angle i rail_twist "
                                    "from E1, radians; 0: every rail in the E1-E3 plane, the disk's)"));
        s.parameters.push_back(rule("d1_ratio", P_D1_RATIO, 1.0, positive,
                                    "> 0 (principal moment d1 of the ball about its centre of mass along E1, over d2; "
                                    "d1, d2, d3 satisfy the triangle inequalities)"));
        s.parameters.push_back(rule("d3_ratio", P_D3_RATIO, 1.0, positive,
                                    "> 0 (principal moment d3 along E3, over d2)"));
        const char* axes[3] = {"E1", "E2", "E3"};
        for (int k = 0; k < 3; ++k)
          s.parameters.push_back(rule("cm" + std::to_string(k + 1), static_cast<Param>(P_CM1 + k), 0.0, any,
                                      std::string("any number (the ball's centre of mass from its geometric "
                                                  "centre, along ") + axes[k] + "; the offset is shorter than r)"));
        s.starts = {{"rolling",
                     {StartKind::interior,
                      {rule("phi", P_ANGLE, 0.0, any,
                            "any number (turn about -e2 taking e1 to the body axis E1, radians)"),
                       rule("lean", P_BALL_LEAN, 0.0, any, "any number (turn about the body axis E1 first, radians)"),
                       rule("heading", P_BALL_HEADING, 0.0, any, "any number (turn about e3 last, radians)"),
                       rule("wx", P_WX, 0.0, any, "any number (angular velocity Omega0 in the body frame)"),
                       rule("wy", P_WY, 0.0, any, "any number"), rule("wz", P_WZ, 0.0, any, "any number"), theta}}}};
      } else {
        s.starts = {{"rolling",
                     {StartKind::interior,
                      {rule("phi", P_ANGLE, 0.0, any, "any number (angle from e1 to the body axis E1, radians)"),
                       rule("speed", P_SPEED, 0.0, any, "any number (velocity of the centre along e1, -r phi')"),
                       theta}}}};
      }
      s.default_start = "rolling";
      return s;
    }
    case ModelKind::noslip_sphere:
      s.parameters = {rule("R", P_R, 1.0, positive, "> 0"), r_noslip, g};
      s.starts = {{"interior", interior3()}};
      s.default_start = "interior";
      return s;
    case ModelKind::noslip_plane:
    case ModelKind::noslip_cylinder: {
      const bool cylinder = traits->model == ModelKind::noslip_cylinder;
      s.parameters = concat(table_rules(traits->table), {r_noslip, g});
      s.starts = cylinder ? cylinder_starts() : plane_starts(traits->table);
      s.default_start = "interior";
      return s;
    }
  }
  throw std::logic_error("system " + name + ": no catalogue entry for its model");
}

}  // namespace

SystemSchema system_schema(const std::string& name) {
  const SystemTraits* traits = find_system(name);
  if (!traits) {
    std::string known;
    for (const auto& n : system_names()) known += (known.empty() ? "" : ", ") + n;
    throw ConfigError("system", "unknown system " + show(name) + "; known systems: " + known);
  }
  SystemSchema s = model_schema(name, traits);
  // no start keys: initial.file names the .npy of states (section_parameters.cpp, read_state_file)
  if (!state_layout(*traits).params.empty()) s.starts["state_file"] = {StartKind::state, {}};
  return s;
}

std::optional<CrossError> check_cross_constraints(const SystemSchema& s, StartKind start, const double* p,
                                                  double gamma) {
  if (start == StartKind::impact && !(gamma > 0.0))
    return CrossError{"gamma", "the impact start sets the spin from the contact slip and needs gamma > 0"};
  if (s.traits.model == ModelKind::roll_inside_cylinder && !(p[P_BALL_R] < p[P_R]))
    return CrossError{"r", "the ball must fit inside the cylinder: r < R (got r " + std::to_string(p[P_BALL_R]) +
                               ", R " + std::to_string(p[P_R]) + ")"};
  if (s.traits.model == ModelKind::rubber_sphere) {
    if (p[P_B] == -p[P_A])
      return CrossError{"b", "b = -a would make the ball the fixed sphere itself (kappa = a/(a+b) is infinite); "
                             "allowed: b != 0 and b != -a (got b " + std::to_string(p[P_B]) + ", a " +
                                 std::to_string(p[P_A]) + ")"};
    const Param moments[3] = {P_I1, P_I2, P_I3};
    for (int i = 0; i < 3; ++i)
      if (p[moments[i]] > p[moments[(i + 1) % 3]] + p[moments[(i + 2) % 3]])
        return CrossError{param_name(moments[i]), "principal moments of a rigid body satisfy the triangle "
                                                  "inequalities: each <= the sum of the other two (got I1 " +
                                                      std::to_string(p[P_I1]) + ", I2 " + std::to_string(p[P_I2]) +
                                                      ", I3 " + std::to_string(p[P_I3]) + ")"};
  }
  if (s.traits.model == ModelKind::driven_disk || s.traits.model == ModelKind::driven_ball) {
    for (int i = 0; i < kDrivenMasses; ++i)
      if (!(p[P_RAIL1 + i] < p[P_BALL_R]))
        return CrossError{"r" + std::to_string(i + 1), "the rail must lie inside the body: r" + std::to_string(i + 1) +
                                                           " < r (got " + std::to_string(p[P_RAIL1 + i]) + ", r " +
                                                           std::to_string(p[P_BALL_R]) + ")"};
    if (!(p[P_DRIVE_T2] >= p[P_DRIVE_T1]))
      return CrossError{"drive_t2", "the drive's ramp must end after its plateau: drive_t2 >= drive_t1 (got " +
                                        std::to_string(p[P_DRIVE_T2]) + ", drive_t1 " +
                                        std::to_string(p[P_DRIVE_T1]) + ")"};
  }
  if (s.traits.model == ModelKind::driven_ball) {
    const double d[3] = {p[P_D1_RATIO], 1.0, p[P_D3_RATIO]};  // in units of d2
    for (int i = 0; i < 3; ++i)
      if (d[i] > d[(i + 1) % 3] + d[(i + 2) % 3])
        return CrossError{i == 2 ? "d3_ratio" : "d1_ratio",
                          "principal moments of a rigid body satisfy the triangle inequalities (each <= the sum of "
                          "the other two), in units of d2: d1_ratio <= 1 + d3_ratio, d3_ratio <= 1 + d1_ratio, "
                          "d1_ratio + d3_ratio >= 1 (got d1_ratio " +
                              std::to_string(d[0]) + ", d3_ratio " + std::to_string(d[2]) + ")"};
    const double offset = std::sqrt(p[P_CM1] * p[P_CM1] + p[P_CM2] * p[P_CM2] + p[P_CM3] * p[P_CM3]);
    if (!(offset < p[P_BALL_R]))
      return CrossError{"cm1", "the ball's centre of mass must lie inside it: |(cm1, cm2, cm3)| < r (got " +
                                   std::to_string(offset) + ", r " + std::to_string(p[P_BALL_R]) + ")"};
  }
  if (s.traits.table == TableKind::sinai) {
    if (!(p[P_RADIUS] < 0.5 * p[P_SIDE]))
      return CrossError{"radius", "scatterer radius must be < side/2 (got radius " + std::to_string(p[P_RADIUS]) +
                                      ", side " + std::to_string(p[P_SIDE]) + ")"};
    const bool rolling = s.traits.model == ModelKind::roll3_table || s.traits.model == ModelKind::roll4_table;
    if (rolling && !(p[P_BALL_R] < p[P_RADIUS]))
      return CrossError{"r", "the rolling ball must be smaller than the scatterer: r < radius, else the curved part "
                             "around the hole has focal points (got r " + std::to_string(p[P_BALL_R]) + ", radius " +
                                 std::to_string(p[P_RADIUS]) + ")"};
    if (p[P_BALL_R] > p[P_RADIUS])
      return CrossError{"r", "ball radius r is too large for the table: the physical scatterer radius is radius - r "
                             "and must be >= 0 (got r " + std::to_string(p[P_BALL_R]) + ", radius " +
                                 std::to_string(p[P_RADIUS]) + ")"};
  }
  return std::nullopt;
}

std::string param_name(Param p) { return kParamNames[p]; }

}  // namespace skipstone
