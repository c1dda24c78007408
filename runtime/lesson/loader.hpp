// runtime/lesson/loader.hpp — reads and checks a lesson file.
//
// The loader never throws for a bad lesson and never crashes: every problem
// becomes a LessonIssue naming the file, the JSON path and what was expected,
// e.g. `lessons/06_matmul.json: steps[1].buffers[2].shape[0]: unknown parameter 'K'`.
// It collects as many issues as it can (up to a cap) so an instructor fixes
// them in one pass.
#pragma once

#include "lesson/lesson.hpp"

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace wb {

struct LessonIssue {
    std::string file;       // as the user named it
    std::string json_path;  // "" for whole-file problems (parse error, size cap)
    std::string message;    // what was wrong and what was expected
    int line = 0;           // for JSON syntax errors: 1-based line in the file
    int column = 0;

    std::string to_string() const;  // "file: json_path: message" or "file:line:col: message"
};

struct LoadOptions {
    std::size_t max_file_bytes = 4u << 20;  // lesson JSON and referenced source files
    int max_depth = 32;                     // JSON nesting
    std::size_t max_issues = 50;
    // Folder for image assets named by "init": {"kind": "image", "file": ...}.
    // Images are looked up in the lesson's folder, then "<lesson dir>/assets",
    // then here; empty: then "<lesson dir>/../assets" and the shipped assets.
    std::filesystem::path assets_dir;
};

struct LoadResult {
    std::optional<Lesson> lesson;  // set only when issues is empty
    std::vector<LessonIssue> issues;

    bool ok() const { return lesson.has_value(); }
};

LoadResult load_lesson(const std::filesystem::path& file, const LoadOptions& options = {});

// Same as load_lesson, for text already in memory (tests, the GUI's editor).
// `file` is used for messages and to resolve file references.
LoadResult load_lesson_text(const std::string& json_text, const std::filesystem::path& file,
                            const LoadOptions& options = {});

// All *.json lesson files directly inside `folder` (not the schema), sorted by name.
std::vector<std::filesystem::path> list_lessons(const std::filesystem::path& folder);

}  // namespace wb
