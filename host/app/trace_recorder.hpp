// A sink for simulate_trajectory that records one trajectory as CSV rows: every no-slip event
// (time, position, velocity, spin, contact point a - r nu) or every accepted integrator step of
// a rolling model (time and state), in the kernel's precision. Used by `skipstone trace`.
#pragma once
#include <cmath>
#include <cstdint>
#include <sstream>
#include <string>

#include "skipstone/collision.hpp"
#include "skipstone/vec.hpp"

namespace skipstone {

class TraceRecorder {
 public:
  explicit TraceRecorder(double ball_radius) : r_(ball_radius) { out_.precision(17); }

  template <class T>
  void on_event(double t, Vec2T<T> x, const State2DT<T>& s, Vec2T<T> nu) {
    header("event,t,x,y,ux,uy,spin,contact_x,contact_y");
    const Vec2T<T> c = x - r_ * nu;
    out_ << rows_++ << ',' << t << ',' << x.x << ',' << x.y << ',' << s.u.x << ',' << s.u.y << ',' << s.s << ','
         << c.x << ',' << c.y << '\n';
  }
  template <class T>
  void on_event(double t, Vec3T<T> x, const State3DT<T>& s, Vec3T<T> nu) {
    header("event,t,x,y,z,ux,uy,uz,wx,wy,wz,contact_x,contact_y,contact_z");
    const Vec3T<T> c = x - r_ * nu;
    out_ << rows_++ << ',' << t << ',' << x.x << ',' << x.y << ',' << x.z << ',' << s.u.x << ',' << s.u.y << ','
         << s.u.z << ',' << s.w.x << ',' << s.w.y << ',' << s.w.z << ',' << c.x << ',' << c.y << ',' << c.z << '\n';
  }
  // Rolling transversal state y = (v1, v2, S12, cos phi, sin phi, arc), in the kernel's precision.
  template <class T>
  void on_step(T t, const T* y) {
    header("step,t,v1,v2,S12,phi,arc");
    out_ << rows_++ << ',' << t << ',' << y[0] << ',' << y[1] << ',' << y[2] << ',' << std::atan2(y[4], y[3]) << ','
         << y[5] << '\n';
  }

  std::string csv() const { return out_.str(); }
  std::uint64_t rows() const { return rows_; }

 private:
  void header(const char* h) {
    if (rows_ == 0 && !have_header_) {
      out_ << h << '\n';
      have_header_ = true;
    }
  }
  double r_;
  std::ostringstream out_;
  std::uint64_t rows_ = 0;
  bool have_header_ = false;
};

}  // namespace skipstone
