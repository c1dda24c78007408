// app/panels/status_bar.cpp — one line along the bottom of the window: what
// the worker is doing (with a spinner), the last result, and where the
// lessons came from.
#include "panels/panels.hpp"

#include "app_state.hpp"
#include "palette.hpp"
#include "trust.hpp"
#include "ui_text.hpp"

#include <cstdio>
#include <string>

namespace wb::app {

void draw_status_bar(AppState& state, const PanelRect& rect) {
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding,
                        ImVec2(ImGui::GetStyle().WindowPadding.x, ImGui::GetStyle().FramePadding.y));
    PanelWindow window("###status_bar", rect, ImGuiWindowFlags_NoScrollbar);
    ImGui::PopStyleVar();
    if (!window.visible()) return;
    const std::string& lang = state.lang;
    if (!state.job_text.empty()) {
        ImGui::TextColored(palette::kCaution.vec4(), "%c %s...",
                           spinner_char(state.now), tr(state.job_text == "compiling" ? UiText::Compiling : UiText::Running, lang));
    } else if (state.last_run) {
        ImGui::Text("%s", run_status_label(state.last_run->status, lang).c_str());
    } else {
        ImGui::TextDisabled("-");
    }
    ImGui::SameLine();
    ImGui::TextDisabled("|");
    ImGui::SameLine();
    // An untrusted lesson: say so where it is always visible, with the way to trust it.
    if (!state.trust.trusted) {
        ImGui::TextColored(palette::kUntrusted.vec4(), "%s", tr(UiText::NotTrustedStatus, lang));
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", untrusted_reason(state).c_str());
        ImGui::SameLine();
        if (ImGui::SmallButton((std::string(tr(UiText::TrustAgain, lang)) + "###trust_again").c_str())) state.trust.prompt_open = true;
        ImGui::SameLine();
        ImGui::TextDisabled("|");
        ImGui::SameLine();
    }
    // A save that failed: said until one succeeds (autosave retries; app_state.hpp).
    if (!state.save_error.empty()) {
        char line[1024];
        std::snprintf(line, sizeof line, tr(UiText::SaveFailed, lang), state.save_error.c_str());
        ImGui::TextColored(palette::kFail.vec4(), "%s", line);
        record_drawn_text(state.drawn.texts, line);
        ImGui::SameLine();
        ImGui::TextDisabled("|");
        ImGui::SameLine();
    }
    int broken = 0;
    for (const LessonEntry& entry : state.lessons) broken += entry.ok() && !entry.broken() ? 0 : 1;
    ImGui::Text("%s: %s (%s)", tr(UiText::LessonsFolder, lang), state.folder.dir.string().c_str(),
                state.folder.found_by.c_str());
    ImGui::SameLine();
    ImGui::Text("%d %s", static_cast<int>(state.lessons.size()), tr(UiText::LessonCount, lang));
    if (broken > 0) {
        ImGui::SameLine();
        ImGui::TextColored(palette::kFail.vec4(), "%d %s", broken, tr(UiText::WithProblems, lang));
    }
}

}  // namespace wb::app
