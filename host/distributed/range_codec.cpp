// Byte encoding of range results: a magic word, the range, status counts, event total and
// wall time, then per observable its name, values and block statistics (native byte order:
// sender and receiver are ranks of one job on machines of one architecture).
#include "range_codec.hpp"

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace skipstone {

namespace {

constexpr std::uint64_t kMagic = 0x736b697072616e67ull;  // "skiprang"
static_assert(std::is_trivially_copyable<RunningStats>::value, "block statistics are sent as raw bytes");

class Writer {
 public:
  template <class T>
  void put(const T& v) {
    const char* p = reinterpret_cast<const char*>(&v);
    bytes_.insert(bytes_.end(), p, p + sizeof(T));
  }
  template <class T>
  void put_array(const std::vector<T>& v) {
    put<std::uint64_t>(v.size());
    const char* p = reinterpret_cast<const char*>(v.data());
    bytes_.insert(bytes_.end(), p, p + v.size() * sizeof(T));
  }
  void put_string(const std::string& s) {
    put<std::uint64_t>(s.size());
    bytes_.insert(bytes_.end(), s.begin(), s.end());
  }
  std::vector<char> take() { return std::move(bytes_); }

 private:
  std::vector<char> bytes_;
};

class Reader {
 public:
  explicit Reader(const std::vector<char>& b) : bytes_(b) {}
  template <class T>
  T get() {
    T v;
    std::memcpy(&v, take(sizeof(T)), sizeof(T));
    return v;
  }
  template <class T>
  std::vector<T> get_array() {
    const std::uint64_t n = get<std::uint64_t>();
    if (n > (bytes_.size() - pos_) / sizeof(T)) fail();
    std::vector<T> v(n);
    std::memcpy(v.data(), take(n * sizeof(T)), n * sizeof(T));
    return v;
  }
  std::string get_string() {
    const std::uint64_t n = get<std::uint64_t>();
    if (n > bytes_.size() - pos_) fail();
    return std::string(take(n), n);
  }
  bool at_end() const { return pos_ == bytes_.size(); }

 private:
  const char* take(std::size_t n) {
    if (n > bytes_.size() - pos_) fail();
    const char* p = bytes_.data() + pos_;
    pos_ += n;
    return p;
  }
  [[noreturn]] static void fail() { throw std::runtime_error("decode_range: truncated or malformed range result"); }
  const std::vector<char>& bytes_;
  std::size_t pos_ = 0;
};

}  // namespace

std::vector<char> encode_range(const RangeResult& r) {
  Writer w;
  w.put(kMagic);
  w.put(r.range.first);
  w.put(r.range.end);
  for (std::uint64_t c : r.status_counts) w.put(c);
  w.put(r.total_events);
  w.put(r.wall_seconds);
  w.put<std::uint64_t>(r.values.size());
  for (const auto& [name, values] : r.values) {
    w.put_string(name);
    w.put_array(values);
    const auto blocks = r.block_stats.find(name);
    w.put_array(blocks == r.block_stats.end() ? std::vector<RunningStats>{} : blocks->second);
    w.put<std::uint8_t>(blocks != r.block_stats.end());
  }
  for (const PointResult* p : {&r.boundary_points, &r.section_points}) {
    w.put_array(p->counts);
    w.put_array(p->events);
    w.put(p->dropped);
  }
  w.put_array(r.survival_counts);
  return w.take();
}

RangeResult decode_range(const std::vector<char>& bytes) {
  Reader in(bytes);
  if (in.get<std::uint64_t>() != kMagic) throw std::runtime_error("decode_range: not an encoded range result");
  RangeResult r;
  r.range.first = in.get<std::uint64_t>();
  r.range.end = in.get<std::uint64_t>();
  for (std::uint64_t& c : r.status_counts) c = in.get<std::uint64_t>();
  r.total_events = in.get<std::uint64_t>();
  r.wall_seconds = in.get<double>();
  const std::uint64_t observables = in.get<std::uint64_t>();
  for (std::uint64_t k = 0; k < observables; ++k) {
    const std::string name = in.get_string();
    r.values[name] = in.get_array<double>();
    std::vector<RunningStats> blocks = in.get_array<RunningStats>();
    if (in.get<std::uint8_t>()) r.block_stats[name] = std::move(blocks);
  }
  for (PointResult* p : {&r.boundary_points, &r.section_points}) {
    p->counts = in.get_array<std::uint64_t>();
    p->events = in.get_array<double>();
    p->dropped = in.get<std::uint64_t>();
  }
  r.survival_counts = in.get_array<std::uint64_t>();
  if (!in.at_end()) throw std::runtime_error("decode_range: trailing bytes after the range result");
  return r;
}

}  // namespace skipstone
