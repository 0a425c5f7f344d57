// The state columns of each system (state_layout.hpp); a row is the state the model hands its
// sink (skipstone/final_state.hpp), named here.
#include "state_layout.hpp"

#include "systems.hpp"

namespace skipstone {

StateLayout state_layout(const SystemTraits& system) {
  switch (system.model) {
    case ModelKind::noslip_plane:
      return {{"x", "y", "ux", "uy", "spin"}, {P_X, P_Y, P_VX, P_VY, P_SPIN}};
    case ModelKind::noslip_sphere:
    case ModelKind::noslip_cylinder:
      return {{"x", "y", "z", "ux", "uy", "uz", "wx", "wy", "wz"},
              {P_X, P_Y, P_Z, P_VX, P_VY, P_VZ, P_WX, P_WY, P_WZ}};
    case ModelKind::roll_strip:  // x = (sigma, x2), u = (v1, v2), s (roll3_strip.hpp)
      return {{"sigma", "x2", "v1", "v2", "s"}, {P_SIGMA, P_Z, P_V1, P_V2, P_SPIN}};
    case ModelKind::roll_planes:  // x = (sigma, x2, x3), u = (v1, v2, v3), w = (S23, -S13, S12) (roll4_planes.hpp)
      return {{"sigma", "x2", "x3", "v1", "v2", "v3", "wx", "wy", "wz"},
              {P_SIGMA, P_X2, P_Z, P_V1, P_V2, P_V3, P_WX, P_WY, P_WZ}};
    case ModelKind::roll3_table:  // on a face or on the edge (rolling/table_state_row.hpp)
      return {{"face", "x1", "x2", "v1", "v2", "S12", "psi", "phi"},
              {P_FACE, P_X1, P_X2, P_V1, P_V2, P_S12, P_ANGLE, P_PHI}};
    case ModelKind::roll4_table:
    case ModelKind::roll_disc:
      return {{"face", "x1", "x2", "x3", "v1", "v2", "v3", "S12", "S13", "S23", "psi", "phi"},
              {P_FACE, P_X1, P_X2, P_Z, P_V1, P_V2, P_V3, P_S12, P_S13, P_S23, P_ANGLE, P_PHI}};
    case ModelKind::roll_inside_cylinder:  // the centre, its velocity and w = s e_rho
      return {{"x", "y", "z", "ux", "uy", "uz", "wx", "wy", "wz"},
              {P_X, P_Y, P_Z, P_VX, P_VY, P_VZ, P_WX, P_WY, P_WZ}};
    case ModelKind::driven_disk:  // the centre, the disk's angle and speed, the rails, the drive's clock
      return {{"x", "phi", "speed", "theta1", "theta2", "theta3", "theta4", "rate1", "rate2", "rate3", "rate4", "t"},
              {P_X, P_ANGLE, P_SPEED, P_THETA1, P_THETA2, P_THETA3, P_THETA4, P_RATE1, P_RATE2, P_RATE3, P_RATE4,
               P_CLOCK}};
    case ModelKind::driven_ball:  // the contact point, the orientation, Omega (body), the rails, the clock
      return {{"x", "y", "q0", "q1", "q2", "q3", "wx", "wy", "wz", "theta1", "theta2", "theta3", "theta4", "rate1",
               "rate2", "rate3", "rate4", "t"},
              {P_X, P_Y, P_Q0, P_Q1, P_Q2, P_Q3, P_WX, P_WY, P_WZ, P_THETA1, P_THETA2, P_THETA3, P_THETA4, P_RATE1,
               P_RATE2, P_RATE3, P_RATE4, P_CLOCK}};
    case ModelKind::rubber_sphere:  // Omega (body) and the direction of gamma: the start "body"'s keys
      return {{"wx", "wy", "wz", "theta", "phi"}, {P_WX, P_WY, P_WZ, P_THETA, P_PHI}};
    default:  // roll4:disc-transversal: one passage, whose last event is not the final state
      return {};
  }
}

std::string systems_with_state_start() {
  return systems_with([](const SystemTraits& s) { return !state_layout(s).params.empty(); });
}

}  // namespace skipstone
