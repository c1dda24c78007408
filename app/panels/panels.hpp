// app/panels/panels.hpp — the panels of the main window, one function each,
// each defined in its own file in this folder.
#pragma once

#include "panels/panel.hpp"

namespace wb::app {

struct AppState;
struct Fonts;

// The menu bar across the top (language toggle). Returns its height.
float draw_main_menu(AppState& state);
// The list of lessons on the left; a click selects one.
void draw_lesson_list(AppState& state, const PanelRect& rect);
// The selected lesson: title, summary, steps, instructions and starter code.
void draw_lesson_overview(AppState& state, const Fonts& fonts, const PanelRect& rect);
// One line along the bottom: lessons folder, counts, language.
void draw_status_bar(const AppState& state, const PanelRect& rect);

}  // namespace wb::app
