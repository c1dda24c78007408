// app/panels/lesson_list.cpp — lessons on the left, in file order, each with
// its steps done out of its steps ("1/3"); a step is done when every case passed with one text
// (runtime/lesson/progress.hpp), and until then shows the cases its current text passed
// ("1/4 cases"); the open step is highlighted. The list collapses to a
// narrow strip ("<<" in its header, or Ctrl+Shift+L) that shows the open
// lesson's progress and a ">>" to bring it back. A lesson that failed to
// load is listed by file name in red with its first problem under it, so the
// instructor sees it is there and broken; one whose file broke after it loaded
// is marked "(!)" (the banner over the editor lists why).
#include "panels/panels.hpp"

#include "app_state.hpp"
#include "palette.hpp"
#include "ui_text.hpp"

#include <cstdio>
#include <string>

namespace wb::app {

namespace {

int steps_done(const AppState& state, const LessonEntry& entry) {
    int n = 0;
    for (const Step& step : entry.lesson->steps) n += state.done_steps.count(entry.id() + "/" + step.id) > 0;
    return n;
}

// The collapsed strip: a button to bring the list back, and the open lesson's progress.
void draw_strip(AppState& state) {
    if (ImGui::SmallButton(">>")) set_lessons_collapsed(state, false);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr(UiText::ShowLessons, state.lang));
    if (const LessonEntry* entry = selected_entry(state); entry && entry->ok()) {
        const std::string progress = std::to_string(steps_done(state, *entry)) + "/" +
                                     std::to_string(entry->lesson->steps.size());
        ImGui::TextDisabled("%s", progress.c_str());
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", entry->lesson->title.get(state.lang).c_str());
    }
}

}  // namespace

void draw_lesson_list(AppState& state, const PanelRect& rect) {
    PanelWindow window("###lesson_list", rect);
    if (!window.visible()) return;
    if (state.layout.lessons_collapsed) {
        draw_strip(state);
        return;
    }
    ImGui::TextDisabled("%s", tr(UiText::Lessons, state.lang));
    ImGui::SameLine(ImGui::GetContentRegionMax().x - ImGui::CalcTextSize("<<").x - ImGui::GetStyle().FramePadding.x * 2);
    if (ImGui::SmallButton("<<")) set_lessons_collapsed(state, true);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr(UiText::HideLessons, state.lang));
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
        if (entry.ok())
            label += "  " + std::to_string(steps_done(state, entry)) + "/" + std::to_string(entry.lesson->steps.size());
        if (entry.ok() && entry.broken()) label = "(!) " + label;
        label += "###" + entry.file.filename().string();
        if (!entry.ok()) {
            ImGui::PushStyleColor(ImGuiCol_Text, palette::kFail.vec4());
            if (ImGui::Selectable(label.c_str(), i == state.selected_lesson) && i != state.selected_lesson)
                select_lesson(state, i);
            if (ImGui::IsItemHovered() && !entry.issues.empty()) {
                std::string all;
                for (const LessonIssue& issue : entry.issues) all += (all.empty() ? "" : "\n") + issue.to_string();
                ImGui::SetTooltip("%s", all.c_str());
            }
            // Its first problem under the name, so a broken lesson is never just missing.
            if (!entry.issues.empty()) {
                const LessonIssue& first = entry.issues.front();
                std::string why = first.line > 0 ? "line " + std::to_string(first.line) + ": " : std::string();
                if (!first.json_path.empty()) why += first.json_path + ": ";
                why += first.message;
                ImGui::Indent();
                ImGui::PushTextWrapPos(0.0f);
                ImGui::TextUnformatted(why.c_str());
                ImGui::PopTextWrapPos();
                record_drawn_text(state.drawn.texts, entry.file.filename().string() + ": " + why);
                ImGui::Unindent();
            }
            ImGui::PopStyleColor();
            continue;
        }
        // The selected lesson is open; others open on click without changing the selection.
        if (i == state.selected_lesson) ImGui::SetNextItemOpen(true, ImGuiCond_Appearing);
        const bool open = ImGui::TreeNodeEx(label.c_str(), i == state.selected_lesson ? ImGuiTreeNodeFlags_Selected : 0);
        if (!open) continue;
        const auto& steps = entry.lesson->steps;
        for (int s = 0; s < static_cast<int>(steps.size()); ++s) {
            const Step& step = steps[static_cast<std::size_t>(s)];
            const std::string key = entry.id() + "/" + step.id;
            const bool done = state.done_steps.count(key) > 0;
            std::string step_label = std::to_string(s + 1) + ". " + step.title.get(state.lang);
            if (done) {
                step_label += std::string("  (") + tr(UiText::Done, state.lang) + ")";
            } else if (const auto t = state.tallies.find(key); t != state.tallies.end()) {
                // Cases passed so far by the current text: progress, never "done" before all pass.
                char cases[64];
                std::snprintf(cases, sizeof cases, tr(UiText::CasesPassed, state.lang), t->second.passed_of(step),
                              static_cast<int>(cases_to_pass(step, t->second.emulated).size()));
                step_label += std::string("  (") + cases + ")";
                record_drawn_text(state.drawn.texts, step_label.substr(0, step_label.find("###")));
            }
            step_label += "###" + step.id;
            const bool selected = i == state.selected_lesson && s == state.selected_step;
            if (done) ImGui::PushStyleColor(ImGuiCol_Text, palette::kPass.vec4());
            // Each select saves the text being left first, and stays put when it cannot.
            if (ImGui::Selectable(step_label.c_str(), selected) && !selected)
                if (i == state.selected_lesson || select_lesson(state, i)) select_step(state, s);
            if (done) ImGui::PopStyleColor();
        }
        ImGui::TreePop();
    }
}

}  // namespace wb::app
