// A sink for simulate_trajectory that records one trajectory as CSV rows: every no-slip event
// (time, position, velocity, spin, contact point a - r nu) or every accepted integrator step of
// the Figure-18 system or rubber:sphere (time and state), in the kernel's precision. Used by
// `skipstone trace`. The header row comes from the model, so that a trajectory without rows (a masked start) still
// gives a CSV file with its columns. The rows are kept in memory until the file is written, so
// their number is bounded: one row beyond `max_rows` stops the trajectory with a UsageError
// naming --max-rows and the stop rules that shorten it.
#pragma once
#include <cmath>
#include <cstdint>
#include <sstream>
#include <string>

#include "config_error.hpp"
#include "skipstone/collision.hpp"
#include "skipstone/scan_spec.hpp"
#include "skipstone/system_traits.hpp"
#include "skipstone/vec.hpp"

namespace skipstone {

class TraceRecorder {
 public:
  TraceRecorder(const SystemTraits& system, double ball_radius, std::uint64_t max_rows)
      : r_(ball_radius), max_rows_(max_rows), rubber_(system.model == ModelKind::rubber_sphere) {
    out_.precision(17);
    out_ << header(system) << '\n';
  }

  // The columns of the rows that `system` gives: integrator steps (the Figure-18 system), or
  // events in the plane (systems of dimension 2: the no-slip 2D tables and roll3:strip, whose
  // strip is a plane) or in space.
  static const char* header(const SystemTraits& system) {
    if (system.model == ModelKind::roll_disc_transversal) return "step,t,v1,v2,S12,phi,arc";
    if (system.model == ModelKind::rubber_sphere) return "step,t,Omega1,Omega2,Omega3,gamma1,gamma2,gamma3";
    if (system.dim == 2) return "event,t,x,y,ux,uy,spin,contact_x,contact_y";
    return "event,t,x,y,z,ux,uy,uz,wx,wy,wz,contact_x,contact_y,contact_z";
  }

  template <class T>
  void on_event(double t, Vec2T<T> x, const State2DT<T>& s, Vec2T<T> nu) {
    const Vec2T<T> c = x - r_ * nu;
    count_row();
    out_ << rows_++ << ',' << t << ',' << x.x << ',' << x.y << ',' << s.u.x << ',' << s.u.y << ',' << s.s << ','
         << c.x << ',' << c.y << '\n';
  }
  template <class T>
  void on_event(double t, Vec3T<T> x, const State3DT<T>& s, Vec3T<T> nu) {
    const Vec3T<T> c = x - r_ * nu;
    count_row();
    out_ << rows_++ << ',' << t << ',' << x.x << ',' << x.y << ',' << x.z << ',' << s.u.x << ',' << s.u.y << ','
         << s.u.z << ',' << s.w.x << ',' << s.w.y << ',' << s.w.z << ',' << c.x << ',' << c.y << ',' << c.z << '\n';
  }
  // Integrator steps: rubber:sphere's y = (Omega, gamma, ...) in the body frame, or the rolling
  // transversal state y = (v1, v2, S12, cos phi, sin phi, arc), in the kernel's precision.
  template <class T>
  void on_step(T t, const T* y) {
    count_row();
    if (rubber_) {
      out_ << rows_++ << ',' << t << ',' << y[0] << ',' << y[1] << ',' << y[2] << ',' << y[3] << ',' << y[4] << ','
           << y[5] << '\n';
      return;
    }
    out_ << rows_++ << ',' << t << ',' << y[0] << ',' << y[1] << ',' << y[2] << ',' << std::atan2(y[4], y[3]) << ','
         << y[5] << '\n';
  }

  std::string csv() const { return out_.str(); }
  std::uint64_t rows() const { return rows_; }

 private:
  void count_row() const {
    if (rows_ < max_rows_) return;
    throw UsageError("--max-rows " + std::to_string(max_rows_) + ": the trajectory has more rows before it stops; " +
                     "raise --max-rows, or end it sooner with stop.t_max or stop.max_events in the config");
  }

  double r_;
  std::uint64_t max_rows_;
  bool rubber_;  // rows of rubber:sphere's steps
  std::ostringstream out_;
  std::uint64_t rows_ = 0;
};

}  // namespace skipstone
