// app/student_work.hpp — what the student made, kept between sessions.
//
// Each step's text lives in <data dir>/work/<lesson id>/<step id>.cu, written
// atomically; lesson files are never written. The last lesson and step, the
// theme, the steps already passed, the window's size and place and the worker command live in
// <config dir>/state.json (ImGui's own settings sit beside it in imgui.ini).
// No GUI code here.
#pragma once

#include "layout.hpp"

#include "lesson/progress.hpp"

#include <map>
#include <filesystem>
#include <optional>
#include <set>
#include <string>

namespace wb::app {

std::filesystem::path work_file(const std::string& lesson_id, const std::string& step_id);
// The saved text, or nullopt when the student has not saved this step yet.
std::optional<std::string> load_work(const std::string& lesson_id, const std::string& step_id);
// Throws wb::Error (Io) when the file cannot be written.
void save_work(const std::string& lesson_id, const std::string& step_id, const std::string& text);
// Forgets the step's work.
void remove_work(const std::string& lesson_id, const std::string& step_id);
// Keeps a copy of text the editor is about to replace (Reset to starter, Show solution) in
// <data dir>/work/<lesson id>/history/<step id>.<UTC time>.cu; returns the file. Throws wb::Error
// (Io) when it cannot be written.
std::filesystem::path save_work_history(const std::string& lesson_id, const std::string& step_id,
                                        const std::string& text);

// The window as the student left it, in screen coordinates. width 0: never saved.
struct WindowGeometry {
    int width = 0;
    int height = 0;
    bool has_position = false;
    int x = 0;
    int y = 0;
    bool maximized = false;

    bool operator==(const WindowGeometry&) const = default;
};

struct SessionState {
    std::string lesson;             // id of the last lesson opened
    std::string step;               // id of its step
    bool dark_theme = true;
    float text_zoom = 1.0f;         // the student's text size on top of the monitor's scale
    std::set<std::string> done;     // "lesson_id/step_id"
    std::map<std::string, CaseTally> cases;  // per "lesson_id/step_id": the cases passed by the text last run
    WindowGeometry window;
    LayoutSettings layout;          // splitter positions, lesson list collapsed
    std::string worker_command;     // the device panel's worker command; empty: a local worker

    bool operator==(const SessionState&) const = default;
};

// Defaults when the file is missing or unreadable (a broken state file must
// never stop the app; it is reported on stderr and replaced on the next save).
SessionState load_session();
void save_session(const SessionState& session);

}  // namespace wb::app
