// The values of a .npy file written by skipstone as a flat vector of T (row-major), and its
// shape: what the tests of the outputs read back.
#pragma once
#include <cstddef>
#include <cstring>
#include <filesystem>
#include <vector>

#include "npy_writer.hpp"

namespace skipstone::testing {

template <class T>
std::vector<T> npy_values(const std::filesystem::path& file, std::vector<std::size_t>* shape = nullptr) {
  const io::NpyArray a = io::read_npy(file);
  if (shape) *shape = a.shape;
  std::vector<T> v(a.bytes.size() / sizeof(T));
  std::memcpy(v.data(), a.bytes.data(), a.bytes.size());
  return v;
}

}  // namespace skipstone::testing
