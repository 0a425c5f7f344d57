// The resolved, validated description of a scan as the kernels see it: a plain struct copied
// by value to the device. Host code (host/config.cpp) builds it from the JSON config; kernels
// turn (spec, trajectory index) into one trajectory's parameters (scan_point.hpp) without any
// per-trajectory data from the host.
#pragma once
#include <cstdint>

#include "skipstone/precision.hpp"
#include "skipstone/tables/polygon.hpp"

namespace skipstone {

enum class ModelKind : std::int32_t {
  noslip_plane = 0,       // 2D tables
  noslip_sphere = 1,      // 3D ball in a sphere
  noslip_cylinder = 2,    // 3D cylinder over a 2D table
  roll_disc_transversal = 3,  // roll4:disc cross-section subsystem (Figure 18)
  roll_planes = 4,        // roll4:planes, 4D ball between two vertical planes (Section 5.4)
  roll_strip = 5,         // roll3:strip, 3D ball on a vertical strip (Section 4.1)
  roll_inside_cylinder = 6,  // roll3:inside-cylinder, 3D ball on the inner wall of a cylinder (Figure 2)
  roll_disc = 7,          // roll4:disc, 4D ball on a solid circular cylinder (Sections 5.1-5.5)
};

enum class TableKind : std::int32_t { disc = 0, strip, stadium, rectangle, polygon, ellipse, sinai, none };

enum class StartKind : std::int32_t {
  interior = 0,  // position and velocity given
  boundary = 1,  // on the wall, just after leaving it (moving inward)
  impact = 2,    // on the wall, just before the first collision, with a given contact slip
  rim_entry = 3, // rolling: entering the curved part at phi = 0
  plate_minus = 4,  // roll4:disc: on the flat face N^- (x4 = -r); "plate" (interior) is N^+
};

enum class MomentForm : std::int32_t { gamma = 0, eta = 1, beta = 2 };

// Every scalar a trajectory can depend on. Any of them can be a scan axis.
enum Param : std::int32_t {
  P_MOMENT = 0,   // gamma, eta or beta, as MomentForm says
  P_G,            // gravity (physical acceleration)
  P_BALL_R,       // r, ball radius
  P_R,            // disc/sphere/cap radius R
  P_L,            // strip width L
  P_WIDTH, P_HEIGHT,  // rectangle
  P_A, P_B,       // ellipse semi-axes
  P_HALF_LENGTH,  // stadium
  P_SIDE, P_RADIUS,  // sinai cell side and scatterer radius
  P_X, P_Y, P_Z,
  P_VX, P_VY, P_VZ,
  P_WX, P_WY, P_WZ,
  P_SPIN,         // 2D spin s, S = s J
  P_BOUNDARY_S,   // boundary parameter in [0, 1)
  P_ANGLE,        // direction angle (meaning depends on the start kind)
  P_SPEED,
  P_SLIP, P_SLIP_Z, P_SPIN_NORMAL,
  P_V2, P_S12,    // rolling rim entry: tangential velocity and spin on the energy sphere
  P_V1, P_V3, P_S13, P_S23,  // rolling plate starts (roll4:planes, roll3:strip): frame velocities and spins
  P_X1,           // rolling plate start: position x1 on the + sheet
  P_G_EFF,        // effective gravity of a rolling ball, the paper's g (= g / (1 + gamma^2))
  P_X2,           // rolling plate start: position x2 (roll4:disc)
  kParamCount
};

constexpr int kMaxAxes = 8;

struct AxisSpec {
  std::int32_t param;
  double min, max;
  std::uint64_t n;  // grid points (grids only)
};

struct ScanSpec {
  ModelKind model;
  TableKind table;
  StartKind start;
  MomentForm moment;
  double params[kParamCount];
  // polygon tables (the rectangle is built from width/height per trajectory)
  std::int32_t polygon_n;
  Vec2 polygon[kMaxPolygonVertices];
  // the scan
  bool random;
  std::uint64_t seed;
  std::uint64_t count;  // total number of trajectories
  std::int32_t n_axes;
  AxisSpec axes[kMaxAxes];
  // stop rules and options
  double t_max;
  std::uint64_t max_events;
  double energy_tolerance;
  double bounded_depth;
  double corner_tolerance;  // relative to the table size
  double rtol, atol;        // rolling integrator tolerances
  std::uint64_t max_steps;  // rolling integrator step budget
  Precision precision;      // float32: the float kernel (roll4:disc-transversal only; options.precision)
};

}  // namespace skipstone
