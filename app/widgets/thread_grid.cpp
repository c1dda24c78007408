// app/widgets/thread_grid.cpp — the grid of a block's threads (thread_grid.hpp).
#include "widgets/thread_grid.hpp"

#include <algorithm>
#include <cmath>

namespace wb::app {

float thread_grid_alpha(float share) { return share <= 0 ? 0.0f : 0.35f + 0.65f * std::min(1.0f, share); }

int draw_thread_grid(const char* id, const std::vector<ThreadGridCell>& cells, int columns, const ThreadGridStyle& style,
                     float width) {
    if (columns <= 0 || cells.empty()) return -1;
    if (width <= 0) width = ImGui::GetContentRegionAvail().x;
    const int rows = (static_cast<int>(cells.size()) + columns - 1) / columns;
    const float cell = std::clamp(std::floor(width / float(columns)), 6.0f, 28.0f);
    ImGui::PushID(id);
    const ImVec2 o = ImGui::GetCursorScreenPos();
    ImGui::InvisibleButton("##grid", ImVec2(cell * float(columns), cell * float(rows)));
    const bool hovered = ImGui::IsItemHovered();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImU32 empty = ImGui::GetColorU32(ImGuiCol_FrameBg), border = ImGui::GetColorU32(ImGuiCol_Border);
    const float half = cell * 0.5f;
    for (std::size_t i = 0; i < cells.size(); ++i) {
        const ImVec2 a(o.x + float(i % std::size_t(columns)) * cell, o.y + float(i / std::size_t(columns)) * cell);
        dl->AddRectFilled(ImVec2(a.x + 1, a.y + 1), ImVec2(a.x + cell - 1, a.y + cell - 1), empty);
        for (int p = 0; p < 4; ++p) {
            const float alpha = thread_grid_alpha(cells[i].parts[std::size_t(p)]);
            if (alpha <= 0) continue;
            ImVec4 c = ImGui::ColorConvertU32ToFloat4(style.parts[std::size_t(p)]);
            c.w *= alpha;
            const ImVec2 pa(a.x + 1 + (p % 2) * (half - 1), a.y + 1 + (p / 2) * (half - 1));
            dl->AddRectFilled(pa, ImVec2(pa.x + half - 1, pa.y + half - 1), ImGui::ColorConvertFloat4ToU32(c));
        }
        if (cells[i].outlined) dl->AddRect(a, ImVec2(a.x + cell, a.y + cell), style.outline, 0.0f, 0, 1.5f);
        else dl->AddRect(ImVec2(a.x + 1, a.y + 1), ImVec2(a.x + cell - 1, a.y + cell - 1), border);
    }
    int under = -1;
    if (hovered) {
        const ImVec2 m = ImGui::GetIO().MousePos;
        const int c = static_cast<int>((m.x - o.x) / cell), r = static_cast<int>((m.y - o.y) / cell);
        if (c >= 0 && c < columns && r >= 0 && std::size_t(r * columns + c) < cells.size()) under = r * columns + c;
    }
    ImGui::PopID();
    return under;
}

}  // namespace wb::app
