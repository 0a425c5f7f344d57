// test_io.cpp — GoogleTest suite for skipstone_io: atomic file writes, the .npy
// writer/reader and the PNG heat-map renderer (decoded back with libpng).
#include "atomic_file.hpp"
#include "bitmap_font.hpp"
#include "npy_writer.hpp"
#include "png_heatmap.hpp"

#include <gtest/gtest.h>
#include <png.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <sys/resource.h>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace skipstone::io;

namespace {

class IoTest : public ::testing::Test {
protected:
    void SetUp() override {
        const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
        dir_ = fs::temp_directory_path() /
               ("skipstone_io_" + std::to_string(::getpid()) + "_" + info->test_suite_name() +
                "_" + info->name());
        fs::remove_all(dir_);
        fs::create_directories(dir_);
    }
    void TearDown() override {
        std::error_code ec;
        fs::remove_all(dir_, ec);
    }
    std::vector<std::string> entries() const {
        std::vector<std::string> names;
        for (const auto& e : fs::directory_iterator(dir_)) names.push_back(e.path().filename().string());
        return names;
    }
    fs::path dir_;
};

std::string read_all(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// ----------------------------------------------------------------- npy ----

template <typename T>
void check_npy_round_trip(const fs::path& path, const std::vector<T>& data,
                          const std::vector<std::size_t>& shape, const std::string& descr,
                          const std::string& shape_text) {
    write_npy(path, data, shape);
    const std::string raw = read_all(path);
    ASSERT_GE(raw.size(), 10u);
    EXPECT_EQ(raw.substr(0, 6), std::string("\x93NUMPY", 6));
    EXPECT_EQ(raw[6], '\x01');
    EXPECT_EQ(raw[7], '\x00');
    const std::size_t hlen = static_cast<unsigned char>(raw[8]) |
                             (static_cast<std::size_t>(static_cast<unsigned char>(raw[9])) << 8);
    const std::size_t total = 10 + hlen;
    EXPECT_EQ(total % 64, 0u);
    ASSERT_EQ(raw.size(), total + data.size() * sizeof(T));
    const std::string dict = raw.substr(10, hlen);
    EXPECT_EQ(dict.back(), '\n');
    const std::string expected_dict = "{'descr': '" + descr +
                                      "', 'fortran_order': False, 'shape': " + shape_text + ", }";
    EXPECT_EQ(dict.substr(0, expected_dict.size()), expected_dict);
    EXPECT_EQ(dict.find_first_not_of(' ', expected_dict.size()), hlen - 1);

    const NpyArray arr = read_npy(path);
    EXPECT_EQ(arr.descr, descr);
    EXPECT_EQ(arr.shape, shape);
    ASSERT_EQ(arr.bytes.size(), data.size() * sizeof(T));
    if (!data.empty()) {
        EXPECT_EQ(std::memcmp(arr.bytes.data(), data.data(), arr.bytes.size()), 0);
    }
}

TEST_F(IoTest, NpyFloat64RoundTrip2D) {
    std::vector<double> d(12);
    for (std::size_t i = 0; i < d.size(); ++i) d[i] = 0.5 * static_cast<double>(i) - 1.25;
    d[3] = std::numeric_limits<double>::quiet_NaN();
    check_npy_round_trip(dir_ / "a.npy", d, {3, 4}, "<f8", "(3, 4)");
}

TEST_F(IoTest, NpyFloat64RoundTrip1D) {
    check_npy_round_trip(dir_ / "a.npy", std::vector<double>{1, 2, 3, 4, 5}, {5}, "<f8", "(5,)");
}

TEST_F(IoTest, NpyFloat32RoundTrip) {
    check_npy_round_trip(dir_ / "a.npy", std::vector<float>{1.5f, -2.f, 3.25f, 4.f, 5.f, 6.f},
                         {2, 3}, "<f4", "(2, 3)");
}

TEST_F(IoTest, NpyInt32RoundTrip) {
    check_npy_round_trip(dir_ / "a.npy", std::vector<std::int32_t>{-1, 0, 1, 2147483647, -7},
                         {5}, "<i4", "(5,)");
}

TEST_F(IoTest, NpyUint64RoundTrip) {
    check_npy_round_trip(dir_ / "a.npy",
                         std::vector<std::uint64_t>{0, 1, 0xFFFFFFFFFFFFFFFFull, 42, 7, 9, 11, 13},
                         {2, 2, 2}, "<u8", "(2, 2, 2)");
}

TEST_F(IoTest, NpyUint8RoundTrip) {
    check_npy_round_trip(dir_ / "a.npy", std::vector<std::uint8_t>{0, 1, 2, 255, 128, 7}, {3, 2},
                         "|u1", "(3, 2)");
}

TEST_F(IoTest, NpyInt8RoundTrip) {
    check_npy_round_trip(dir_ / "a.npy", std::vector<std::int8_t>{-128, -1, 0, 1, 127}, {5}, "|i1",
                         "(5,)");
}

TEST_F(IoTest, NpyEmptyAndScalarShapes) {
    check_npy_round_trip(dir_ / "e.npy", std::vector<double>{}, {0}, "<f8", "(0,)");
    check_npy_round_trip(dir_ / "e2.npy", std::vector<float>{}, {4, 0}, "<f4", "(4, 0)");
    check_npy_round_trip(dir_ / "s.npy", std::vector<std::int32_t>{9}, {}, "<i4", "()");
}

TEST_F(IoTest, NpyLongShapeStillAligned) {
    check_npy_round_trip(dir_ / "l.npy", std::vector<std::uint8_t>{5},
                         std::vector<std::size_t>(12, 1), "|u1",
                         "(1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1)");
    // Header stays 64-byte aligned for dimension strings of every length.
    std::size_t dim = 1;
    for (int digits = 1; digits <= 19; ++digits, dim *= 10) {
        for (const auto& shape : {std::vector<std::size_t>{dim}, std::vector<std::size_t>{dim, 3},
                                  std::vector<std::size_t>{7, dim, dim}}) {
            const std::string h = npy_header("<f8", shape);
            EXPECT_EQ(h.size() % 64, 0u);
            EXPECT_EQ(h.back(), '\n');
        }
    }
}

TEST_F(IoTest, NpyShapeMismatchThrows) {
    const fs::path p = dir_ / "bad.npy";
    EXPECT_THROW(write_npy(p, std::vector<double>{1, 2, 3}, {2, 2}), std::invalid_argument);
    EXPECT_THROW(write_npy(p, std::vector<std::uint8_t>{1, 2, 3}, {}), std::invalid_argument);
    EXPECT_THROW(write_npy(p, std::vector<float>{1}, {0}), std::invalid_argument);
    EXPECT_FALSE(fs::exists(p));
    EXPECT_TRUE(entries().empty());
}

TEST_F(IoTest, NpyReaderRejectsGarbage) {
    write_text_atomically(dir_ / "x.npy", "not a numpy file at all");
    EXPECT_THROW(read_npy(dir_ / "x.npy"), std::runtime_error);
    EXPECT_THROW(read_npy(dir_ / "missing.npy"), std::runtime_error);
}

// -------------------------------------------------------------- atomic ----

TEST_F(IoTest, AtomicWriteCreatesAndReplaces) {
    const fs::path p = dir_ / "out.txt";
    write_text_atomically(p, "first");
    EXPECT_EQ(read_all(p), "first");
    write_text_atomically(p, std::string("second\0with nul", 15));
    EXPECT_EQ(read_all(p), std::string("second\0with nul", 15));
    EXPECT_EQ(entries(), std::vector<std::string>{"out.txt"});
}

TEST_F(IoTest, AtomicWriteCallbackThrowsLeavesNothing) {
    const fs::path p = dir_ / "new.bin";
    try {
        write_file_atomically(p, [](std::ostream& out) {
            out << "partial data";
            throw std::logic_error("boom");
        });
        FAIL() << "expected an exception";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find(p.string()), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("boom"), std::string::npos) << e.what();
    }
    EXPECT_FALSE(fs::exists(p));
    EXPECT_TRUE(entries().empty());
}

TEST_F(IoTest, AtomicWriteCallbackThrowsKeepsOldContents) {
    const fs::path p = dir_ / "keep.txt";
    write_text_atomically(p, "old contents");
    EXPECT_THROW(write_file_atomically(p,
                                       [](std::ostream& out) {
                                           out << "new contents that must not appear";
                                           throw 17;
                                       }),
                 std::runtime_error);
    EXPECT_EQ(read_all(p), "old contents");
    EXPECT_EQ(entries(), std::vector<std::string>{"keep.txt"});
}

TEST_F(IoTest, AtomicWriteStreamFailureThrows) {
    const fs::path p = dir_ / "bad_stream.txt";
    write_text_atomically(p, "old");
    EXPECT_THROW(write_file_atomically(p, [](std::ostream& out) { out.setstate(std::ios::badbit); }),
                 std::runtime_error);
    EXPECT_EQ(read_all(p), "old");
    EXPECT_EQ(entries(), std::vector<std::string>{"bad_stream.txt"});
}

TEST_F(IoTest, AtomicWriteIntoMissingDirectoryThrowsWithPath) {
    const fs::path p = dir_ / "no" / "such" / "dir" / "file.npy";
    try {
        write_text_atomically(p, "x");
        FAIL() << "expected an exception";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find(p.string()), std::string::npos) << e.what();
    }
    EXPECT_FALSE(fs::exists(dir_ / "no"));
    EXPECT_THROW(write_npy(p, std::vector<double>{1.0}, {1}), std::runtime_error);
}

// The message of a failed write carries the path and the OS reason, strerror(err).
void expect_write_failure(const fs::path& p, int err, const std::function<void()>& write) {
    try {
        write();
        FAIL() << "expected an exception writing " << p;
    } catch (const std::runtime_error& e) {
        const std::string msg = e.what();
        EXPECT_NE(msg.find(p.string()), std::string::npos) << msg;
        EXPECT_NE(msg.find(std::strerror(err)), std::string::npos) << "want the reason '" << std::strerror(err)
                                                                  << "' in: " << msg;
    }
}

// A file size limit (RLIMIT_FSIZE, which binds root as well) stands in for a full disk: the
// write(2) fails with EFBIG part-way through the data, and that reason must survive the
// stream's later flush and close. SIGXFSZ is ignored for the test, as `ulimit -f` runs need.
TEST_F(IoTest, AtomicWriteErrorCarriesTheOsReason) {
    const fs::path p = dir_ / "big.npy";
    write_text_atomically(p, "old");
    struct rlimit old_limit {};
    ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &old_limit), 0);
    struct rlimit limit = old_limit;
    limit.rlim_cur = 64 * 1024;
    ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &limit), 0) << std::strerror(errno);
    void (*old_handler)(int) = std::signal(SIGXFSZ, SIG_IGN);
    expect_write_failure(p, EFBIG, [&] { write_npy(p, std::vector<double>(1 << 17, 1.5), {1u << 17}); });
    expect_write_failure(p, EFBIG, [&] {  // many small writes through the stream buffer
        write_file_atomically(p, [](std::ostream& out) {
            for (int i = 0; i < 100000; ++i) out << "line " << i << "\n";
        });
    });
    std::signal(SIGXFSZ, old_handler);
    ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &old_limit), 0) << std::strerror(errno);
    EXPECT_EQ(read_all(p), "old");
    EXPECT_EQ(entries(), std::vector<std::string>{"big.npy"});
}

// Failures that stop root too: a parent that is a regular file (ENOTDIR) and a destination
// that is a non-empty folder (rename fails with EISDIR).
TEST_F(IoTest, AtomicWriteIntoUnusablePathsNamesTheReason) {
    write_text_atomically(dir_ / "plain", "x");
    expect_write_failure(dir_ / "plain" / "a.npy", ENOTDIR, [&] { write_text_atomically(dir_ / "plain" / "a.npy", "y"); });
    fs::create_directories(dir_ / "folder" / "inside");
    expect_write_failure(dir_ / "folder", EISDIR, [&] { write_text_atomically(dir_ / "folder", "y"); });
    EXPECT_TRUE(fs::is_directory(dir_ / "folder" / "inside"));
    std::vector<std::string> names = entries();
    std::sort(names.begin(), names.end());
    EXPECT_EQ(names, (std::vector<std::string>{"folder", "plain"})) << "a temporary file was left behind";
}

// ------------------------------------------------------------- heatmap ----

struct DecodedPng {
    std::size_t width = 0, height = 0;
    std::vector<std::uint8_t> rgb;
    std::array<std::uint8_t, 3> at(std::size_t x, std::size_t y) const {
        const std::size_t i = (y * width + x) * 3;
        return {rgb[i], rgb[i + 1], rgb[i + 2]};
    }
};

DecodedPng decode_png(const fs::path& path) {
    png_image image;
    std::memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_file(&image, path.c_str()))
        throw std::runtime_error(std::string("png read failed: ") + image.message);
    image.format = PNG_FORMAT_RGB;
    DecodedPng out;
    out.width = image.width;
    out.height = image.height;
    out.rgb.resize(PNG_IMAGE_SIZE(image));
    if (!png_image_finish_read(&image, nullptr, out.rgb.data(), 0, nullptr)) {
        png_image_free(&image);
        throw std::runtime_error(std::string("png decode failed: ") + image.message);
    }
    return out;
}

std::uint32_t be32(const std::string& s, std::size_t off) {
    return (static_cast<std::uint32_t>(static_cast<unsigned char>(s[off])) << 24) |
           (static_cast<std::uint32_t>(static_cast<unsigned char>(s[off + 1])) << 16) |
           (static_cast<std::uint32_t>(static_cast<unsigned char>(s[off + 2])) << 8) |
           static_cast<std::uint32_t>(static_cast<unsigned char>(s[off + 3]));
}

HeatmapSpec sample_spec() {
    HeatmapSpec spec;
    spec.title = "Escape time vs launch angle";
    spec.x = {"angle theta [rad]", 0.0, 3.14159};
    spec.y = {"impact b", -1.0, 1.0};
    spec.colorbar_label = "log10(T_escape)";
    return spec;
}

// 40x30 map: left half (x < 20) ramps low, right half high; a NaN block in the top-right.
std::vector<double> sample_values(std::size_t nx, std::size_t ny) {
    std::vector<double> v(nx * ny);
    for (std::size_t y = 0; y < ny; ++y)
        for (std::size_t x = 0; x < nx; ++x)
            v[y * nx + x] = static_cast<double>(x) / static_cast<double>(nx - 1);
    return v;
}

TEST_F(IoTest, HeatmapPngSignatureAndSize) {
    const fs::path p = dir_ / "map.png";
    write_heatmap_png(p, sample_values(40, 30), 40, 30, sample_spec());
    const std::string raw = read_all(p);
    ASSERT_GT(raw.size(), 33u);
    EXPECT_EQ(raw.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
    EXPECT_EQ(raw.substr(12, 4), "IHDR");
    const std::uint32_t w = be32(raw, 16), h = be32(raw, 20);
    EXPECT_GE(w, 512u);
    EXPECT_GE(h, 512u);
    EXPECT_LE(w, 2000u);
    EXPECT_LE(h, 2000u);
    EXPECT_EQ(entries(), std::vector<std::string>{"map.png"});
}

TEST_F(IoTest, HeatmapDecodedPixels) {
    const std::size_t nx = 40, ny = 30;
    std::vector<double> v(nx * ny, 0.0);
    for (std::size_t y = 0; y < ny; ++y)
        for (std::size_t x = 0; x < nx; ++x) v[y * nx + x] = x < nx / 2 ? -3.0 : 5.0;
    // NaN / inf block: columns 30..39, rows 20..29 (top right, since row 0 is at the bottom).
    for (std::size_t y = 20; y < ny; ++y)
        for (std::size_t x = 30; x < nx; ++x)
            v[y * nx + x] = (x % 3 == 0) ? std::numeric_limits<double>::infinity()
                                         : std::numeric_limits<double>::quiet_NaN();
    const HeatmapSpec spec = sample_spec();
    const fs::path p = dir_ / "pix.png";
    write_heatmap_png(p, v, nx, ny, spec);

    const HeatmapImage ref = render_heatmap(v, nx, ny, spec);
    const DecodedPng img = decode_png(p);
    ASSERT_EQ(img.width, ref.width);
    ASSERT_EQ(img.height, ref.height);
    EXPECT_EQ(img.rgb, ref.rgb);
    EXPECT_GE(ref.plot_width, 512u);
    EXPECT_GE(ref.plot_height, 512u);

    // Centre of data cell (ix, iy) in image coordinates (row 0 at the bottom).
    auto cell = [&](std::size_t ix, std::size_t iy) {
        const std::size_t px = ref.plot_x + (2 * ix + 1) * ref.plot_width / (2 * nx);
        const std::size_t py = ref.plot_y + ref.plot_height - 1 - (2 * iy + 1) * ref.plot_height / (2 * ny);
        return img.at(px, py);
    };
    EXPECT_EQ(cell(35, 25), kHeatmapMaskColor);
    EXPECT_EQ(cell(30, 29), kHeatmapMaskColor);
    const auto lo = cell(5, 5), hi = cell(35, 5);
    EXPECT_NE(lo, hi);
    EXPECT_EQ(lo, viridis(0.0));
    EXPECT_EQ(hi, viridis(1.0));
    EXPECT_EQ(cell(5, 29), lo);   // top-left is low too: orientation check
    EXPECT_EQ(cell(25, 25), hi);
    EXPECT_NE(lo, kHeatmapMaskColor);
    // Background is white, frame is black.
    EXPECT_EQ(img.at(0, 0), (std::array<std::uint8_t, 3>{255, 255, 255}));
    EXPECT_EQ(img.at(ref.plot_x - 1, ref.plot_y + 10), (std::array<std::uint8_t, 3>{0, 0, 0}));
}

// Grid points lie at the centres of their cells: with 3 points 0, 0.5, 1 per axis the cells
// span [-0.25, 1.25], and the ticks of the first and last points (0 and 1) mark the centres of
// the first and last cells, not the frame (where cells spanning [0, 1] would put them).
TEST_F(IoTest, HeatmapTicksOfGridPointsMarkCellCentres) {
    const HeatmapAxis axis = grid_axis("x", 0.0, 1.0, 3);
    EXPECT_DOUBLE_EQ(axis.min, -0.25);
    EXPECT_DOUBLE_EQ(axis.max, 1.25);
    const HeatmapAxis single = grid_axis("x", 2.0, 2.0, 1);
    EXPECT_DOUBLE_EQ(single.min, 1.5);
    EXPECT_DOUBLE_EQ(single.max, 2.5);

    HeatmapSpec spec;
    spec.x = grid_axis("x", 0.0, 1.0, 3);
    spec.y = grid_axis("y", 0.0, 1.0, 3);
    const std::vector<double> v = {0, 1, 2, 3, 4, 5, 6, 7, 8};
    const HeatmapImage img = render_heatmap(v, 3, 3, spec);
    const auto black = [&](std::size_t x, std::size_t y) {
        const std::size_t i = (y * img.width + x) * 3;
        return img.rgb[i] == 0 && img.rgb[i + 1] == 0 && img.rgb[i + 2] == 0;
    };
    const std::size_t cell_w = img.plot_width / 3, cell_h = img.plot_height / 3;
    const std::size_t below = img.plot_y + img.plot_height + 3;  // inside the x tick marks
    const std::size_t left = img.plot_x - 4;                     // inside the y tick marks
    for (std::size_t k : {std::size_t{0}, std::size_t{2}}) {
        SCOPED_TRACE("grid point " + std::to_string(k));
        const std::size_t cx = img.plot_x + k * cell_w + cell_w / 2;
        EXPECT_TRUE(black(cx, below) || black(cx - 1, below) || black(cx + 1, below)) << "no x tick at the cell centre";
        const std::size_t cy = img.plot_y + img.plot_height - k * cell_h - cell_h / 2;
        EXPECT_TRUE(black(left, cy) || black(left, cy - 1) || black(left, cy + 1)) << "no y tick at the cell centre";
    }
}

TEST_F(IoTest, HeatmapWithNaNsAndConstantValuesWrites) {
    std::vector<double> v(7 * 5, 2.5);
    v[3] = std::nan("");
    v[10] = -std::numeric_limits<double>::infinity();
    const fs::path p = dir_ / "const.png";
    ASSERT_NO_THROW(write_heatmap_png(p, v, 7, 5, sample_spec()));
    const DecodedPng img = decode_png(p);
    EXPECT_GE(img.width, 512u);

    std::vector<double> all_nan(4 * 4, std::numeric_limits<double>::quiet_NaN());
    HeatmapSpec bare;  // no labels at all
    ASSERT_NO_THROW(write_heatmap_png(dir_ / "nan.png", all_nan, 4, 4, bare));
    const HeatmapImage ref = render_heatmap(all_nan, 4, 4, bare);
    const std::size_t i = ((ref.plot_y + 5) * ref.width + ref.plot_x + 5) * 3;
    EXPECT_EQ(ref.rgb[i], kHeatmapMaskColor[0]);
}

TEST_F(IoTest, HeatmapCategoricalWrites) {
    const std::size_t nx = 64, ny = 48;
    std::vector<double> v(nx * ny);
    for (std::size_t y = 0; y < ny; ++y)
        for (std::size_t x = 0; x < nx; ++x) v[y * nx + x] = static_cast<double>((x / 16) % 4);
    v[0] = std::numeric_limits<double>::quiet_NaN();
    HeatmapSpec spec = sample_spec();
    spec.categorical = true;
    spec.colorbar_label = "exit side";
    spec.category_names = {"left", "right", "bottom", "top"};
    const fs::path p = dir_ / "cat.png";
    ASSERT_NO_THROW(write_heatmap_png(p, v, nx, ny, spec));
    const DecodedPng img = decode_png(p);
    const HeatmapImage ref = render_heatmap(v, nx, ny, spec);
    ASSERT_EQ(img.rgb, ref.rgb);
    const std::size_t py = ref.plot_y + ref.plot_height / 2;
    for (std::size_t k = 0; k < 4; ++k) {
        const std::size_t px = ref.plot_x + (k * 16 + 8) * ref.plot_width / nx;
        EXPECT_EQ(img.at(px, py), category_color(k)) << k;
    }
    // Bottom-left cell is masked.
    EXPECT_EQ(img.at(ref.plot_x + 1, ref.plot_y + ref.plot_height - 2), kHeatmapMaskColor);
}

TEST_F(IoTest, HeatmapDownsamplesLargeMaps) {
    const std::size_t nx = 3000, ny = 20;
    std::vector<double> v(nx * ny);
    for (std::size_t y = 0; y < ny; ++y)
        for (std::size_t x = 0; x < nx; ++x)
            v[y * nx + x] = x < 1500 ? 0.0 : 1.0;
    // Columns 0..2 (one whole block of 3) are NaN -> that block is masked.
    for (std::size_t y = 0; y < ny; ++y)
        for (std::size_t x = 0; x < 3; ++x) v[y * nx + x] = std::numeric_limits<double>::quiet_NaN();
    // Column 3 partially NaN: the block average of finite values is still 0.
    v[3] = std::numeric_limits<double>::quiet_NaN();
    const HeatmapImage ref = render_heatmap(v, nx, ny, sample_spec());
    EXPECT_LE(ref.plot_width, 1024u);
    EXPECT_GE(ref.plot_width, 512u);
    EXPECT_GE(ref.plot_height, 512u);
    auto at = [&](std::size_t x, std::size_t y) {
        const std::size_t i = (y * ref.width + x) * 3;
        return std::array<std::uint8_t, 3>{ref.rgb[i], ref.rgb[i + 1], ref.rgb[i + 2]};
    };
    const std::size_t py = ref.plot_y + ref.plot_height - 1;
    EXPECT_EQ(at(ref.plot_x, py), kHeatmapMaskColor);
    EXPECT_EQ(at(ref.plot_x + 1, py), viridis(0.0));
    EXPECT_EQ(at(ref.plot_x + ref.plot_width - 1, py), viridis(1.0));
    ASSERT_NO_THROW(write_heatmap_png(dir_ / "big.png", v, nx, ny, sample_spec()));
}

TEST_F(IoTest, HeatmapRejectsBadDimensions) {
    const HeatmapSpec spec = sample_spec();
    EXPECT_THROW(write_heatmap_png(dir_ / "a.png", std::vector<double>(10), 3, 3, spec),
                 std::invalid_argument);
    EXPECT_THROW(write_heatmap_png(dir_ / "a.png", std::vector<double>{}, 0, 5, spec),
                 std::invalid_argument);
    EXPECT_THROW(write_heatmap_png(dir_ / "a.png", std::vector<double>{}, 5, 0, spec),
                 std::invalid_argument);
    EXPECT_TRUE(entries().empty());
}

TEST_F(IoTest, ViridisEndpointsAndMaskDistinct) {
    EXPECT_EQ(viridis(0.0), (std::array<std::uint8_t, 3>{68, 1, 84}));
    EXPECT_EQ(viridis(1.0), (std::array<std::uint8_t, 3>{253, 231, 37}));
    for (int i = 0; i <= 1000; ++i) {
        const auto c = viridis(i / 1000.0);
        int d = 0;
        for (std::size_t k = 0; k < 3; ++k) d += std::abs(int(c[k]) - int(kHeatmapMaskColor[k]));
        EXPECT_GT(d, 60) << i;
    }
    for (std::size_t k = 0; k < 40; ++k) {
        const auto c = category_color(k);
        int d = 0;
        for (std::size_t j = 0; j < 3; ++j) d += std::abs(int(c[j]) - int(kHeatmapMaskColor[j]));
        EXPECT_GT(d, 60) << k;
    }
}

TEST(BitmapFont, CoversPrintableAscii) {
    for (int c = 0x21; c <= 0x7E; ++c) {
        int ink = 0;
        for (int r = 0; r < font::kGlyphHeight; ++r)
            for (int col = 0; col < font::kGlyphWidth; ++col) ink += font::glyph_pixel(char(c), col, r);
        EXPECT_GT(ink, 0) << "glyph '" << char(c) << "'";
    }
    for (int r = 0; r < font::kGlyphHeight; ++r)
        for (int col = 0; col < font::kGlyphWidth; ++col) EXPECT_FALSE(font::glyph_pixel(' ', col, r));
    EXPECT_EQ(font::text_width("", 2), 0);
    EXPECT_EQ(font::text_width("ab", 2), (2 * font::kAdvance - 1) * 2);
    // Upper and lower case differ.
    bool differ = false;
    for (int r = 0; r < font::kGlyphHeight; ++r)
        for (int col = 0; col < font::kGlyphWidth; ++col)
            differ |= font::glyph_pixel('a', col, r) != font::glyph_pixel('A', col, r);
    EXPECT_TRUE(differ);
}

TEST(BitmapFont, RotatedTextStaysInBoundingBox) {
    const std::string s = "Ab_9";
    const int w = font::text_width(s, 2), h = font::text_height(2);
    int n_h = 0, n_up = 0;
    font::draw_text(s, 10, 20, 2, font::Orientation::Horizontal, [&](int x, int y) {
        EXPECT_TRUE(x >= 10 && x < 10 + w && y >= 20 && y < 20 + h);
        ++n_h;
    });
    font::draw_text(s, 10, 20, 2, font::Orientation::Up, [&](int x, int y) {
        EXPECT_TRUE(x >= 10 && x < 10 + h && y >= 20 && y < 20 + w);
        ++n_up;
    });
    EXPECT_GT(n_h, 0);
    EXPECT_EQ(n_h, n_up);
}

}  // namespace
