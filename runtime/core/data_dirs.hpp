// runtime/core/data_dirs.hpp — where the shipped data (lessons/, assets/,
// shaders/) lives, and whether a lesson file is one of the shipped lessons.
//
// One rule for the app and the CLI, so both agree on which lessons are the
// shipped ones. A binary in a build tree (its parent folder holds
// CMakeCache.txt) reads the source tree it was built from, then
// <exe>/../../name; any other binary reads <exe>/../share/cuda-workbook/name
// (an install, also one moved to another prefix), the compiled-in install
// folder, and last the source tree. The shipped lessons are trusted: every
// other lesson carries C++ (its CPU reference) that would be compiled and run
// on this computer, so the front ends ask before they compile or run it.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace wb {

// One place where a shipped data folder may live, and what to call it in messages.
struct DataCandidate {
    std::filesystem::path dir;
    std::string found_by;  // "source tree", "build tree", "install"
};

// Where shipped data folder `name` ("lessons", "assets", "shaders") is looked
// for, in order (see the header comment). Entries may be empty paths.
std::vector<DataCandidate> data_folder_candidates(const std::string& name);

// The first of data_folder_candidates(name) that is a folder, or nullopt with
// `tried` (when given) listing the places looked at.
std::optional<DataCandidate> find_data_folder(const std::string& name, std::string* tried = nullptr);

// The shipped lessons folder, as find_data_folder("lessons") finds it, resolved
// (symlinks followed). nullopt when there is none.
std::optional<std::filesystem::path> shipped_lessons_folder();

// True when `file`, with every symlink resolved, lies inside `folder` (also resolved).
bool is_inside_folder(const std::filesystem::path& file, const std::filesystem::path& folder);

// The folders whose trust a lesson needs, resolved: the folder it was opened
// from, whose side files (starter, solution, CPU reference) the loader reads,
// and, when the file is a symlink that leads elsewhere, the folder of the JSON
// it leads to (the JSON may hold C++ inline). The first is the one to name.
std::vector<std::filesystem::path> lesson_trust_folders(const std::filesystem::path& lesson_file);

// lesson_trust_folders(lesson_file).front(): the folder a prompt asks about.
std::filesystem::path lesson_trust_folder(const std::filesystem::path& lesson_file);

// True when every one of lesson_trust_folders(lesson_file) is the shipped
// lessons folder or inside it. A symlink elsewhere that leads to a shipped
// lesson is not shipped (its side files come from its own folder), and
// neither is a symlink in lessons/ that leads elsewhere.
bool is_shipped_lesson(const std::filesystem::path& lesson_file);

// The sentence both front ends give for an untrusted lesson (without the
// front end's own "add --trust" / "Trust" advice).
std::string untrusted_lesson_explanation();

}  // namespace wb
