// runtime/lesson/warnings.hpp — everything `cuda-workbook-cli validate` warns an author about
// in a lesson that loads: the Chinese text's replaced terms (text_lint.hpp), and a baseline whose
// output no compare names, so the vendor kernel is timed but its output never checked.
// Warnings, not errors: the lesson loads and runs as it is.
#pragma once

#include "lesson/lesson.hpp"
#include "lesson/loader.hpp"

#include <string>
#include <vector>

namespace wb {

// Each warning with the JSON path it is about ("steps[1].baseline.c", "summary.zh").
std::vector<LessonIssue> lesson_warnings(const Lesson& lesson, const std::string& file);

}  // namespace wb
