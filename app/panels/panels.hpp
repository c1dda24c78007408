// app/panels/panels.hpp — the panels of the main window, one function each,
// each defined in its own file in this folder. Panels draw AppState and set
// its `requests`; they never start jobs or touch files themselves.
#pragma once

#include "panels/panel.hpp"

#include <string>

namespace wb::app {

struct AppState;
struct Fonts;

// The menu bar across the top (language, theme). Returns its height.
float draw_main_menu(AppState& state);
// Lessons and their steps on the left; steps already passed are marked done.
void draw_lesson_list(AppState& state, const PanelRect& rect);
// The current step's title, instructions and hints.
void draw_instructions(AppState& state, const Fonts& fonts, const PanelRect& rect);
// The kernel editor with Run, Stop, Reset, Show solution, Compare, External editor.
void draw_editor_panel(AppState& state, const Fonts& fonts, const PanelRect& rect);
// The banner over the editor while the open lesson's file does not load:
// each issue as file:line: json.path: message. Its height is 0 when there is
// none, and the editor takes the whole column.
float lesson_issues_height(const AppState& state);
void draw_lesson_issues(AppState& state, const PanelRect& rect);
// Block, grid, shared memory, params and test case, checked against the device.
void draw_launch_panel(AppState& state, const PanelRect& rect);
// The last run: pass/fail, errors, timings, buffers.
void draw_results_panel(AppState& state, const PanelRect& rect);
// Compiler messages (click to jump to the line) and the event log.
void draw_diagnostics_panel(AppState& state, const PanelRect& rect);
// The GPU, or "compile only" and why.
void draw_device_panel(AppState& state, const PanelRect& rect);
// One line along the bottom: job progress, trust, saved state, lessons folder.
void draw_status_bar(AppState& state, const PanelRect& rect);

// "Trust lessons in <folder>?" while state.trust.prompt_open (a modal over
// everything; app/trust.hpp). Drawn last, outside the panels.
void draw_trust_prompt(AppState& state);
// The GPU monitor window, while state.show_monitor (monitor_window.cpp).
void draw_monitor_window(AppState& state);

// Why Run is unavailable now, or "" when it may be pressed. Shared by the
// editor panel's button and the Ctrl+Enter shortcut.
std::string run_blocked_reason(const AppState& state);

// The line F8 moves the editor to: the next line with a diagnostic after the
// one F8 visited last, wrapping to the first; 0 when there is none.
int next_diagnostic_line(AppState& state);

}  // namespace wb::app
