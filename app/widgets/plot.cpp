// app/widgets/plot.cpp — line plots drawn straight into the window's draw list.
#include "palette.hpp"
#include "widgets/draw_text.hpp"
#include "widgets/plot.hpp"
#include "widgets/widget_text.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace wb::app {

PlotRange plot_range(const std::vector<PlotSeries>& series, bool include_zero) {
    float lo = std::numeric_limits<float>::infinity(), hi = -lo;
    for (const PlotSeries& s : series)
        for (int i = 0; s.ys && i < s.n; ++i)
            if (std::isfinite(s.ys[i])) {
                lo = std::min(lo, s.ys[i]);
                hi = std::max(hi, s.ys[i]);
            }
    if (lo > hi) return {0.0f, 1.0f};
    if (include_zero) {
        lo = std::min(lo, 0.0f);
        hi = std::max(hi, 0.0f);
    }
    if (hi - lo < 1e-30f) {  // flat: give it some height around the value
        const float pad = std::max(std::fabs(lo) * 0.1f, 0.5f);
        return {lo - pad, hi + pad};
    }
    const float pad = (hi - lo) * 0.05f;
    return {include_zero && lo == 0.0f ? 0.0f : lo - pad, hi + pad};
}

int plot_index_at(float mouse_x, float x0, float width, int n) {
    if (n <= 0 || width <= 0 || mouse_x < x0 || mouse_x >= x0 + width) return -1;
    if (n == 1) return 0;
    const float t = (mouse_x - x0) / width;
    return std::clamp(static_cast<int>(std::lround(t * static_cast<float>(n - 1))), 0, n - 1);
}

namespace {

ImU32 default_colour(std::size_t k) {
    return palette::kSeries[k % palette::kSeries.size()].u32();
}

void draw_series(ImDrawList* dl, const PlotSeries& s, ImVec2 a, ImVec2 b, PlotRange r, bool markers, float thickness) {
    if (!s.ys || s.n <= 0) return;
    const float w = b.x - a.x, h = b.y - a.y;
    const auto sx = [&](int i) { return s.n == 1 ? a.x + w * 0.5f : a.x + w * static_cast<float>(i) / static_cast<float>(s.n - 1); };
    const auto sy = [&](float v) { return b.y - h * (v - r.lo) / (r.hi - r.lo); };
    const int columns = std::max(1, static_cast<int>(w));
    if (s.n > columns * 2) {
        // Dense: one vertical stroke per pixel column from its min to its max,
        // joined to the next column, so spikes survive and cost stays flat.
        float prev_y = std::numeric_limits<float>::quiet_NaN();
        for (int c = 0; c < columns; ++c) {
            const int i0 = static_cast<int>(static_cast<long long>(c) * s.n / columns);
            const int i1 = std::max(i0 + 1, static_cast<int>(static_cast<long long>(c + 1) * s.n / columns));
            float lo = std::numeric_limits<float>::infinity(), hi = -lo;
            for (int i = i0; i < i1 && i < s.n; ++i)
                if (std::isfinite(s.ys[i])) {
                    lo = std::min(lo, s.ys[i]);
                    hi = std::max(hi, s.ys[i]);
                }
            if (lo > hi) {
                prev_y = std::numeric_limits<float>::quiet_NaN();
                continue;
            }
            const float x = a.x + static_cast<float>(c) + 0.5f;
            if (!std::isnan(prev_y)) dl->AddLine({x - 1, prev_y}, {x, sy(lo)}, s.colour, thickness);
            dl->AddLine({x, sy(hi)}, {x, sy(lo) + 1}, s.colour, thickness);
            prev_y = sy(hi);
        }
        return;
    }
    for (int i = 0; i + 1 < s.n; ++i)
        if (std::isfinite(s.ys[i]) && std::isfinite(s.ys[i + 1]))
            dl->AddLine({sx(i), sy(s.ys[i])}, {sx(i + 1), sy(s.ys[i + 1])}, s.colour, thickness);
    if (markers || s.n == 1)
        for (int i = 0; i < s.n; ++i)
            if (std::isfinite(s.ys[i])) dl->AddCircleFilled({sx(i), sy(s.ys[i])}, 2.5f, s.colour);
}

std::string fmt(const char* format, float v, const char* unit) {
    char buf[64];
    if (std::isnan(v)) return "NaN";
    std::snprintf(buf, sizeof buf, format, static_cast<double>(v));
    std::string s = buf;
    if (unit) (s += " ") += unit;
    return s;
}

}  // namespace

void draw_line_plot(const char* id, const float* ys, int n, ImVec2 size, const PlotOptions& o) {
    std::vector<PlotSeries> series;
    series.push_back({ys, n, o.colour ? o.colour : default_colour(0), o.label});
    for (std::size_t k = 0; k < o.extra.size(); ++k) {
        PlotSeries s = o.extra[k];
        if (!s.colour) s.colour = default_colour(k + 1);
        series.push_back(s);
    }
    const PlotRange r = o.fixed_range ? PlotRange{o.y_min, o.y_max} : plot_range(series, o.include_zero);

    ImGui::PushID(id);
    if (size.x <= 0) size.x = std::max(ImGui::GetContentRegionAvail().x, 50.0f);
    if (size.y <= 0) size.y = 120.0f;
    const ImVec2 p0 = ImGui::GetCursorScreenPos();
    ImGui::InvisibleButton("##plot", size);
    const bool hovered = ImGui::IsItemHovered();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float lh = ImGui::GetTextLineHeight();
    // The y labels take a left margin sized to the wider of the two.
    const std::string hi_label = fmt(o.value_format, r.hi, o.unit), lo_label = fmt(o.value_format, r.lo, o.unit);
    const float margin = std::max(ImGui::CalcTextSize(hi_label.c_str()).x, ImGui::CalcTextSize(lo_label.c_str()).x) + 6;
    const ImVec2 a{p0.x + margin, p0.y + 2}, b{p0.x + size.x - 2, p0.y + size.y - lh - 4};
    dl->AddRectFilled(a, b, ImGui::GetColorU32(ImGuiCol_FrameBg));
    const ImU32 axis = ImGui::GetColorU32(ImGuiCol_TextDisabled);
    dl->AddLine({a.x, a.y}, {a.x, b.y}, axis);
    dl->AddLine({a.x, b.y}, {b.x, b.y}, axis);
    if (r.lo < 0 && r.hi > 0) {  // the zero line, faint
        const float zy = b.y - (b.y - a.y) * (0 - r.lo) / (r.hi - r.lo);
        dl->AddLine({a.x, zy}, {b.x, zy}, ImGui::GetColorU32(ImGuiCol_Separator));
    }
    draw_text(dl, {p0.x, a.y}, axis, hi_label.c_str());
    draw_text(dl, {p0.x, b.y - lh}, axis, lo_label.c_str());
    const int longest = std::max_element(series.begin(), series.end(), [](auto& x, auto& y) { return x.n < y.n; })->n;
    char xl[96];
    std::snprintf(xl, sizeof xl, "0 .. %.0f  %s", std::max(0.0, (longest - 1) * o.x_scale), o.x_label ? o.x_label : widget_text().index);
    draw_text(dl, {a.x, b.y + 2}, axis, xl);
    // Legend, right-aligned under the plot.
    float lx = b.x;
    for (auto it = series.rbegin(); it != series.rend(); ++it) {
        if (!it->label) continue;
        lx -= ImGui::CalcTextSize(it->label).x;
        draw_text(dl, {lx, b.y + 2}, it->colour, it->label);
        lx -= 12;
    }

    dl->PushClipRect(a, b, true);
    // Overlays (the CPU reference) go underneath, wide and translucent, and the
    // main series on top, thin: where they agree both stay visible.
    for (std::size_t k = series.size(); k-- > 0;) {
        PlotSeries s = series[k];
        if (k > 0) s.colour = (s.colour & ~IM_COL32_A_MASK) | (ImU32(palette::kOverlayAlpha) << IM_COL32_A_SHIFT);
        draw_series(dl, s, a, b, r, o.markers && s.n * 6 < b.x - a.x, k > 0 ? 3.5f : 1.5f);
    }
    dl->PopClipRect();

    if (hovered && longest > 0) {
        const float mx = ImGui::GetIO().MousePos.x;
        const int i = plot_index_at(mx, a.x, b.x - a.x, longest);
        if (i >= 0) {
            const float x = longest == 1 ? (a.x + b.x) * 0.5f : a.x + (b.x - a.x) * static_cast<float>(i) / static_cast<float>(longest - 1);
            dl->AddLine({x, a.y}, {x, b.y}, ImGui::GetColorU32(ImGuiCol_Text, 0.5f));
            ImGui::BeginTooltip();
            ImGui::Text("%s %.0f", o.x_label ? o.x_label : widget_text().index, i * o.x_scale);
            for (const PlotSeries& s : series) {
                if (i >= s.n || !s.ys) continue;
                const float v = s.ys[i];
                const float y = b.y - (b.y - a.y) * (v - r.lo) / (r.hi - r.lo);
                if (std::isfinite(v)) dl->AddCircle({x, y}, 4.0f, s.colour);
                ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(s.colour), "%s: %s", s.label ? s.label : widget_text().value,
                                   fmt(o.value_format, v, o.unit).c_str());
            }
            ImGui::EndTooltip();
        }
    }
    ImGui::PopID();
}

void draw_history_plot(const char* id, const std::vector<float>& ms_per_run, ImVec2 size,
                       const std::vector<bool>* passed, const char* label) {
    if (ms_per_run.empty()) {
        ImGui::TextDisabled("%s", widget_text().no_runs);
        return;
    }
    PlotOptions o;
    o.label = label;
    o.x_label = widget_text().run;
    o.unit = "ms";
    o.markers = true;
    o.include_zero = true;
    const ImVec2 p0 = ImGui::GetCursorScreenPos();
    draw_line_plot(id, ms_per_run.data(), static_cast<int>(ms_per_run.size()), size, o);
    const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    (void)p0;
    // Failed runs: a red ring on their point. The plot area is recomputed the
    // way draw_line_plot lays it out (labels on the left, axis text below).
    if (passed) {
        std::vector<PlotSeries> s{{ms_per_run.data(), static_cast<int>(ms_per_run.size()), 0, nullptr}};
        const PlotRange r = plot_range(s, true);
        const float lh = ImGui::GetTextLineHeight();
        const std::string hi_label = fmt(o.value_format, r.hi, o.unit), lo_label = fmt(o.value_format, r.lo, o.unit);
        const float margin = std::max(ImGui::CalcTextSize(hi_label.c_str()).x, ImGui::CalcTextSize(lo_label.c_str()).x) + 6;
        const ImVec2 pa{a.x + margin, a.y + 2}, pb{b.x - 2, b.y - lh - 4};
        const int n = static_cast<int>(ms_per_run.size());
        for (int i = 0; i < n && i < static_cast<int>(passed->size()); ++i) {
            if ((*passed)[static_cast<std::size_t>(i)] || !std::isfinite(ms_per_run[static_cast<std::size_t>(i)])) continue;
            const float x = n == 1 ? (pa.x + pb.x) * 0.5f : pa.x + (pb.x - pa.x) * static_cast<float>(i) / static_cast<float>(n - 1);
            const float y = pb.y - (pb.y - pa.y) * (ms_per_run[static_cast<std::size_t>(i)] - r.lo) / (r.hi - r.lo);
            ImGui::GetWindowDrawList()->AddCircle({x, y}, 5.0f, palette::kFailedRun.u32(), 0, 2.0f);
        }
    }
}

}  // namespace wb::app
