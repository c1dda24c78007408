// app/layout.hpp — where each panel goes, and the splitters between them.
//
//   +---------+----------------------+----------------+
//   | lessons |                      | instructions   |
//   |         |  editor              |                |
//   |         |                      +----------------+
//   +---------+----------------------+ launch         |
//   | device  |  results             |                |
//   |         |                      +----------------+
//   |         |                      | diagnostics    |
//   +---------+----------------------+----------------+
//
// The results have a region of their own under the editor, so the verdict
// and the time show without scrolling at 1366x768; the right column runs the
// window's whole height, so the instructions show 15 lines and more and the
// launch panel its params without scrolling there too. Every boundary is a
// splitter the student drags; the positions are fractions (and one width),
// saved with the session. The lesson column collapses to a strip, and the
// instructions can leave their column for a window of their own (then
// `instructions` is empty and the launch panel has their place).
//
// compute_layout is a pure function of the window's size, its content scale
// and the settings, so its guarantees (no panel under a readable minimum at
// 1280x720 and up) are unit-tested without a window.
#pragma once

#include "panel_rect.hpp"

#include <array>

namespace wb::app {

struct LayoutSettings {
    float lessons_width = 250.0f;        // unscaled pixels; the scale multiplies it
    bool lessons_collapsed = false;
    float top_fraction = 0.60f;          // editor's share of the height of the middle column (results below)
    float right_fraction = 0.36f;        // right column's share of the width right of the lessons
    float instructions_fraction = 0.54f; // instructions' share of the right column above the diagnostics
    float diagnostics_fraction = 0.13f;  // diagnostics' share of the right column's height
    float lessons_fraction = 0.72f;      // lesson list's share of the left column's height
    bool instructions_popped = false;    // the instructions are in a window of their own; launch takes the column
    bool instructions_pinned = false;    // ...and stay so in the next session (else they come back docked)

    bool operator==(const LayoutSettings&) const = default;
};

// The draggable boundaries, in the order they are laid out.
enum class Splitter { Lessons, Top, Right, Instructions, Diagnostics, LessonsDevice, Count_ };

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
