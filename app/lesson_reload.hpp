// app/lesson_reload.hpp — the instructor's loop: the open lesson is reloaded
// when its JSON or a side file (starter, solution, reference, image) changes
// on disk, and the student keeps their place.
//
// Plain functions over AppState, no GUI code, so the policy is unit-tested
// without a window (tests/app/lesson_reload_test.cpp); the frame loop only
// calls poll_lesson_files once per frame.
//
//   * When: the files are looked at every kLessonPollInterval seconds (size
//     and modification time). A change is reloaded at the first look that
//     finds the files as the previous look did, so an editor's save that
//     lands in several writes is read once, whole.
//   * Loads: the lesson is replaced; the step stays selected by id (or, when
//     its id is gone, the step at the nearest index opens, the student's text
//     of the old one saved first); the student's text stays, unless it was
//     the old starter untouched, which becomes the new starter; each launch
//     setting the student changed stays while the new step still has it, the
//     rest follow the lesson; compile-as-you-type runs again; the log says
//     "reloaded <file>".
//   * Fails: the last version that loaded stays open (instructions, editor,
//     launch settings); the entry's issues (file, line, JSON path, message)
//     are shown in a banner until a reload succeeds. Compiling and running
//     go on with that version: a request carries the lesson's JSON text, so
//     the worker never reads the half-edited file.
#pragma once

#include "lesson_catalog.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace wb::app {

struct AppState;

constexpr double kLessonPollInterval = 0.5;  // seconds between looks at the files

enum class ReloadCheck {
    NotDue,     // polled less than kLessonPollInterval ago
    Unchanged,  // no file of the open lesson changed (or no lesson is open)
    Settling,   // a change was seen; reloaded at the next look if nothing moves meanwhile
    Reloaded,   // the change loaded and replaced the lesson
    Failed,     // the change does not load: the last good version stays, with the issues
};

// Looks at the selected lesson's files when a poll is due and reloads them
// when they changed and have settled. Called once per frame (state.now must be set).
ReloadCheck poll_lesson_files(AppState& state);

// The files among `entry`'s stamps that differ on disk now.
std::vector<std::filesystem::path> changed_files(const LessonEntry& entry);

// Puts `fresh` (the lesson at state.lessons[index], just loaded again) in
// place by the rules above. `changed` names the files that changed, for the log.
void apply_reload(AppState& state, int index, LessonEntry fresh, const std::vector<std::filesystem::path>& changed);

}  // namespace wb::app
