// app/widgets/warp_request_view.hpp — one warp's memory request drawn against
// what it asks of memory: the access tab's warp picture.
//
// Global memory: the warp's 32 lanes in a row and, under them in address
// order, the 32-byte sectors their bytes fall in, each lane joined to its
// sectors; untouched sectors between two touched ones are one gap mark (…).
// Shared memory: a column per bank (32); each lane is placed in the column of
// every 4-byte word it touches, on the row of that word among its bank's
// distinct words. The rows are then the passes the banks need: a request
// without conflict is one row, a 32-way conflict 32 rows in one column.
//
// The widget knows no runs: the caller gives each active lane's offset and
// size, and the words its tooltips say. warp_request_layout, where everything
// goes, is pure and tested headless (tests/app/warp_request_view_test.cpp).
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace wb::app {

struct WarpLane {
    int lane = 0;          // 0..31
    long long offset = 0;  // bytes, from where sectors and banks are counted
    int size = 4;          // bytes
};

struct WarpRequestLayout {
    bool shared = false;
    // Global: the touched sectors in address order, with -1 for a gap between two that are not neighbours.
    std::vector<long long> sector_slots;
    // Shared: rows (the most distinct words of one bank), and per cell
    // (row * 32 + bank) the lanes in it and its word (-1: empty).
    int rows = 0;
    std::vector<std::vector<int>> cell_lanes;
    std::vector<long long> cell_word;
    // Per lane number (0..31): the slots (global) or cells (shared) it touches; empty when inactive.
    std::vector<std::vector<int>> lane_places;

    int sectors() const;  // global: the touched sectors drawn (slots that are not gaps)
};

WarpRequestLayout warp_request_layout(const std::vector<WarpLane>& lanes, bool shared);

// The tooltips' words, from the caller (the widget knows no languages).
struct WarpRequestText {
    std::function<std::string(const WarpLane&)> lane;     // "lane 5: tile[160]"
    std::function<std::string(long long sector)> sector;  // "sector 3: bytes 96 to 127"
    std::function<std::string(int bank)> bank;            // "bank 7"
};

// Draws the request `width` wide at the cursor and returns what it laid out.
WarpRequestLayout draw_warp_request(const char* id, const std::vector<WarpLane>& lanes, bool shared,
                                    const WarpRequestText& text, float width);

}  // namespace wb::app
