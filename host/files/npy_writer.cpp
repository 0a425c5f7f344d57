// npy_writer.cpp — implementation of the NumPy .npy v1.0 writer and reader.
#include "npy_writer.hpp"

#include "atomic_file.hpp"

#include <cctype>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <stdexcept>
#include <type_traits>

namespace skipstone::io {
namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr std::size_t kMagicLen = 6;
constexpr std::size_t kPreambleLen = kMagicLen + 2 + 2;  // magic + version + u16 length
constexpr std::size_t kAlign = 64;

bool host_is_little_endian() {
    const std::uint16_t probe = 1;
    unsigned char first = 0;
    std::memcpy(&first, &probe, 1);
    return first == 1;
}

std::size_t element_count(const std::vector<std::size_t>& shape) {
    std::size_t n = 1;
    for (std::size_t d : shape) {
        if (d != 0 && n > std::numeric_limits<std::size_t>::max() / d)
            throw std::invalid_argument("write_npy: shape product overflows size_t");
        n *= d;
    }
    return n;
}

std::string shape_tuple(const std::vector<std::size_t>& shape) {
    std::string s = "(";
    for (std::size_t i = 0; i < shape.size(); ++i) {
        if (i > 0) s += ", ";
        s += std::to_string(shape[i]);
    }
    if (shape.size() == 1) s += ",";
    s += ")";
    return s;
}

template <typename T>
void write_typed(const std::filesystem::path& path, const std::vector<T>& data,
                 const std::vector<std::size_t>& shape, const char* descr) {
    static_assert(std::is_arithmetic_v<T>, "write_npy needs arithmetic element types");
    const std::size_t n = element_count(shape);
    if (n != data.size())
        throw std::invalid_argument("write_npy: shape " + shape_tuple(shape) + " holds " +
                                    std::to_string(n) + " elements but data has " +
                                    std::to_string(data.size()) + " for '" +
                                    path.string() + "'");
    const std::string header = npy_header(descr, shape);
    write_file_atomically(path, [&](std::ostream& out) {
        out.write(header.data(), static_cast<std::streamsize>(header.size()));
        if (data.empty()) return;
        if (sizeof(T) == 1 || host_is_little_endian()) {
            out.write(reinterpret_cast<const char*>(data.data()),
                      static_cast<std::streamsize>(data.size() * sizeof(T)));
        } else {
            // Big-endian host: byte-swap each element in chunks.
            std::vector<char> buf;
            buf.reserve(4096 * sizeof(T));
            for (std::size_t i = 0; i < data.size(); ++i) {
                char tmp[sizeof(T)];
                std::memcpy(tmp, &data[i], sizeof(T));
                for (std::size_t b = sizeof(T); b-- > 0;) buf.push_back(tmp[b]);
                if (buf.size() >= 4096 * sizeof(T) || i + 1 == data.size()) {
                    out.write(buf.data(), static_cast<std::streamsize>(buf.size()));
                    buf.clear();
                }
            }
        }
    });
}

[[noreturn]] void parse_fail(const std::filesystem::path& path, const std::string& why) {
    throw std::runtime_error("read_npy: " + why + " in '" + path.string() + "'");
}

// Tiny cursor over the header dict text.
struct DictParser {
    const std::string& s;
    std::size_t pos = 0;
    const std::filesystem::path& path;

    void skip_ws() {
        while (pos < s.size() && std::isspace(static_cast<unsigned char>(s[pos]))) ++pos;
    }
    bool try_consume(char c) {
        skip_ws();
        if (pos < s.size() && s[pos] == c) {
            ++pos;
            return true;
        }
        return false;
    }
    void expect(char c) {
        if (!try_consume(c)) parse_fail(path, std::string("expected '") + c + "' in header");
    }
    std::string quoted() {
        skip_ws();
        if (pos >= s.size() || (s[pos] != '\'' && s[pos] != '"'))
            parse_fail(path, "expected quoted string in header");
        const char q = s[pos++];
        const std::size_t end = s.find(q, pos);
        if (end == std::string::npos) parse_fail(path, "unterminated string in header");
        std::string out = s.substr(pos, end - pos);
        pos = end + 1;
        return out;
    }
    bool boolean() {
        skip_ws();
        if (s.compare(pos, 4, "True") == 0) {
            pos += 4;
            return true;
        }
        if (s.compare(pos, 5, "False") == 0) {
            pos += 5;
            return false;
        }
        parse_fail(path, "expected True or False in header");
    }
    std::vector<std::size_t> tuple() {
        expect('(');
        std::vector<std::size_t> dims;
        while (true) {
            if (try_consume(')')) break;
            skip_ws();
            if (pos >= s.size() || !std::isdigit(static_cast<unsigned char>(s[pos])))
                parse_fail(path, "bad shape tuple in header");
            std::size_t v = 0;
            while (pos < s.size() && std::isdigit(static_cast<unsigned char>(s[pos]))) {
                const std::size_t digit = static_cast<std::size_t>(s[pos] - '0');
                if (v > (std::numeric_limits<std::size_t>::max() - digit) / 10)
                    parse_fail(path, "shape dimension overflows");
                v = v * 10 + digit;
                ++pos;
            }
            dims.push_back(v);
            if (try_consume(')')) break;
            expect(',');
        }
        return dims;
    }
};

std::size_t descr_item_size(const std::string& descr, const std::filesystem::path& path) {
    if (descr.size() < 3) parse_fail(path, "unsupported descr '" + descr + "'");
    const char order = descr[0];
    if (order == '>') parse_fail(path, "big-endian data is not supported");
    if (order != '<' && order != '|' && order != '=')
        parse_fail(path, "unsupported descr '" + descr + "'");
    std::size_t size = 0;
    for (std::size_t i = 2; i < descr.size(); ++i) {
        if (!std::isdigit(static_cast<unsigned char>(descr[i])))
            parse_fail(path, "unsupported descr '" + descr + "'");
        size = size * 10 + static_cast<std::size_t>(descr[i] - '0');
        if (size > 64) parse_fail(path, "unsupported descr '" + descr + "'");
    }
    if (size == 0) parse_fail(path, "unsupported descr '" + descr + "'");
    return size;
}

}  // namespace

std::string npy_header(const std::string& descr, const std::vector<std::size_t>& shape) {
    std::string dict = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " +
                       shape_tuple(shape) + ", }";
    // Pad with spaces so that preamble + dict + '\n' is a multiple of 64.
    const std::size_t unpadded = kPreambleLen + dict.size() + 1;
    const std::size_t padded = (unpadded + kAlign - 1) / kAlign * kAlign;
    dict.append(padded - unpadded, ' ');
    dict.push_back('\n');
    if (dict.size() > 0xFFFF)
        throw std::invalid_argument("write_npy: header too long for format version 1.0");

    std::string header(kMagic, kMagicLen);
    header.push_back('\x01');
    header.push_back('\x00');
    header.push_back(static_cast<char>(dict.size() & 0xFF));
    header.push_back(static_cast<char>((dict.size() >> 8) & 0xFF));
    header += dict;
    return header;
}

void write_npy(const std::filesystem::path& path, const std::vector<double>& data,
               const std::vector<std::size_t>& shape) {
    write_typed(path, data, shape, "<f8");
}
void write_npy(const std::filesystem::path& path, const std::vector<float>& data,
               const std::vector<std::size_t>& shape) {
    write_typed(path, data, shape, "<f4");
}
void write_npy(const std::filesystem::path& path, const std::vector<std::int32_t>& data,
               const std::vector<std::size_t>& shape) {
    write_typed(path, data, shape, "<i4");
}
void write_npy(const std::filesystem::path& path, const std::vector<std::uint64_t>& data,
               const std::vector<std::size_t>& shape) {
    write_typed(path, data, shape, "<u8");
}
void write_npy(const std::filesystem::path& path, const std::vector<std::uint8_t>& data,
               const std::vector<std::size_t>& shape) {
    write_typed(path, data, shape, "|u1");
}
void write_npy(const std::filesystem::path& path, const std::vector<std::int8_t>& data,
               const std::vector<std::size_t>& shape) {
    write_typed(path, data, shape, "|i1");
}

NpyArray read_npy(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) parse_fail(path, "cannot open file");

    char pre[kPreambleLen];
    if (!in.read(pre, static_cast<std::streamsize>(kPreambleLen)))
        parse_fail(path, "file too short for .npy preamble");
    if (std::memcmp(pre, kMagic, kMagicLen) != 0) parse_fail(path, "bad magic");
    if (pre[6] != 1 || pre[7] != 0) parse_fail(path, "unsupported .npy format version");
    const std::size_t hlen = static_cast<std::size_t>(static_cast<unsigned char>(pre[8])) |
                             (static_cast<std::size_t>(static_cast<unsigned char>(pre[9])) << 8);
    std::string dict(hlen, '\0');
    if (hlen > 0 && !in.read(dict.data(), static_cast<std::streamsize>(hlen)))
        parse_fail(path, "truncated header");
    if (dict.empty() || dict.back() != '\n') parse_fail(path, "header not newline-terminated");

    NpyArray arr;
    bool have_descr = false, have_order = false, have_shape = false;
    DictParser p{dict, 0, path};
    p.expect('{');
    while (!p.try_consume('}')) {
        const std::string key = p.quoted();
        p.expect(':');
        if (key == "descr") {
            arr.descr = p.quoted();
            have_descr = true;
        } else if (key == "fortran_order") {
            if (p.boolean()) parse_fail(path, "fortran_order True is not supported");
            have_order = true;
        } else if (key == "shape") {
            arr.shape = p.tuple();
            have_shape = true;
        } else {
            parse_fail(path, "unexpected header key '" + key + "'");
        }
        if (p.try_consume('}')) break;
        p.expect(',');
    }
    if (!have_descr || !have_order || !have_shape) parse_fail(path, "incomplete header");

    const std::size_t item = descr_item_size(arr.descr, path);
    std::size_t count = 1;
    for (std::size_t d : arr.shape) {
        if (d != 0 && count > std::numeric_limits<std::size_t>::max() / d)
            parse_fail(path, "shape too large");
        count *= d;
    }
    if (count > std::numeric_limits<std::size_t>::max() / item) parse_fail(path, "shape too large");
    arr.bytes.resize(count * item);
    if (!arr.bytes.empty() &&
        !in.read(arr.bytes.data(), static_cast<std::streamsize>(arr.bytes.size())))
        parse_fail(path, "truncated data");
    if (in.peek() != std::char_traits<char>::eof()) parse_fail(path, "trailing bytes after data");
    return arr;
}

}  // namespace skipstone::io
