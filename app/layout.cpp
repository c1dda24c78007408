// app/layout.cpp — panel rectangles and splitter drags (layout.hpp).
#include "layout.hpp"

#include <algorithm>
#include <cmath>

namespace wb::app {
namespace {

float clamp_fraction(float v, float lo = 0.1f, float hi = 0.9f) {
    if (!std::isfinite(v)) return 0.5f;
    return std::clamp(v, lo, hi);
}

// Splits `total` at `fraction`, keeping both parts at least `min` when it can;
// when it cannot, both get half.
float split(float total, float fraction, float min) {
    if (total <= 2 * min) return total * 0.5f;
    return std::clamp(total * fraction, min, total - min);
}

float lessons_width(const LayoutSettings& s, float width, float scale) {
    if (s.lessons_collapsed) return kCollapsedLessonsWidth * scale;
    const float max = std::max(kMinPanelWidth * scale, width * 0.35f);
    return std::clamp(s.lessons_width * scale, std::min(kMinPanelWidth * scale, max), max);
}

PanelRect rect(float x, float y, float w, float h) { return {ImVec2(x, y), ImVec2(w, h)}; }

// A vertical boundary at x (between y0 and y0 + h), or a horizontal one at y.
PanelRect vsplit(float x, float y0, float h, float t) { return rect(x - t * 0.5f, y0, t, h); }
PanelRect hsplit(float x0, float y, float w, float t) { return rect(x0, y - t * 0.5f, w, t); }

}  // namespace

LayoutSettings sanitized(LayoutSettings s) {
    s.lessons_width = std::isfinite(s.lessons_width) ? std::clamp(s.lessons_width, kMinPanelWidth, 1000.0f) : 250.0f;
    s.top_fraction = clamp_fraction(s.top_fraction, 0.2f, 0.85f);
    s.right_fraction = clamp_fraction(s.right_fraction);
    s.instructions_fraction = clamp_fraction(s.instructions_fraction);
    s.diagnostics_fraction = clamp_fraction(s.diagnostics_fraction, 0.05f, 0.6f);
    s.lessons_fraction = clamp_fraction(s.lessons_fraction, 0.3f, 0.95f);
    return s;
}

float clamp_text_zoom(float zoom) {
    if (!std::isfinite(zoom)) return 1.0f;
    // Whole steps, so that +10% then -10% comes back to where it was.
    return std::clamp(std::round(zoom / kTextZoomStep) * kTextZoomStep, kTextZoomMin, kTextZoomMax);
}

Layout compute_layout(ImVec2 origin, ImVec2 size, float scale, const LayoutSettings& raw) {
    const LayoutSettings s = sanitized(raw);
    const float t = kSplitterThickness * scale;
    const float min_w = kMinPanelWidth * scale, min_h = kMinPanelHeight * scale;
    Layout l;
    l.lessons_collapsed = s.lessons_collapsed;

    const float left = lessons_width(s, size.x, scale);
    const float x1 = origin.x + left;
    const float rest_w = size.x - left;
    const float lessons_h = s.lessons_collapsed ? size.y : split(size.y, s.lessons_fraction, min_h);
    l.lessons = rect(origin.x, origin.y, left, lessons_h);
    l.device = rect(origin.x, origin.y + lessons_h, left, size.y - lessons_h);

    // The middle column: the editor above the results.
    const float top_h = split(size.y, s.top_fraction, 2 * min_h);
    const float right_w = split(rest_w, s.right_fraction, min_w);
    const float editor_w = rest_w - right_w;
    const float x2 = x1 + editor_w;
    l.editor = rect(x1, origin.y, editor_w, top_h);
    l.results = rect(x1, origin.y + top_h, editor_w, size.y - top_h);

    // The right column, the window's whole height: instructions, launch, diagnostics.
    const float above_h = size.y <= 3 * min_h ? size.y * 2.0f / 3.0f
                                              : std::clamp(size.y * (1.0f - s.diagnostics_fraction), 2 * min_h, size.y - min_h);
    const float instructions_h = s.instructions_popped ? 0.0f : split(above_h, s.instructions_fraction, min_h);
    l.instructions = rect(x2, origin.y, right_w, instructions_h);
    l.launch = rect(x2, origin.y + instructions_h, right_w, above_h - instructions_h);
    l.diagnostics = rect(x2, origin.y + above_h, right_w, size.y - above_h);

    auto at = [&](Splitter which) -> PanelRect& { return l.splitters[static_cast<int>(which)]; };
    if (!s.lessons_collapsed) {
        at(Splitter::Lessons) = vsplit(x1, origin.y, size.y, t);
        at(Splitter::LessonsDevice) = hsplit(origin.x, origin.y + lessons_h, left, t);
    }
    at(Splitter::Top) = hsplit(x1, origin.y + top_h, editor_w, t);
    at(Splitter::Right) = vsplit(x2, origin.y, size.y, t);
    if (!s.instructions_popped) at(Splitter::Instructions) = hsplit(x2, origin.y + instructions_h, right_w, t);
    at(Splitter::Diagnostics) = hsplit(x2, origin.y + above_h, right_w, t);
    return l;
}

void drag_splitter(LayoutSettings& s, Splitter which, ImVec2 delta, ImVec2 size, float scale) {
    // Work on the laid-out sizes, then store them back as fractions.
    const Layout l = compute_layout(ImVec2(0, 0), size, scale, s);
    const float rest_w = size.x - l.lessons.size.x;
    switch (which) {
    case Splitter::Lessons:
        s.lessons_width = (l.lessons.size.x + delta.x) / scale;
        break;
    case Splitter::LessonsDevice:
        if (size.y > 0) s.lessons_fraction = (l.lessons.size.y + delta.y) / size.y;
        break;
    case Splitter::Top:
        if (size.y > 0) s.top_fraction = (l.editor.size.y + delta.y) / size.y;
        break;
    case Splitter::Right:
        if (rest_w > 0) s.right_fraction = (l.launch.size.x - delta.x) / rest_w;
        break;
    case Splitter::Instructions:
        if (const float above = l.instructions.size.y + l.launch.size.y; above > 0)
            s.instructions_fraction = (l.instructions.size.y + delta.y) / above;
        break;
    case Splitter::Diagnostics:
        if (size.y > 0) s.diagnostics_fraction = (l.diagnostics.size.y - delta.y) / size.y;
        break;
    case Splitter::Count_: break;
    }
    s = sanitized(s);
}

}  // namespace wb::app
