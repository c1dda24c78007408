// app/panels/lesson_issues.cpp — the banner over the editor when the open
// lesson's file does not load: what is wrong, each issue as
// "file:line: json.path: message", in red, until a reload succeeds
// (lesson_reload.hpp). While it shows, the last version that loaded is still
// open below it, so the student carries on and the instructor sees every
// mistake at once. A lesson that never loaded says so in the same place.
#include "panels/panels.hpp"

#include "app_state.hpp"
#include "palette.hpp"
#include "ui_text.hpp"

#include <algorithm>
#include <cstdio>
#include <string>

namespace wb::app {
namespace {

constexpr std::size_t kMaxLinesTall = 6;  // issues the banner grows for; more scroll

const LessonEntry* broken_entry(const AppState& state) {
    const LessonEntry* entry = selected_entry(state);
    return entry && entry->broken() ? entry : nullptr;
}

}  // namespace

float lesson_issues_height(const AppState& state) {
    const LessonEntry* entry = broken_entry(state);
    if (entry == nullptr) return 0.0f;
    const std::size_t lines = 1 + std::min(entry->issues.size(), kMaxLinesTall);
    const ImGuiStyle& style = ImGui::GetStyle();
    return static_cast<float>(lines) * ImGui::GetTextLineHeightWithSpacing() + 2 * style.WindowPadding.y;
}

void draw_lesson_issues(AppState& state, const PanelRect& rect) {
    const LessonEntry* entry = broken_entry(state);
    if (entry == nullptr) return;
    ImGui::PushStyleColor(ImGuiCol_WindowBg, palette::kBannerBackground.vec4());
    PanelWindow window("###lesson_issues", rect);
    ImGui::PopStyleColor();
    if (!window.visible()) return;
    ImGui::PushStyleColor(ImGuiCol_Text, palette::kBannerText.vec4());
    const std::string header = entry->ok() ? tr(UiText::LessonFileHasErrors, state.lang)
                                           : tr(UiText::LessonFailedToLoad, state.lang);
    char count[64];
    std::snprintf(count, sizeof count, tr(UiText::LessonIssuesMore, state.lang), entry->issues.size());
    const std::string line = header + " (" + count + ")";
    ImGui::TextUnformatted(line.c_str());
    record_drawn_text(state.drawn.texts, line);
    ImGui::PushTextWrapPos(0.0f);
    for (const LessonIssue& issue : entry->issues) {
        const std::string text = issue.to_string();
        ImGui::TextUnformatted(text.c_str());
        record_drawn_text(state.drawn.texts, text);
    }
    ImGui::PopTextWrapPos();
    ImGui::PopStyleColor();
}

}  // namespace wb::app
