// runtime/lesson/text_lint.hpp — what `cuda-workbook-cli validate` warns about in a
// lesson's Chinese text: words the term list replaced (core/terms.hpp), so an
// instructor's lesson speaks the window's terms. Warnings, not errors: the
// lesson loads and runs as it is. (The shipped lessons are held to it, and to
// Markdown that renders, by the app's LessonTextLint test.)
#pragma once

#include "lesson/lesson.hpp"
#include "lesson/loader.hpp"

#include <string>
#include <vector>

namespace wb {

// One warning per replaced word per text, with the JSON path of the text
// ("summary.zh", "steps[1].hints[0].zh", "steps[0].params.N.description.zh").
std::vector<LessonIssue> lesson_text_warnings(const Lesson& lesson, const std::string& file);

}  // namespace wb
