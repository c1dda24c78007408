// runtime/lesson/lesson_files.hpp — the files a lesson was made from, and a
// stamp of each (size and modification time), to notice an edit without
// reading the file again: the GUI's reload and the worker's parsed-lesson cache.
#pragma once

#include "lesson/lesson.hpp"

#include <cstdint>
#include <filesystem>
#include <vector>

namespace wb {

struct FileStamp {
    std::filesystem::path file;
    bool exists = false;
    std::uintmax_t size = 0;
    std::filesystem::file_time_type mtime{};

    bool operator==(const FileStamp&) const = default;
};

FileStamp stamp_file(const std::filesystem::path& file);
// Every file a lesson was made from: its JSON, then each step's starter,
// solution and reference files and image assets (inline sources have none).
std::vector<std::filesystem::path> lesson_files(const Lesson& lesson);

}  // namespace wb
