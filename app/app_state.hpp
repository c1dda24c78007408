// app/app_state.hpp — everything the window shows, in one plain struct.
//
// Panels read and change this; nothing else holds UI state. It grows with the
// GUI (editor, run results, views) but stays plain data with defaults, so a
// frame can be reasoned about from the struct alone.
#pragma once

#include "lesson_catalog.hpp"

#include <string>
#include <vector>

namespace wb::app {

struct AppState {
    LessonsFolder folder;
    std::vector<LessonEntry> lessons;
    int selected_lesson = 0;  // index into lessons; meaningful only when lessons is not empty
    int selected_step = 0;    // index into that lesson's steps
    std::string lang = "en";  // "en" or "zh": interface and lesson text

    // The source shown for the selected step. A copy, not a view into the
    // lesson: it becomes the student's editor buffer when editing arrives.
    std::string code;
    std::string code_origin;  // "01_vector_add/starter.cu" or "<inline>"

    float ui_scale = 1.0f;    // the window's content scale
};

const LessonEntry* selected_entry(const AppState& state);
const Step* selected_step(const AppState& state);

// Changes the selection and refreshes `code` from the step's starter source.
void select_lesson(AppState& state, int index);
void select_step(AppState& state, int index);

}  // namespace wb::app
