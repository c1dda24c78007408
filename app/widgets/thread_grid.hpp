// app/widgets/thread_grid.hpp — a block's threads as a grid of cells, each in
// four parts (top left, top right, bottom left, bottom right) filled by how
// much of four kinds of thing the thread did: empty for none, brighter for
// more. Some cells can be outlined. The access tab draws each thread's global
// and shared reads and writes with it, GPU-Puzzles' way.
//
// The widget knows no threads: the caller gives the cells row by row, each
// part already scaled to [0, 1], and the colours.
#pragma once

#include <imgui.h>

#include <array>
#include <vector>

namespace wb::app {

struct ThreadGridCell {
    std::array<float, 4> parts{};  // 0: none; (0, 1]: the share of the most any cell has
    bool outlined = false;
};

struct ThreadGridStyle {
    std::array<ImU32, 4> parts{};
    ImU32 outline = 0;
};

// The alpha a part of `share` is drawn with: 0 for none, then from a third up, so one access shows.
float thread_grid_alpha(float share);

// Draws `cells` row by row, `columns` wide, fitting `width`; returns the
// index of the cell under the mouse, or -1.
int draw_thread_grid(const char* id, const std::vector<ThreadGridCell>& cells, int columns, const ThreadGridStyle& style,
                     float width);

}  // namespace wb::app
