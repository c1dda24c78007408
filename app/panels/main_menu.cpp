// app/panels/main_menu.cpp — the top menu bar: language and theme (both
// remembered between sessions by the frame loop), View (the lesson list, the
// instructions' window, the results' size, the text size), Export to Python
// (export_kernel_to_python), and Help, which lists the keyboard shortcuts.
#include "panels/panels.hpp"
#include "widgets/draw_text.hpp"

#include "app_state.hpp"
#include "ui_text.hpp"

#include <cmath>
#include <cstdio>

namespace wb::app {

float draw_main_menu(AppState& state) {
    float height = 0.0f;
    if (!ImGui::BeginMainMenuBar()) return height;
    text_record_resume();
    ImGui::TextUnformatted("CUDA Workbook");
    ImGui::Separator();
    // "###language" keeps the menu's identity when its label changes language.
    std::string label = std::string(tr(UiText::Language, state.lang)) + "###language";
    if (ImGui::BeginMenu(label.c_str())) {
        text_record_resume();
        if (ImGui::MenuItem(tr(UiText::English, "en"), nullptr, state.lang == "en")) state.lang = "en";
        if (ImGui::MenuItem(tr(UiText::Chinese, "zh"), nullptr, state.lang == "zh")) state.lang = "zh";
        if (ImGui::MenuItem(tr(UiText::ChineseTraditional, "zh-Hant"), nullptr, state.lang == "zh-Hant"))
            state.lang = "zh-Hant";
        ImGui::EndMenu();
        text_record_resume();
    }
    const std::string theme = std::string(tr(UiText::Theme, state.lang)) + "###theme";
    if (ImGui::BeginMenu(theme.c_str())) {
        text_record_resume();
        if (ImGui::MenuItem(tr(UiText::Dark, state.lang), nullptr, state.dark_theme)) state.dark_theme = true;
        if (ImGui::MenuItem(tr(UiText::Light, state.lang), nullptr, !state.dark_theme)) state.dark_theme = false;
        ImGui::EndMenu();
        text_record_resume();
    }
    // Where things are, and how large the text is.
    const std::string view = std::string(tr(UiText::ViewMenu, state.lang)) + "###view";
    if (ImGui::BeginMenu(view.c_str())) {
        text_record_resume();
        if (ImGui::MenuItem(tr(UiText::LessonListShown, state.lang), "Ctrl+Shift+L", !state.layout.lessons_collapsed))
            set_lessons_collapsed(state, !state.layout.lessons_collapsed);
        if (ImGui::MenuItem(tr(UiText::InstructionsOwnWindow, state.lang), nullptr, state.layout.instructions_popped))
            set_instructions_popped(state, !state.layout.instructions_popped);
        if (ImGui::MenuItem(tr(UiText::ResultsEnlarged, state.lang), nullptr, state.results_expanded, state.last_run.has_value()))
            set_results_expanded(state, !state.results_expanded);
        if (ImGui::MenuItem(tr(UiText::MonitorTitle, state.lang), nullptr, state.show_monitor))
            state.show_monitor = !state.show_monitor;
        ImGui::Separator();
        char now[64];
        std::snprintf(now, sizeof now, tr(UiText::TextSizeNow, state.lang), static_cast<int>(std::lround(state.text_zoom * 100)));
        ImGui::MenuItem(now, nullptr, false, false);
        if (ImGui::MenuItem(tr(UiText::TextLarger, state.lang), "Ctrl+=")) change_text_zoom(state, +1);
        if (ImGui::MenuItem(tr(UiText::TextSmaller, state.lang), "Ctrl+-")) change_text_zoom(state, -1);
        if (ImGui::MenuItem(tr(UiText::TextReset, state.lang), "Ctrl+0")) change_text_zoom(state, 0);
        ImGui::EndMenu();
        text_record_resume();
    }
    // The editor's kernel as a Python file for the student's own home.
    const std::string export_label = std::string(tr(UiText::ExportPython, state.lang)) + "###export";
    const bool kernel_step = state.lesson && state.selected_step >= 0 &&
                             std::size_t(state.selected_step) < state.lesson->steps.size() &&
                             !state.lesson->steps[std::size_t(state.selected_step)].is_host();
    if (ImGui::BeginMenu(export_label.c_str(), kernel_step)) {
        text_record_resume();
        const std::pair<PythonHome, const char*> homes[] = {{PythonHome::CuPy, "CuPy (RawModule)"},
                                                            {PythonHome::Torch, "PyTorch (load_inline)"},
                                                            {PythonHome::Numba, "Numba (numba-cuda)"},
                                                            {PythonHome::CudaCore, "cuda.core"}};
        for (const auto& [home, name] : homes)
            if (ImGui::MenuItem(name)) export_kernel_to_python(state, home);
        ImGui::EndMenu();
        text_record_resume();
    }
    // Every keyboard shortcut, so none has to be guessed.
    const std::string help = std::string(tr(UiText::Help, state.lang)) + "###help";
    if (ImGui::BeginMenu(help.c_str())) {
        text_record_resume();
        const std::pair<UiText, const char*> keys[] = {{UiText::KeyRun, "Ctrl+Enter"},
                                                       {UiText::CheckAllCases, "Ctrl+Shift+Enter"},
                                                       {UiText::KeySave, "Ctrl+S"},
                                                       {UiText::KeyFind, "Ctrl+F"},
                                                       {UiText::KeyNextDiagnostic, "F8"},
                                                       {UiText::KeyLessonList, "Ctrl+Shift+L"},
                                                       {UiText::TextLarger, "Ctrl+="},
                                                       {UiText::TextSmaller, "Ctrl+-"},
                                                       {UiText::TextReset, "Ctrl+0"}};
        for (const auto& [what, key] : keys) ImGui::MenuItem(tr(what, state.lang), key, false, false);
        ImGui::EndMenu();
        text_record_resume();
    }
    // The same toggle as two buttons on the bar itself: one click, and visible.
    ImGui::Separator();
    auto toggle = [&](const char* text, const char* lang) {
        const bool active = state.lang == lang;
        if (active) ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
        if (ImGui::SmallButton(text)) state.lang = lang;
        if (active) ImGui::PopStyleColor();
    };
    toggle("English", "en");
    toggle(tr(UiText::Chinese, "zh"), "zh");
    toggle(tr(UiText::ChineseTraditional, "zh-Hant"), "zh-Hant");
    height = ImGui::GetWindowSize().y;
    ImGui::EndMainMenuBar();
    return height;
}

}  // namespace wb::app
