// tests/app/layout_test.cpp — the window's layout (app/layout.hpp) at the
// screens the issue names: no panel under a readable minimum, nothing
// overlapping, the results with a region of their own tall enough for the
// verdict and the time, and splitter drags that stay within bounds.
#include "layout.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <vector>

using namespace wb::app;

namespace {

struct Screen {
    const char* name;
    float width, height, scale;
};

// Below the menu bar and above the status bar (about 20 px each at scale 1).
ImVec2 body_of(const Screen& s) { return ImVec2(s.width, s.height - 40.0f * s.scale); }

std::vector<PanelRect> panels(const Layout& l) {
    return {l.lessons, l.device, l.editor, l.instructions, l.launch, l.results, l.diagnostics};
}

bool overlap(const PanelRect& a, const PanelRect& b) {
    constexpr float e = 0.5f;
    return a.pos.x + e < b.pos.x + b.size.x && b.pos.x + e < a.pos.x + a.size.x && a.pos.y + e < b.pos.y + b.size.y &&
           b.pos.y + e < a.pos.y + a.size.y;
}

const Screen kScreens[] = {{"1280x720", 1280, 720, 1}, {"1366x768", 1366, 768, 1}, {"1920x1080", 1920, 1080, 1},
                           {"4K at 200%", 3840, 2160, 2}};

}  // namespace

TEST(Layout, EveryPanelIsReadableAtEveryScreenSize) {
    for (const Screen& s : kScreens)
        for (bool collapsed : {false, true}) {
            LayoutSettings settings;
            settings.lessons_collapsed = collapsed;
            const Layout l = compute_layout(ImVec2(0, 20 * s.scale), body_of(s), s.scale, settings);
            const auto ps = panels(l);
            for (std::size_t i = 0; i < ps.size(); ++i) {
                const bool lesson_column = i < 2;
                if (collapsed && lesson_column) continue;
                EXPECT_GE(ps[i].size.x, kMinPanelWidth * s.scale) << s.name << " panel " << i;
                EXPECT_GE(ps[i].size.y, kMinPanelHeight * s.scale) << s.name << " panel " << i;
                for (std::size_t j = i + 1; j < ps.size(); ++j) {
                    if (!(collapsed && j < 2)) {
                        EXPECT_FALSE(overlap(ps[i], ps[j])) << s.name << " panels " << i << ", " << j;
                    }
                }
            }
            // Everything inside the body.
            for (std::size_t i = 0; i < ps.size(); ++i) {
                EXPECT_LE(ps[i].pos.x + ps[i].size.x, s.width + 0.5f) << s.name << " panel " << i;
                EXPECT_LE(ps[i].pos.y + ps[i].size.y, s.height - 20 * s.scale + 0.5f) << s.name << " panel " << i;
            }
        }
}

TEST(Layout, TheResultsHaveAWideRegionOfTheirOwn) {
    for (const Screen& s : kScreens) {
        const Layout l = compute_layout(ImVec2(0, 0), body_of(s), s.scale, LayoutSettings{});
        // Room for the verdict line, the time line and a picture at 1366x768.
        EXPECT_GE(l.results.size.y, 250.0f * s.scale) << s.name;
        EXPECT_GE(l.results.size.x, 0.45f * s.width) << s.name;
        EXPECT_GE(l.editor.size.x, 0.35f * s.width) << s.name;
    }
}

// The right column runs the window's whole height, so at 1366x768 the instructions have room for
// 15 lines and the launch panel for its rows (the scripted test measures both in the drawn frame).
TEST(Layout, TheRightColumnRunsTheWholeHeight) {
    for (const Screen& s : kScreens) {
        const ImVec2 body = body_of(s);
        const Layout l = compute_layout(ImVec2(0, 0), body, s.scale, LayoutSettings{});
        EXPECT_FLOAT_EQ(l.instructions.pos.y, 0.0f) << s.name;
        EXPECT_FLOAT_EQ(l.diagnostics.pos.y + l.diagnostics.size.y, body.y) << s.name;
        EXPECT_FLOAT_EQ(l.instructions.size.y + l.launch.size.y + l.diagnostics.size.y, body.y) << s.name;
        // From 768 px high (1280x720 has a little less).
        const float room = s.height >= 768 * s.scale ? 1.0f : 0.9f;
        EXPECT_GE(l.instructions.size.y, 320.0f * s.scale * room) << s.name;
        EXPECT_GE(l.launch.size.y, 280.0f * s.scale * room) << s.name;
        // The results sit under the editor, as wide as it.
        EXPECT_FLOAT_EQ(l.results.pos.x, l.editor.pos.x) << s.name;
        EXPECT_FLOAT_EQ(l.results.size.x, l.editor.size.x) << s.name;
    }
    // The seam between the launch panel and the diagnostics drags.
    LayoutSettings settings;
    const ImVec2 body = body_of(kScreens[1]);
    const Layout before = compute_layout(ImVec2(0, 0), body, 1, settings);
    drag_splitter(settings, Splitter::Diagnostics, ImVec2(0, -40), body, 1);
    const Layout after = compute_layout(ImVec2(0, 0), body, 1, settings);
    EXPECT_NEAR(after.diagnostics.size.y, before.diagnostics.size.y + 40, 1.0f);
}

TEST(Layout, CollapsingTheLessonListGivesItsWidthToTheOthers) {
    const Screen s = kScreens[1];
    LayoutSettings open, closed;
    closed.lessons_collapsed = true;
    const Layout a = compute_layout(ImVec2(0, 0), body_of(s), 1, open);
    const Layout b = compute_layout(ImVec2(0, 0), body_of(s), 1, closed);
    EXPECT_EQ(b.lessons.size.x, kCollapsedLessonsWidth);
    EXPECT_GT(b.editor.size.x + b.instructions.size.x, a.editor.size.x + a.instructions.size.x + 150);
    EXPECT_EQ(b.splitters[static_cast<int>(Splitter::Lessons)].size.x, 0) << "no splitter beside a collapsed list";
}

TEST(Layout, DragsMoveTheBoundaryAndStopAtTheMinimums) {
    const Screen s = kScreens[1];
    const ImVec2 body = body_of(s);
    LayoutSettings settings;
    const Layout before = compute_layout(ImVec2(0, 0), body, 1, settings);
    drag_splitter(settings, Splitter::Top, ImVec2(0, -50), body, 1);
    const Layout after = compute_layout(ImVec2(0, 0), body, 1, settings);
    EXPECT_NEAR(after.editor.size.y, before.editor.size.y - 50, 1.0f);
    EXPECT_NEAR(after.results.size.y, before.results.size.y + 50, 1.0f);

    for (int i = 0; i < 50; ++i) drag_splitter(settings, Splitter::Top, ImVec2(0, -100), body, 1);
    const Layout squeezed = compute_layout(ImVec2(0, 0), body, 1, settings);
    EXPECT_GE(squeezed.instructions.size.y, kMinPanelHeight);
    EXPECT_GE(squeezed.launch.size.y, kMinPanelHeight);

    for (int i = 0; i < 50; ++i) drag_splitter(settings, Splitter::Lessons, ImVec2(100, 0), body, 1);
    const Layout wide = compute_layout(ImVec2(0, 0), body, 1, settings);
    EXPECT_LE(wide.lessons.size.x, 0.35f * body.x + 0.5f);
    EXPECT_GE(wide.editor.size.x, kMinPanelWidth);
}

TEST(Layout, SettingsFromABrokenFileAreClampedNotTrusted) {
    LayoutSettings s;
    s.top_fraction = -3;
    s.right_fraction = 42;
    s.lessons_width = std::numeric_limits<float>::quiet_NaN();
    const LayoutSettings c = sanitized(s);
    EXPECT_GE(c.top_fraction, 0.2f);
    EXPECT_LE(c.right_fraction, 0.9f);
    EXPECT_EQ(c.lessons_width, 250.0f);
    const Layout l = compute_layout(ImVec2(0, 0), ImVec2(1366, 728), 1, s);
    EXPECT_GE(l.editor.size.y, 2 * kMinPanelHeight);
}

TEST(Layout, PoppedOutInstructionsGiveTheirColumnToTheLaunchPanel) {
    for (const Screen& s : kScreens) {
        LayoutSettings settings;
        const Layout docked = compute_layout(ImVec2(0, 0), body_of(s), s.scale, settings);
        settings.instructions_popped = true;
        const Layout popped = compute_layout(ImVec2(0, 0), body_of(s), s.scale, settings);
        EXPECT_EQ(popped.instructions.size.x * popped.instructions.size.y, 0.0f) << s.name;
        // The launch panel takes the whole column, where the two were.
        EXPECT_EQ(popped.launch.pos.y, docked.instructions.pos.y) << s.name;
        EXPECT_FLOAT_EQ(popped.launch.size.y, docked.instructions.size.y + docked.launch.size.y) << s.name;
        EXPECT_FLOAT_EQ(popped.launch.size.x, docked.launch.size.x) << s.name;
        // No splitter over a panel that is not there.
        const PanelRect& seam = popped.splitters[static_cast<int>(Splitter::Instructions)];
        EXPECT_EQ(seam.size.x * seam.size.y, 0.0f) << s.name;
        // The column's width still drags.
        LayoutSettings wider = settings;
        drag_splitter(wider, Splitter::Right, ImVec2(-100, 0), body_of(s), s.scale);
        EXPECT_GT(compute_layout(ImVec2(0, 0), body_of(s), s.scale, wider).launch.size.x, popped.launch.size.x + 90) << s.name;
    }
}
