// tests/app/warp_request_view_test.cpp — where the warp picture puts a
// request's lanes (widgets/warp_request_view.hpp): against the 32-byte
// sectors their bytes touch, skipped sectors as gaps, or against the 32
// banks, a row per pass, so the rows drawn are the request's bank-conflict ways.
#include "widgets/thread_grid.hpp"
#include "widgets/warp_request_view.hpp"

#include <gtest/gtest.h>
#include <imgui.h>

namespace wb::app {
namespace {

// 32 lanes, lane l at first + l * stride bytes, each `size` bytes.
std::vector<WarpLane> warp(long long first, long long stride, int size = 4) {
    std::vector<WarpLane> v;
    for (int l = 0; l < 32; ++l) v.push_back({l, first + l * stride, size});
    return v;
}

TEST(WarpRequestLayout, ConsecutiveFloatsFillFourSectorsEightLanesEach) {
    const WarpRequestLayout l = warp_request_layout(warp(0, 4), false);
    EXPECT_EQ(l.sector_slots, (std::vector<long long>{0, 1, 2, 3}));
    EXPECT_EQ(l.sectors(), 4);
    for (int lane = 0; lane < 32; ++lane) EXPECT_EQ(l.lane_places[std::size_t(lane)], std::vector<int>{lane / 8}) << lane;
}

TEST(WarpRequestLayout, ReadsThirtyTwoBytesApartTouchASectorEachAndFartherOnesLeaveGaps) {
    const WarpRequestLayout eight = warp_request_layout(warp(0, 32), false);
    EXPECT_EQ(eight.sectors(), 32);
    EXPECT_EQ(eight.sector_slots.size(), 32u);  // neighbours: no gap
    const WarpRequestLayout column = warp_request_layout(warp(64, 128), false);
    EXPECT_EQ(column.sectors(), 32);
    EXPECT_EQ(column.sector_slots.size(), 63u);  // a gap between each two
    EXPECT_EQ(column.sector_slots[0], 2);
    EXPECT_EQ(column.sector_slots[1], -1);
    EXPECT_EQ(column.lane_places[1], std::vector<int>{2});
    // A lane whose bytes cross a sector boundary is joined to both.
    const WarpRequestLayout crossing = warp_request_layout({{0, 28, 8}}, false);
    EXPECT_EQ(crossing.sector_slots, (std::vector<long long>{0, 1}));
    EXPECT_EQ(crossing.lane_places[0], (std::vector<int>{0, 1}));
    EXPECT_TRUE(crossing.lane_places[1].empty());  // inactive
}

TEST(WarpRequestLayout, AColumnOfAnUnpaddedTileStacksThirtyTwoRowsInOneBank) {
    const WarpRequestLayout l = warp_request_layout(warp(256, 128), true);  // tile[l][0], tile[32][32] 256 bytes in
    EXPECT_EQ(l.rows, 32);
    for (int lane = 0; lane < 32; ++lane) {
        const std::size_t cell = std::size_t(lane) * 32;  // row lane, bank 0
        EXPECT_EQ(l.cell_lanes[cell], std::vector<int>{lane});
        EXPECT_EQ(l.lane_places[std::size_t(lane)], std::vector<int>{int(cell)});
    }
}

TEST(WarpRequestLayout, APaddedColumnARowAndABroadcastTakeOneRow) {
    const WarpRequestLayout padded = warp_request_layout(warp(0, 33 * 4), true);
    EXPECT_EQ(padded.rows, 1);
    for (std::size_t bank = 0; bank < 32; ++bank) EXPECT_EQ(padded.cell_lanes[bank].size(), 1u) << bank;
    EXPECT_EQ(warp_request_layout(warp(0, 4), true).rows, 1);
    const WarpRequestLayout broadcast = warp_request_layout(warp(8, 0), true);
    EXPECT_EQ(broadcast.rows, 1);
    EXPECT_EQ(broadcast.cell_lanes[2].size(), 32u);  // word 2, bank 2: every lane
    // Consecutive float2s: 64 words, two passes, and no conflict in either.
    EXPECT_EQ(warp_request_layout(warp(0, 8, 8), true).rows, 2);
}

// Hovering a cell names it: the per-thread view's tooltip lists that thread's accesses.
TEST(ThreadGrid, TheCellUnderTheMouseIsTheOneReturned) {
    ImGuiContext* ctx = ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(800, 600);
    io.DeltaTime = 1.0f / 60.0f;
    io.IniFilename = nullptr;
    io.Fonts->AddFontDefault();
    unsigned char* pixels = nullptr;
    int w = 0, h = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
    const std::vector<ThreadGridCell> cells(32 * 8);  // a 32 x 8 block
    int under = -2;
    ImVec2 origin;
    for (int frame = 0; frame < 3; ++frame) {
        ImGui::NewFrame();
        ImGui::SetNextWindowPos(ImVec2(0, 0));
        ImGui::SetNextWindowSize(ImVec2(800, 600));
        ImGui::Begin("host", nullptr, ImGuiWindowFlags_NoDecoration);
        origin = ImGui::GetCursorScreenPos();
        // 640 pixels for 32 columns: cells of 20.
        under = draw_thread_grid("grid", cells, 32, ThreadGridStyle{}, 640);
        ImGui::End();
        ImGui::Render();
        io.MousePos = ImVec2(origin.x + 3 * 20 + 10, origin.y + 5 * 20 + 10);  // column 3, row 5
    }
    EXPECT_EQ(under, 5 * 32 + 3);
    ImGui::DestroyContext(ctx);
}

TEST(ThreadGrid, AnyAccessShowsAndNoneIsEmpty) {
    EXPECT_EQ(thread_grid_alpha(0), 0.0f);
    EXPECT_GE(thread_grid_alpha(0.01f), 0.35f);
    EXPECT_EQ(thread_grid_alpha(1), 1.0f);
    EXPECT_LT(thread_grid_alpha(0.5f), thread_grid_alpha(1));
}

}  // namespace
}  // namespace wb::app
