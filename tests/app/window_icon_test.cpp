// tests/app/window_icon_test.cpp — the window icon compiled into the program:
// every size rendered from the SVG by rsvg-convert decodes, is square, comes
// smallest first, and has drawn (opaque) pixels.
#include "icon/window_icon.hpp"

#include <gtest/gtest.h>

#include <iterator>

namespace wb::app {
namespace {

TEST(WindowIcon, EverySizeDecodesSquareAndSmallestFirst) {
    std::string error;
    std::vector<IconImage> icons = window_icons(error);
    EXPECT_EQ(error, "");
    ASSERT_EQ(icons.size(), embedded_icon_pngs().size());
    const int expected[] = {16, 32, 48, 64, 128, 256};
    ASSERT_EQ(icons.size(), std::size(expected));
    for (std::size_t i = 0; i < icons.size(); ++i) {
        EXPECT_EQ(icons[i].width, expected[i]) << "icon " << i;
        EXPECT_EQ(icons[i].height, expected[i]) << "icon " << i;
        EXPECT_EQ(icons[i].rgba.size(), std::size_t(expected[i]) * expected[i] * 4) << "icon " << i;
    }
}

TEST(WindowIcon, EachSizeDrawsTheIconNotAnEmptySquare) {
    std::string error;
    for (const IconImage& icon : window_icons(error)) {
        std::size_t opaque = 0, transparent = 0;
        for (std::size_t p = 3; p < icon.rgba.size(); p += 4) {
            if (icon.rgba[p] == 255) ++opaque;
            if (icon.rgba[p] == 0) ++transparent;
        }
        const std::size_t pixels = icon.rgba.size() / 4;
        // The SVG is a rounded tile: most of it opaque, its corners clear.
        EXPECT_GT(opaque, pixels / 2) << icon.width << "px";
        EXPECT_GT(transparent, 0u) << icon.width << "px";
    }
}

}  // namespace
}  // namespace wb::app
