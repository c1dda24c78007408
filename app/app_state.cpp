// app/app_state.cpp — selection helpers for AppState (app_state.hpp).
#include "app_state.hpp"

namespace wb::app {

const LessonEntry* selected_entry(const AppState& state) {
    if (state.selected_lesson < 0 || state.selected_lesson >= static_cast<int>(state.lessons.size()))
        return nullptr;
    return &state.lessons[static_cast<std::size_t>(state.selected_lesson)];
}

const Step* selected_step(const AppState& state) {
    const LessonEntry* entry = selected_entry(state);
    if (entry == nullptr || !entry->ok()) return nullptr;
    const auto& steps = entry->lesson->steps;
    if (state.selected_step < 0 || state.selected_step >= static_cast<int>(steps.size())) return nullptr;
    return &steps[static_cast<std::size_t>(state.selected_step)];
}

void select_step(AppState& state, int index) {
    state.selected_step = index;
    const Step* step = selected_step(state);
    state.code = step ? step->starter.text : std::string();
    state.code_origin = step ? step->starter.origin : std::string();
}

void select_lesson(AppState& state, int index) {
    state.selected_lesson = index;
    select_step(state, 0);
}

}  // namespace wb::app
