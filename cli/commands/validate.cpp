// cli/commands/validate.cpp — `cuda-workbook-cli validate <lesson.json or folder...>`.
//
// Loads each lesson and prints every problem as `file: json.path: message`.
// A folder stands for every lesson JSON directly inside it (list_lessons), as
// in `check`. Files named *.schema.json are skipped with one line, so that
// `validate lessons/*.json` does not load lessons/lesson.schema.json as a
// lesson. Runs nothing, so it needs neither a GPU nor --trust. A lesson that
// loads may still get warnings (lesson/warnings.hpp: Chinese words the term
// list replaced, a baseline whose output no compare names), printed as
// `file: json.path: warning: ...`; they do not change the exit status.
#include "commands.hpp"

#include "common.hpp"
#include "lesson/loader.hpp"
#include "lesson/warnings.hpp"

#include <iostream>

using nlohmann::json;

namespace wb::cli {

namespace {

int validate_main(const Args& a) {
    if (a.positional.empty()) throw UsageError("validate needs at least one lesson file or folder");
    const std::vector<std::string> files = expand_lesson_args(a.positional);
    if (files.empty()) throw UsageError("no lesson files found in the given folders");
    bool as_json = a.flag("--json");
    json out = json::array();
    int bad = 0;
    for (const auto& p : files) {
        if (is_schema_file(p)) {
            if (as_json) out.push_back({{"file", p}, {"ok", true}, {"skipped", "a JSON Schema, not a lesson"}});
            else std::cout << p << ": skipped: a JSON Schema, not a lesson\n";
            continue;
        }
        LoadResult lr = load_lesson(p);
        if (!lr.ok()) ++bad;
        const std::vector<LessonIssue> warnings = lr.ok() ? lesson_warnings(*lr.lesson, p) : std::vector<LessonIssue>{};
        if (as_json) {
            out.push_back({{"file", p}, {"ok", lr.ok()}, {"issues", issues_json(lr.issues)}, {"warnings", issues_json(warnings)}});
        } else if (lr.ok()) {
            const std::size_t steps = lr.lesson->steps.size();
            std::cout << p << ": ok (" << lr.lesson->id << ", " << steps << (steps == 1 ? " step)\n" : " steps)\n");
            for (const LessonIssue& w : warnings) std::cout << w.file << ": " << w.json_path << ": warning: " << w.message << "\n";
        } else {
            print_issues(lr.issues);
        }
    }
    if (as_json) std::cout << out.dump(2) << "\n";
    return bad ? kInvalidLesson : kOk;
}

}  // namespace

CommandSpec validate_command() {
    CommandSpec c;
    c.name = "validate";
    c.operands = "<lesson or folder...>";
    c.summary = "check lesson files against the format";
    c.about =
        "Checks each lesson file: JSON syntax, the format, file references, expressions.\n"
        "Each problem is printed as  file: json.path: message\n"
        "A folder stands for every lesson in it; *.schema.json files are skipped.\n"
        "Chinese words the term list replaced are warnings (file: json.path: warning: ...),\n"
        "which leave the exit status alone.\n";
    c.options = {flag_option("--json", "print the results as JSON")};
    c.run = validate_main;
    return c;
}

}  // namespace wb::cli
