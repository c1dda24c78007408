// app/panels/editor_panel.cpp — the student's kernel: a toolbar (Run, Stop,
// Reset to starter, Show solution, Compare with solution, Open in external
// editor) over the editor, or over a line diff with the solution.
//
// The text itself is drawn by CodeEditor (app/widgets/code_editor.hpp). The
// state's EditorState is the source of truth: draw_code() pushes outside
// changes (step switch, reset, solution, script, external editor) into the
// widget by revision, copies the student's typing back, turns the latest
// compile's diagnostics into markers, and the last run's memory figures
// (RunResult::access) into gutter marks on the lines of the editor's file.
#include "palette.hpp"
#include "panels/access_tab.hpp"
#include "panels/panels.hpp"
#include "widgets/draw_text.hpp"

#include "app_state.hpp"
#include "lesson_reload.hpp"
#include "student_work.hpp"
#include "trust.hpp"
#include "fonts.hpp"
#include "ui_text.hpp"

#include "widgets/code_editor.hpp"
#include "widgets/keys.hpp"

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

namespace wb::app {
namespace {

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) lines.push_back(line);
    return lines;
}

struct DiffLine {
    char kind;  // ' ' both, '-' only in yours, '+' only in the solution
    std::string text;
};

// A longest-common-subsequence line diff. Kernels are short; the cap keeps a
// pasted megabyte from freezing a frame (it then lists both sides whole).
std::vector<DiffLine> line_diff(const std::vector<std::string>& a, const std::vector<std::string>& b) {
    std::vector<DiffLine> out;
    constexpr std::size_t kMaxLines = 3000;
    if (a.size() > kMaxLines || b.size() > kMaxLines) {
        for (const auto& l : a) out.push_back({'-', l});
        for (const auto& l : b) out.push_back({'+', l});
        return out;
    }
    const std::size_t n = a.size(), m = b.size();
    std::vector<std::vector<int>> lcs(n + 1, std::vector<int>(m + 1, 0));
    for (std::size_t i = n; i-- > 0;)
        for (std::size_t j = m; j-- > 0;)
            lcs[i][j] = a[i] == b[j] ? lcs[i + 1][j + 1] + 1 : std::max(lcs[i + 1][j], lcs[i][j + 1]);
    std::size_t i = 0, j = 0;
    while (i < n && j < m) {
        if (a[i] == b[j]) {
            out.push_back({' ', a[i]});
            ++i, ++j;
        } else if (lcs[i + 1][j] >= lcs[i][j + 1]) {
            out.push_back({'-', a[i++]});
        } else {
            out.push_back({'+', b[j++]});
        }
    }
    while (i < n) out.push_back({'-', a[i++]});
    while (j < m) out.push_back({'+', b[j++]});
    return out;
}

// The one editor widget of the window, and what it was last synced with.
struct EditorWidget {
    CodeEditor editor;
    std::uint64_t state_revision = 0;   // EditorState::revision the widget holds
    std::uint64_t widget_revision = 0;  // CodeEditor::revision() at that moment
    const CompileResult* markers_from = nullptr;
    std::uint64_t markers_revision = ~0ull;
    std::uint64_t markers_run = ~0ull;
    // The access marks: the run, file and language they were made for.
    std::uint64_t marks_run = ~0ull;
    std::string marks_origin, marks_lang;
    std::vector<std::pair<int, std::string>> mark_costs;  // line, its cost's name (what scripts check)
};

EditorWidget& editor_widget() {
    static EditorWidget widget;
    return widget;
}

EditorMarker::Severity marker_severity(Severity s) {
    return s == Severity::Error ? EditorMarker::Error : s == Severity::Warning ? EditorMarker::Warning : EditorMarker::Note;
}

// Racecheck only makes sense when threads share memory.
bool uses_shared_memory(const AppState& state) {
    return state.editor.text.find("__shared__") != std::string::npos || state.launch.shared_bytes > 0;
}

void draw_code(AppState& state, const Fonts& fonts) {
    EditorWidget& w = editor_widget();
    EditorState& ed = state.editor;
    if (w.state_revision != ed.revision) {
        // A replacement the student asked for (Reset, Show solution) stays undoable; any other
        // change of text from outside (a step opened, a file reloaded) starts a new history.
        if (!ed.replace_undoably || !w.editor.replace_all(ed.text)) w.editor.set_text(ed.text);
        ed.replace_undoably = false;
        w.state_revision = ed.revision;
        w.widget_revision = w.editor.revision();
    }
    // Markers follow the latest finished compile (a new result or a new step).
    const CompileResult* compile = state.compile ? &*state.compile : nullptr;
    // Sanitizer findings of the latest run are marked too, with thread and block.
    if (compile != w.markers_from || state.compile_revision != w.markers_revision || state.run_serial != w.markers_run) {
        std::vector<EditorMarker> markers;
        if (compile)
            for (const Diagnostic& d : compile->diagnostics)
                if (d.line > 0) markers.push_back({d.line, d.column, marker_severity(d.severity), d.message});
        // The line where the kernel faulted (the CPU emulator names it), with the run's sentence.
        if (state.last_run && state.last_run->fault_line > 0)
            markers.push_back({state.last_run->fault_line, 0, EditorMarker::Error, state.last_run->message_in(state.lang)});
        if (state.last_run)
            for (const SanitizerFinding& f : state.last_run->sanitizer_findings)
                if (f.line > 0)
                    markers.push_back({f.line, 0, f.is_error ? EditorMarker::Error : EditorMarker::Warning,
                                       "compute-sanitizer: " + f.description()});
        w.editor.set_markers(std::move(markers));
        w.markers_from = compile;
        w.markers_revision = state.compile_revision;
        w.markers_run = state.run_serial;
    }
    // The last run's memory figures, a mark per line of the editor's file:
    // the line's worst cost colours it (access_tab.hpp).
    if (state.run_serial != w.marks_run || ed.origin != w.marks_origin || state.lang != w.marks_lang) {
        std::vector<GutterMark> marks;
        w.mark_costs.clear();
        if (state.last_run && state.last_run->access) {
            const std::vector<AccessLine>& lines = state.last_run->access->lines;
            for (std::size_t i = 0; i < lines.size();) {
                std::vector<const AccessLine*> rows;
                AccessCost worst = AccessCost::Fits;
                std::size_t j = i;
                for (; j < lines.size() && lines[j].file == lines[i].file && lines[j].line == lines[i].line; ++j) {
                    rows.push_back(&lines[j]);
                    worst = std::max(worst, access_cost(lines[j]));
                }
                if (lines[i].file == ed.origin && lines[i].line > 0) {
                    marks.push_back({lines[i].line, access_cost_colour(worst).u32(), access_mark_text(rows, state.lang)});
                    w.mark_costs.emplace_back(lines[i].line, access_cost_name(worst));
                }
                i = j;
            }
        }
        w.editor.set_gutter_marks(std::move(marks));
        w.marks_run = state.run_serial;
        w.marks_origin = ed.origin;
        w.marks_lang = state.lang;
    }
    if (ed.goto_line > 0) {
        w.editor.goto_line(ed.goto_line);
        w.editor.focus();
        ed.goto_line = 0;
    }
    if (state.requests.undo) w.editor.undo();
    w.editor.draw("##code", ImVec2(0.0f, 0.0f), fonts.code);
    state.drawn.marker_lines = w.editor.drawn_marker_lines();
    for (int line : w.editor.drawn_gutter_mark_lines())
        for (const auto& [at, cost] : w.mark_costs)
            if (at == line) state.drawn.gutter_marks.emplace_back(line, cost);
    state.drawn.cursor_line = w.editor.cursor().line + 1;
    state.drawn.find_bar = w.editor.find_bar_open();
    if (w.editor.revision() != w.widget_revision) {
        ed.text = w.editor.text();
        ++ed.revision;
        ed.last_edit_time = state.now;
        w.state_revision = ed.revision;
        w.widget_revision = w.editor.revision();
    }
}

void draw_diff(AppState& state, const Fonts& fonts) {
    ImGui::TextColored(palette::kOnlyYours.vec4(), "- %s", tr(UiText::OnlyYours, state.lang));
    ImGui::SameLine();
    ImGui::TextColored(palette::kOnlyInSolution.vec4(), "+ %s", tr(UiText::OnlyInSolution, state.lang));
    ImGui::SameLine();
    if (ImGui::SmallButton(tr(UiText::Close, state.lang))) state.show_diff = false;
    if (ImGui::BeginChild("diff", ImVec2(0, 0), true, ImGuiWindowFlags_HorizontalScrollbar)) {
        if (fonts.code) ImGui::PushFont(fonts.code);
        for (const DiffLine& line : line_diff(lines_of(state.editor.text), lines_of(state.diff_solution))) {
            const ImVec4 colour = line.kind == '-'   ? palette::kOnlyYours.vec4()
                                  : line.kind == '+' ? palette::kOnlyInSolution.vec4()
                                                     : ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled);
            ImGui::TextColored(colour, "%c %s", line.kind, line.text.c_str());
        }
        if (fonts.code) ImGui::PopFont();
    }
    ImGui::EndChild();
}

// Asks before the student's text is replaced by the starter or the solution. Yes keeps the text
// it replaces (history copy, one undo step); see replace_editor_text.
void draw_replace_confirm(AppState& state, const Step& step) {
    static ReplaceWith asked = ReplaceWith::Nothing;
    if (state.confirm_replace != ReplaceWith::Nothing) {
        asked = state.confirm_replace;
        state.confirm_replace = ReplaceWith::Nothing;
        ImGui::OpenPopup("###confirm_replace");
    }
    const bool starter = asked == ReplaceWith::Starter;
    const std::string title =
        std::string(tr(starter ? UiText::ResetToStarter : UiText::ShowSolution, state.lang)) + "###confirm_replace";
    if (ImGui::BeginPopupModal(title.c_str(), nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
        text_record_resume();
        ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30.0f);
        const char* question = tr(starter ? UiText::ConfirmReset : UiText::ConfirmSolution, state.lang);
        ImGui::TextUnformatted(question);
        record_drawn_text(state.drawn.texts, question);
        ImGui::PopTextWrapPos();
        if (ImGui::Button(tr(UiText::Yes, state.lang)) || state.requests.answer_replace == 1) {
            if (starter) replace_editor_text(state, step.starter.text, "reset step " + step.id + " to its starter code");
            else replace_editor_text(state, step.solution.text, "replaced the editor text with the solution of step " + step.id);
            ImGui::CloseCurrentPopup();
        }
        ImGui::SameLine();
        if (ImGui::Button(tr(UiText::Cancel, state.lang)) || state.requests.answer_replace == 0) ImGui::CloseCurrentPopup();
        state.requests.answer_replace = -1;
        ImGui::EndPopup();
    }
}

// SameLine when the next button fits on this line, else a new line: the
// toolbar wraps instead of running off a narrow panel.
void next_button(const char* label) {
    const ImGuiStyle& style = ImGui::GetStyle();
    const float width = ImGui::CalcTextSize(label, nullptr, true).x + style.FramePadding.x * 2.0f;
    ImGui::SameLine();
    if (ImGui::GetContentRegionAvail().x < width) ImGui::NewLine();
}

}  // namespace

int next_diagnostic_line(AppState& state) {
    std::vector<int> lines;
    for (const Diagnostic& d : state.compile->diagnostics)
        if (d.line > 0) lines.push_back(d.line);
    if (lines.empty()) return 0;
    std::sort(lines.begin(), lines.end());
    const auto it = std::upper_bound(lines.begin(), lines.end(), state.editor.last_diagnostic_line);
    state.editor.last_diagnostic_line = it == lines.end() ? lines.front() : *it;
    return state.editor.last_diagnostic_line;
}

std::string run_blocked_reason(const AppState& state) {
    const std::string& lang = state.lang;
    if (!state.lesson || selected_step(state) == nullptr) return tr(UiText::NoStepOpen, lang);
    if (std::string why = untrusted_reason(state); !why.empty()) return why;
    if (!state.backend_known) return tr(UiText::DeviceCheckPending, lang);
    if (!state.device && !state.use_emulator) return std::string(tr(UiText::CompileOnly, lang)) + ": " + no_gpu_text(state);
    if (!state.launch_refusal.empty()) return state.launch_refusal;
    if (!state.job_text.empty() && state.job_text != "compiling") return tr(UiText::RunInProgress, lang);
    return {};
}

void draw_editor_panel(AppState& state, const Fonts& fonts, const PanelRect& rect) {
    PanelWindow window("###editor", rect);
    if (!window.visible()) return;
    const Step* step = selected_step(state);
    if (step == nullptr) return;
    const std::string& lang = state.lang;

    const std::string blocked = run_blocked_reason(state);
    ImGui::BeginDisabled(!blocked.empty());
    if (ImGui::Button(tr(UiText::Run, lang))) state.requests.run = true;
    ImGui::EndDisabled();
    state.drawn.run_button = ImGui::IsItemVisible();
    state.drawn.run_disabled = !blocked.empty();
    if (!blocked.empty() && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
        ImGui::SetTooltip("%s", blocked.c_str());
    // Every case the step must pass, each with the lesson's own launch: how a step gets done.
    next_button(tr(UiText::CheckAllCases, lang));
    ImGui::BeginDisabled(!blocked.empty() || state.check_all.running());
    if (ImGui::Button(tr(UiText::CheckAllCases, lang))) state.requests.check_all = true;
    ImGui::EndDisabled();
    // compute-sanitizer: memcheck catches the access one past the end that a normal
    // run lets through; racecheck, for kernels that share memory, the missing barrier.
    next_button(tr(UiText::CheckMemory, lang));
    ImGui::BeginDisabled(!blocked.empty() || state.use_emulator);  // compute-sanitizer needs the GPU
    if (ImGui::Button(tr(UiText::CheckMemory, lang))) state.requests.sanitize = SanitizerTool::Memcheck;
    if (uses_shared_memory(state)) {
        next_button(tr(UiText::CheckRaces, lang));
        if (ImGui::Button(tr(UiText::CheckRaces, lang))) state.requests.sanitize = SanitizerTool::Racecheck;
    }
    ImGui::EndDisabled();
    next_button(tr(UiText::Stop, lang));
    ImGui::BeginDisabled(state.job_text.empty());
    if (ImGui::Button(tr(UiText::Stop, lang))) state.requests.stop = true;
    ImGui::EndDisabled();
    next_button(tr(UiText::ResetToStarter, lang));
    if (ImGui::Button(tr(UiText::ResetToStarter, lang))) state.confirm_replace = ReplaceWith::Starter;
    next_button(tr(UiText::ShowSolution, lang));
    ImGui::BeginDisabled(step->solution.text.empty());
    if (ImGui::Button(tr(UiText::ShowSolution, lang))) state.confirm_replace = ReplaceWith::Solution;
    next_button(tr(UiText::CompareWithSolution, lang));
    if (ImGui::Button(tr(UiText::CompareWithSolution, lang))) {
        state.show_diff = !state.show_diff;
        state.diff_solution = step->solution.text;
    }
    ImGui::EndDisabled();
    next_button(tr(UiText::OpenExternal, lang));
    if (ImGui::Button(tr(UiText::OpenExternal, lang))) state.requests.open_external = true;

    // Shortcuts work wherever the focus is: Ctrl+Enter runs, Ctrl+S saves.
    const ImGuiIO& io = ImGui::GetIO();
    if (io.KeyCtrl) {
        if ((key_pressed(Key::Enter, false) || key_pressed(Key::KeypadEnter, false)) && blocked.empty()) {
            if (io.KeyShift) state.requests.check_all = true;  // Ctrl+Shift+Enter
            else state.requests.run = true;
        }
        if (key_pressed(Key::S, false)) state.requests.save = true;
    }
    // F8: the next line with a diagnostic after the last one visited, from the top after the last.
    if (key_pressed(Key::F8, false) && state.compile) state.editor.goto_line = next_diagnostic_line(state);

    // The tab names the student's own file (what is saved, and where); the starter it began as
    // is the name compiler messages use.
    const Step* open_step = selected_step(state);
    const std::string work_name = open_step ? open_step->id + ".cu" : state.editor.origin;
    char tab[512];
    std::snprintf(tab, sizeof tab, tr(UiText::YourWorkTab, lang), work_name.c_str(), state.editor.origin.c_str());
    ImGui::TextDisabled("%s  (%s)", tab,
                        state.editor.saved_revision == state.editor.revision ? tr(UiText::Saved, lang)
                                                                              : tr(UiText::Unsaved, lang));
    if (open_step && state.lesson && ImGui::IsItemHovered())
        ImGui::SetTooltip("%s", work_file(state.lesson->id, open_step->id).string().c_str());
    record_drawn_text(state.drawn.texts, tab);
    if (state.show_diff) draw_diff(state, fonts);
    else draw_code(state, fonts);
    draw_replace_confirm(state, *step);
}

}  // namespace wb::app
