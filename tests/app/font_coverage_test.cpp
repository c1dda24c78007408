// tests/app/font_coverage_test.cpp — every character the lessons and the UI
// strings use lies in a glyph range the app loads (app/fonts.cpp), so none
// draws as '?' (lesson 03 once showed "Σₖ" as "Σ?").
#include "fonts.hpp"
#include "ui_text.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace wb::app {
namespace {

std::string hex_list(const std::vector<char32_t>& cps) {
    std::string out;
    for (char32_t c : cps) {
        char buf[16];
        std::snprintf(buf, sizeof buf, " U+%04X", static_cast<unsigned>(c));
        out += buf;
    }
    return out;
}

TEST(FontCoverage, SubscriptsSuperscriptsAndCeilingsAreCovered) {
    EXPECT_TRUE(glyph_ranges_cover(U'ₖ'));
    EXPECT_TRUE(glyph_ranges_cover(U'⁻'));
    EXPECT_TRUE(glyph_ranges_cover(U'⌈'));
    EXPECT_TRUE(glyph_ranges_cover(U'Σ'));
    EXPECT_TRUE(glyph_ranges_cover(U'…'));
    EXPECT_TRUE(glyph_ranges_cover(U'×'));
    EXPECT_TRUE(glyph_ranges_cover(U'向'));
    EXPECT_FALSE(glyph_ranges_cover(U'ก'));  // Thai: no range of ours holds it
    EXPECT_EQ(code_points_not_covered("a ก b ก"), std::vector<char32_t>{U'ก'});
}

TEST(FontCoverage, EveryLessonCharacterHasAGlyphRange) {
    int files = 0;
    for (const auto& entry : std::filesystem::directory_iterator(std::string(WB_SOURCE_DIR) + "/lessons")) {
        if (entry.path().extension() != ".json") continue;
        std::ifstream in(entry.path(), std::ios::binary);
        std::ostringstream text;
        text << in.rdbuf();
        ++files;
        EXPECT_EQ(hex_list(code_points_not_covered(text.str())), "") << entry.path();
    }
    EXPECT_GT(files, 0);
}

TEST(FontCoverage, EveryUiStringCharacterHasAGlyphRange) {
    EXPECT_EQ(hex_list(code_points_not_covered(all_ui_text())), "");
}

}  // namespace
}  // namespace wb::app
