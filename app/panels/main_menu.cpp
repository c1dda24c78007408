// app/panels/main_menu.cpp — the top menu bar: language and theme (both
// remembered between sessions by the frame loop), and Help, which lists the
// keyboard shortcuts.
#include "panels/panels.hpp"

#include "app_state.hpp"
#include "ui_text.hpp"

namespace wb::app {

float draw_main_menu(AppState& state) {
    float height = 0.0f;
    if (!ImGui::BeginMainMenuBar()) return height;
    ImGui::TextUnformatted("CUDA Workbook");
    ImGui::Separator();
    // "###language" keeps the menu's identity when its label changes language.
    std::string label = std::string(tr(UiText::Language, state.lang)) + "###language";
    if (ImGui::BeginMenu(label.c_str())) {
        if (ImGui::MenuItem(tr(UiText::English, "en"), nullptr, state.lang == "en")) state.lang = "en";
        if (ImGui::MenuItem(tr(UiText::Chinese, "zh"), nullptr, state.lang == "zh")) state.lang = "zh";
        ImGui::EndMenu();
    }
    const std::string theme = std::string(tr(UiText::Theme, state.lang)) + "###theme";
    if (ImGui::BeginMenu(theme.c_str())) {
        if (ImGui::MenuItem(tr(UiText::Dark, state.lang), nullptr, state.dark_theme)) state.dark_theme = true;
        if (ImGui::MenuItem(tr(UiText::Light, state.lang), nullptr, !state.dark_theme)) state.dark_theme = false;
        ImGui::EndMenu();
    }
    // Every keyboard shortcut, so none has to be guessed.
    const std::string help = std::string(tr(UiText::Help, state.lang)) + "###help";
    if (ImGui::BeginMenu(help.c_str())) {
        const std::pair<UiText, const char*> keys[] = {{UiText::KeyRun, "Ctrl+Enter"},
                                                       {UiText::KeySave, "Ctrl+S"},
                                                       {UiText::KeyFind, "Ctrl+F"},
                                                       {UiText::KeyNextDiagnostic, "F8"},
                                                       {UiText::KeyLessonList, "Ctrl+Shift+L"}};
        for (const auto& [what, key] : keys) ImGui::MenuItem(tr(what, state.lang), key, false, false);
        ImGui::EndMenu();
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
    toggle("中文", "zh");
    height = ImGui::GetWindowSize().y;
    ImGui::EndMainMenuBar();
    return height;
}

}  // namespace wb::app
