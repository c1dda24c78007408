// runtime/grade/submissions.hpp — a class's submissions for one lesson: which
// file each student handed in for each step.
//
// Two ways to say it:
//  - a folder with one subfolder per student, holding one file per step named
//    `step<N>.cu` (N from 1) or `<step-id>.cu`;
//  - a manifest: CSV with the header `student,step,file`, or JSON
//    {"<student>": {"<step N or id>": "<file>", ...}, ...}; files relative to
//    the manifest's folder.
// A step with no file is a zero for that step (grade.hpp), never an error.
// Student ids become folder names in the output, so an id must be a plain
// name: letters, digits, '.', '_', '-', '@' and non-ASCII letters; not "." or "..".
#pragma once

#include "lesson/lesson.hpp"

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace wb {

struct Submission {
    std::string student;
    std::map<std::string, std::filesystem::path> files;  // step id -> the file handed in
    std::vector<std::string> notes;  // files that name no step of the lesson, said in the student's log
};

// Sorted by student id. Throws wb::Error naming the file (and line or JSON
// path) for a manifest that does not read, or an id that cannot be a folder.
std::vector<Submission> find_submissions(const std::filesystem::path& folder_or_manifest, const Lesson& lesson);

// Whether `id` can name a student's output folder; why not in `why`.
bool valid_student_id(const std::string& id, std::string& why);

}  // namespace wb
