// app/lesson_catalog.cpp — lessons folder search and loading (lesson_catalog.hpp).
#include "lesson_catalog.hpp"

#include "json_path_line.hpp"

#include "core/fs.hpp"

#include <algorithm>
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

LessonEntry load_entry(const fs::path& file, const std::vector<fs::path>& previous) {
    LessonEntry entry;
    entry.file = file;
    // Stamped before reading: an edit that lands while the file is read shows
    // as a change at the next look, never as nothing.
    entry.stamps.push_back(stamp_file(file));
    for (const fs::path& side : previous)
        if (side != file) entry.stamps.push_back(stamp_file(side));
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
    if (entry.lesson) {
        // Exactly the files this version was made from: one the lesson no
        // longer names is no reason to reload it.
        std::vector<FileStamp> stamps;
        for (const fs::path& side : lesson_files(*entry.lesson)) {
            const auto known = std::find_if(entry.stamps.begin(), entry.stamps.end(),
                                            [&](const FileStamp& s) { return s.file == side; });
            stamps.push_back(known != entry.stamps.end() ? *known : stamp_file(side));
        }
        entry.stamps = std::move(stamps);
    }
    // The loader gives a line only for syntax errors; the rest name a JSON
    // path, and an instructor fixing the file wants the line as well.
    bool need_lines = false;
    for (const LessonIssue& issue : entry.issues) need_lines |= issue.line == 0 && !issue.json_path.empty();
    if (need_lines) {
        try {
            const std::string text = read_file(file);
            for (LessonIssue& issue : entry.issues)
                if (issue.line == 0 && !issue.json_path.empty()) issue.line = json_path_line(text, issue.json_path);
        } catch (const std::exception&) {
            // Unreadable now: the issues keep their paths, which is what they had.
        }
    }
    return entry;
}

std::vector<LessonEntry> load_catalog(const fs::path& dir) {
    std::vector<LessonEntry> entries;
    for (const fs::path& file : list_lessons(dir)) entries.push_back(load_entry(file));
    return entries;
}

}  // namespace wb::app
