// app/widgets/timeline_view.cpp — a host step's timeline drawn into the
// window's draw list (timeline_view.hpp).
//
// [SECTION] ranges: fit, zoom, pan
// [SECTION] geometry and hit-testing
// [SECTION] ticks, durations, sizes and labels
// [SECTION] drawing
#include "palette.hpp"
#include "widgets/draw_text.hpp"
#include "widgets/timeline_view.hpp"
#include "widgets/widget_text.hpp"

#include <imgui_internal.h>  // SetItemUsingMouseWheel: the wheel zooms here instead of scrolling the panel

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>

namespace wb::app {

// [SECTION] ranges: fit, zoom, pan -------------------------------------------------------------

TimeRange timeline_fit(const Timeline& t) {
    double lo = 0, hi = std::max(t.wall_us, 0.0);
    for (const Activity& a : t.activities) {
        lo = std::min(lo, a.start_us);
        hi = std::max(hi, a.end_us);
    }
    if (!(hi > lo)) hi = lo + 1;
    // A margin either side, so the first and last bars do not touch the edges.
    const double margin = (hi - lo) * 0.02;
    return {lo - margin, hi + margin};
}

void timeline_zoom(TimelineViewState& v, double anchor_us, double factor, const TimeRange& fit) {
    if (!v.fitted()) v.show(fit);
    if (!(factor > 0)) return;
    const double span = v.t1 - v.t0;
    const double want = std::clamp(span * factor, std::min(kTimelineMinSpanUs, fit.span()), fit.span());
    if (want >= fit.span()) {  // all the way out: the whole run, not a window drifting off it
        v.show(fit);
        return;
    }
    const double k = want / span;
    v.t0 = anchor_us - (anchor_us - v.t0) * k;
    v.t1 = v.t0 + want;
}

void timeline_pan(TimelineViewState& v, double dt_us, const TimeRange& fit) {
    if (!v.fitted()) v.show(fit);
    const double centre = (v.t0 + v.t1) / 2 + dt_us;
    const double kept = std::clamp(centre, fit.t0, fit.t1);
    const double shift = dt_us + (kept - centre);
    v.t0 += shift;
    v.t1 += shift;
}

// [SECTION] geometry and hit-testing -----------------------------------------------------------

float TimelineGeometry::x_of(double t_us) const {
    const double w = plot_x1() - plot_x0();
    return plot_x0() + static_cast<float>((t_us - t0) / (t1 - t0) * w);
}

double TimelineGeometry::t_of(float x) const {
    const double w = plot_x1() - plot_x0();
    return w > 0 ? t0 + (x - plot_x0()) / w * (t1 - t0) : t0;
}

int TimelineGeometry::lane_at(float y) const {
    if (lane_h <= 0 || y < lanes_y0()) return -1;
    const int i = static_cast<int>((y - lanes_y0()) / lane_h);
    return i < static_cast<int>(lanes.size()) ? i : -1;
}

int TimelineGeometry::lane_of(int device, std::uint32_t stream) const {
    for (std::size_t i = 0; i < lanes.size(); ++i)
        if (lanes[i].device == device && lanes[i].stream == stream) return static_cast<int>(i);
    return -1;
}

TimelineGeometry timeline_geometry(const Timeline& t, const TimelineViewState& v, ImVec2 pos, float width,
                                   float label_w, float axis_h, float lane_h) {
    TimelineGeometry g;
    g.pos = pos;
    g.width = width;
    g.label_w = label_w;
    g.axis_h = axis_h;
    g.lane_h = lane_h;
    const TimeRange r = v.fitted() ? TimeRange{v.t0, v.t1} : timeline_fit(t);
    g.t0 = r.t0;
    g.t1 = r.t1;
    g.lanes = t.lanes();
    return g;
}

namespace {

// A bar as drawn: at least a pixel wide, so the shortest kernel still shows.
void bar_x(const TimelineGeometry& g, const Activity& a, float& x0, float& x1) {
    x0 = g.x_of(a.start_us);
    x1 = std::max(g.x_of(a.end_us), x0 + 1.0f);
}

}  // namespace

int timeline_hit(const Timeline& t, const TimelineGeometry& g, ImVec2 p, float slop) {
    if (p.x < g.plot_x0() || p.x > g.plot_x1()) return -1;
    const int lane = g.lane_at(p.y);
    if (lane < 0) return -1;
    const TimelineLane& l = g.lanes[static_cast<std::size_t>(lane)];
    int best = -1;
    float best_d = std::numeric_limits<float>::infinity();
    for (std::size_t i = 0; i < t.activities.size(); ++i) {
        const Activity& a = t.activities[i];
        if (a.device != l.device || a.stream != l.stream) continue;
        float x0 = 0, x1 = 0;
        bar_x(g, a, x0, x1);
        if (x0 > p.x + slop) break;  // sorted by start: nothing later reaches back here
        const float d = p.x < x0 ? x0 - p.x : p.x > x1 ? p.x - x1 : 0.0f;
        if (d <= slop && d <= best_d) {
            best = static_cast<int>(i);
            best_d = d;
        }
    }
    return best;
}

// [SECTION] ticks, durations, sizes and labels -------------------------------------------------

std::vector<TimelineTick> timeline_ticks(double t0, double t1, int max_ticks) {
    std::vector<TimelineTick> out;
    if (!(t1 > t0) || max_ticks < 1) return out;
    const double raw = (t1 - t0) / max_ticks;
    const double power = std::pow(10.0, std::floor(std::log10(raw)));
    double step = 10 * power;
    for (const double m : {1.0, 2.0, 5.0})
        if (m * power >= raw * (1 - 1e-9)) {
            step = m * power;
            break;
        }
    // The unit follows the step, so every label of one axis has the same unit
    // and just the digits the step needs: "0.5 ms" steps, "20 µs" steps.
    double unit = 1;
    const char* unit_name = "\u00b5s";
    if (step >= 1e5) unit = 1e6, unit_name = "s";
    else if (step >= 100) unit = 1e3, unit_name = "ms";
    const int decimals = std::max(0, static_cast<int>(-std::floor(std::log10(step / unit) + 1e-9)));
    for (double k = std::ceil(t0 / step - 1e-9); k * step <= t1 + step * 1e-9; k += 1) {
        const double t = k * step;
        char label[48];
        if (std::fabs(t) < step * 1e-6) std::snprintf(label, sizeof label, "0");
        else std::snprintf(label, sizeof label, "%.*f %s", decimals, t / unit, unit_name);
        out.push_back({t, label});
    }
    return out;
}

std::string format_duration_us(double us) {
    char buf[48];
    const double a = std::fabs(us);
    if (a < 10) std::snprintf(buf, sizeof buf, "%.2f \u00b5s", us);
    else if (a < 1000) std::snprintf(buf, sizeof buf, "%.1f \u00b5s", us);
    else if (a < 1e4) std::snprintf(buf, sizeof buf, "%.3f ms", us / 1e3);
    else if (a < 1e5) std::snprintf(buf, sizeof buf, "%.2f ms", us / 1e3);
    else if (a < 1e6) std::snprintf(buf, sizeof buf, "%.1f ms", us / 1e3);
    else std::snprintf(buf, sizeof buf, "%.2f s", us / 1e6);
    return buf;
}

std::string format_bytes(std::uint64_t bytes) {
    static const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double v = static_cast<double>(bytes);
    int u = 0;
    while (v >= 1024 && u < 4) {
        v /= 1024;
        ++u;
    }
    char buf[48];
    if (u == 0) std::snprintf(buf, sizeof buf, "%llu B", static_cast<unsigned long long>(bytes));
    else if (v == std::floor(v)) std::snprintf(buf, sizeof buf, "%.0f %s", v, kUnits[u]);
    else std::snprintf(buf, sizeof buf, "%.1f %s", v, kUnits[u]);
    return buf;
}

std::string timeline_lane_label(const TimelineLane& lane) {
    char buf[96];
    std::snprintf(buf, sizeof buf, widget_text().timeline_lane, lane.device, static_cast<unsigned>(lane.stream));
    return buf;
}

std::string timeline_bar_label(const Activity& a) {
    if (a.kind == ActivityKind::Kernel) return a.name.empty() ? std::string(widget_text().timeline_kernel) : a.name;
    std::string s = activity_kind_name(a.kind);
    if (a.bytes) s += " " + format_bytes(a.bytes);
    return s;
}

std::string timeline_message(const Timeline& t) {
    if (!t.unavailable.empty()) return t.unavailable;
    if (t.activities.empty()) return widget_text().timeline_nothing;
    return {};
}

ImU32 timeline_colour(const Activity& a) {
    switch (a.kind) {
    case ActivityKind::Kernel: {
        // One family for every kernel, a shade per name: a cuBLAS GEMM and
        // the student's own kernel next to it are told apart at a glance.
        const std::size_t h = std::hash<std::string>{}(a.name);
        const float hue = 0.54f + 0.10f * static_cast<float>(h % 101) / 100.0f;
        const float sat = 0.40f + 0.25f * static_cast<float>((h / 101) % 7) / 6.0f;
        return ImColor::HSV(hue, sat, 0.92f);
    }
    case ActivityKind::CopyHtoD: return palette::kCopyHtoD.u32();
    case ActivityKind::CopyDtoH: return palette::kCopyDtoH.u32();
    case ActivityKind::CopyDtoD:
    case ActivityKind::CopyPtoP: return palette::kCopyOnDevice.u32();
    case ActivityKind::CopyHtoH: return palette::kCopyHtoH.u32();
    case ActivityKind::Memset: return palette::kMemset.u32();
    }
    return palette::kOtherActivity.u32();
}

// [SECTION] drawing ----------------------------------------------------------------------------
namespace {

constexpr ImU32 kBarText = palette::kBarText.u32();
constexpr ImU32 kHatch = palette::kHatch.u32();
constexpr ImU32 kReturnLine = palette::kReturnLine.u32();
constexpr ImU32 kPastReturn = palette::kPastReturn.u32();
constexpr ImU32 kPastReturnEdge = palette::kPastReturnEdge.u32();

// What fits in `width` pixels of a bar: its whole label; a copy's kind
// alone ("HtoD"); a kernel's name cut with an ellipsis, if five characters
// of it are left; else nothing (the tooltip names it).
std::string fit_label(const Activity& a, float width) {
    // Most bars of a long run are a few pixels wide: nothing to measure.
    if (width < ImGui::GetFontSize() * 1.5f) return {};
    const std::string text = timeline_bar_label(a);
    if (ImGui::CalcTextSize(text.c_str()).x <= width) return text;
    if (a.kind != ActivityKind::Kernel) {
        const char* kind = activity_kind_name(a.kind);
        return ImGui::CalcTextSize(kind).x <= width ? std::string(kind) : std::string();
    }
    // The font stops measuring where the width runs out, at a whole character.
    const char* end = nullptr;
    ImGui::GetFont()->CalcTextSizeA(ImGui::GetFontSize(), width - ImGui::CalcTextSize("\u2026").x, 0.0f, text.c_str(),
                                    text.c_str() + text.size(), &end);
    const std::size_t n = end ? static_cast<std::size_t>(end - text.c_str()) : 0;
    if (n < 5) return {};
    return text.substr(0, n) + "\u2026";
}

// Diagonal lines over the part of a bar between x0 and x1 on screen: a
// pageable copy, staged through the driver's buffer. The lines sit still on
// screen, so a bar a zoom made a million pixels wide costs its visible part.
void hatch(ImDrawList* dl, ImVec2 a, ImVec2 b, float x0, float x1, float spacing) {
    const ImVec2 ca(std::max(a.x, x0), a.y), cb(std::min(b.x, x1), b.y);
    if (cb.x <= ca.x) return;
    dl->PushClipRect(ca, cb, true);
    const float h = b.y - a.y;
    for (float x = std::floor((ca.x - h) / spacing) * spacing; x < cb.x; x += spacing)
        dl->AddLine({x, b.y}, {x + h, a.y}, kHatch, 1.0f);
    dl->PopClipRect();
}

std::string title_of(const Activity& a) {
    if (a.kind == ActivityKind::Kernel) return a.name.empty() ? std::string(widget_text().timeline_kernel) : a.name;
    if (a.kind == ActivityKind::Memset) return "memset";
    char buf[64];
    std::snprintf(buf, sizeof buf, widget_text().timeline_copy, activity_kind_name(a.kind));
    return buf;
}

void tooltip(const Timeline& t, const Activity& a) {
    const WidgetText& w = widget_text();
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 32);
    ImGui::TextUnformatted(title_of(a).c_str());
    ImGui::TextDisabled("%s", timeline_lane_label({a.device, a.stream, 0, 0}).c_str());
    ImGui::Text(w.timeline_start_duration, format_duration_us(a.start_us).c_str(),
                format_duration_us(a.duration_us()).c_str());
    if (a.kind != ActivityKind::Kernel && a.bytes) ImGui::Text(w.timeline_bytes_rate, format_bytes(a.bytes).c_str(), a.gbs());
    if (a.kind == ActivityKind::Kernel)
        ImGui::Text(w.timeline_grid_block, a.grid[0], a.grid[1], a.grid[2], a.block[0], a.block[1], a.block[2]);
    if (a.in_graph) ImGui::TextUnformatted(w.timeline_in_graph);
    if (a.pageable) ImGui::TextColored(palette::kCaution.vec4(), "%s", w.timeline_pageable);
    if (t.wall_us > 0 && a.end_us > t.wall_us) ImGui::TextColored(palette::kFail.vec4(), "%s", w.timeline_past_return);
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
}

// One line under the lanes: a swatch per kind the timeline holds, and the return line.
void legend(const Timeline& t) {
    const WidgetText& w = widget_text();
    struct Item {
        ActivityKind kind;
        const char* name;
    };
    const Item kinds[] = {{ActivityKind::Kernel, w.timeline_kernel}, {ActivityKind::CopyHtoD, "HtoD"},
                          {ActivityKind::CopyDtoH, "DtoH"},          {ActivityKind::CopyDtoD, "DtoD/PtoP"},
                          {ActivityKind::CopyHtoH, "HtoH"},          {ActivityKind::Memset, "memset"}};
    auto has = [&](auto pred) { return std::any_of(t.activities.begin(), t.activities.end(), pred); };
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float s = ImGui::GetTextLineHeight();
    const float right = ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x;
    bool first = true;
    auto entry = [&](const char* name, auto&& swatch) {
        const float w_item = s * 1.2f + ImGui::CalcTextSize(name).x;
        if (!first) {
            ImGui::SameLine(0, s);
            if (ImGui::GetCursorScreenPos().x + w_item > right) ImGui::NewLine();
        }
        first = false;
        const ImVec2 p = ImGui::GetCursorScreenPos();
        swatch(ImVec2(p.x, p.y + s * 0.15f), ImVec2(p.x + s * 0.9f, p.y + s * 0.85f));
        ImGui::Dummy(ImVec2(s * 1.2f, s));
        ImGui::SameLine(0, 0);
        ImGui::TextDisabled("%s", name);
    };
    for (const Item& item : kinds) {
        // The swatch is the first such bar's colour (kernels' shades differ by name).
        const auto first = std::find_if(t.activities.begin(), t.activities.end(), [&](const Activity& a) {
            return a.kind == item.kind || (item.kind == ActivityKind::CopyDtoD && a.kind == ActivityKind::CopyPtoP);
        });
        if (first == t.activities.end()) continue;
        entry(item.name, [&](ImVec2 a, ImVec2 b) { dl->AddRectFilled(a, b, timeline_colour(*first)); });
    }
    if (has([](const Activity& a) { return a.pageable; }))
        entry(w.timeline_pageable_short, [&](ImVec2 a, ImVec2 b) {
            dl->AddRectFilled(a, b, palette::kPageableKey.u32());
            hatch(dl, a, b, a.x, b.x, s * 0.3f);
        });
    if (t.wall_us > 0)
        entry(w.timeline_returned, [&](ImVec2 a, ImVec2 b) {
            const float x = (a.x + b.x) / 2;
            dl->AddLine({x, a.y - s * 0.1f}, {x, b.y + s * 0.1f}, kReturnLine, std::max(1.5f, s / 8));
        });
}

}  // namespace

TimelineDrawn draw_timeline(const char* id, const Timeline& t, TimelineViewState& v, float width) {
    TimelineDrawn drawn;
    if (const std::string message = timeline_message(t); !message.empty()) {
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextDisabled("%s", message.c_str());
        ImGui::PopTextWrapPos();
        drawn.message = true;
        return drawn;
    }
    ImGui::PushID(id);
    const TimeRange fit = timeline_fit(t);
    if (!v.fitted()) v.show(fit);

    // Sizes follow the font, so the view reads the same at any ui_scale.
    const float font = ImGui::GetFontSize();
    const float line_h = ImGui::GetTextLineHeight();
    const float pad = std::round(font * 0.3f);
    if (width <= 0) width = ImGui::GetContentRegionAvail().x;
    width = std::max(width, font * 16);
    std::vector<std::string> labels;
    float label_w = 0;
    for (const TimelineLane& lane : t.lanes()) {
        labels.push_back(timeline_lane_label(lane));
        label_w = std::max(label_w, ImGui::CalcTextSize(labels.back().c_str()).x);
    }
    label_w = std::min(label_w + 2 * pad, width * 0.4f);
    const float axis_h = line_h + 2 * pad;
    const float lane_h = std::round(line_h * 1.6f + 2);

    TimelineGeometry g = timeline_geometry(t, v, ImGui::GetCursorScreenPos(), width, label_w, axis_h, lane_h);
    ImGui::InvisibleButton("##timeline", ImVec2(width, g.height() + pad));
    ImGui::SetItemUsingMouseWheel();
    const bool hovered = ImGui::IsItemHovered();
    const ImGuiIO& io = ImGui::GetIO();
    const float plot_w = g.plot_x1() - g.plot_x0();
    const bool over_plot = hovered && io.MousePos.x >= g.plot_x0();
    if (hovered && io.MouseWheel != 0) {
        const double anchor = over_plot ? g.t_of(io.MousePos.x) : (v.t0 + v.t1) / 2;
        timeline_zoom(v, anchor, std::pow(0.8, static_cast<double>(io.MouseWheel)), fit);
    }
    if (ImGui::IsItemActive() && ImGui::IsMouseDragging(ImGuiMouseButton_Left, 1.0f) && io.MouseDelta.x != 0 && plot_w > 0)
        timeline_pan(v, -static_cast<double>(io.MouseDelta.x) * (v.t1 - v.t0) / plot_w, fit);
    if (hovered && ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) v.show(fit);
    g.t0 = v.t0;
    g.t1 = v.t1;

    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
    const ImU32 dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);
    const ImU32 grid = ImGui::GetColorU32(ImGuiCol_Separator, 0.45f);
    const float top = g.pos.y, bottom = g.pos.y + g.height();
    const float x0 = g.plot_x0(), x1 = g.plot_x1();

    // Lanes: alternating backgrounds, their labels on the left, a heavier
    // line where one device's lanes end and the next's begin.
    for (std::size_t i = 0; i < g.lanes.size(); ++i) {
        const float y = g.lane_top(static_cast<int>(i));
        const ImVec2 a(g.pos.x, y), b(x1, y + lane_h);
        if (!ImGui::IsRectVisible(a, b)) continue;
        ++drawn.lanes;
        dl->AddRectFilled(a, b, ImGui::GetColorU32(ImGuiCol_FrameBg, i % 2 ? 0.55f : 1.0f));
        dl->AddRectFilled(a, ImVec2(x0, b.y), ImGui::GetColorU32(ImGuiCol_TableHeaderBg));
        dl->PushClipRect(a, ImVec2(x0 - pad / 2, b.y), true);
        draw_text(dl, ImVec2(a.x + pad, y + (lane_h - line_h) / 2), text, labels[i].c_str());
        dl->PopClipRect();
        if (i > 0 && g.lanes[i].device != g.lanes[i - 1].device)
            dl->AddLine(a, ImVec2(x1, y), ImGui::GetColorU32(ImGuiCol_Text, 0.6f), 2.0f);
    }

    // Where run() returned is named on the axis, beside its line; a tick
    // label it would cover is left out.
    const char* returned = widget_text().timeline_returned;
    const float return_x = std::round(g.x_of(t.wall_us));
    const bool return_shown = t.wall_us > 0 && return_x >= x0 && return_x <= x1;
    const float returned_w = ImGui::CalcTextSize(returned).x;
    const float returned_x = return_x + pad + returned_w <= x1 ? return_x + pad : return_x - pad - returned_w;

    // The axis: ticks over the lanes, labels above them.
    dl->PushClipRect(ImVec2(x0, top), ImVec2(x1, bottom), true);
    const int max_ticks = std::max(2, static_cast<int>(plot_w / (font * 5.0f)));
    float free_x = x0;  // where the previous label ended
    for (const TimelineTick& tick : timeline_ticks(g.t0, g.t1, max_ticks)) {
        const float x = std::round(g.x_of(tick.t_us));
        dl->AddLine(ImVec2(x, g.lanes_y0() - pad), ImVec2(x, bottom), grid);
        const float tw = ImGui::CalcTextSize(tick.label.c_str()).x;
        const float lx = x + 3;
        if (lx < free_x || lx + tw > x1) continue;
        if (return_shown && lx < returned_x + returned_w + pad && lx + tw + pad > returned_x) continue;
        draw_text(dl, ImVec2(lx, top + pad / 2), dim, tick.label.c_str());
        free_x = lx + tw + pad;
    }

    // Work still running after run() returned: shaded from the return on.
    double last_end = 0;
    for (const Activity& a : t.activities) last_end = std::max(last_end, a.end_us);
    const bool ran_past = t.wall_us > 0 && (last_end > t.wall_us || t.ran_past_return_us > 0);
    if (ran_past) {
        const double end = std::max(last_end, t.wall_us + t.ran_past_return_us);
        dl->AddRectFilled(ImVec2(g.x_of(t.wall_us), g.lanes_y0()), ImVec2(g.x_of(end), bottom), kPastReturn);
    }

    // The bars, in start order; a label inside where it fits.
    const float bar_pad = std::max(2.0f, std::round(lane_h * 0.12f));
    for (const Activity& a : t.activities) {
        if (a.start_us > g.t1) break;
        if (a.end_us < g.t0) continue;
        const int lane = g.lane_of(a.device, a.stream);
        if (lane < 0) continue;
        float bx0 = 0, bx1 = 0;
        bar_x(g, a, bx0, bx1);
        const float y0 = g.lane_top(lane) + bar_pad, y1 = g.lane_top(lane) + lane_h - bar_pad;
        if (!ImGui::IsRectVisible(ImVec2(bx0, y0), ImVec2(bx1, y1))) continue;
        ++drawn.bars;
        dl->AddRectFilled(ImVec2(bx0, y0), ImVec2(bx1, y1), timeline_colour(a));
        if (a.pageable) hatch(dl, ImVec2(bx0, y0), ImVec2(bx1, y1), x0, x1, std::max(4.0f, font * 0.4f));
        if (t.wall_us > 0 && a.end_us > t.wall_us)
            dl->AddRect(ImVec2(std::max(bx0, g.x_of(t.wall_us)), y0), ImVec2(bx1, y1), kPastReturnEdge, 0, 0, 2.0f);
        const float vx0 = std::max(bx0, x0), vx1 = std::min(bx1, x1);
        const std::string label = fit_label(a, vx1 - vx0 - 2 * pad);
        if (!label.empty()) {
            draw_text(dl, ImVec2(vx0 + pad, y0 + (y1 - y0 - line_h) / 2), kBarText, label.c_str());
            ++drawn.labelled;
        }
    }

    // Where run() returned: a line through every lane.
    if (return_shown) {
        dl->AddLine(ImVec2(return_x, top), ImVec2(return_x, bottom), kReturnLine, std::max(1.5f, font / 9));
        draw_text(dl, ImVec2(returned_x, top + pad / 2), kReturnLine, returned);
    }

    // Hover: the bar under the pointer outlined, and its tooltip.
    if (over_plot && !ImGui::IsItemActive()) {
        const int hit = timeline_hit(t, g, io.MousePos);
        if (hit >= 0) {
            const Activity& a = t.activities[static_cast<std::size_t>(hit)];
            float bx0 = 0, bx1 = 0;
            bar_x(g, a, bx0, bx1);
            const float y = g.lane_top(g.lane_of(a.device, a.stream));
            dl->AddRect(ImVec2(bx0 - 1, y + 1), ImVec2(bx1 + 1, y + lane_h - 1), text, 0, 0, 2.0f);
            drawn.hovered = hit;
        }
    }
    dl->PopClipRect();
    if (drawn.hovered >= 0) tooltip(t, t.activities[static_cast<std::size_t>(drawn.hovered)]);

    legend(t);
    ImGui::TextDisabled("%s", widget_text().zoom_help);
    ImGui::PopID();
    drawn.geometry = std::move(g);
    return drawn;
}

}  // namespace wb::app
