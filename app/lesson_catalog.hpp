// app/lesson_catalog.hpp — finds the lessons folder and loads every lesson in it.
//
// No GUI code here: it is the app's thin layer over wb::list_lessons and
// wb::load_lesson. A lesson that fails to load stays in the catalog with its
// issues, so the list can show it in red instead of hiding the instructor's
// mistake.
#pragma once

#include "lesson/loader.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace wb::app {

struct LessonEntry {
    std::filesystem::path file;
    std::optional<Lesson> lesson;     // set when it loaded cleanly
    std::vector<LessonIssue> issues;  // why it did not

    bool ok() const { return lesson.has_value(); }
    // The lesson id, or the file name without ".json" when it failed to load.
    std::string id() const;
};

struct LessonsFolder {
    std::filesystem::path dir;
    std::string found_by;  // "--lessons", "$WB_LESSONS_DIR", "build tree", ...
};

struct FolderSearch {
    std::optional<LessonsFolder> folder;
    std::string error;  // set when nothing was found: which places were tried
};

// Looks, in order, at: `explicit_dir` (--lessons), $WB_LESSONS_DIR,
// <exe>/../../lessons when the executable sits in a build tree,
// the source tree this binary was built from, and the installed data folder.
// An explicit choice that does not exist is an error, not a reason to fall back.
FolderSearch find_lessons_folder(const std::string& explicit_dir);

// Every lesson file in `dir`, sorted by name, each loaded (or with its issues).
std::vector<LessonEntry> load_catalog(const std::filesystem::path& dir);

}  // namespace wb::app
