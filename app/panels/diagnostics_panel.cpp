// app/panels/diagnostics_panel.cpp — the latest compile's messages (a click
// moves the editor to the line) and a log of what happened this session.
// The runtime lists at most the first 200 messages of one compile
// (kMaxDiagnostics) and counts the rest: the list then starts with "200
// listed, and N more not shown" (at the top, where it is seen without
// scrolling), and the tab's count is the whole number.
#include "panels/panels.hpp"

#include "app_state.hpp"
#include "palette.hpp"
#include "ui_text.hpp"
#include "widgets/draw_text.hpp"

#include <cstdio>
#include <string>

namespace wb::app {
namespace {

std::string and_more_text(const CompileResult& compile, const std::string& lang) {
    char text[160];
    std::snprintf(text, sizeof text, tr(UiText::AndMoreDiagnostics, lang), compile.diagnostics.size(),
                  compile.diagnostics_omitted);
    return text;
}

}  // namespace

void draw_diagnostics_panel(AppState& state, const PanelRect& rect) {
    PanelWindow window("###diagnostics", rect);
    if (!window.visible()) return;
    if (!ImGui::BeginTabBar("diagnostics_tabs")) return;
    const std::size_t total =
        state.compile ? state.compile->diagnostics.size() + state.compile->diagnostics_omitted : 0;
    const std::string diag_label = std::string(tr(UiText::Diagnostics, state.lang)) +
                                   (total > 0 ? " (" + std::to_string(total) + ")" : std::string()) + "###diag";
    if (ImGui::BeginTabItem(diag_label.c_str())) {
        if (ImGui::BeginChild("diag_list")) {
            if (total == 0) {
                ImGui::TextDisabled("%s", tr(UiText::NoDiagnostics, state.lang));
            } else {
                if (state.compile_revision != state.editor.revision)
                    ImGui::TextDisabled("%s", tr(UiText::DiagnosticsOfEarlierText, state.lang));
                if (state.compile->diagnostics_omitted > 0) {
                    const std::string more = and_more_text(*state.compile, state.lang);
                    ImGui::TextDisabled("%s", more.c_str());
                    record_drawn_text(state.drawn.texts, more);
                }
                int i = 0;
                for (const Diagnostic& d : state.compile->diagnostics) {
                    const ImVec4 colour = d.severity == Severity::Error     ? palette::kFail.vec4()
                                          : d.severity == Severity::Warning ? palette::kCaution.vec4()
                                                                            : palette::kNote.vec4();
                    ImGui::PushStyleColor(ImGuiCol_Text, colour);
                    const std::string text = d.to_string();
                    const std::string label = text + "##d" + std::to_string(i++);
                    {
                        const TextRecordPause compiler_text("compiler text");  // the compiler's words, as it wrote them
                        if (ImGui::Selectable(label.c_str()) && d.line > 0) state.editor.goto_line = d.line;
                    }
                    record_drawn_text(state.drawn.texts, text);
                    ImGui::PopStyleColor();
                }
            }
            // The latest run's compute-sanitizer findings, on the same terms.
            if (state.last_run && !state.last_run->sanitizer_findings.empty()) {
                ImGui::Separator();
                char heading[160];
                std::snprintf(heading, sizeof heading, tr(UiText::SanitizerErrorsHeading, state.lang),
                              state.last_run->sanitizer_errors);
                ImGui::TextDisabled("%s", heading);
                int k = 0;
                for (const SanitizerFinding& f : state.last_run->sanitizer_findings) {
                    ImGui::PushStyleColor(ImGuiCol_Text, f.is_error ? palette::kFail.vec4()
                                                                    : palette::kCaution.vec4());
                    const std::string label = f.to_string() + "##s" + std::to_string(k++);
                    {
                        const TextRecordPause tool_text("compiler text");  // compute-sanitizer's words
                        if (ImGui::Selectable(label.c_str()) && f.line > 0) state.editor.goto_line = f.line;
                    }
                    ImGui::PopStyleColor();
                }
            }
        }
        ImGui::EndChild();
        ImGui::EndTabItem();
    }
    if (ImGui::BeginTabItem((std::string(tr(UiText::Log, state.lang)) + "###log").c_str())) {
        if (ImGui::BeginChild("log_list")) {
            for (const LogLine& line : state.log) {
                if (line.error) ImGui::PushStyleColor(ImGuiCol_Text, palette::kFail.vec4());
                ImGui::PushTextWrapPos(0.0f);
                ImGui::TextUnformatted(line.text.c_str());
                ImGui::PopTextWrapPos();
                if (line.error) ImGui::PopStyleColor();
            }
            // Follow new lines unless the student scrolled up to read.
            if (ImGui::GetScrollY() >= ImGui::GetScrollMaxY() - 1.0f) ImGui::SetScrollHereY(1.0f);
        }
        ImGui::EndChild();
        ImGui::EndTabItem();
    }
    ImGui::EndTabBar();
}

}  // namespace wb::app
