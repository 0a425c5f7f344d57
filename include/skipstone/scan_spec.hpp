// The resolved, validated description of a scan as the kernels see it: a plain struct copied
// by value to the device. Host code (host/config/) builds it from the JSON config; kernels
// turn (spec, trajectory index) into one trajectory's parameters (scan_point.hpp) without any
// per-trajectory data from the host.
#pragma once
#include <cstdint>

#include "skipstone/hd.hpp"
#include "skipstone/holes.hpp"
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
  roll3_table = 8,        // roll3:<table>, 3D ball on the plate of a 2D table and over its edge
  roll4_table = 9,        // roll4:<table>, 4D ball on the solid cylinder over a 2D table
  rubber_sphere = 10,     // rubber:sphere, rubber Chaplygin ball rolling over a fixed sphere
  driven_disk = 11,       // driven:disk, a disk rolling on a line, moved by point masses on rails inside it
  driven_ball = 12,       // driven:ball, a ball rolling on a plane, moved by point masses on rails inside it
};

enum class TableKind : std::int32_t { disc = 0, strip, stadium, rectangle, polygon, ellipse, sinai, none };

enum class StartKind : std::int32_t {
  interior = 0,  // position and velocity given
  boundary = 1,  // on the wall, just after leaving it (moving inward)
  impact = 2,    // on the wall, just before the first collision, with a given contact slip
  rim_entry = 3, // rolling: entering the curved part at phi = 0
  plate_minus = 4,  // roll4:disc: on the flat face N^- (x4 = -r); "plate" (interior) is N^+
  state = 5,        // a row of a file of states (initial.start "state_file"): the system's state columns
};

enum class MomentForm : std::int32_t { gamma = 0, eta = 1, beta = 2 };

// Every scalar a trajectory can depend on, with its name in configs, messages and metadata:
// X(enumerator, name), one list for the enum and the names. Any of them can be a scan axis.
#define SKIPSTONE_PARAMS(X)                                                                            \
  X(P_MOMENT, "moment")          /* gamma, eta or beta, as MomentForm says */                        \
  X(P_G, "g")                    /* gravity (physical acceleration) */                               \
  X(P_BALL_R, "r")               /* ball radius */                                                   \
  X(P_R, "R")                    /* disc/sphere/cap radius */                                        \
  X(P_L, "L")                    /* strip width */                                                   \
  X(P_WIDTH, "width")            /* rectangle */                                                     \
  X(P_HEIGHT, "height")                                                                              \
  X(P_A, "a")                    /* ellipse semi-axes */                                             \
  X(P_B, "b")                                                                                        \
  X(P_HALF_LENGTH, "half_length")  /* stadium */                                                     \
  X(P_SIDE, "side")              /* sinai cell side and scatterer radius */                          \
  X(P_RADIUS, "radius")                                                                              \
  X(P_X, "x")                                                                                        \
  X(P_Y, "y")                                                                                        \
  X(P_Z, "z")                                                                                        \
  X(P_VX, "vx")                                                                                      \
  X(P_VY, "vy")                                                                                      \
  X(P_VZ, "vz")                                                                                      \
  X(P_WX, "wx")                                                                                      \
  X(P_WY, "wy")                                                                                      \
  X(P_WZ, "wz")                                                                                      \
  X(P_SPIN, "spin")              /* 2D spin s, S = s J */                                            \
  X(P_BOUNDARY_S, "boundary_s")  /* boundary parameter in [0, 1) */                                  \
  X(P_ANGLE, "angle")            /* direction angle (meaning depends on the start kind) */           \
  X(P_SPEED, "speed")                                                                                \
  X(P_SLIP, "slip")                                                                                  \
  X(P_SLIP_Z, "slip_z")                                                                              \
  X(P_SPIN_NORMAL, "spin_normal")                                                                    \
  X(P_V2, "v2")                  /* rolling rim entry: tangential velocity and spin */               \
  X(P_S12, "S12")                /* on the energy sphere */                                          \
  X(P_V1, "v1")                  /* rolling plate starts (roll4:planes, roll3:strip): frame */       \
  X(P_V3, "v3")                  /* velocities and spins */                                          \
  X(P_S13, "S13")                                                                                    \
  X(P_S23, "S23")                                                                                    \
  X(P_X1, "x1")                  /* rolling plate start: position x1 on the + sheet */               \
  X(P_G_EFF, "g_effective")      /* effective gravity of a rolling ball, g / (1 + gamma^2) */        \
  X(P_X2, "x2")                  /* rolling plate start: position x2 (roll4:disc) */                 \
  X(P_SIGMA, "sigma")            /* roll3:strip, roll4:planes state: arc length on the stadium */     \
  X(P_I1, "I1")                  /* rubber:sphere: principal moments of inertia about the centre */  \
  X(P_I2, "I2")                                                                                      \
  X(P_I3, "I3")                                                                                      \
  X(P_MU, "mu")                  /* rubber:sphere: mass of the ball */                               \
  X(P_THETA, "theta")            /* rubber:sphere start: polar angle of gamma0 from body axis 3 */   \
  X(P_PHI, "phi")                /* rubber:sphere start: azimuth of gamma0 */                        \
  X(P_MU_S, "mu_s")              /* contact forces: static friction coefficient of slip_time */     \
  X(P_M0, "m0")                  /* driven:disk: mass of the disk without its point masses */         \
  X(P_M1, "m1")                  /* driven:disk: the four point masses ... */                        \
  X(P_M2, "m2")                                                                                      \
  X(P_M3, "m3")                                                                                      \
  X(P_M4, "m4")                                                                                      \
  X(P_RAIL1, "r1")               /* ... and the radii of their circular rails */                     \
  X(P_RAIL2, "r2")                                                                                   \
  X(P_RAIL3, "r3")                                                                                   \
  X(P_RAIL4, "r4")                                                                                   \
  X(P_DRIVE, "drive")            /* amplitude of the prescribed rail acceleration */                 \
  X(P_DRIVE_T1, "drive_t1")      /* the drive's kinks: end of the plateau, end of the ramp */        \
  X(P_DRIVE_T2, "drive_t2")                                                                          \
  X(P_NO_TWIST, "no_twist")      /* rolling models: 1 = rubber ball, no spin about the contact normal */\
  X(P_NOISE, "noise")            /* noisy constraints: 0 none, 1 slip, 2 roughness */                \
  X(P_NOISE_SIGMA, "noise_sigma")  /* Ornstein-Uhlenbeck noise: stationary standard deviation */     \
  X(P_NOISE_TAU, "noise_tau")    /* ... correlation time */                                          \
  X(P_NOISE_DT, "noise_dt")      /* ... fixed step of the stochastic integrator */                   \
  X(P_REALISATION, "realisation")  /* ... which noise path: a scan axis over realisations */\
  X(P_BALL_TWIST, "rail_twist")  /* driven:ball: angle between the planes of successive rails */      \
  X(P_BALL_LEAN, "lean")         /* driven:ball start: tilt of the rails' plane out of e1-e3 */       \
  X(P_BALL_HEADING, "heading")   /* driven:ball start: turn about the vertical */\
  X(P_FACE, "face")              /* rolling tables' state rows: +-1 on the face N^+-, 0 on the edge */\
  X(P_NOISE_N1, "noise_n1")      /* noisy runs' state rows: the noise process where the run left it */\
  X(P_NOISE_N2, "noise_n2")      /* (NaN: none, drawn from its stationary law) */                    \
  X(P_D1_RATIO, "d1_ratio")      /* driven:ball: principal moments d1, d3 of the ball over d2 */      \
  X(P_D3_RATIO, "d3_ratio")                                                                          \
  X(P_CM1, "cm1")                /* driven:ball: its centre of mass from the geometric centre */      \
  X(P_CM2, "cm2")                /* (body frame) */                                                  \
  X(P_CM3, "cm3")                                                                                    \
  X(P_Q0, "q0")                  /* driven:ball state rows: the orientation quaternion (w, x, y, z) */\
  X(P_Q1, "q1")                                                                                      \
  X(P_Q2, "q2")                                                                                      \
  X(P_Q3, "q3")                                                                                      \
  X(P_THETA1, "theta1")          /* driven rigs' state rows: the rail angles ... */                  \
  X(P_THETA2, "theta2")                                                                              \
  X(P_THETA3, "theta3")                                                                              \
  X(P_THETA4, "theta4")                                                                              \
  X(P_RATE1, "rate1")            /* ... their rates */                                               \
  X(P_RATE2, "rate2")                                                                                \
  X(P_RATE3, "rate3")                                                                                \
  X(P_RATE4, "rate4")                                                                                \
  X(P_CLOCK, "t")                /* ... and the drive's clock */

enum Param : std::int32_t {
#define SKIPSTONE_PARAM_ID(id, name) id,
  SKIPSTONE_PARAMS(SKIPSTONE_PARAM_ID)
#undef SKIPSTONE_PARAM_ID
  kParamCount
};

// kParamNames[p]: the name of Param p.
inline constexpr const char* kParamNames[kParamCount] = {
#define SKIPSTONE_PARAM_NAME(id, name) name,
    SKIPSTONE_PARAMS(SKIPSTONE_PARAM_NAME)
#undef SKIPSTONE_PARAM_NAME
};

constexpr int kMaxAxes = 8;
// Columns of a row of states (StartKind::state): the largest state of a system that has one.
constexpr int kMaxStateColumns = 18;

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
  Precision precision;      // float32: the float kernel (options.precision; kSystems: float_kernel)
  std::int32_t lyapunov_vectors;  // tangent vectors of the Lyapunov observables: 0 (none asked), 1 or 5
  HoleSet holes;                  // stop.holes of the 2D no-slip tables (n = 0: a closed table)
  bool impulse_ratios;            // the no-slip impacts' impulse ratios are asked for
  bool contact_forces;            // the rolling contact-force observables are asked for (contact_force.hpp)
  // StartKind::state: row i - state_first of `state_rows` (state_columns values, in memory the
  // kernel reaches: the whole file on the CPU, a chunk's rows copied to the device on CUDA) gives
  // trajectory i's parameters state_params[0 .. state_columns); null otherwise.
  const double* state_rows;
  std::uint64_t state_first;
  std::int32_t state_columns;
  std::int32_t state_params[kMaxStateColumns];
};

// Whether any trajectory of the scan has noisy constraints (noise fixed and nonzero, or scanned).
inline bool scan_has_noise(const ScanSpec& spec) {
  for (int j = 0; j < spec.n_axes; ++j)
    if (spec.axes[j].param == P_NOISE) return true;
  return spec.params[P_NOISE] != 0.0;
}

// A start from a file of states whose row (params p) puts the ball on the edge (face 0), not on a face.
SKIPSTONE_HD SKIPSTONE_INLINE bool starts_on_edge_state_row(const ScanSpec& spec, const double* p) {
  return spec.start == StartKind::state && p[P_FACE] == 0.0;
}

}  // namespace skipstone
