// runtime/lesson/text_lint.cpp — warnings about a lesson's Chinese text (text_lint.hpp).
#include "lesson/text_lint.hpp"

#include "core/terms.hpp"

namespace wb {

namespace {

void check(const LocalizedText& text, const std::string& json_path, const std::string& file, std::vector<LessonIssue>& out) {
    for (const auto& [lang, body] : text.by_lang) {
        if (lang.rfind("zh", 0) != 0) continue;
        for (const ReplacedTerm& t : chinese_term_problems(body)) {
            LessonIssue i;
            i.file = file;
            i.json_path = json_path + "." + lang;
            i.message = "uses " + std::string(t.word) + " where the term list says " + std::string(t.term);
            out.push_back(std::move(i));
        }
    }
}

}  // namespace

std::vector<LessonIssue> lesson_text_warnings(const Lesson& lesson, const std::string& file) {
    std::vector<LessonIssue> out;
    check(lesson.title, "title", file, out);
    check(lesson.summary, "summary", file, out);
    for (const Step& step : lesson.steps) {
        check(step.title, step.json_path + ".title", file, out);
        check(step.instructions, step.json_path + ".instructions", file, out);
        for (std::size_t h = 0; h < step.hints.size(); ++h)
            check(step.hints[h], step.json_path + ".hints[" + std::to_string(h) + "]", file, out);
        for (const Param& p : step.params) check(p.description, p.json_path + ".description", file, out);
    }
    return out;
}

}  // namespace wb
