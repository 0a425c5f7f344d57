// png_heatmap.hpp — PNG heat-map rendering of 2-D scan maps (continuous or
// categorical), with axes, tick labels, title, colour bar / legend and a
// distinct colour for masked (non-finite) cells.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace skipstone::io {

struct HeatmapAxis {
    std::string label;
    double min = 0.0, max = 1.0;  // the outer edges of the first and last cells
};

// The axis of n grid points first + k (last - first)/(n - 1), k = 0 .. n-1, each at the centre
// of its cell: the edges lie half a spacing outside the first and last points (one point: a
// cell of width 1 around it).
HeatmapAxis grid_axis(std::string label, double first, double last, std::size_t n);

struct HeatmapSpec {
    std::string title;            // drawn at the top
    HeatmapAxis x, y;             // x = columns (left→right min→max), y = rows (bottom→top min→max)
    std::string colorbar_label;   // drawn beside the colour bar
    bool categorical = false;     // true for small-integer maps (e.g. status, exit side): discrete colours + legend entries
    std::vector<std::string> category_names; // used when categorical: value k (0..n-1) → name
    // Applied to every value as it is read, so that a caller needs no transformed copy of a
    // large map: value + offset (e.g. exit side -1, 0, 1 → categories 0, 1, 2), then, when
    // clip is set, clamped to [clip_lo, clip_hi]. Non-finite values stay masked.
    double offset = 0.0;
    bool clip = false;
    double clip_lo = 0.0, clip_hi = 0.0;
};

// Colour of masked (NaN / ±inf / empty-block) cells: mid-grey, far from every
// viridis and categorical palette colour.
inline constexpr std::array<std::uint8_t, 3> kHeatmapMaskColor{128, 128, 128};

// Viridis colour map, t clamped to [0, 1] (NaN maps to 0).
std::array<std::uint8_t, 3> viridis(double t);

// Colour used for category k of a categorical map.
std::array<std::uint8_t, 3> category_color(std::size_t k);

// A rendered heat map: an 8-bit RGB image plus where the data area lies.
struct HeatmapImage {
    std::size_t width = 0, height = 0;
    std::vector<std::uint8_t> rgb;  // width*height*3 bytes, top row first
    // Data (plot) area in image pixels, top-left origin, excluding the frame.
    std::size_t plot_x = 0, plot_y = 0, plot_width = 0, plot_height = 0;
};

// Renders the map. `values` is row-major, nx columns by ny rows, with row 0 at
// y.min (drawn at the bottom). The data area spans [x.min, x.max] by
// [y.min, y.max] edge to edge (grid_axis for maps of grid points). Grids smaller than 512 cells along an axis are
// enlarged by an integer nearest-neighbour factor; grids larger than 1024 are
// reduced by integer blocks (mean of finite values for continuous maps, most
// frequent category for categorical maps; a block without finite values is
// masked). Continuous maps use viridis over [min, max] of the finite values.
// Categorical maps round values to integers k; k outside [0, 256) is masked.
// Throws std::invalid_argument if nx == 0, ny == 0 or values.size() != nx*ny.
HeatmapImage render_heatmap(const std::vector<double>& values, std::size_t nx, std::size_t ny,
                            const HeatmapSpec& spec);

// Encodes an RGB image as PNG bytes (libpng). Throws std::runtime_error on failure.
std::vector<std::uint8_t> encode_png_rgb(const HeatmapImage& image);

// render_heatmap + encode_png_rgb, written via write_file_atomically.
void write_heatmap_png(const std::filesystem::path& path, const std::vector<double>& values,
                       std::size_t nx, std::size_t ny, const HeatmapSpec& spec);

}  // namespace skipstone::io
