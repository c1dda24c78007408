// app/layout.hpp — where each panel goes, and the splitters between them.
//
//   +---------+----------------------+----------------+
//   | lessons |                      | instructions   |
//   |         |  editor              +----------------+
//   |         |                      | launch         |
//   +---------+----------------------+----------------+
//   | device  |  results                 | diagnostics|
//   +---------+--------------------------+------------+
//
// The results have a full-width region of their own under the editor, so the
// verdict and the time show without scrolling at 1366x768. Every boundary
// is a splitter the student drags; the positions are fractions (and one
// width), saved with the session. The lesson column collapses to a strip,
// and the instructions can leave their column for a window of their own
// (then `instructions` is empty and the launch panel has the column).
//
// compute_layout is a pure function of the window's size, its content scale
// and the settings, so its guarantees (no panel under a readable minimum at
// 1280x720 and up) are unit-tested without a window.
#pragma once

#include "panels/panel.hpp"

#include <array>

namespace wb::app {

struct LayoutSettings {
    float lessons_width = 250.0f;        // unscaled pixels; the scale multiplies it
    bool lessons_collapsed = false;
    float top_fraction = 0.60f;          // editor row's share of the height right of the lessons
    float right_fraction = 0.36f;        // instructions column's share of the width right of the lessons
    float instructions_fraction = 0.55f; // instructions' share of that column's height
    float results_fraction = 0.66f;      // results' share of the bottom row's width
    float lessons_fraction = 0.72f;      // lesson list's share of the left column's height
    bool instructions_popped = false;    // the instructions are in a window of their own; launch takes the column

    bool operator==(const LayoutSettings&) const = default;
};

// The draggable boundaries, in the order they are laid out.
enum class Splitter { Lessons, Top, Right, Instructions, Results, LessonsDevice, Count_ };

struct Layout {
    PanelRect lessons, device, editor, instructions, launch, results, diagnostics;
    std::array<PanelRect, static_cast<int>(Splitter::Count_)> splitters{};  // zero size: not shown
    bool lessons_collapsed = false;
};

// Sizes below which a panel stops being readable, unscaled.
constexpr float kMinPanelWidth = 160.0f;
constexpr float kMinPanelHeight = 90.0f;
constexpr float kCollapsedLessonsWidth = 30.0f;
constexpr float kSplitterThickness = 6.0f;

// The panels' rectangles for a body of `size` at `origin` (below the menu,
// above the status bar). Fractions out of range are clamped; a window too
// small for every minimum shrinks proportionally rather than overlap.
Layout compute_layout(ImVec2 origin, ImVec2 size, float scale, const LayoutSettings& settings);

// Moves a splitter by a drag of `delta` pixels, within the minimums.
void drag_splitter(LayoutSettings& settings, Splitter which, ImVec2 delta, ImVec2 size, float scale);

// Clamps every setting into its range (a hand-edited session file).
LayoutSettings sanitized(LayoutSettings s);

// The text size the student picks (View menu, Ctrl+= / Ctrl+- / Ctrl+0),
// multiplying the monitor's content scale: 70% to 200% in steps of 10%.
constexpr float kTextZoomMin = 0.7f, kTextZoomMax = 2.0f, kTextZoomStep = 0.1f;
float clamp_text_zoom(float zoom);

}  // namespace wb::app
