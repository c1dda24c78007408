// app/lesson_catalog.hpp — finds the lessons folder and loads every lesson in it.
//
// No GUI code here: it is the app's thin layer over wb::list_lessons and
// wb::load_lesson. A lesson that fails to load stays in the catalog with its
// issues, so the list can show it in red instead of hiding the instructor's
// mistake.
#pragma once

#include "core/data_dirs.hpp"
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

// Where shipped data folder `name` is looked for, and which lessons are the
// shipped ones, is one rule for the app and the CLI: runtime/core/data_dirs.hpp
// (wb::data_folder_candidates). The runtime's assets lookup follows it too.
// The first of data_folder_candidates(name) that exists, or an error naming them all.
FolderSearch find_data_folder(const std::string& name);
// The shaders/ folder for GL views (buffer views, heat maps), found once:
// $WB_SHADERS_DIR when set (and nothing else then), else find_data_folder("shaders").
const FolderSearch& shaders_folder();

// Looks at `explicit_dir` (--lessons), then $WB_LESSONS_DIR, then
// find_data_folder("lessons"). An explicit choice that does not exist is an
// error, not a reason to fall back.
FolderSearch find_lessons_folder(const std::string& explicit_dir);

// Every lesson file in `dir`, sorted by name, each loaded (or with its issues).
std::vector<LessonEntry> load_catalog(const std::filesystem::path& dir);

}  // namespace wb::app
