// runtime/core/trust.hpp — the lesson folders this user has said they trust.
//
// A lesson from outside the shipped lessons folder carries C++ (its CPU
// reference) that is compiled and run natively, and kernels that run on the
// GPU. The GUI asks once per folder and remembers a "yes" here, in
// <config dir>/trusted_folders.json, written atomically:
//   {"trusted": ["/home/me/my-lessons", ...]}
// A "no" is not remembered: the next start asks again. Folders are stored
// resolved (symlinks followed), so two spellings of one folder agree.
// No GUI code here.
#pragma once

#include <filesystem>
#include <set>

namespace wb {

std::filesystem::path trusted_folders_file();

// The folders in trusted_folders.json. A missing file is an empty set; an
// unreadable or malformed one is reported on stderr and treated as empty (it
// is replaced on the next remember_trusted_folder).
std::set<std::filesystem::path> load_trusted_folders();

// True when `folder` (resolved) is in the file.
bool is_trusted_folder(const std::filesystem::path& folder);

// Adds `folder` (resolved) to the file. Throws wb::Error (Io) when it cannot be written.
void remember_trusted_folder(const std::filesystem::path& folder);

// The one trust rule for a lesson file: shipped (core/data_dirs.hpp), or
// every one of its lesson_trust_folders() is in trusted_folders.json.
bool lesson_is_trusted(const std::filesystem::path& lesson_file);

// Remembers every one of the lesson's lesson_trust_folders().
void remember_lesson_trusted(const std::filesystem::path& lesson_file);

}  // namespace wb
