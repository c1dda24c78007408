// tests/app/plot_test.cpp — plot ranges, hover hit-testing and headless drawing of line/history plots.
#include "widgets/plot.hpp"
#include "widgets/roofline.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace wb::app {
namespace {

TEST(Plot, RangeCoversEverySeriesAndIgnoresNaN) {
    const std::vector<float> a{1, 2, NAN, 3}, b{-4, 0};
    const PlotRange r = plot_range({{a.data(), 4}, {b.data(), 2}});
    EXPECT_LT(r.lo, -4.0f);
    EXPECT_GT(r.hi, 3.0f);
    EXPECT_LT(r.hi, 3.5f);  // padded a little, not a lot
}

TEST(Plot, FlatSeriesStillGetsAHeight) {
    const std::vector<float> a{2, 2, 2};
    const PlotRange r = plot_range({{a.data(), 3}});
    EXPECT_LT(r.lo, 2.0f);
    EXPECT_GT(r.hi, 2.0f);
}

TEST(Plot, TimesIncludeZeroWhenAsked) {
    const std::vector<float> ms{1.5f, 1.7f};
    EXPECT_EQ(plot_range({{ms.data(), 2}}, true).lo, 0.0f);
}

TEST(Plot, HoverPicksTheNearestIndex) {
    EXPECT_EQ(plot_index_at(100.0f, 100.0f, 100.0f, 11), 0);
    EXPECT_EQ(plot_index_at(149.0f, 100.0f, 100.0f, 11), 5);
    EXPECT_EQ(plot_index_at(199.9f, 100.0f, 100.0f, 11), 10);
    EXPECT_EQ(plot_index_at(99.0f, 100.0f, 100.0f, 11), -1);
    EXPECT_EQ(plot_index_at(150.0f, 100.0f, 100.0f, 0), -1);
}

TEST(Plot, DrawsSeriesOverlayAndHistoryHeadless) {
    ImGuiContext* ctx = ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = {1280, 800};
    io.IniFilename = nullptr;
    unsigned char* px = nullptr;
    int w = 0, h = 0;
    io.Fonts->GetTexDataAsRGBA32(&px, &w, &h);
    std::vector<float> gpu(100000), cpu(100000);
    for (std::size_t i = 0; i < gpu.size(); ++i) gpu[i] = cpu[i] = std::sin(static_cast<float>(i) * 0.001f);
    const std::vector<float> history{1.2f, 1.1f, 0.9f};
    const std::vector<bool> passed{true, false, true};
    int vertices = 0;
    for (int frame = 0; frame < 3; ++frame) {
        io.DeltaTime = 1.0f / 60.0f;
        io.MousePos = {200, 60};
        ImGui::NewFrame();
        ImGui::SetNextWindowPos({0, 0});
        ImGui::SetNextWindowSize({800, 600});
        ImGui::Begin("plots");
        PlotOptions o;
        o.label = "GPU";
        o.extra.push_back({cpu.data(), static_cast<int>(cpu.size()), 0, "CPU"});
        draw_line_plot("vec", gpu.data(), static_cast<int>(gpu.size()), {600, 150}, o);
        draw_history_plot("hist", history, {600, 120}, &passed);
        draw_history_plot("none", {}, {600, 120});
        ImGui::End();
        ImGui::Render();
        vertices = ImGui::GetDrawData()->TotalVtxCount;
    }
    // 100k points drawn per pixel column: the cost follows the width, not the length.
    EXPECT_GT(vertices, 0);
    EXPECT_LT(vertices, 60000);
    ImGui::DestroyContext(ctx);
}

// The chart holds the ridge and every point, in whole decades with a margin.
TEST(Roofline, AxesHoldTheRidgeAndEveryPoint) {
    RooflineRoofs roofs;
    roofs.bandwidth_gbs = 2890;
    roofs.peak_gflops = 64500;  // ridge at 22.3 FLOP/byte
    const std::vector<RooflineMark> points{{1.0 / 12, 215}, {170, 20000}};
    const LogAxes a = roofline_axes(roofs, points);
    EXPECT_LE(a.x0, std::log10(1.0 / 12) - 1);
    EXPECT_GE(a.x1, std::log10(170.0) + 1);
    EXPECT_LE(a.y0, std::log10(215.0));
    EXPECT_GE(a.y1, std::log10(64500.0));
    EXPECT_EQ(a.x0, std::floor(a.x0));
    EXPECT_EQ(a.y1, std::floor(a.y1));
    // Nothing to show: a default range, never a NaN.
    const LogAxes none = roofline_axes({}, {{0, 0}});
    EXPECT_LT(none.x0, none.x1);
    EXPECT_LT(none.y0, none.y1);
}

TEST(Roofline, DrawsHeadless) {
    ImGuiContext* ctx = ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = {1280, 800};
    io.IniFilename = nullptr;
    unsigned char* px = nullptr;
    int w = 0, h = 0;
    io.Fonts->GetTexDataAsRGBA32(&px, &w, &h);
    RooflineRoofs roofs{2890, 64500, "copy 2890 GB/s", "FP32 64500 GFLOP/s", 50600, "cuBLAS SGEMM"};
    const std::vector<RooflineMark> points{{0.083, 200, false, false, "run 1"}, {0.083, 240, true, true, "run 2"}};
    int vertices = 0;
    for (int frame = 0; frame < 2; ++frame) {
        io.DeltaTime = 1.0f / 60.0f;
        ImGui::NewFrame();
        ImGui::SetNextWindowPos({0, 0});
        ImGui::SetNextWindowSize({800, 600});
        ImGui::Begin("roofline");
        draw_roofline("r", roofs, points, {600, 300});
        ImGui::End();
        ImGui::Render();
        vertices = ImGui::GetDrawData()->TotalVtxCount;
    }
    EXPECT_GT(vertices, 100);
    ImGui::DestroyContext(ctx);
}

}  // namespace
}  // namespace wb::app
