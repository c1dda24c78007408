// app/fonts.cpp — font files, glyph ranges and fallbacks (fonts.hpp).
//
// Sizes are in pixels at scale 1 and multiplied by the content scale, rather
// than using FontGlobalScale, so text stays crisp on HiDPI screens.
#include "fonts.hpp"

#include "ui_text.hpp"

#include <imgui.h>
#include <imgui_internal.h>  // ImTextCharFromUtf8

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <initializer_list>
#include <system_error>

namespace wb::app {
namespace {

constexpr float kUiSize = 16.0f;
constexpr float kHeadingSize = 22.0f;
constexpr float kCodeSize = 15.0f;

// Debian's packages: fonts-dejavu-core, fonts-jetbrains-mono, fonts-wqy-microhei.
constexpr const char* kUiFonts[] = {"/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"};
constexpr const char* kHeadingFonts[] = {"/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
                                         "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"};
constexpr const char* kCodeFonts[] = {"/usr/share/fonts/truetype/jetbrains-mono/JetBrainsMono-Regular.ttf",
                                      "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"};
constexpr const char* kCjkFont = "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc";

// Latin with the symbols lesson text tends to use: Latin-1, Greek (α, σ),
// general punctuation (—, …), super- and subscripts (10⁻⁵, Σₖ), currency,
// letterlike symbols and number forms, arrows, maths (≤, ×, ∑), technical
// (⌈x⌉), box drawing and geometric shapes (▶), the check marks a target
// line ends with (✓ ✗), and the phonetic block's modifier letters (Aᵀ).
// DejaVu Sans has all of these; WenQuanYi lacks some (ₖ, ⁻), which then
// showed as '?'. The same list is glyph_ranges_cover() below, which a test
// checks the lessons against.
constexpr ImWchar kLatinRanges[] = {0x0020, 0x024F, 0x0370, 0x03FF, 0x1D00, 0x1D7F, 0x2000, 0x206F, 0x2070, 0x218F,
                                    0x2190, 0x23FF, 0x2500, 0x25FF, 0x2713, 0x2717, 0};
// What WenQuanYi Micro Hei is merged for: CJK punctuation, ideographs, full-width forms.
constexpr ImWchar kCjkBlocks[] = {0x3000, 0x303F, 0x3400, 0x4DBF, 0x4E00, 0x9FFF, 0xFF00, 0xFFEF, 0};

bool file_exists(const char* path) {
    std::error_code ec;
    return std::filesystem::is_regular_file(path, ec);
}

const char* first_existing(std::initializer_list<const char*> candidates, Fonts& fonts,
                           const char* role) {
    for (const char* path : candidates) {
        if (file_exists(path)) return path;
        fonts.notes.push_back(std::string(role) + " font " + path + " not found");
    }
    fonts.notes.push_back(std::string(role) + " text uses ImGui's built-in font instead");
    return nullptr;
}

// Adds `path` at `size` (or ImGui's default font when path is null) and merges
// the Chinese font into it.
ImFont* add_font(const char* path, float size, const ImWchar* cjk_ranges, Fonts& fonts) {
    ImGuiIO& io = ImGui::GetIO();
    ImFont* font = nullptr;
    if (path != nullptr) {
        ImFontConfig config;
        config.OversampleH = 2;
        font = io.Fonts->AddFontFromFileTTF(path, size, &config, kLatinRanges);
    }
    if (font == nullptr) {
        ImFontConfig config;
        config.SizePixels = size;
        font = io.Fonts->AddFontDefault(&config);
    }
    if (fonts.has_cjk) {
        ImFontConfig merge;
        merge.MergeMode = true;
        // CJK glyphs are dense already; horizontal oversampling only makes the
        // atlas (and start-up) several times bigger.
        merge.OversampleH = 1;
        merge.OversampleV = 1;
        io.Fonts->AddFontFromFileTTF(kCjkFont, size, &merge, cjk_ranges);
    }
    return font;
}

bool in_ranges(const ImWchar* ranges, char32_t c) {
    for (; ranges[0] != 0; ranges += 2)
        if (c >= ranges[0] && c <= ranges[1]) return true;
    return false;
}

}  // namespace

bool glyph_ranges_cover(char32_t code_point) {
    if (code_point == '\n' || code_point == '\t' || code_point == '\r') return true;
    return in_ranges(kLatinRanges, code_point) || in_ranges(kCjkBlocks, code_point);
}

std::vector<char32_t> code_points_not_covered(const std::string& utf8) {
    std::vector<char32_t> missing;
    for (std::size_t i = 0; i < utf8.size();) {
        unsigned int c = 0;
        const int n = ImTextCharFromUtf8(&c, utf8.c_str() + i, utf8.c_str() + utf8.size());
        i += static_cast<std::size_t>(n > 0 ? n : 1);
        const auto cp = static_cast<char32_t>(c);
        if (!glyph_ranges_cover(cp) && std::find(missing.begin(), missing.end(), cp) == missing.end())
            missing.push_back(cp);
    }
    return missing;
}

Fonts load_fonts(float scale, const std::string& extra_text) {
    Fonts fonts;
    fonts.has_cjk = file_exists(kCjkFont);
    if (!fonts.has_cjk) fonts.notes.push_back(std::string("Chinese font ") + kCjkFont + " not found; Chinese text will show as '?'");

    // The ranges must outlive the atlas build, which happens later (on the
    // first frame), so they live in a static.
    static ImVector<ImWchar> cjk_ranges;
    cjk_ranges.clear();
    ImFontGlyphRangesBuilder builder;
    builder.AddRanges(ImGui::GetIO().Fonts->GetGlyphRangesChineseSimplifiedCommon());
    builder.AddText(all_ui_text().c_str());
    builder.AddText(extra_text.c_str());
    builder.BuildRanges(&cjk_ranges);

    const char* ui_path = first_existing({kUiFonts[0]}, fonts, "UI");
    const char* heading_path = first_existing({kHeadingFonts[0], kHeadingFonts[1]}, fonts, "heading");
    const char* code_path = first_existing({kCodeFonts[0], kCodeFonts[1]}, fonts, "code");

    // The first font added is ImGui's default, used by every widget.
    fonts.ui = add_font(ui_path, kUiSize * scale, cjk_ranges.Data, fonts);
    fonts.heading = add_font(heading_path, kHeadingSize * scale, cjk_ranges.Data, fonts);
    fonts.code = add_font(code_path, kCodeSize * scale, cjk_ranges.Data, fonts);

    for (const std::string& note : fonts.notes) std::fprintf(stderr, "cuda-workbook: %s\n", note.c_str());
    return fonts;
}

}  // namespace wb::app
