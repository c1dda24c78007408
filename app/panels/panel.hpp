// app/panels/panel.hpp — what every panel shares: its rectangle and the
// Begin/End pair of its ImGui window.
//
// The layout (app_run.cpp) hands each panel a rectangle; the panel draws only
// its contents. PanelWindow owns Begin/End so a panel cannot forget the End on
// an early return.
#pragma once

#include "panel_rect.hpp"
#include "widgets/draw_text.hpp"

#include <imgui.h>

#include <string>
#include <vector>

namespace wb::app {

class PanelWindow {
public:
    // `id` must stay the same across languages: it keys ImGui's window state.
    PanelWindow(const char* id, const PanelRect& rect, ImGuiWindowFlags extra_flags = 0) {
        ImGui::SetNextWindowPos(rect.pos);
        ImGui::SetNextWindowSize(rect.size);
        constexpr ImGuiWindowFlags kFixed = ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoResize |
                                            ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoCollapse |
                                            ImGuiWindowFlags_NoSavedSettings |
                                            ImGuiWindowFlags_NoBringToFrontOnFocus;
        visible_ = ImGui::Begin(id, nullptr, kFixed | extra_flags);
        text_record_resume();
    }
    ~PanelWindow() { ImGui::End(); }
    PanelWindow(const PanelWindow&) = delete;
    PanelWindow& operator=(const PanelWindow&) = delete;

    bool visible() const { return visible_; }

private:
    bool visible_ = false;
};

// The busy indicator's character at time `now` (seconds): | / - \ turning.
inline char spinner_char(double now) { return "|/-\\"[static_cast<int>(now * 8.0) % 4]; }

// Call right after drawing `text` as one item: records it in `drawn` (the
// frame's DrawnFrame::texts) unless ImGui clipped the item away, so scripted
// tests can check what was on screen (script.hpp: expect-drawn-text).
inline void record_drawn_text(std::vector<std::string>& drawn, std::string text) {
    if (ImGui::IsItemVisible()) drawn.push_back(std::move(text));
}

}  // namespace wb::app
