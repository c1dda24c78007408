// app/panels/lesson_overview.cpp — the main panel: the selected lesson's
// title and summary, a tab per step, and for the current step its
// instructions beside its starter code.
//
// Instructions are shown as plain wrapped text for now; Markdown rendering
// replaces draw_wrapped() later. The code view is a read-only multiline input
// so the student can already select and copy; it becomes the editor.
#include "panels/panels.hpp"

#include "app_state.hpp"
#include "fonts.hpp"
#include "ui_text.hpp"

#include <imgui_stdlib.h>

#include <string>

namespace wb::app {
namespace {

const ImVec4 kErrorColour(1.0f, 0.4f, 0.4f, 1.0f);

// TextUnformatted with wrapping: unlike TextWrapped it has no length limit
// (TextWrapped formats through a 3 KB buffer and would cut long instructions).
void draw_wrapped(const std::string& text) {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted(text.data(), text.data() + text.size());
    ImGui::PopTextWrapPos();
}

void draw_issues(const LessonEntry& entry, const std::string& lang) {
    ImGui::PushStyleColor(ImGuiCol_Text, kErrorColour);
    draw_wrapped(tr(UiText::LessonFailedToLoad, lang));
    ImGui::Spacing();
    for (const LessonIssue& issue : entry.issues) draw_wrapped(issue.to_string());
    ImGui::PopStyleColor();
}

void draw_step(AppState& state, const Fonts& fonts, const Step& step) {
    const std::string& lang = state.lang;
    const ImGuiStyle& style = ImGui::GetStyle();
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float instructions_width = (avail.x - style.ItemSpacing.x) * 0.45f;

    if (ImGui::BeginChild("instructions", ImVec2(instructions_width, avail.y), true)) {
        ImGui::PushFont(fonts.heading);
        draw_wrapped(step.title.get(lang));
        ImGui::PopFont();
        ImGui::Separator();
        draw_wrapped(step.instructions.get(lang));
    }
    ImGui::EndChild();
    ImGui::SameLine();
    if (ImGui::BeginChild("code_panel", ImVec2(0.0f, avail.y), true)) {
        ImGui::TextDisabled("%s  %s  (%s)", tr(UiText::StarterCode, lang), state.code_origin.c_str(),
                            tr(UiText::ReadOnlyForNow, lang));
        ImGui::PushFont(fonts.code);
        ImGui::InputTextMultiline("##code", &state.code, ImVec2(-1.0f, -1.0f),
                                  ImGuiInputTextFlags_ReadOnly | ImGuiInputTextFlags_AllowTabInput);
        ImGui::PopFont();
    }
    ImGui::EndChild();
}

}  // namespace

void draw_lesson_overview(AppState& state, const Fonts& fonts, const PanelRect& rect) {
    PanelWindow window("###lesson_overview", rect);
    if (!window.visible()) return;
    const LessonEntry* entry = selected_entry(state);
    if (entry == nullptr) {
        draw_wrapped(tr(UiText::NoLessons, state.lang));
        return;
    }
    if (!entry->ok()) {
        ImGui::PushFont(fonts.heading);
        draw_wrapped(entry->file.filename().string());
        ImGui::PopFont();
        ImGui::Separator();
        draw_issues(*entry, state.lang);
        return;
    }

    const Lesson& lesson = *entry->lesson;
    ImGui::PushFont(fonts.heading);
    draw_wrapped(lesson.title.get(state.lang));
    ImGui::PopFont();
    if (!lesson.summary.empty()) draw_wrapped(lesson.summary.get(state.lang));
    ImGui::Spacing();
    if (lesson.steps.empty()) {
        draw_wrapped(tr(UiText::NoSteps, state.lang));
        return;
    }

    // The tab bar is the source of truth for the current step: whichever tab
    // ImGui shows selected, the state follows. Keyed by lesson file so each
    // lesson keeps its own open tab.
    ImGui::PushID(entry->file.string().c_str());
    if (ImGui::BeginTabBar("steps")) {
        for (int i = 0; i < static_cast<int>(lesson.steps.size()); ++i) {
            const Step& step = lesson.steps[static_cast<std::size_t>(i)];
            // The visible label changes with the language; the id after ### does not.
            std::string label = std::to_string(i + 1) + ". " + step.title.get(state.lang) + "###" + step.id;
            if (ImGui::BeginTabItem(label.c_str())) {
                if (state.selected_step != i) select_step(state, i);
                ImGui::EndTabItem();
            }
        }
        ImGui::EndTabBar();
    }
    ImGui::PopID();
    if (const Step* step = selected_step(state)) draw_step(state, fonts, *step);
}

}  // namespace wb::app
