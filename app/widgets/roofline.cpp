// app/widgets/roofline.cpp — the roofline chart (roofline.hpp).
#include "palette.hpp"
#include "widgets/draw_text.hpp"
#include "widgets/roofline.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace wb::app {

LogAxes roofline_axes(const RooflineRoofs& roofs, const std::vector<RooflineMark>& points) {
    double xlo = 1e300, xhi = -1e300, ylo = 1e300, yhi = -1e300;
    auto take = [&](double x, double y) {
        if (!(x > 0) || !(y > 0)) return;
        xlo = std::min(xlo, std::log10(x));
        xhi = std::max(xhi, std::log10(x));
        ylo = std::min(ylo, std::log10(y));
        yhi = std::max(yhi, std::log10(y));
    };
    if (roofs.bandwidth_gbs > 0 && roofs.peak_gflops > 0)
        take(roofs.peak_gflops / roofs.bandwidth_gbs, roofs.peak_gflops);  // the ridge
    for (const RooflineMark& p : points) take(p.intensity, p.gflops);
    if (xlo > xhi) return {};
    LogAxes a;
    a.x0 = std::floor(xlo - 1);
    a.x1 = std::ceil(xhi + 1);
    // The slope's foot at the left edge, when it is above the lowest point.
    if (roofs.bandwidth_gbs > 0) ylo = std::min(ylo, std::log10(roofs.bandwidth_gbs) + a.x0);
    a.y0 = std::floor(ylo - 0.5);
    a.y1 = std::ceil(yhi + 0.3);
    if (a.y1 - a.y0 < 2) a.y0 = a.y1 - 2;
    return a;
}

namespace {

std::string decade(double e) {
    char buf[32];
    const double v = std::pow(10.0, e);
    if (e >= 0 && e < 6) std::snprintf(buf, sizeof buf, "%.0f", v);
    else if (e < 0 && e > -4) std::snprintf(buf, sizeof buf, "%.*f", int(-e), v);
    else std::snprintf(buf, sizeof buf, "1e%d", int(e));
    return buf;
}

}  // namespace

void draw_roofline(const char* id, const RooflineRoofs& roofs, const std::vector<RooflineMark>& points, ImVec2 size) {
    if (size.x <= 0) size.x = ImGui::GetContentRegionAvail().x;
    const LogAxes ax = roofline_axes(roofs, points);
    ImGui::PushID(id);
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    ImGui::InvisibleButton("##roofline", size);
    const bool hovered = ImGui::IsItemHovered();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float pad_l = ImGui::CalcTextSize("100000").x + 6, pad_b = ImGui::GetTextLineHeight() + 4;
    const ImVec2 a(origin.x + pad_l, origin.y + 4), b(origin.x + size.x - 4, origin.y + size.y - pad_b);
    const ImU32 text = ImGui::GetColorU32(ImGuiCol_TextDisabled), grid = ImGui::GetColorU32(ImGuiCol_Border);
    dl->AddRectFilled(a, b, ImGui::GetColorU32(ImGuiCol_FrameBg));
    const auto sx = [&](double lx) { return float(a.x + (b.x - a.x) * (lx - ax.x0) / (ax.x1 - ax.x0)); };
    const auto sy = [&](double ly) { return float(b.y - (b.y - a.y) * (ly - ax.y0) / (ax.y1 - ax.y0)); };

    // Decades, labelled on both axes.
    for (double e = ax.x0; e <= ax.x1 + 1e-9; e += 1) {
        dl->AddLine(ImVec2(sx(e), a.y), ImVec2(sx(e), b.y), grid);
        const std::string t = decade(e);
        draw_text(dl, ImVec2(sx(e) - ImGui::CalcTextSize(t.c_str()).x / 2, b.y + 2), text, t.c_str());
    }
    for (double e = ax.y0; e <= ax.y1 + 1e-9; e += 1) {
        dl->AddLine(ImVec2(a.x, sy(e)), ImVec2(b.x, sy(e)), grid);
        const std::string t = decade(e);
        draw_text(dl, ImVec2(a.x - ImGui::CalcTextSize(t.c_str()).x - 3, sy(e) - ImGui::GetTextLineHeight() / 2), text, t.c_str());
    }

    // The axes' units, inside the chart's corners where no roof passes.
    draw_text(dl, ImVec2(a.x + 4, a.y + 2), text, "GFLOP/s");
    const char* x_unit = "FLOP/byte";
    draw_text(dl, ImVec2(b.x - ImGui::CalcTextSize(x_unit).x - 4, b.y - ImGui::GetTextLineHeight() - 2), text, x_unit);

    dl->PushClipRect(a, b, true);
    if (roofs.bandwidth_gbs > 0 && roofs.peak_gflops > 0) {
        const double ridge = std::log10(roofs.peak_gflops / roofs.bandwidth_gbs), lbw = std::log10(roofs.bandwidth_gbs),
                     lpk = std::log10(roofs.peak_gflops);
        const ImU32 roof = palette::kRoof.u32();
        const ImVec2 foot(sx(ax.x0), sy(lbw + ax.x0)), knee(sx(ridge), sy(lpk)), end(sx(ax.x1), sy(lpk));
        dl->AddLine(foot, knee, roof, 2.0f);
        dl->AddLine(knee, end, roof, 2.0f);
        draw_text(dl, ImVec2(knee.x + 4, knee.y - ImGui::GetTextLineHeight() - 2), roof, roofs.peak_label.c_str());
        // The slope's label sits on its lower half, where the chart is empty.
        const double lx = ax.x0 + (ridge - ax.x0) * 0.25;
        draw_text(dl, ImVec2(sx(lx) + 4, sy(lbw + lx) - ImGui::GetTextLineHeight() - 2), roof, roofs.bandwidth_label.c_str());
    }
    if (roofs.reference_gflops > 0) {
        const float y = sy(std::log10(roofs.reference_gflops));
        const ImU32 c = palette::kReferenceLine.u32();
        for (float x = a.x; x < b.x; x += 10) dl->AddLine(ImVec2(x, y), ImVec2(std::min(x + 5, b.x), y), c, 1.5f);
        draw_text(dl, ImVec2(b.x - ImGui::CalcTextSize(roofs.reference_label.c_str()).x - 4, y + 2), c,
                    roofs.reference_label.c_str());
    }
    const RooflineMark* under = nullptr;
    float best = 1e30f;
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    for (const RooflineMark& p : points) {
        if (!(p.intensity > 0) || !(p.gflops > 0)) continue;
        const ImVec2 c(sx(std::log10(p.intensity)), sy(std::log10(p.gflops)));
        const ImU32 col = p.latest ? palette::kLatestRun.u32() : palette::kEarlierRun.u32();
        if (p.latest) dl->AddCircleFilled(c, 6, col);
        else dl->AddCircle(c, 4, col, 0, 1.5f);
        if (!p.passed) dl->AddCircle(c, 8, palette::kFailedRun.u32(), 0, 2.0f);
        const float d = (c.x - mouse.x) * (c.x - mouse.x) + (c.y - mouse.y) * (c.y - mouse.y);
        if (hovered && d < 100 && d < best) {
            best = d;
            under = &p;
        }
    }
    dl->PopClipRect();
    if (under) ImGui::SetTooltip("%s", under->label.c_str());
    ImGui::PopID();
}

}  // namespace wb::app
