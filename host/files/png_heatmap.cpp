// png_heatmap.cpp — rasterises 2-D scan maps into labelled heat-map images and
// encodes them as PNG with libpng (in memory), written atomically.
#include "png_heatmap.hpp"

#include "atomic_file.hpp"
#include "bitmap_font.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <string_view>

#include <png.h>

namespace skipstone::io {
namespace {

using Rgb = std::array<std::uint8_t, 3>;
constexpr Rgb kWhite{255, 255, 255};
constexpr Rgb kBlack{0, 0, 0};

// Layout constants (pixels).
constexpr int kTextScale = 2;
constexpr int kTitleScale = 3;
constexpr int kPad = 16;
constexpr int kTickLen = 6;
constexpr int kTickGap = 4;      // between tick mark end and its label
constexpr int kLabelGap = 10;    // between tick labels and axis label
constexpr int kBarGap = 24;      // between plot frame and colour bar / legend
constexpr int kBarWidth = 24;
constexpr int kSwatchW = 24;
constexpr int kSwatchH = 18;
constexpr int kLegendRow = 26;
constexpr int kMinPlot = 512;
constexpr int kMaxPlot = 1024;
constexpr std::size_t kMaxCategories = 256;
constexpr const char* kMaskLabel = "masked / failed";

// ---------------------------------------------------------------- canvas ----

struct Canvas {
    int w = 0, h = 0;
    std::vector<std::uint8_t> px;

    Canvas(int width, int height)
        : w(width), h(height),
          px(static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * 3, 255) {}

    void set(int x, int y, Rgb c) {
        if (x < 0 || y < 0 || x >= w || y >= h) return;
        const std::size_t i = (static_cast<std::size_t>(y) * static_cast<std::size_t>(w) +
                               static_cast<std::size_t>(x)) * 3;
        px[i] = c[0];
        px[i + 1] = c[1];
        px[i + 2] = c[2];
    }
    // Fills [x0, x1) x [y0, y1), clipped.
    void fill(int x0, int y0, int x1, int y1, Rgb c) {
        x0 = std::max(x0, 0);
        y0 = std::max(y0, 0);
        x1 = std::min(x1, w);
        y1 = std::min(y1, h);
        for (int y = y0; y < y1; ++y)
            for (int x = x0; x < x1; ++x) set(x, y, c);
    }
    // One-pixel outline of the inclusive rectangle [x0, x1] x [y0, y1].
    void outline(int x0, int y0, int x1, int y1, Rgb c) {
        fill(x0, y0, x1 + 1, y0 + 1, c);
        fill(x0, y1, x1 + 1, y1 + 1, c);
        fill(x0, y0, x0 + 1, y1 + 1, c);
        fill(x1, y0, x1 + 1, y1 + 1, c);
    }
    void text(std::string_view s, int x, int y, int scale, font::Orientation o, Rgb c) {
        font::draw_text(s, x, y, scale, o, [&](int px_, int py_) { set(px_, py_, c); });
    }
};

int text_w(std::string_view s, int scale = kTextScale) { return font::text_width(s, scale); }
int text_h(int scale = kTextScale) { return font::text_height(scale); }
// Height of capitals / digits (no descenders), used for vertical centring.
int cap_h(int scale = kTextScale) { return font::kAscent * scale; }

// ----------------------------------------------------------------- ticks ----

struct Tick {
    double value;
    std::string label;
};

std::string format_g(double v, int precision) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*g", precision, v);
    return buf;
}

// "Nice" tick values (1, 2, 2.5, 5 x 10^k steps) inside [lo, hi], about `target` of them.
std::vector<double> nice_ticks(double lo, double hi, int target) {
    if (!std::isfinite(lo) || !std::isfinite(hi)) return {};
    if (lo > hi) std::swap(lo, hi);
    const double span = hi - lo;
    const double magnitude = std::max(std::fabs(lo), std::fabs(hi));
    if (!(span > 0.0) || span <= 1e-12 * magnitude) return {lo};
    if (!std::isfinite(span)) return {lo, hi};

    const double raw = span / target;
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    const double mults[] = {1.0, 2.0, 2.5, 5.0, 10.0};
    double best_step = 0.0;
    long best_count = 0;
    for (double m : mults) {
        const double step = m * mag;
        const double k0 = std::ceil(lo / step - 1e-9);
        const double k1 = std::floor(hi / step + 1e-9);
        const long count = static_cast<long>(k1 - k0) + 1;
        if (count > target + 2) continue;
        if (best_step == 0.0 || std::labs(count - target) < std::labs(best_count - target)) {
            best_step = step;
            best_count = count;
        }
    }
    if (best_step == 0.0) return {lo, hi};
    std::vector<double> ticks;
    const double k0 = std::ceil(lo / best_step - 1e-9);
    const double k1 = std::floor(hi / best_step + 1e-9);
    for (double k = k0; k <= k1 && ticks.size() < 64; k += 1.0) {
        double v = k * best_step;
        if (std::fabs(v) < best_step * 1e-9) v = 0.0;
        ticks.push_back(v);
    }
    return ticks;
}

// "%.3g" labels, with more digits if needed so that neighbouring labels differ.
std::vector<Tick> label_ticks(const std::vector<double>& values) {
    std::vector<Tick> ticks;
    for (int prec = 3; prec <= 15; ++prec) {
        ticks.clear();
        bool distinct = true;
        for (double v : values) {
            ticks.push_back({v, format_g(v, prec)});
            if (ticks.size() > 1 && ticks[ticks.size() - 2].label == ticks.back().label)
                distinct = false;
        }
        if (distinct) break;
    }
    return ticks;
}

// Ticks for an axis of `length_px` pixels; for horizontal axes the tick count is
// reduced until neighbouring labels do not collide.
std::vector<Tick> axis_ticks(double a, double b, int length_px, bool horizontal) {
    for (int target = 5; target >= 2; --target) {
        std::vector<Tick> ticks = label_ticks(nice_ticks(a, b, target));
        if (ticks.size() < 2 || !std::isfinite(b - a) || b == a) return ticks;
        const double px_per_unit = length_px / std::fabs(b - a);
        const double spacing = std::fabs(ticks[1].value - ticks[0].value) * px_per_unit;
        int need = 0;
        for (const Tick& t : ticks)
            need = std::max(need, horizontal ? text_w(t.label) + 12 : text_h() + 4);
        if (spacing >= need || target == 2) return ticks;
    }
    return {};
}

// Fraction of the way from a to b; 0.5 for a degenerate range.
double axis_fraction(double v, double a, double b) {
    const double f = (v - a) / (b - a);
    return std::isfinite(f) ? std::clamp(f, 0.0, 1.0) : 0.5;
}

}  // namespace

HeatmapAxis grid_axis(std::string label, double first, double last, std::size_t n) {
    const double half = n > 1 ? 0.5 * (last - first) / static_cast<double>(n - 1) : 0.5;
    return {std::move(label), first - half, last + half};
}

namespace {

// ------------------------------------------------------------ resampling ----

struct Grid {
    std::size_t nx = 0, ny = 0;
    std::vector<double> v;  // row 0 = y.min; NaN = masked
    double at(std::size_t ix, std::size_t iy) const { return v[iy * nx + ix]; }
};

std::size_t ceil_div(std::size_t a, std::size_t b) { return (a + b - 1) / b; }

// Reduces axes longer than kMaxPlot by integer blocks. Continuous: mean of the
// finite values; categorical (values already category indices): most frequent.
// `values(i)` is the value of cell i (row-major, as read through the spec's transform).
template <class Values>
Grid reduce_grid(const Values& values, std::size_t nx, std::size_t ny,
                 bool categorical, std::size_t n_categories) {
    const std::size_t bx = nx > static_cast<std::size_t>(kMaxPlot) ? ceil_div(nx, kMaxPlot) : 1;
    const std::size_t by = ny > static_cast<std::size_t>(kMaxPlot) ? ceil_div(ny, kMaxPlot) : 1;
    Grid g;
    g.nx = ceil_div(nx, bx);
    g.ny = ceil_div(ny, by);
    if (bx == 1 && by == 1) {
        g.v.resize(nx * ny);
        for (std::size_t i = 0; i < nx * ny; ++i) g.v[i] = values(i);
        return g;
    }
    g.v.assign(g.nx * g.ny, std::numeric_limits<double>::quiet_NaN());
    std::vector<std::size_t> counts(categorical ? n_categories : 0);
    for (std::size_t gy = 0; gy < g.ny; ++gy) {
        for (std::size_t gx = 0; gx < g.nx; ++gx) {
            double sum = 0.0;
            std::size_t n = 0;
            std::fill(counts.begin(), counts.end(), 0);
            for (std::size_t y = gy * by; y < std::min(ny, (gy + 1) * by); ++y) {
                for (std::size_t x = gx * bx; x < std::min(nx, (gx + 1) * bx); ++x) {
                    const double v = values(y * nx + x);
                    if (!std::isfinite(v)) continue;
                    ++n;
                    if (categorical)
                        ++counts[static_cast<std::size_t>(v)];
                    else
                        sum += v;
                }
            }
            if (n == 0) continue;
            double out;
            if (categorical) {
                out = static_cast<double>(std::max_element(counts.begin(), counts.end()) -
                                          counts.begin());
            } else {
                out = sum / static_cast<double>(n);
                // Guard against overflow of the sum for huge magnitudes.
                if (!std::isfinite(out)) {
                    out = 0.0;
                    for (std::size_t y = gy * by; y < std::min(ny, (gy + 1) * by); ++y)
                        for (std::size_t x = gx * bx; x < std::min(nx, (gx + 1) * bx); ++x)
                            if (std::isfinite(values(y * nx + x)))
                                out += values(y * nx + x) / static_cast<double>(n);
                }
            }
            g.v[gy * g.nx + gx] = out;
        }
    }
    return g;
}

int upscale_factor(std::size_t n) {
    if (n >= static_cast<std::size_t>(kMinPlot)) return 1;
    return static_cast<int>(ceil_div(static_cast<std::size_t>(kMinPlot), n));
}

Rgb lerp(Rgb a, Rgb b, double t) {
    Rgb out{};
    for (int i = 0; i < 3; ++i)
        out[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(std::lround(
            a[static_cast<std::size_t>(i)] + (b[static_cast<std::size_t>(i)] - a[static_cast<std::size_t>(i)]) * t));
    return out;
}

// ------------------------------------------------------------- PNG output ----

struct PngError {
    char message[256] = "unknown libpng error";
};

void png_error_handler(png_structp png, png_const_charp msg) {
    auto* err = static_cast<PngError*>(png_get_error_ptr(png));
    if (err != nullptr) std::snprintf(err->message, sizeof err->message, "%s", msg ? msg : "?");
    png_longjmp(png, 1);
}

void png_warning_handler(png_structp, png_const_charp) {}

void png_write_bytes(png_structp png, png_bytep data, png_size_t length) {
    auto* out = static_cast<std::vector<std::uint8_t>*>(png_get_io_ptr(png));
    bool ok = true;
    try {
        out->insert(out->end(), data, data + length);
    } catch (...) {
        ok = false;
    }
    if (!ok) png_error(png, "out of memory while encoding PNG");
}

void png_flush_bytes(png_structp) {}

// Runs the libpng calls under setjmp; keeps no C++ objects in this frame.
bool png_encode_rows(png_structp png, png_infop info, png_uint_32 width, png_uint_32 height,
                     png_bytepp rows) {
    if (setjmp(png_jmpbuf(png))) return false;
    png_set_IHDR(png, info, width, height, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    png_write_image(png, rows);
    png_write_end(png, nullptr);
    return true;
}

}  // namespace

// ---------------------------------------------------------------- colours ----

std::array<std::uint8_t, 3> viridis(double t) {
    // Viridis sampled at t = 0, 1/8, ..., 1.
    static constexpr Rgb kAnchors[] = {
        {68, 1, 84},    {71, 45, 123},  {59, 82, 139},  {44, 114, 142}, {33, 145, 140},
        {40, 174, 128}, {94, 201, 98},  {173, 220, 48}, {253, 231, 37},
    };
    constexpr int kSegments = static_cast<int>(std::size(kAnchors)) - 1;
    if (!(t > 0.0)) return kAnchors[0];
    if (t >= 1.0) return kAnchors[kSegments];
    const double s = t * kSegments;
    const int i = std::min(static_cast<int>(s), kSegments - 1);
    return lerp(kAnchors[i], kAnchors[i + 1], s - i);
}

std::array<std::uint8_t, 3> category_color(std::size_t k) {
    static constexpr Rgb kPalette[] = {
        {31, 119, 180},  {255, 127, 14}, {44, 160, 44},   {214, 39, 40},
        {148, 103, 189}, {140, 86, 75},  {227, 119, 194}, {188, 189, 34},
        {23, 190, 207},  {255, 217, 47}, {0, 0, 128},     {102, 194, 165},
    };
    constexpr std::size_t n = std::size(kPalette);
    const Rgb base = kPalette[k % n];
    const std::size_t round = (k / n) % 3;
    if (round == 1) return lerp(base, kBlack, 0.4);
    if (round == 2) return lerp(base, kWhite, 0.45);
    return base;
}

// -------------------------------------------------------------- rendering ----

HeatmapImage render_heatmap(const std::vector<double>& values, std::size_t nx, std::size_t ny,
                            const HeatmapSpec& spec) {
    if (nx == 0 || ny == 0)
        throw std::invalid_argument("render_heatmap: nx and ny must be positive");
    if (nx > std::numeric_limits<std::size_t>::max() / ny || values.size() != nx * ny)
        throw std::invalid_argument("render_heatmap: values.size() (" +
                                    std::to_string(values.size()) + ") != nx*ny (" +
                                    std::to_string(nx) + "*" + std::to_string(ny) + ")");

    const double kNaN = std::numeric_limits<double>::quiet_NaN();

    // Every value is read through the spec's offset and clip. Categories: rounded to integers;
    // out-of-range values become masked.
    const auto cell = [&](std::size_t i) {
        double v = values[i] + spec.offset;
        if (!std::isfinite(v)) return kNaN;
        if (spec.categorical) {
            const bool in_range = v > -0.5 && v < static_cast<double>(kMaxCategories) - 0.5;
            return in_range ? static_cast<double>(std::lround(v)) : kNaN;
        }
        if (spec.clip) v = v < spec.clip_lo ? spec.clip_lo : (v > spec.clip_hi ? spec.clip_hi : v);
        return v;
    };
    std::size_t n_categories = 0;
    if (spec.categorical) {
        long max_k = -1;
        for (std::size_t i = 0; i < values.size(); ++i) {
            const double k = cell(i);
            if (std::isfinite(k)) max_k = std::max(max_k, static_cast<long>(k));
        }
        n_categories = std::max(spec.category_names.size(), static_cast<std::size_t>(max_k + 1));
        n_categories = std::min(n_categories, kMaxCategories);
    }

    // Colour range of the finite values (continuous maps).
    double vmin = std::numeric_limits<double>::infinity();
    double vmax = -std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < values.size(); ++i) {
        const double v = cell(i);
        if (!std::isfinite(v)) continue;
        vmin = std::min(vmin, v);
        vmax = std::max(vmax, v);
    }
    const bool any_finite = vmin <= vmax;
    if (!any_finite) {
        vmin = 0.0;
        vmax = 1.0;
    } else if (!(vmax > vmin)) {
        const double pad = vmin != 0.0 ? 0.05 * std::fabs(vmin) : 0.5;
        vmin -= pad;
        vmax += pad;
    }

    const Grid grid = reduce_grid(cell, nx, ny, spec.categorical, n_categories);
    const int fx = upscale_factor(grid.nx);
    const int fy = upscale_factor(grid.ny);
    const int plot_w = static_cast<int>(grid.nx) * fx;
    const int plot_h = static_cast<int>(grid.ny) * fy;
    bool any_masked = false;
    for (double v : grid.v) any_masked = any_masked || !std::isfinite(v);

    // ---- measure the margins
    const std::vector<Tick> xticks = axis_ticks(spec.x.min, spec.x.max, plot_w, true);
    const std::vector<Tick> yticks = axis_ticks(spec.y.min, spec.y.max, plot_h, false);
    int ytick_w = 0;
    for (const Tick& t : yticks) ytick_w = std::max(ytick_w, text_w(t.label));

    const int left = kPad + (spec.y.label.empty() ? 0 : text_h() + kLabelGap) + ytick_w +
                     kTickGap + kTickLen + 1;
    const int top = kPad + (spec.title.empty() ? cap_h() / 2 : text_h(kTitleScale) + 14);
    const int bottom = 1 + kTickLen + kTickGap + text_h() +
                       (spec.x.label.empty() ? 0 : kLabelGap + text_h()) + kPad;
    const int x0 = left, y0 = top;                // first data pixel
    const int fr = x0 + plot_w, fb = y0 + plot_h;  // right / bottom frame lines
    const int side_x = fr + 1 + kBarGap;           // colour bar or legend

    // Colour-bar / legend content.
    std::vector<Tick> cticks;
    int ctick_w = 0;
    int side_right = side_x;
    int bar_h = plot_h;
    int legend_top = y0;
    std::vector<std::string> cat_names;
    if (!spec.categorical) {
        if (any_masked) bar_h = std::max(plot_h - 2 * kSwatchH - 4, kSwatchH);
        if (any_finite) cticks = axis_ticks(vmin, vmax, bar_h, false);
        for (const Tick& t : cticks) ctick_w = std::max(ctick_w, text_w(t.label));
        side_right = side_x + kBarWidth + kTickLen + kTickGap + ctick_w +
                     (spec.colorbar_label.empty() ? 0 : kLabelGap + text_h());
        if (any_masked) side_right = std::max(side_right, side_x + kSwatchW + 8 + text_w(kMaskLabel));
    } else {
        for (std::size_t k = 0; k < n_categories; ++k)
            cat_names.push_back(k < spec.category_names.size() && !spec.category_names[k].empty()
                                    ? spec.category_names[k]
                                    : std::to_string(k));
        if (any_masked) cat_names.push_back(kMaskLabel);
        if (!spec.colorbar_label.empty()) {
            side_right = std::max(side_right, side_x + text_w(spec.colorbar_label));
            legend_top = y0 + text_h() + 8;
        }
        for (const std::string& name : cat_names)
            side_right = std::max(side_right, side_x + kSwatchW + 8 + text_w(name));
    }

    int width = side_right + kPad;
    const int title_w = text_w(spec.title, kTitleScale);
    const int xlabel_w = text_w(spec.x.label);
    width = std::max(width, title_w + 2 * kPad);
    width = std::max(width, std::max(kPad, x0 + plot_w / 2 - xlabel_w / 2) + xlabel_w + kPad);
    int height = fb + bottom;
    if (spec.categorical)
        height = std::max(height, legend_top + static_cast<int>(cat_names.size()) * kLegendRow + kPad);

    Canvas canvas(width, height);

    // ---- data area
    for (std::size_t gy = 0; gy < grid.ny; ++gy) {
        // Row gy (y.min first) is drawn from the bottom up.
        const int py = y0 + plot_h - static_cast<int>(gy + 1) * fy;
        for (std::size_t gx = 0; gx < grid.nx; ++gx) {
            const double v = grid.at(gx, gy);
            Rgb c = kHeatmapMaskColor;
            if (std::isfinite(v))
                c = spec.categorical ? category_color(static_cast<std::size_t>(v))
                                     : viridis((v - vmin) / (vmax - vmin));
            const int px = x0 + static_cast<int>(gx) * fx;
            canvas.fill(px, py, px + fx, py + fy, c);
        }
    }
    canvas.outline(x0 - 1, y0 - 1, fr, fb, kBlack);

    // ---- axes
    const auto h = font::Orientation::Horizontal;
    const auto up = font::Orientation::Up;
    for (const Tick& t : xticks) {
        const double f = axis_fraction(t.value, spec.x.min, spec.x.max);
        const int tx = x0 - 1 + static_cast<int>(std::lround(f * (plot_w + 1)));
        canvas.fill(tx, fb + 1, tx + 1, fb + 1 + kTickLen, kBlack);
        const int lw = text_w(t.label);
        const int lx = std::clamp(tx - lw / 2, 0, std::max(0, width - lw));
        canvas.text(t.label, lx, fb + 1 + kTickLen + kTickGap, kTextScale, h, kBlack);
    }
    for (const Tick& t : yticks) {
        const double f = axis_fraction(t.value, spec.y.min, spec.y.max);
        const int ty = fb - static_cast<int>(std::lround(f * (plot_h + 1)));
        canvas.fill(x0 - 1 - kTickLen, ty, x0 - 1, ty + 1, kBlack);
        const int lw = text_w(t.label);
        canvas.text(t.label, x0 - 1 - kTickLen - kTickGap - lw, ty - cap_h() / 2, kTextScale, h,
                    kBlack);
    }
    if (!spec.x.label.empty()) {
        const int lx = std::max(kPad, x0 + plot_w / 2 - xlabel_w / 2);
        canvas.text(spec.x.label, lx, fb + 1 + kTickLen + kTickGap + text_h() + kLabelGap,
                    kTextScale, h, kBlack);
    }
    if (!spec.y.label.empty()) {
        const int lh = text_w(spec.y.label);
        canvas.text(spec.y.label, kPad, y0 + plot_h / 2 - lh / 2, kTextScale, up, kBlack);
    }
    if (!spec.title.empty()) {
        const int tx = std::clamp(x0 + plot_w / 2 - title_w / 2, kPad, std::max(kPad, width - kPad - title_w));
        canvas.text(spec.title, tx, kPad, kTitleScale, h, kBlack);
    }

    // ---- colour bar or legend
    if (!spec.categorical) {
        const int bx1 = side_x + kBarWidth;  // exclusive
        for (int r = 0; r < bar_h; ++r) {
            const double t = bar_h > 1 ? 1.0 - static_cast<double>(r) / (bar_h - 1) : 0.5;
            canvas.fill(side_x, y0 + r, bx1, y0 + r + 1, viridis(t));
        }
        canvas.outline(side_x - 1, y0 - 1, bx1, y0 + bar_h, kBlack);
        for (const Tick& t : cticks) {
            const double f = axis_fraction(t.value, vmin, vmax);
            const int ty = y0 + static_cast<int>(std::lround((1.0 - f) * (bar_h - 1)));
            canvas.fill(bx1 + 1, ty, bx1 + 1 + kTickLen, ty + 1, kBlack);
            canvas.text(t.label, bx1 + 1 + kTickLen + kTickGap, ty - cap_h() / 2, kTextScale, h,
                        kBlack);
        }
        if (!spec.colorbar_label.empty()) {
            const int lx = bx1 + 1 + kTickLen + kTickGap + ctick_w + kLabelGap;
            const int lh = text_w(spec.colorbar_label);
            canvas.text(spec.colorbar_label, lx, y0 + bar_h / 2 - lh / 2, kTextScale, up, kBlack);
        }
        if (any_masked) {
            const int sy = fb - kSwatchH;
            canvas.fill(side_x, sy, side_x + kSwatchW, fb, kHeatmapMaskColor);
            canvas.outline(side_x - 1, sy - 1, side_x + kSwatchW, fb, kBlack);
            canvas.text(kMaskLabel, side_x + kSwatchW + 8, sy + (kSwatchH - cap_h()) / 2,
                        kTextScale, h, kBlack);
        }
    } else {
        if (!spec.colorbar_label.empty())
            canvas.text(spec.colorbar_label, side_x, y0, kTextScale, h, kBlack);
        for (std::size_t i = 0; i < cat_names.size(); ++i) {
            const int sy = legend_top + static_cast<int>(i) * kLegendRow;
            const bool mask_entry = any_masked && i + 1 == cat_names.size();
            const Rgb c = mask_entry ? kHeatmapMaskColor : category_color(i);
            canvas.fill(side_x, sy, side_x + kSwatchW, sy + kSwatchH, c);
            canvas.outline(side_x - 1, sy - 1, side_x + kSwatchW, sy + kSwatchH, kBlack);
            canvas.text(cat_names[i], side_x + kSwatchW + 8, sy + (kSwatchH - cap_h()) / 2,
                        kTextScale, h, kBlack);
        }
    }

    HeatmapImage img;
    img.width = static_cast<std::size_t>(width);
    img.height = static_cast<std::size_t>(height);
    img.rgb = std::move(canvas.px);
    img.plot_x = static_cast<std::size_t>(x0);
    img.plot_y = static_cast<std::size_t>(y0);
    img.plot_width = static_cast<std::size_t>(plot_w);
    img.plot_height = static_cast<std::size_t>(plot_h);
    return img;
}

std::vector<std::uint8_t> encode_png_rgb(const HeatmapImage& image) {
    if (image.width == 0 || image.height == 0 || image.width > 0x7FFFFFFF ||
        image.height > 0x7FFFFFFF || image.rgb.size() != image.width * image.height * 3)
        throw std::runtime_error("encode_png_rgb: inconsistent image dimensions");

    std::vector<std::uint8_t> out;
    PngError err;
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &err, png_error_handler,
                                              png_warning_handler);
    if (png == nullptr) throw std::runtime_error("encode_png_rgb: png_create_write_struct failed");
    png_infop info = png_create_info_struct(png);
    if (info == nullptr) {
        png_destroy_write_struct(&png, nullptr);
        throw std::runtime_error("encode_png_rgb: png_create_info_struct failed");
    }
    std::vector<png_bytep> rows(image.height);
    for (std::size_t y = 0; y < image.height; ++y)
        rows[y] = const_cast<png_bytep>(image.rgb.data() + y * image.width * 3);
    png_set_write_fn(png, &out, png_write_bytes, png_flush_bytes);

    const bool ok = png_encode_rows(png, info, static_cast<png_uint_32>(image.width),
                                    static_cast<png_uint_32>(image.height), rows.data());
    png_destroy_write_struct(&png, &info);
    if (!ok) throw std::runtime_error(std::string("encode_png_rgb: libpng error: ") + err.message);
    return out;
}

void write_heatmap_png(const std::filesystem::path& path, const std::vector<double>& values,
                       std::size_t nx, std::size_t ny, const HeatmapSpec& spec) {
    const std::vector<std::uint8_t> bytes = encode_png_rgb(render_heatmap(values, nx, ny, spec));
    write_file_atomically(path, [&bytes](std::ostream& out) {
        out.write(reinterpret_cast<const char*>(bytes.data()),
                  static_cast<std::streamsize>(bytes.size()));
    });
}

}  // namespace skipstone::io
