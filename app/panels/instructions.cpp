// app/panels/instructions.cpp — the current step's title, instructions and hints.
//
// Instructions and hints are Markdown, drawn by app/widgets/markdown.hpp.
// They sit in their column, or in a window of their own that the student
// moves and sizes (Pop out; closing it docks them back).
// Links open nowhere yet (MarkdownCallbacks' default): leaving the app is a
// decision for later.
#include "palette.hpp"
#include "panels/panels.hpp"
#include "widgets/draw_text.hpp"

#include "app_state.hpp"
#include "fonts.hpp"
#include "ui_text.hpp"
#include "widgets/markdown.hpp"

#include <algorithm>
#include <cfloat>
#include <cstdio>
#include <string>

namespace wb::app {
namespace {

// TextUnformatted with wrapping: unlike TextWrapped it has no length limit.
void draw_wrapped(const std::string& text) {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted(text.data(), text.data() + text.size());
    ImGui::PopTextWrapPos();
}

// The button at the heading's right that moves the instructions between
// their column and a window of their own.
std::string place_label(const AppState& state, bool popped) {
    return std::string(tr(popped ? UiText::DockBack : UiText::PopOut, state.lang)) + "###place";
}

float place_button_width(const AppState& state, bool popped) {
    return ImGui::CalcTextSize(place_label(state, popped).c_str(), nullptr, true).x + 2 * ImGui::GetStyle().FramePadding.x;
}

void place_button(AppState& state, bool popped) {
    const std::string label = place_label(state, popped);
    ImGui::SameLine(std::max(ImGui::GetCursorPosX(), ImGui::GetWindowContentRegionMax().x - place_button_width(state, popped)));
    if (ImGui::SmallButton(label.c_str())) set_instructions_popped(state, !popped);
}

void draw_contents(AppState& state, const Fonts& fonts, bool popped) {
    const LessonEntry* entry = selected_entry(state);
    if (entry == nullptr) {
        draw_wrapped(tr(UiText::NoLessons, state.lang));
        return;
    }
    if (!entry->ok()) {
        ImGui::PushStyleColor(ImGuiCol_Text, palette::kFail.vec4());
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
    // Clipped short of the button at the right, which must stay readable.
    const ImVec2 at = ImGui::GetCursorScreenPos();
    const float right = at.x + ImGui::GetContentRegionAvail().x - place_button_width(state, popped) - ImGui::GetStyle().ItemSpacing.x;
    ImGui::PushClipRect(at, ImVec2(right, at.y + ImGui::GetFrameHeight()), true);
    ImGui::TextDisabled("%s", heading.c_str());
    ImGui::PopClipRect();
    record_drawn_text(state.drawn.texts, heading);
    place_button(state, popped);
    ImGui::Separator();
    // No bold face is loaded (fonts.hpp); the widget falls back to the regular one.
    const MarkdownFonts md_fonts{fonts.ui, nullptr, fonts.heading, fonts.code};
    // How many lines of body text fit below the titles (the 1366x768 test reads it).
    state.drawn.instructions_lines =
        static_cast<int>(ImGui::GetContentRegionAvail().y / ImGui::GetTextLineHeightWithSpacing());
    {
        const TextRecordPause lesson_text;  // linted on its own (tests/app/lesson_text_lint_test.cpp)
        draw_markdown(step->instructions.get(state.lang), md_fonts);
    }
    for (std::size_t i = 0; i < step->hints.size(); ++i) {
        char label[64];
        std::snprintf(label, sizeof label, tr(UiText::HintN, state.lang), static_cast<int>(i + 1));
        const std::string id = std::string(label) + "###hint" + std::to_string(i);
        if (ImGui::CollapsingHeader(id.c_str())) {
            const TextRecordPause lesson_text;
            draw_markdown(step->hints[i].get(state.lang), md_fonts);
        }
    }
}

}  // namespace

void draw_instructions(AppState& state, const Fonts& fonts, const PanelRect& rect) {
    if (!state.layout.instructions_popped) {
        PanelWindow window("###instructions", rect);
        if (window.visible()) draw_contents(state, fonts, false);
        return;
    }
    // A window the student moves and sizes (ImGui keeps its place in
    // imgui.ini). It first opens over the right of the editor, above the
    // results, a readable column wide; closing it puts the instructions back
    // in their column. It never covers the results' verdict: a window moved
    // or sized over it is put back above it (or below, where above has no
    // room) on the next frame.
    const ImGuiViewport* viewport = ImGui::GetMainViewport();
    const float top = viewport->WorkPos.y, bottom = viewport->WorkPos.y + viewport->WorkSize.y;
    const float min_h = 160.0f * state.ui_scale;
    const PanelRect& results = state.drawn.layout.results;
    const float width = std::min(620.0f * state.ui_scale, viewport->WorkSize.x * 0.6f);
    const float first_h = results.size.y > 0 ? std::max(min_h, results.pos.y - top) : viewport->WorkSize.y * 0.6f;
    ImGui::SetNextWindowPos(ImVec2(results.pos.x + std::max(0.0f, results.size.x - width), top), ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowSize(ImVec2(width, first_h), ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowSizeConstraints(ImVec2(260.0f * state.ui_scale, min_h), ImVec2(FLT_MAX, FLT_MAX));
    const PanelRect& band = state.verdict_band;
    const PanelRect& last = state.instructions_window_last;
    const bool covers = band.size.y > 0 && last.size.x > 0 && last.pos.x < band.pos.x + band.size.x &&
                        band.pos.x < last.pos.x + last.size.x && last.pos.y < band.pos.y + band.size.y &&
                        band.pos.y < last.pos.y + last.size.y;
    if (state.instructions_window_place.size.x > 0) {  // a script's drag
        ImGui::SetNextWindowPos(state.instructions_window_place.pos, ImGuiCond_Always);
        ImGui::SetNextWindowSize(state.instructions_window_place.size, ImGuiCond_Always);
        state.instructions_window_place = {};
    } else if (covers) {
        const bool above = band.pos.y - top >= min_h;
        const float room = above ? band.pos.y - top : bottom - (band.pos.y + band.size.y);
        const float h = std::clamp(last.size.y, std::min(min_h, room), std::max(room, 1.0f));
        const float y = above ? std::clamp(last.pos.y, top, band.pos.y - h) : band.pos.y + band.size.y;
        ImGui::SetNextWindowPos(ImVec2(last.pos.x, y), ImGuiCond_Always);
        ImGui::SetNextWindowSize(ImVec2(last.size.x, h), ImGuiCond_Always);
    }
    bool open = true;
    const std::string title = std::string(tr(UiText::Instructions, state.lang)) + "###instructions_window";
    ImVec4 background = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
    background.w = 1.0f;  // the themes' slight transparency would show the code underneath
    ImGui::PushStyleColor(ImGuiCol_WindowBg, background);
    if (ImGui::Begin(title.c_str(), &open, ImGuiWindowFlags_NoCollapse)) {
        text_record_resume();
        // Popped out for this session only, unless pinned: the next one starts docked.
        bool pinned = state.layout.instructions_pinned;
        if (ImGui::Checkbox(tr(UiText::KeepPoppedOut, state.lang), &pinned))
            state.layout.instructions_pinned = state.layout_committed.instructions_pinned = pinned;
        draw_contents(state, fonts, true);
    }
    state.instructions_window_last = {ImGui::GetWindowPos(), ImGui::GetWindowSize()};
    state.drawn.instructions_window = state.instructions_window_last;
    ImGui::End();
    ImGui::PopStyleColor();
    if (!open) set_instructions_popped(state, false);
}

}  // namespace wb::app
