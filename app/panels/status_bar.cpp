// app/panels/status_bar.cpp — one line along the bottom of the window: where
// the lessons came from and how many loaded. Run status joins it later.
#include "panels/panels.hpp"

#include "app_state.hpp"
#include "ui_text.hpp"

namespace wb::app {

void draw_status_bar(const AppState& state, const PanelRect& rect) {
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding,
                        ImVec2(ImGui::GetStyle().WindowPadding.x, ImGui::GetStyle().FramePadding.y));
    PanelWindow window("###status_bar", rect, ImGuiWindowFlags_NoScrollbar);
    ImGui::PopStyleVar();
    if (!window.visible()) return;
    int broken = 0;
    for (const LessonEntry& entry : state.lessons) broken += entry.ok() ? 0 : 1;
    const std::string& lang = state.lang;
    ImGui::Text("%s: %s (%s)", tr(UiText::LessonsFolder, lang), state.folder.dir.string().c_str(),
                state.folder.found_by.c_str());
    ImGui::SameLine();
    ImGui::TextDisabled("|");
    ImGui::SameLine();
    ImGui::Text("%d %s", static_cast<int>(state.lessons.size()), tr(UiText::LessonCount, lang));
    if (broken > 0) {
        ImGui::SameLine();
        ImGui::TextColored(ImVec4(1.0f, 0.4f, 0.4f, 1.0f), "%d %s", broken, tr(UiText::WithProblems, lang));
    }
    ImGui::SameLine();
    ImGui::TextDisabled("|");
    ImGui::SameLine();
    ImGui::Text("%s: %s", tr(UiText::Language, lang), lang == "zh" ? "中文" : "English");
}

}  // namespace wb::app
