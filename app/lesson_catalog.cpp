// app/lesson_catalog.cpp — lessons folder search and loading (lesson_catalog.hpp).
#include "lesson_catalog.hpp"

#include <cstdlib>
#include <exception>
#include <system_error>

namespace fs = std::filesystem;

namespace wb::app {
namespace {

bool is_dir(const fs::path& p) {
    std::error_code ec;
    return !p.empty() && fs::is_directory(p, ec);
}

}  // namespace

std::string LessonEntry::id() const {
    if (lesson) return lesson->id;
    return file.stem().string();
}

FolderSearch find_data_folder(const std::string& name) {
    FolderSearch result;
    std::string tried;
    if (auto found = wb::find_data_folder(name, &tried)) result.folder = LessonsFolder{found->dir, found->found_by};
    else result.error = "no " + name + " folder found; tried " + tried;
    return result;
}

const FolderSearch& shaders_folder() {
    // Looked up once: the answer cannot change while the app runs.
    // $WB_SHADERS_DIR, when set, is the only place tried (to try edited
    // shaders without reinstalling, and for tests of a broken one).
    static const FolderSearch found = [] {
        FolderSearch result;
        if (const char* env = std::getenv("WB_SHADERS_DIR"); env != nullptr && *env != '\0') {
            if (is_dir(env)) result.folder = LessonsFolder{env, "$WB_SHADERS_DIR"};
            else result.error = std::string("$WB_SHADERS_DIR=") + env + ": no such folder";
            return result;
        }
        return find_data_folder("shaders");
    }();
    return found;
}

FolderSearch find_lessons_folder(const std::string& explicit_dir) {
    FolderSearch result;
    if (!explicit_dir.empty()) {
        if (is_dir(explicit_dir)) result.folder = LessonsFolder{explicit_dir, "--lessons"};
        else result.error = "--lessons " + explicit_dir + ": no such folder";
        return result;
    }
    if (const char* env = std::getenv("WB_LESSONS_DIR"); env != nullptr && *env != '\0') {
        if (is_dir(env)) result.folder = LessonsFolder{env, "$WB_LESSONS_DIR"};
        else result.error = std::string("$WB_LESSONS_DIR=") + env + ": no such folder";
        return result;
    }
    result = find_data_folder("lessons");
    if (!result.folder) result.error += " (use --lessons DIR or set WB_LESSONS_DIR)";
    return result;
}

std::vector<LessonEntry> load_catalog(const fs::path& dir) {
    std::vector<LessonEntry> entries;
    for (const fs::path& file : list_lessons(dir)) {
        LessonEntry entry;
        entry.file = file;
        // The loader reports problems as issues and is not meant to throw; a
        // throw here would be a loader bug, and it must still not take the
        // whole catalog (or the app) down with it.
        try {
            LoadResult loaded = load_lesson(file);
            entry.lesson = std::move(loaded.lesson);
            entry.issues = std::move(loaded.issues);
        } catch (const std::exception& e) {
            entry.lesson.reset();
            entry.issues.push_back(LessonIssue{file.string(), "", std::string("could not load: ") + e.what()});
        }
        entries.push_back(std::move(entry));
    }
    return entries;
}

}  // namespace wb::app
