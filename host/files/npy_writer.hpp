// npy_writer.hpp — NumPy .npy (format version 1.0) writer and a small reader.
// Arrays are stored little-endian in C order; files are written atomically.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace skipstone::io {

// Each overload writes `data` with the given `shape` (C order). Throws
// std::invalid_argument if the product of `shape` differs from data.size()
// (an empty shape denotes a scalar, i.e. exactly one element), and
// std::runtime_error if the file cannot be written.
void write_npy(const std::filesystem::path& path, const std::vector<double>& data,
               const std::vector<std::size_t>& shape);         // '<f8'
void write_npy(const std::filesystem::path& path, const std::vector<float>& data,
               const std::vector<std::size_t>& shape);         // '<f4'
void write_npy(const std::filesystem::path& path, const std::vector<std::int32_t>& data,
               const std::vector<std::size_t>& shape);         // '<i4'
void write_npy(const std::filesystem::path& path, const std::vector<std::uint64_t>& data,
               const std::vector<std::size_t>& shape);         // '<u8'
void write_npy(const std::filesystem::path& path, const std::vector<std::uint8_t>& data,
               const std::vector<std::size_t>& shape);         // '|u1'
void write_npy(const std::filesystem::path& path, const std::vector<std::int8_t>& data,
               const std::vector<std::size_t>& shape);         // '|i1'

// Raw contents of a .npy file as produced by write_npy.
struct NpyArray {
    std::string descr;               // e.g. "<f8"
    std::vector<std::size_t> shape;  // e.g. {3, 4}
    std::vector<char> bytes;         // raw little-endian element data, C order
};

// Parses a version 1.0 .npy file (descr, fortran_order, shape). Throws
// std::runtime_error on I/O or format errors, including fortran_order True.
NpyArray read_npy(const std::filesystem::path& path);

// Header text (magic, version, length field and padded dict) that write_npy
// emits for the given dtype descriptor and shape; exposed for testing.
std::string npy_header(const std::string& descr, const std::vector<std::size_t>& shape);

}  // namespace skipstone::io
