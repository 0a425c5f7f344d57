// bitmap_font.hpp — small embedded bitmap font for labelling host-side images.
// Glyphs are 5 pixels wide and 9 rows tall (7 rows above the baseline plus 2
// descender rows) and cover printable ASCII 0x20..0x7E; other characters are
// drawn as '?'. Text can be drawn horizontally or rotated 90° counter-clockwise.
#pragma once

#include <functional>
#include <string_view>

namespace skipstone::io::font {

inline constexpr int kGlyphWidth = 5;   // pixel columns per glyph
inline constexpr int kGlyphHeight = 9;  // pixel rows per glyph, including descenders
inline constexpr int kAscent = 7;       // rows above (and including) the baseline row
inline constexpr int kAdvance = 6;      // horizontal advance per character (1 px spacing)

// True if the pixel at (col, row) of the glyph for `c` is set. col in [0, 5),
// row in [0, 9) with row 0 at the top. Out-of-range coordinates give false.
bool glyph_pixel(char c, int col, int row);

// Size in pixels of `text` rendered horizontally at integer `scale` (>= 1).
int text_width(std::string_view text, int scale);
int text_height(int scale);

enum class Orientation {
    Horizontal,  // left to right
    Up,          // rotated 90° counter-clockwise: reads bottom to top
};

// Calls plot(x, y) for every set pixel of `text`. (x, y) is the top-left corner
// of the text's bounding box in the output (y grows downwards). For
// Orientation::Up the bounding box is text_height wide and text_width tall.
void draw_text(std::string_view text, int x, int y, int scale, Orientation orientation,
               const std::function<void(int, int)>& plot);

}  // namespace skipstone::io::font
