// app/fonts.cpp — font files, glyph ranges and fallbacks (fonts.hpp).
//
// Sizes are in pixels at scale 1 and multiplied by the content scale, rather
// than using FontGlobalScale, so text stays crisp on HiDPI screens.
#include "fonts.hpp"

#include "ui_text.hpp"

#include <imgui.h>

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
// general punctuation (—, …), arrows, maths (≤, ×, ∑) and box drawing.
constexpr ImWchar kLatinRanges[] = {0x0020, 0x024F, 0x0370, 0x03FF, 0x2000, 0x206F,
                                    0x2190, 0x21FF, 0x2200, 0x22FF, 0x2500, 0x257F, 0};

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

}  // namespace

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
