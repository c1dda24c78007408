// tests/app/timeline_view_test.cpp — the host step's timeline view: lanes in
// device-then-stream order, time <-> x, zoom that keeps the time under the
// pointer, pan, fit, hit-testing, tick labels, the message that stands in for
// lanes, and the widget driven headless with a wheel, a drag and a double-click.
#include "widgets/timeline_view.hpp"

#include "core/fs.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <string>
#include <vector>

namespace wb::app {
namespace {

Timeline fixture(const std::string& name) {
    const auto j = nlohmann::json::parse(read_file(std::string(WB_SOURCE_DIR) + "/tests/data/timelines/" + name));
    return timeline_from_json(j.contains("timeline") ? j.at("timeline") : j);
}

std::vector<std::string> lane_labels(const TimelineGeometry& g) {
    std::vector<std::string> out;
    for (const TimelineLane& l : g.lanes) out.push_back(timeline_lane_label(l));
    return out;
}

// A plot area from x = 200 to 1200 (label column 100 wide at x = 100), axis
// 20 high at y = 50, lanes 30 high.
TimelineGeometry geometry_of(const Timeline& t, const TimelineViewState& v) {
    return timeline_geometry(t, v, ImVec2(100, 50), 1100, 100, 20, 30);
}

TEST(TimelineView, LanesAreByDeviceThenByTheStreamsFirstActivity) {
    // Device 1's stream 21 starts before device 0's stream 14; device 0's lanes still come first.
    const Timeline t = fixture("two_gpus_fixture.json");
    const TimelineGeometry g = geometry_of(t, {});
    EXPECT_EQ(lane_labels(g), (std::vector<std::string>{"GPU 0 \u00b7 stream 13", "GPU 0 \u00b7 stream 14",
                                                         "GPU 1 \u00b7 stream 21", "GPU 1 \u00b7 stream 22"}));
    EXPECT_EQ(g.lane_of(1, 21), 2);
    EXPECT_EQ(g.lane_of(2, 21), -1);
    EXPECT_EQ(g.lane_at(50 + 20 + 0.5f), 0);
    EXPECT_EQ(g.lane_at(50 + 20 + 30 * 3 + 29), 3);
    EXPECT_EQ(g.lane_at(50 + 10), -1);        // the axis
    EXPECT_EQ(g.lane_at(50 + 20 + 30 * 4), -1);  // under the last lane
    EXPECT_EQ(fixture("streams_fixture.json").lanes().size(), 4u);
}

TEST(TimelineView, TimeMapsOntoThePlotAreaRightOfTheLabels) {
    const Timeline t = fixture("streams_fixture.json");
    TimelineViewState v;
    v.t0 = 1000;
    v.t1 = 3000;
    const TimelineGeometry g = geometry_of(t, v);
    EXPECT_FLOAT_EQ(g.plot_x0(), 200);
    EXPECT_FLOAT_EQ(g.plot_x1(), 1200);
    EXPECT_FLOAT_EQ(g.x_of(1000), 200);
    EXPECT_FLOAT_EQ(g.x_of(2000), 700);
    EXPECT_FLOAT_EQ(g.x_of(3000), 1200);
    EXPECT_DOUBLE_EQ(g.t_of(450), 1500);
}

TEST(TimelineView, FitShowsTheWholeRunWithWhatRanPastItsReturn) {
    const Timeline streams = fixture("streams_fixture.json");
    const TimeRange f = timeline_fit(streams);
    EXPECT_LT(f.t0, 0);
    EXPECT_GT(f.t1, streams.wall_us);
    EXPECT_LT(f.t1, streams.wall_us * 1.05);
    // Work ran 150 us past run()'s return: the fit reaches its end.
    const Timeline late = fixture("two_gpus_fixture.json");
    EXPECT_GT(timeline_fit(late).t1, late.wall_us + late.ran_past_return_us);
    // A view not yet fitted draws the fit.
    const TimelineGeometry g = geometry_of(streams, {});
    EXPECT_DOUBLE_EQ(g.t0, f.t0);
    EXPECT_DOUBLE_EQ(g.t1, f.t1);
}

TEST(TimelineView, ZoomKeepsTheTimeUnderThePointerWhereItIs) {
    const Timeline t = fixture("streams_fixture.json");
    const TimeRange fit = timeline_fit(t);
    TimelineViewState v;
    v.t0 = fit.t0;
    v.t1 = fit.t1;
    for (const float x : {200.0f, 437.0f, 900.0f, 1200.0f}) {
        for (const double factor : {0.8, 0.5, 0.8 * 0.8 * 0.8, 1.25}) {
            TimelineViewState z = v;
            timeline_zoom(z, 2000.0, 0.5, fit);  // start from a zoomed-in view, so zooming out has room
            const TimelineGeometry before = geometry_of(t, z);
            const double anchor = before.t_of(x);
            timeline_zoom(z, anchor, factor, fit);
            const TimelineGeometry after = geometry_of(t, z);
            EXPECT_NEAR(after.x_of(anchor), x, 1e-3) << "x " << x << ", factor " << factor;
            EXPECT_NEAR(z.t1 - z.t0, (before.t1 - before.t0) * factor, 1e-6);
        }
    }
    // Out past the whole run: the whole run, not a window drifting off it.
    TimelineViewState out = v;
    timeline_zoom(out, 5000, 0.5, fit);
    timeline_zoom(out, 5000, 4.0, fit);
    EXPECT_DOUBLE_EQ(out.t0, fit.t0);
    EXPECT_DOUBLE_EQ(out.t1, fit.t1);
    // In no further than kTimelineMinSpanUs.
    TimelineViewState in = v;
    for (int i = 0; i < 200; ++i) timeline_zoom(in, 1234.5, 0.5, fit);
    EXPECT_NEAR(in.t1 - in.t0, kTimelineMinSpanUs, 1e-9);
    EXPECT_LE(in.t0, 1234.5);
    EXPECT_GE(in.t1, 1234.5);
}

TEST(TimelineView, PanMovesTheRangeAndKeepsItsMiddleOnTheRun) {
    const Timeline t = fixture("streams_fixture.json");
    const TimeRange fit = timeline_fit(t);
    TimelineViewState v{1000, 2000};
    timeline_pan(v, 250, fit);
    EXPECT_DOUBLE_EQ(v.t0, 1250);
    EXPECT_DOUBLE_EQ(v.t1, 2250);
    timeline_pan(v, -300, fit);
    EXPECT_DOUBLE_EQ(v.t0, 950);
    timeline_pan(v, 1e9, fit);  // a wild drag stops with the view's middle at the run's end
    EXPECT_NEAR((v.t0 + v.t1) / 2, fit.t1, 1e-6);
    EXPECT_NEAR(v.t1 - v.t0, 1000, 1e-6);
    timeline_pan(v, -1e9, fit);
    EXPECT_NEAR((v.t0 + v.t1) / 2, fit.t0, 1e-6);
}

TEST(TimelineView, HitTestFindsTheBarUnderThePoint) {
    const Timeline t = fixture("streams_fixture.json");
    TimelineViewState v{0, 1000};
    const TimelineGeometry g = geometry_of(t, v);
    // Each activity is found at the middle of its bar, on its own lane.
    int checked = 0;
    for (std::size_t i = 0; i < t.activities.size(); ++i) {
        const Activity& a = t.activities[i];
        if (a.end_us > 1000) continue;
        const float x = g.x_of((a.start_us + a.end_us) / 2);
        const float y = g.lane_top(g.lane_of(a.device, a.stream)) + 15;
        EXPECT_EQ(timeline_hit(t, g, ImVec2(x, y), 0.0f), static_cast<int>(i)) << "activity " << i;
        ++checked;
    }
    EXPECT_GE(checked, 5);
    // Stream 16's lane is empty before its first copy (at about 1014 us).
    EXPECT_EQ(timeline_hit(t, g, ImVec2(g.x_of(500), g.lane_top(g.lane_of(0, 16)) + 15)), -1);
    // The label column, the axis and below the lanes hit nothing.
    EXPECT_EQ(timeline_hit(t, g, ImVec2(150, g.lane_top(0) + 15)), -1);
    EXPECT_EQ(timeline_hit(t, g, ImVec2(g.x_of(100), 55)), -1);
    EXPECT_EQ(timeline_hit(t, g, ImVec2(g.x_of(100), g.lane_top(4) + 1)), -1);

    // Zoomed far out, the 14 us memset that starts device 0's lane is under a
    // pixel wide; it is drawn a pixel wide and hit within the slop beside it.
    const Timeline two = fixture("two_gpus_fixture.json");
    ASSERT_EQ(two.activities[0].kind, ActivityKind::Memset);
    TimelineViewState wide{-300000, 300000};
    const TimelineGeometry gw = geometry_of(two, wide);
    const float mx = gw.x_of(two.activities[0].start_us);
    EXPECT_LT(gw.x_of(two.activities[0].end_us) - mx, 0.1f);
    const float y = gw.lane_top(0) + 15;
    EXPECT_EQ(timeline_hit(two, gw, ImVec2(mx - 1.5f, y), 2.0f), 0);
    EXPECT_EQ(timeline_hit(two, gw, ImVec2(mx - 2.5f, y), 2.0f), -1);
    // On it, the pageable copy that starts 17 us later is drawn over it: that one wins.
    EXPECT_EQ(timeline_hit(two, gw, ImVec2(mx + 0.5f, y), 0.0f), 2);
    EXPECT_TRUE(two.activities[2].pageable);
}

TEST(TimelineView, TicksAreRoundStepsLabelledInOneUnit) {
    auto labels = [](double t0, double t1, int n) {
        std::vector<std::string> out;
        for (const TimelineTick& tick : timeline_ticks(t0, t1, n)) out.push_back(tick.label);
        return out;
    };
    EXPECT_EQ(labels(-120, 6100, 7), (std::vector<std::string>{"0", "1 ms", "2 ms", "3 ms", "4 ms", "5 ms", "6 ms"}));
    EXPECT_EQ(labels(0, 3000, 6), (std::vector<std::string>{"0", "0.5 ms", "1.0 ms", "1.5 ms", "2.0 ms", "2.5 ms", "3.0 ms"}));
    EXPECT_EQ(labels(0, 100, 5), (std::vector<std::string>{"0", "20 \u00b5s", "40 \u00b5s", "60 \u00b5s", "80 \u00b5s", "100 \u00b5s"}));
    EXPECT_EQ(labels(2000.5, 2010, 5), (std::vector<std::string>{"2002 \u00b5s", "2004 \u00b5s", "2006 \u00b5s", "2008 \u00b5s", "2010 \u00b5s"}));
    EXPECT_EQ(labels(0, 1.5, 3), (std::vector<std::string>{"0", "0.5 \u00b5s", "1.0 \u00b5s", "1.5 \u00b5s"}));
    EXPECT_EQ(labels(0, 2.0e6, 4), (std::vector<std::string>{"0", "0.5 s", "1.0 s", "1.5 s", "2.0 s"}));
    // Never more than one past the number asked for, and nothing for an empty range.
    for (const double span : {3.0, 47.0, 999.0, 12345.0, 7e5})
        EXPECT_LE(timeline_ticks(0, span, 8).size(), 9u) << span;
    EXPECT_TRUE(timeline_ticks(5, 5, 8).empty());
    const std::vector<TimelineTick> ticks = timeline_ticks(0, 6000, 6);
    EXPECT_DOUBLE_EQ(ticks[3].t_us, 3000);
}

TEST(TimelineView, DurationsAndSizesReadAsAStudentWouldSayThem) {
    EXPECT_EQ(format_duration_us(0.85), "0.85 \u00b5s");
    EXPECT_EQ(format_duration_us(456.71), "456.7 \u00b5s");
    EXPECT_EQ(format_duration_us(3104), "3.104 ms");
    EXPECT_EQ(format_duration_us(14962), "14.96 ms");
    EXPECT_EQ(format_duration_us(250000), "250.0 ms");
    EXPECT_EQ(format_duration_us(12.5e6), "12.50 s");
    EXPECT_EQ(format_bytes(512), "512 B");
    EXPECT_EQ(format_bytes(4096), "4 KiB");
    EXPECT_EQ(format_bytes(64ull << 20), "64 MiB");
    EXPECT_EQ(format_bytes(3ull << 29), "1.5 GiB");
}

TEST(TimelineView, BarsSayTheKernelOrTheCopyAndItsSize) {
    const Timeline t = fixture("two_gpus_fixture.json");
    EXPECT_EQ(timeline_bar_label(t.activities[0]), "memset 32 MiB");
    Activity copy;
    copy.kind = ActivityKind::CopyHtoD;
    copy.bytes = 64ull << 20;
    EXPECT_EQ(timeline_bar_label(copy), "HtoD 64 MiB");
    Activity kernel;
    kernel.name = "stencil_step";
    EXPECT_EQ(timeline_bar_label(kernel), "stencil_step");
    kernel.name.clear();
    EXPECT_EQ(timeline_bar_label(kernel), "kernel");
    // Kinds are told apart by colour; kernels share a family, copies do not.
    copy.kind = ActivityKind::CopyDtoH;
    const ImU32 dtoh = timeline_colour(copy);
    copy.kind = ActivityKind::CopyHtoD;
    EXPECT_NE(timeline_colour(copy), dtoh);
}

TEST(TimelineView, AMessageStandsInForLanesWhenThereAreNone) {
    Timeline none;
    none.unavailable = "CUPTI was not found (libcupti.so.12): no timeline";
    EXPECT_EQ(timeline_message(none), none.unavailable);
    Timeline idle;
    idle.wall_us = 12;
    EXPECT_EQ(timeline_message(idle), "run() made no kernel, copy or memset on a GPU.");
    EXPECT_EQ(timeline_message(fixture("streams_fixture.json")), "");
}

// The widget in a headless ImGui context: what it draws, and what the wheel,
// a drag and a double-click do to the range the caller keeps.
class TimelineWidget : public ::testing::Test {
protected:
    void SetUp() override {
        ctx_ = ImGui::CreateContext();
        ImGuiIO& io = ImGui::GetIO();
        io.DisplaySize = {1280, 800};
        io.IniFilename = nullptr;
        unsigned char* px = nullptr;
        int w = 0, h = 0;
        io.Fonts->GetTexDataAsRGBA32(&px, &w, &h);
    }
    void TearDown() override { ImGui::DestroyContext(ctx_); }

    // One frame with the pointer at `mouse`, the left button `down`, the wheel turned `wheel` notches.
    TimelineDrawn frame(const Timeline& t, ImVec2 mouse, bool down = false, float wheel = 0) {
        ImGuiIO& io = ImGui::GetIO();
        io.DeltaTime = 1.0f / 60.0f;
        io.MousePos = mouse;
        io.MouseDown[0] = down;
        io.MouseWheel = wheel;
        ImGui::NewFrame();
        ImGui::SetNextWindowPos({0, 0});
        ImGui::SetNextWindowSize({1000, 600});
        ImGui::Begin("timeline");
        const TimelineDrawn d = draw_timeline("t", t, view_);
        ImGui::End();
        ImGui::Render();
        return d;
    }

    ImGuiContext* ctx_ = nullptr;
    TimelineViewState view_;
};

TEST_F(TimelineWidget, DrawsEveryLaneAndBarAndLabelsTheWideOnes) {
    const Timeline t = fixture("streams_fixture.json");
    TimelineDrawn d = frame(t, {-100, -100});
    d = frame(t, {-100, -100});
    EXPECT_FALSE(d.message);
    EXPECT_EQ(d.lanes, 4);
    EXPECT_EQ(d.bars, 48);
    EXPECT_GT(d.labelled, 0);
    EXPECT_EQ(d.hovered, -1);
    EXPECT_TRUE(view_.fitted());
    EXPECT_GT(ImGui::GetDrawData()->TotalVtxCount, 500);

    // Zoomed into the first 700 us: only what lies there is drawn.
    view_.t0 = 0;
    view_.t1 = 700;
    d = frame(t, {-100, -100});
    int inside = 0;
    for (const Activity& a : t.activities) inside += a.start_us <= 700 && a.end_us >= 0;
    EXPECT_EQ(d.bars, inside);
    EXPECT_LT(d.bars, 48);
}

TEST_F(TimelineWidget, HoverFindsTheBarAndTheWheelZoomsAroundThePointer) {
    const Timeline t = fixture("streams_fixture.json");
    const TimelineGeometry g = frame(t, {-100, -100}).geometry;
    // The pointer over the middle of the fifth activity's bar.
    const Activity& a = t.activities[4];
    // (ImGui floors the pointer's position, so the test does too.)
    const ImVec2 over(std::floor(g.x_of((a.start_us + a.end_us) / 2)),
                      std::floor(g.lane_top(g.lane_of(a.device, a.stream)) + g.lane_h / 2));
    frame(t, over);
    EXPECT_EQ(frame(t, over).hovered, 4);

    // One notch of the wheel zooms in by 0.8, the time under the pointer staying put.
    const double under = g.t_of(over.x);
    const double span = view_.t1 - view_.t0;
    const TimelineGeometry zoomed = frame(t, over, false, 1.0f).geometry;
    EXPECT_NEAR(view_.t1 - view_.t0, span * 0.8, span * 1e-9);
    EXPECT_NEAR(zoomed.x_of(under), over.x, 0.01);
}

TEST_F(TimelineWidget, DragPansAndDoubleClickFitsAgain) {
    const Timeline t = fixture("streams_fixture.json");
    const TimelineGeometry g = frame(t, {-100, -100}).geometry;
    const TimeRange fit = timeline_fit(t);
    view_.t0 = 2000;
    view_.t1 = 3000;
    const float y = g.lane_top(1) + 2;
    const float x = (g.plot_x0() + g.plot_x1()) / 2;
    frame(t, {x, y});
    frame(t, {x, y}, true);        // press
    frame(t, {x + 5, y}, true);    // past the drag threshold
    const double before = view_.t0;
    frame(t, {x + 105, y}, true);  // 100 pixels to the right: earlier times come into view
    const double per_pixel = (view_.t1 - view_.t0) / (g.plot_x1() - g.plot_x0());
    EXPECT_NEAR(view_.t0, before - 100 * per_pixel, 1e-6);
    EXPECT_NEAR(view_.t1 - view_.t0, 1000, 1e-6);
    frame(t, {x + 105, y});  // release
    for (int i = 0; i < 30; ++i) frame(t, {x, y});  // half a second: the next click is a first click

    const TimelineViewState panned = view_;
    frame(t, {x, y}, true);
    frame(t, {x, y});
    EXPECT_DOUBLE_EQ(view_.t0, panned.t0);  // one click changes nothing
    frame(t, {x, y}, true);  // the second click: fit
    EXPECT_DOUBLE_EQ(view_.t0, fit.t0);
    EXPECT_DOUBLE_EQ(view_.t1, fit.t1);
}

TEST_F(TimelineWidget, ZoomedFarIntoALongBarCostsOnlyItsVisiblePart) {
    // One microsecond of the 3.4 ms pageable copy fills the view: the bar is
    // millions of pixels wide, its hatching and label drawn for the part on screen.
    const Timeline t = fixture("two_gpus_fixture.json");
    view_.t0 = 1000;
    view_.t1 = 1001;
    const TimelineDrawn d = frame(t, {-100, -100});
    EXPECT_EQ(d.bars, 2);  // the pageable HtoD on GPU 0 and GPU 1's pinned one
    EXPECT_EQ(d.labelled, 2);
    EXPECT_LT(ImGui::GetDrawData()->TotalVtxCount, 20000);
}

TEST_F(TimelineWidget, UnavailableTimelineDrawsItsReasonInsteadOfLanes) {
    Timeline none;
    none.unavailable = "CUPTI was not found: no timeline";
    const TimelineDrawn d = frame(none, {-100, -100});
    EXPECT_TRUE(d.message);
    EXPECT_EQ(d.lanes, 0);
    EXPECT_EQ(d.bars, 0);
}

}  // namespace
}  // namespace wb::app
