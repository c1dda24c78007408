// runtime/core/data_dirs.cpp — shipped data folders and the shipped-lesson
// test (data_dirs.hpp).
#include "core/data_dirs.hpp"

#include "core/phrase.hpp"

#include <system_error>

#ifndef WB_SOURCE_DATA_DIR
#define WB_SOURCE_DATA_DIR ""
#endif
#ifndef WB_INSTALL_DATA_DIR
#define WB_INSTALL_DATA_DIR ""
#endif

namespace fs = std::filesystem;

namespace wb {
namespace {

fs::path executable_dir() {
    std::error_code ec;
    fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    return ec ? fs::path() : exe.parent_path();
}

// Symlinks resolved, `..` removed; the part that does not exist is kept as written.
fs::path resolved(const fs::path& p) {
    std::error_code ec;
    fs::path abs = fs::absolute(p, ec);
    if (ec) return p.lexically_normal();
    fs::path r = fs::weakly_canonical(abs, ec);
    return ec ? abs.lexically_normal() : r;
}

}  // namespace

std::vector<DataCandidate> data_folder_candidates(const std::string& name) {
    std::vector<DataCandidate> out;
    const fs::path exe_dir = executable_dir();
    // <build>/app/cuda-workbook and <build>/cli/cuda-workbook-cli: CMakeCache.txt
    // marks <build> as a build tree, whose data is the source tree it was built from.
    std::error_code ec;
    const bool in_build_tree = !exe_dir.empty() && fs::exists(exe_dir.parent_path() / "CMakeCache.txt", ec);
    const fs::path source = std::string(WB_SOURCE_DATA_DIR).empty() ? fs::path() : fs::path(WB_SOURCE_DATA_DIR) / name;
    const fs::path beside_exe =
        exe_dir.empty() ? fs::path() : (exe_dir / ".." / "share" / "cuda-workbook" / name).lexically_normal();
    const fs::path installed =
        std::string(WB_INSTALL_DATA_DIR).empty() ? fs::path() : fs::path(WB_INSTALL_DATA_DIR) / name;
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

std::optional<DataCandidate> find_data_folder(const std::string& name, std::string* tried) {
    for (const DataCandidate& c : data_folder_candidates(name)) {
        if (c.dir.empty()) continue;
        std::error_code ec;
        if (fs::is_directory(c.dir, ec)) return DataCandidate{c.dir.lexically_normal(), c.found_by};
        if (tried) *tried += (tried->empty() ? "" : " ") + c.dir.string();
    }
    return std::nullopt;
}

std::optional<fs::path> shipped_lessons_folder() {
    // Looked up once: it cannot change while the program runs.
    static const std::optional<fs::path> found = []() -> std::optional<fs::path> {
        if (auto c = find_data_folder("lessons")) return resolved(c->dir);
        return std::nullopt;
    }();
    return found;
}

bool is_inside_folder(const fs::path& file, const fs::path& folder) {
    // Relative to the folder, a file inside starts with neither ".." nor is
    // "." itself; /a/lessons2/x.json is not inside /a/lessons.
    const fs::path rel = resolved(file).lexically_relative(resolved(folder));
    return !rel.empty() && rel != "." && *rel.begin() != "..";
}

namespace {

// True when `folder` is `root` or lies inside it (both resolved).
bool folder_within(const fs::path& folder, const fs::path& root) {
    const fs::path rel = folder.lexically_relative(root);
    return rel == "." || (!rel.empty() && *rel.begin() != "..");
}

}  // namespace

std::vector<fs::path> lesson_trust_folders(const fs::path& lesson_file) {
    // The loader reads side files relative to the folder the lesson was
    // opened from (a symlink's own folder), and the JSON itself, which may
    // hold inline C++, from wherever the symlink leads.
    std::error_code ec;
    fs::path opened = fs::absolute(lesson_file, ec);
    if (ec) opened = lesson_file;
    std::vector<fs::path> folders{resolved(opened.parent_path())};
    const fs::path real = resolved(lesson_file).parent_path();
    if (real != folders[0]) folders.push_back(real);
    return folders;
}

fs::path lesson_trust_folder(const fs::path& lesson_file) { return lesson_trust_folders(lesson_file).front(); }

bool is_shipped_lesson(const fs::path& lesson_file) {
    const auto shipped = shipped_lessons_folder();
    if (!shipped) return false;
    for (const fs::path& folder : lesson_trust_folders(lesson_file))
        if (!folder_within(folder, *shipped)) return false;
    return true;
}

std::string untrusted_lesson_explanation() {
    return render({{"trust.explanation", {}}}, "en");
}

}  // namespace wb
