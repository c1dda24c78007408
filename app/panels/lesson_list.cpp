// app/panels/lesson_list.cpp — the lessons on the left, in file order. A
// lesson that failed to load is listed by file name in red, so the instructor
// sees it is there and broken.
#include "panels/panels.hpp"

#include "app_state.hpp"
#include "ui_text.hpp"

#include <string>

namespace wb::app {

void draw_lesson_list(AppState& state, const PanelRect& rect) {
    PanelWindow window("###lesson_list", rect);
    if (!window.visible()) return;
    ImGui::TextDisabled("%s", tr(UiText::Lessons, state.lang));
    ImGui::Separator();
    if (state.lessons.empty()) {
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextUnformatted(tr(UiText::NoLessons, state.lang));
        ImGui::PopTextWrapPos();
        return;
    }
    for (int i = 0; i < static_cast<int>(state.lessons.size()); ++i) {
        const LessonEntry& entry = state.lessons[static_cast<std::size_t>(i)];
        std::string label = entry.ok() ? entry.lesson->title.get(state.lang) : entry.file.filename().string();
        if (label.empty()) label = entry.id();
        label += "##" + entry.file.filename().string();
        if (!entry.ok()) ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.4f, 0.4f, 1.0f));
        if (ImGui::Selectable(label.c_str(), i == state.selected_lesson) && i != state.selected_lesson)
            select_lesson(state, i);
        if (!entry.ok()) ImGui::PopStyleColor();
    }
}

}  // namespace wb::app
