// runtime/grade/graded_lesson.cpp — hidden cases and the grade's seed, laid
// into the lesson's JSON before it is loaded (graded_lesson.hpp). The result's
// json_text is that JSON, so a worker, local or remote, runs the same lesson.
#include "grade/graded_lesson.hpp"

#include "core/error.hpp"
#include "core/fs.hpp"
#include "lesson/loader.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace fs = std::filesystem;
using nlohmann::json;

namespace wb {

namespace {

json parse(const fs::path& p) {
    try {
        return json::parse(read_file(p));
    } catch (const json::parse_error& e) {
        throw Error(ErrorKind::Lesson, std::string("not JSON: ") + e.what(), {p.string()});
    }
}

// Every uniform or normal init in `j`, wherever it is (a buffer's, a case's inputs).
void reseed(json& j, std::uint64_t grade_seed) {
    if (j.is_object()) {
        const auto kind = j.find("kind");
        if (kind != j.end() && kind->is_string() && (*kind == "uniform" || *kind == "normal")) {
            std::uint64_t own = 1;  // the loader's default (lesson.hpp)
            const auto s = j.find("seed");
            if (s != j.end() && s->is_number() && s->get<double>() >= 0) own = static_cast<std::uint64_t>(s->get<double>());
            j["seed"] = mixed_seed(own, grade_seed);
        }
        for (auto& [k, v] : j.items()) reseed(v, grade_seed);
    } else if (j.is_array()) {
        for (auto& v : j) reseed(v, grade_seed);
    }
}

}  // namespace

std::uint64_t mixed_seed(std::uint64_t own, std::uint64_t grade_seed) {
    std::uint64_t z = own * 0x9E3779B97F4A7C15ull + grade_seed + 0x632BE59BD9B4E019ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return z & ((std::uint64_t(1) << 53) - 1);
}

std::shared_ptr<const Lesson> graded_lesson(const fs::path& lesson_file, const std::optional<fs::path>& hidden_file,
                                            std::optional<std::uint64_t> seed) {
    json root = parse(lesson_file);
    // Where each appended case came from, for the loader's messages: the merged
    // document's case path -> the hidden file's.
    std::vector<std::pair<std::string, std::string>> origin;
    if (hidden_file) {
        const json hidden = parse(*hidden_file);
        const std::string hf = hidden_file->string();
        if (!hidden.is_object() || !hidden.contains("steps") || !hidden["steps"].is_object())
            throw Error(ErrorKind::Lesson, "a hidden-cases file is {\"steps\": {\"<step id or N>\": [<case>, ...]}}", {hf, "$"});
        for (auto it = hidden.begin(); it != hidden.end(); ++it)
            if (it.key() != "steps") throw Error(ErrorKind::Lesson, "unknown key '" + it.key() + "'; the file holds only \"steps\"", {hf, it.key()});
        if (!root.contains("steps") || !root["steps"].is_array())
            throw Error(ErrorKind::Lesson, "the lesson has no steps array", {lesson_file.string(), "steps"});
        json& steps = root["steps"];
        for (auto it = hidden["steps"].begin(); it != hidden["steps"].end(); ++it) {
            const std::string path = "steps." + it.key();
            std::size_t index = steps.size();
            for (std::size_t i = 0; i < steps.size(); ++i)
                if (steps[i].value("id", std::string()) == it.key()) index = i;
            const std::string& k = it.key();
            if (index == steps.size() && !k.empty() && std::all_of(k.begin(), k.end(), ::isdigit) && k.size() < 6) {
                const std::size_t n = std::stoul(k);
                if (n >= 1 && n <= steps.size()) index = n - 1;
            }
            if (index == steps.size()) throw Error(ErrorKind::Lesson, "the lesson has no step '" + k + "' (an id, or a number from 1)", {hf, path});
            if (!it.value().is_array() || it.value().empty())
                throw Error(ErrorKind::Lesson, "expected a non-empty array of cases", {hf, path});
            json& step = steps[index];
            // The step's cases as the loader sees them: its own checks over the lesson's.
            if (!step.contains("checks") || !step["checks"].is_object())
                step["checks"] = root.contains("checks") && root["checks"].is_object() ? root["checks"] : json::object();
            json& checks = step["checks"];
            if (!checks.contains("cases")) {
                const json* shared = root.contains("checks") && root["checks"].is_object() && root["checks"].contains("cases")
                                         ? &root["checks"]["cases"]
                                         : nullptr;
                checks["cases"] = shared ? *shared : json::array();
            }
            json& cases = checks["cases"];
            if (!cases.is_array()) throw Error(ErrorKind::Lesson, "the step's cases are not an array", {lesson_file.string(), "steps[" + std::to_string(index) + "].checks.cases"});
            for (std::size_t c = 0; c < it.value().size(); ++c) {
                json hc = it.value()[c];
                if (hc.is_object()) hc["hidden"] = true;
                origin.emplace_back("steps[" + std::to_string(index) + "].checks.cases[" + std::to_string(cases.size()) + "]",
                                    path + "[" + std::to_string(c) + "]");
                cases.push_back(std::move(hc));
            }
        }
    }
    // A lesson-level "checks" that every step now overrides would be refused as unused.
    if (hidden_file && root.contains("checks") &&
        std::all_of(root["steps"].begin(), root["steps"].end(), [](const json& s) { return s.contains("checks"); }))
        root.erase("checks");
    if (seed) reseed(root, *seed);

    const std::string text = root.dump(2);
    LoadResult lr = load_lesson_text(text, lesson_file);
    if (!lr.ok()) {
        const LessonIssue& first = lr.issues.front();
        for (const auto& [merged, own] : origin)
            if (first.json_path.rfind(merged, 0) == 0)
                throw Error(ErrorKind::Lesson, first.message, {hidden_file->string(), own + first.json_path.substr(merged.size())});
        throw Error(ErrorKind::Lesson, first.message, {lesson_file.string(), first.json_path, first.line, first.column});
    }
    return std::make_shared<const Lesson>(std::move(*lr.lesson));
}

}  // namespace wb
