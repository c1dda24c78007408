// runtime/lesson/warnings.cpp — what `validate` warns about (warnings.hpp).
#include "lesson/warnings.hpp"

#include "lesson/text_lint.hpp"

#include <algorithm>

namespace wb {

std::vector<LessonIssue> lesson_warnings(const Lesson& lesson, const std::string& file) {
    std::vector<LessonIssue> out = lesson_text_warnings(lesson, file);
    for (const Step& step : lesson.steps) {
        if (!step.baseline || step.baseline->kind == BaselineKind::Memcpy) continue;  // a copy is checked byte for byte
        const BaselineSpec& b = *step.baseline;
        const std::string role = baseline_output_role(b.kind);
        const auto it = b.buffers.find(role);
        if (it == b.buffers.end()) continue;
        const auto& compare = step.checks.compare;
        if (std::any_of(compare.begin(), compare.end(), [&](const CompareSpec& c) { return c.buffer == it->second; }))
            continue;
        LessonIssue w;
        w.file = file;
        w.json_path = b.json_path + "." + role;
        w.message = "the baseline writes '" + it->second + "', which no compare of step '" + step.id +
                    "' names: " + baseline_kind_name(b.kind) +
                    " is timed, but its output is never checked (add a compare for it, or write into a compared buffer)";
        out.push_back(std::move(w));
    }
    return out;
}

}  // namespace wb
