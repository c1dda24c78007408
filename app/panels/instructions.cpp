// app/panels/instructions.cpp — the current step's title, instructions and hints.
//
// Instructions and hints are Markdown, drawn by app/widgets/markdown.hpp.
// Links open nowhere yet (MarkdownCallbacks' default): leaving the app is a
// decision for later.
#include "panels/panels.hpp"

#include "app_state.hpp"
#include "fonts.hpp"
#include "ui_text.hpp"
#include "widgets/markdown.hpp"

#include <string>

namespace wb::app {
namespace {

// TextUnformatted with wrapping: unlike TextWrapped it has no length limit.
void draw_wrapped(const std::string& text) {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted(text.data(), text.data() + text.size());
    ImGui::PopTextWrapPos();
}

}  // namespace

void draw_instructions(AppState& state, const Fonts& fonts, const PanelRect& rect) {
    PanelWindow window("###instructions", rect);
    if (!window.visible()) return;
    const LessonEntry* entry = selected_entry(state);
    if (entry == nullptr) {
        draw_wrapped(tr(UiText::NoLessons, state.lang));
        return;
    }
    if (!entry->ok()) {
        ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.4f, 0.4f, 1.0f));
        draw_wrapped(tr(UiText::LessonFailedToLoad, state.lang));
        for (const LessonIssue& issue : entry->issues) draw_wrapped(issue.to_string());
        ImGui::PopStyleColor();
        return;
    }
    const Step* step = selected_step(state);
    if (step == nullptr) {
        draw_wrapped(tr(UiText::NoSteps, state.lang));
        return;
    }
    // The step's Markdown usually opens with its own heading; the lesson and
    // step titles stay small above it so the page does not say it twice.
    const std::string heading = entry->lesson->title.get(state.lang) + " / " + step->title.get(state.lang);
    ImGui::TextDisabled("%s", heading.c_str());
    record_drawn_text(state.drawn.texts, heading);
    ImGui::Separator();
    // No bold face is loaded (fonts.hpp); the widget falls back to the regular one.
    const MarkdownFonts md_fonts{fonts.ui, nullptr, fonts.heading, fonts.code};
    draw_markdown(step->instructions.get(state.lang), md_fonts);
    for (std::size_t i = 0; i < step->hints.size(); ++i) {
        const std::string label = "Hint " + std::to_string(i + 1) + "##hint" + std::to_string(i);
        if (ImGui::CollapsingHeader(label.c_str())) draw_markdown(step->hints[i].get(state.lang), md_fonts);
    }
}

}  // namespace wb::app
