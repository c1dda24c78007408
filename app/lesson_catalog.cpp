// app/lesson_catalog.cpp — lessons folder search and loading (lesson_catalog.hpp).
#include "lesson_catalog.hpp"

#include <cstdlib>
#include <exception>
#include <system_error>

#ifndef WB_APP_SOURCE_DIR
#define WB_APP_SOURCE_DIR ""
#endif
#ifndef WB_APP_INSTALL_DATA_DIR
#define WB_APP_INSTALL_DATA_DIR ""
#endif

namespace fs = std::filesystem;

namespace wb::app {
namespace {

bool is_dir(const fs::path& p) {
    std::error_code ec;
    return !p.empty() && fs::is_directory(p, ec);
}

fs::path executable_dir() {
    std::error_code ec;
    fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    return ec ? fs::path() : exe.parent_path();
}

}  // namespace

std::string LessonEntry::id() const {
    if (lesson) return lesson->id;
    return file.stem().string();
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

    std::vector<fs::path> tried;
    auto accept = [&](const fs::path& dir, const char* how) {
        tried.push_back(dir);
        if (!is_dir(dir)) return false;
        result.folder = LessonsFolder{dir.lexically_normal(), how};
        return true;
    };
    // Build tree: <build>/app/cuda-workbook, with the sources one level above
    // <build>. CMakeCache.txt is the marker that <build> really is a build tree,
    // so an installed binary never picks up an unrelated ../../lessons.
    fs::path exe_dir = executable_dir();
    std::error_code ec;
    if (!exe_dir.empty() && fs::exists(exe_dir.parent_path() / "CMakeCache.txt", ec) &&
        accept(exe_dir / ".." / ".." / "lessons", "build tree"))
        return result;
    if (accept(fs::path(WB_APP_SOURCE_DIR) / "lessons", "source tree")) return result;
    // A relocated install: <prefix>/bin/cuda-workbook and <prefix>/share/cuda-workbook.
    if (!exe_dir.empty() && accept(exe_dir / ".." / "share" / "cuda-workbook" / "lessons", "install"))
        return result;
    if (accept(fs::path(WB_APP_INSTALL_DATA_DIR) / "lessons", "install")) return result;

    result.error = "no lessons folder found; tried";
    for (const auto& p : tried) result.error += " " + p.string();
    result.error += " (use --lessons DIR or set WB_LESSONS_DIR)";
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
