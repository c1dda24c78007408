// app/lesson_reload.cpp — reloading the open lesson when its files change (lesson_reload.hpp).
#include "lesson_reload.hpp"

#include "app_state.hpp"
#include "student_work.hpp"

#include "core/error.hpp"

#include <algorithm>
#include <memory>
#include <string>

namespace fs = std::filesystem;

namespace wb::app {
namespace {

std::vector<FileStamp> restamp(const std::vector<FileStamp>& stamps) {
    std::vector<FileStamp> now;
    now.reserve(stamps.size());
    for (const FileStamp& s : stamps) now.push_back(stamp_file(s.file));
    return now;
}

std::string names(const std::vector<fs::path>& files) {
    std::string out;
    for (const fs::path& f : files) out += (out.empty() ? "" : ", ") + f.string();
    return out;
}

// The student's launch settings carried over to the reloaded step: a setting
// still at the old step's default follows the new default; one the student
// changed stays, where the new step still has it and it is still allowed.
LaunchSettings carry_launch(const LaunchSettings& mine, const Step& old_step, const Step& new_step,
                            std::string& error) {
    const std::string test_case = new_step.find_case(mine.test_case) ? mine.test_case : std::string();
    std::string ignored;
    const LaunchSettings old_default = default_launch(old_step, mine.test_case, ignored);
    LaunchSettings s = default_launch(new_step, test_case, error);
    // A host step has no launch of the panel's (its run() makes them): a
    // step that became one, or stopped being one, starts from its own.
    if (!old_step.launches.empty() && !new_step.launches.empty()) {
        if (mine.block != old_default.block) s.block = mine.block;
        if (!mine.auto_grid) {
            s.auto_grid = false;
            s.grid = mine.grid;
        }
        if (mine.shared_bytes != old_default.shared_bytes) s.shared_bytes = mine.shared_bytes;
    }
    if (mine.timeout_s != old_default.timeout_s) s.timeout_s = mine.timeout_s;
    for (auto& [name, value] : s.params) {
        const auto it = mine.params.find(name);
        const auto was = old_default.params.find(name);
        if (it == mine.params.end() || was == old_default.params.end() || it->second == was->second) continue;
        const Param* p = new_step.find_param(name);
        if (p && ((p->min && it->second < *p->min) || (p->max && it->second > *p->max))) continue;
        value = it->second;
    }
    return s;
}

std::string starter_origin(const Step& step) {
    return step.starter.origin.empty() || step.starter.origin == "<inline>"
               ? std::string("kernel.cu")
               : fs::path(step.starter.origin).filename().string();
}

// The reload loaded: the student's place in the lesson that was open.
void keep_place(AppState& state, const Lesson& old_lesson, int index) {
    const LessonEntry& entry = state.lessons[static_cast<std::size_t>(index)];
    const Lesson& lesson = *entry.lesson;
    state.lesson = std::make_shared<const Lesson>(lesson);
    const int old_index = state.selected_step;
    const Step* old_step = old_index >= 0 && old_index < static_cast<int>(old_lesson.steps.size())
                               ? &old_lesson.steps[static_cast<std::size_t>(old_index)]
                               : nullptr;
    const Step* same = old_step ? lesson.find_step(old_step->id) : nullptr;
    // find_step also takes "0", "1": only an id that matches counts as the same step.
    if (same && same->id != old_step->id) same = nullptr;
    if (same == nullptr) {
        // The step is gone (or renamed): its text goes to disk under its old id
        // before the editor moves to the nearest step, so nothing typed is lost.
        if (old_step && state.editor.saved_revision != state.editor.revision) {
            try {
                save_work(old_lesson.id, old_step->id, state.editor.text);
            } catch (const Error& e) {
                log_line(state, "could not save: " + e.describe(), true);
            }
        }
        const int last = static_cast<int>(lesson.steps.size()) - 1;
        const int nearest = std::clamp(old_index, 0, std::max(last, 0));
        open_step(state, nearest);  // the text was saved above, under the old step's id
        if (old_step) {
            const Step* now = selected_step(state);
            log_line(state, "step " + old_step->id + " is no longer in the lesson; opened " +
                                (now ? now->id : std::string("nothing")));
        }
        return;
    }
    state.selected_step = static_cast<int>(same - lesson.steps.data());
    // Untouched starter text follows the lesson's new starter; anything the
    // student typed stays exactly as it is (revision, undo, unsaved state).
    if (state.editor.text == old_step->starter.text && same->starter.text != old_step->starter.text &&
        !load_work(entry.id(), same->id)) {
        set_editor_text(state, same->starter.text);
        state.editor.saved_revision = state.editor.revision;  // the lesson's text, not the student's
    }
    state.editor.origin = starter_origin(*same);
    // Compile-as-you-type sends the text again, now against the reloaded
    // lesson (0: this text has not been sent; an untrusted lesson skips it quietly).
    state.editor.compile_submitted_revision = 0;
    std::string error;
    state.launch = carry_launch(state.launch, *old_step, *same, error);
    if (!error.empty()) log_line(state, error, true);
    // The views are rebuilt from the last run against the reloaded step's view list.
    state.results_views.reset();
}

}  // namespace

std::vector<fs::path> changed_files(const LessonEntry& entry) {
    std::vector<fs::path> changed;
    for (const FileStamp& s : entry.stamps)
        if (!(stamp_file(s.file) == s)) changed.push_back(s.file);
    return changed;
}

void apply_reload(AppState& state, int index, LessonEntry fresh, const std::vector<fs::path>& changed) {
    if (index < 0 || index >= static_cast<int>(state.lessons.size())) return;
    LessonEntry& entry = state.lessons[static_cast<std::size_t>(index)];
    ++state.lesson_watch.reloads;
    const std::string what = names(changed.empty() ? std::vector<fs::path>{entry.file} : changed);
    if (!fresh.ok()) {
        // The last version that loaded stays open; the issues say what is wrong now.
        entry.issues = std::move(fresh.issues);
        entry.stamps = std::move(fresh.stamps);
        log_line(state,
                 "could not reload " + what + " (" + std::to_string(entry.issues.size()) + " problems)" +
                     (entry.ok() ? "; still showing the last version that loaded" : ""),
                 true);
        for (const LessonIssue& issue : entry.issues) log_line(state, "  " + issue.to_string(), true);
        return;
    }
    std::optional<Lesson> old = std::move(entry.lesson);
    entry = std::move(fresh);
    log_line(state, "reloaded " + what);
    if (index != state.selected_lesson) return;
    if (!old) {
        select_lesson(state, index);  // it never loaded before: open it as a click would
        return;
    }
    keep_place(state, *old, index);
}

ReloadCheck poll_lesson_files(AppState& state) {
    LessonWatch& watch = state.lesson_watch;
    if (state.now < watch.next_poll) return ReloadCheck::NotDue;
    watch.next_poll = state.now + kLessonPollInterval;
    if (state.selected_lesson < 0 || state.selected_lesson >= static_cast<int>(state.lessons.size()))
        return ReloadCheck::Unchanged;
    const LessonEntry& entry = state.lessons[static_cast<std::size_t>(state.selected_lesson)];
    std::vector<FileStamp> now = restamp(entry.stamps);
    if (now == entry.stamps) {
        watch.pending.clear();
        return ReloadCheck::Unchanged;
    }
    if (watch.file != entry.file || now != watch.pending) {
        // Still moving (or just seen): look again before reading it.
        watch.file = entry.file;
        watch.pending = std::move(now);
        return ReloadCheck::Settling;
    }
    watch.pending.clear();
    const std::vector<fs::path> changed = changed_files(entry);
    std::vector<fs::path> previous;
    for (const FileStamp& s : entry.stamps) previous.push_back(s.file);
    LessonEntry fresh = load_entry(entry.file, previous);
    const bool loaded = fresh.ok();
    apply_reload(state, state.selected_lesson, std::move(fresh), changed);
    return loaded ? ReloadCheck::Reloaded : ReloadCheck::Failed;
}

}  // namespace wb::app
