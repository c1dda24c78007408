// app/fonts.hpp — loads the UI, heading and code fonts into ImGui's atlas.
//
// Latin text uses DejaVu Sans (UI) and JetBrains Mono (code); Chinese glyphs
// come from WenQuanYi Micro Hei merged into each, so a Chinese title or a
// Chinese comment in starter code renders in any font. A missing font file is
// logged and replaced (by the next candidate, then ImGui's built-in font); it
// never stops the app.
#pragma once

#include <string>
#include <vector>

struct ImFont;

namespace wb::app {

struct Fonts {
    ImFont* ui = nullptr;
    ImFont* heading = nullptr;
    ImFont* code = nullptr;
    bool has_cjk = false;            // false: Chinese text will show as '?'
    std::vector<std::string> notes;  // what was missing and what replaced it
};

// Adds the fonts to ImGui::GetIO().Fonts, sized for `scale` (the window's
// content scale). `extra_text` is text whose characters must be in the atlas
// beyond the common Chinese set (lesson titles and the like).
Fonts load_fonts(float scale, const std::string& extra_text);

// Whether the glyph ranges load_fonts() asks for hold `code_point` (the Latin
// font's list, or the blocks the Chinese font is merged for).
bool glyph_ranges_cover(char32_t code_point);
// The distinct code points of UTF-8 `text` outside those ranges, in order of
// first appearance: characters that would draw as '?'.
std::vector<char32_t> code_points_not_covered(const std::string& utf8);

}  // namespace wb::app
