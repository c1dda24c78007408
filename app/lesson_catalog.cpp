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

std::vector<DataCandidate> data_folder_candidates(const std::string& name) {
    std::vector<DataCandidate> out;
    const fs::path exe_dir = executable_dir();
    // <build>/app/cuda-workbook and <build>/cli/cuda-workbook-cli: CMakeCache.txt
    // marks <build> as a build tree, whose data is the source tree it was built from.
    std::error_code ec;
    const bool in_build_tree = !exe_dir.empty() && fs::exists(exe_dir.parent_path() / "CMakeCache.txt", ec);
    const fs::path source = std::string(WB_APP_SOURCE_DIR).empty() ? fs::path() : fs::path(WB_APP_SOURCE_DIR) / name;
    const fs::path beside_exe =
        exe_dir.empty() ? fs::path() : (exe_dir / ".." / "share" / "cuda-workbook" / name).lexically_normal();
    const fs::path installed =
        std::string(WB_APP_INSTALL_DATA_DIR).empty() ? fs::path() : fs::path(WB_APP_INSTALL_DATA_DIR) / name;
    if (in_build_tree) {
        out.push_back({source, "source tree"});
        out.push_back({(exe_dir / ".." / ".." / name).lexically_normal(), "build tree"});
    }
    // Installed (or an install moved elsewhere): <prefix>/bin beside <prefix>/share.
    // This comes before the compiled-in source folder, so an installed binary
    // never reads the tree it was built from, even while that tree still exists.
    out.push_back({beside_exe, "install"});
    out.push_back({installed, "install"});
    if (!in_build_tree) out.push_back({source, "source tree"});
    return out;
}

FolderSearch find_data_folder(const std::string& name) {
    FolderSearch result;
    std::string tried;
    for (const DataCandidate& c : data_folder_candidates(name)) {
        if (c.dir.empty()) continue;
        if (is_dir(c.dir)) {
            result.folder = LessonsFolder{c.dir.lexically_normal(), c.found_by};
            return result;
        }
        tried += " " + c.dir.string();
    }
    result.error = "no " + name + " folder found; tried" + tried;
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
