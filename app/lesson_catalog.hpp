// app/lesson_catalog.hpp — finds the lessons folder and loads every lesson in it.
//
// No GUI code here: it is the app's thin layer over wb::list_lessons and
// wb::load_lesson. A lesson that fails to load stays in the catalog with its
// issues, so the list can show it in red instead of hiding the instructor's
// mistake. Each entry remembers the size and modification time of every file
// it was made from (the JSON and its side files), so the app can tell when an
// instructor changed one (lesson_reload.hpp).
#pragma once

#include "core/data_dirs.hpp"
#include "lesson/lesson_files.hpp"
#include "lesson/loader.hpp"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace wb::app {

// A file as it was when read, and a lesson's files: runtime/lesson/lesson_files.hpp.
using wb::FileStamp;
using wb::lesson_files;
using wb::stamp_file;

struct LessonEntry {
    std::filesystem::path file;
    // Set when it loaded cleanly. After a reload that failed it is still the
    // last version that loaded, and `issues` say what is wrong on disk now.
    std::optional<Lesson> lesson;
    std::vector<LessonIssue> issues;  // why the file on disk does not load; empty when it does
    std::vector<FileStamp> stamps;    // the files it was read from, as they were then

    bool ok() const { return lesson.has_value(); }
    // The file on disk does not load (whether or not an older version is shown).
    bool broken() const { return !issues.empty(); }
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

// Loads one lesson file into an entry: the lesson, or its issues (each with
// the line of its JSON path where the loader gave none), and the stamps of
// the files read. `previous`: the files the last version was made from, also
// stamped, so a broken JSON still notices its side files changing.
LessonEntry load_entry(const std::filesystem::path& file, const std::vector<std::filesystem::path>& previous = {});

// Every lesson file in `dir`, sorted by name, each loaded (or with its issues).
std::vector<LessonEntry> load_catalog(const std::filesystem::path& dir);

}  // namespace wb::app
