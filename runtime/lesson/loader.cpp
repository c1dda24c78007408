// runtime/lesson/loader.cpp — turns a lesson file (format 1 or 2) into wb::Lesson (see loader.hpp).
//
// Sections, in order, and the files that hold them: [1] reading and the
// guards that run before nlohmann parses anything (size cap here; UTF-8 and
// nesting depth in json_guards.cpp), [2] the parse itself with a callback
// that catches duplicate keys (json_parse.cpp), [3] shape checks of each JSON
// value (unknown keys, wrong types) that fill the model, and [4] the semantic
// checks that need several sections at once (names an expression uses, args,
// compare buffers, case bounds, image layouts). [3] and [4] are the Loader
// class (loader_impl.hpp), split by the lesson's sections: this file holds the
// entry points, the lesson's top level and a step's merge of the lesson-level
// defaults; load_values.cpp the generic value checks; load_data.cpp params,
// buffers, constants and views; load_launches.cpp host, launches, the
// reference, compile and limits; load_checks.cpp checks, metrics and the baseline.
//
// Why a class full of small parse functions instead of nlohmann's from_json:
// from_json stops at the first exception, and an instructor should see every
// problem in one pass, each at the JSON path where it was written. So nothing
// here throws on bad input; each function records an issue and carries on
// with a harmless default. Step-level keys replace lesson-level defaults
// wholesale, and each merged section is parsed with the path it came from, so
// an issue in a default reads "buffers[2]..." and one in an override reads
// "steps[1].buffers[2]...". A default used by several steps is parsed once per
// step; identical issues are reported once.
#include "lesson/loader.hpp"

#include "core/error.hpp"
#include "core/fs.hpp"
#include "lesson/json_guards.hpp"
#include "lesson/loader_impl.hpp"

#include <algorithm>
#include <set>
#include <utility>

namespace fs = std::filesystem;

namespace wb {

std::string LessonIssue::to_string() const {
    std::string out = file;
    if (line > 0) {
        out += ":" + std::to_string(line);
        if (column > 0) out += ":" + std::to_string(column);
    }
    if (!json_path.empty()) out += (out.empty() ? "" : ": ") + json_path;
    if (!out.empty()) out += ": ";
    return out + message;
}

namespace lesson_load {

namespace {

// The keys a step may take over from the lesson level.
const std::vector<std::string> kDefaultKeys = {"params",  "buffers",  "launches", "constants", "reference", "checks",
                                               "metrics", "baseline", "views",    "compile",   "host",  "limits",
                                               "python"};

}  // namespace

// --- the lesson ---

LoadResult Loader::load_text(const std::string& json_text) {
    const std::string& text_in = json_text;  // "text" is the member that parses Text values
    LoadResult result;
    if (text_in.size() > options_.max_file_bytes) {
        issue("", "file is " + std::to_string(text_in.size()) + " bytes, over the limit of " +
                      std::to_string(options_.max_file_bytes));
        return result;
    }
    if (std::size_t bad = first_invalid_utf8(text_in); bad != std::string::npos) {
        auto [line, col] = line_col(text_in, bad);
        issue("", "invalid UTF-8 (byte " + std::to_string(bad) + "); lesson files must be saved as UTF-8", line, col);
        return result;
    }
    if (std::size_t deep = too_deep_at(text_in, options_.max_depth); deep != std::string::npos) {
        auto [line, col] = line_col(text_in, deep);
        issue("", "JSON nested more than " + std::to_string(options_.max_depth) + " levels deep", line, col);
        return result;
    }

    ParsedJson parsed = parse_json(text_in);
    if (!parsed.ok) {
        auto [line, col] = line_col(text_in, parsed.error_at);
        issue("", "JSON syntax error: " + parsed.error, line, col);
        return result;
    }
    for (const auto& [path, key] : parsed.duplicates) issue(key_path(path, key), "duplicate key '" + key + "'");
    const Json& root = parsed.root;

    if (!root.is_object()) {
        issue("", "a lesson file must be a JSON object ({...}), got " + type_name(root));
        return result;
    }

    // A different format may mean anything else, so stop before guessing.
    if (const Json* f = field(root, "format")) {
        if (!f->is_number_integer() && !f->is_number_unsigned()) {
            issue("format", "expected the number 1 or 2, got " + type_name(*f));
            return result;
        }
        const long long v = f->get<long long>();
        if (v != 1 && v != 2) {
            issue("format", "format " + std::to_string(v) +
                                " is not supported; this version of CUDA Workbook reads formats 1 and 2");
            return result;
        }
        format_ = int(v);
    } else {
        issue("", "missing key 'format' (the number 1 or 2)");
    }

    std::vector<std::string> top_keys = {"$schema", "format", "id", "title", "summary", "steps"};
    top_keys.insert(top_keys.end(), kDefaultKeys.begin(), kDefaultKeys.end());
    check_keys(root, "", top_keys);

    Lesson lesson;
    lesson.format = format_;
    lesson.file = file_;
    lesson.dir = dir_;
    if (auto s = get_string(root, "$schema", "", false)) lesson.schema = *s;
    else if (!field(root, "$schema"))
        issue("", "missing key '$schema'; add \"$schema\": \"./lesson.schema.json\" so editors can check the file");
    if (auto id = get_string(root, "id", "", true)) {
        lesson.id = *id;
        if (!is_lesson_id(*id)) issue("id", "lesson id '" + *id + "' may use only a-z, 0-9 and _");
    }
    if (const Json* t = field(root, "title")) lesson.title = text(*t, "title");
    else issue("", "missing key 'title'");
    if (const Json* t = field(root, "summary")) lesson.summary = text(*t, "summary");

    const Json* steps = field(root, "steps");
    if (!steps) {
        issue("", "missing key 'steps'; a lesson needs at least one step");
    } else if (!steps->is_array()) {
        issue("steps", "expected an array of steps, got " + type_name(*steps));
    } else if (steps->empty()) {
        issue("steps", "a lesson needs at least one step");
    } else {
        std::set<std::string> step_ids;
        std::set<std::string> overridden_everywhere(kDefaultKeys.begin(), kDefaultKeys.end());
        for (std::size_t i = 0; i < steps->size(); ++i) {
            const Json& sj = (*steps)[i];
            Step step;
            parse_step(root, sj, i, step);
            if (!step.id.empty() && !step_ids.insert(step.id).second)
                issue(index_path("steps", i) + ".id", "duplicate step id '" + step.id + "'");
            for (const auto& k : kDefaultKeys) {
                // Format 2 lays a step's "checks" over the lesson's key by key: the lesson's is used
                // unless the step sets every key it has (a step's checks.access alone keeps its cases).
                const Json* own = field(sj, k);
                const Json* shared = field(root, k);
                bool replaced = own != nullptr;
                if (replaced && format_ >= 2 && k == "checks" && own->is_object() && shared && shared->is_object())
                    for (auto it = shared->begin(); it != shared->end(); ++it) replaced = replaced && own->contains(it.key());
                if (!replaced) overridden_everywhere.erase(k);
            }
            lesson.steps.push_back(std::move(step));
        }
        for (std::size_t i = 0; i < lesson.steps.size(); ++i) {
            const auto& t = lesson.steps[i].checks.target;
            if (!t || t->step.empty()) continue;
            const Step* other = nullptr;
            for (const auto& s : lesson.steps)
                if (s.id == t->step) other = &s;
            if (!other) issue(t->json_path + ".step", "no step '" + t->step + "' in this lesson to compare with");
            else if (other == &lesson.steps[i]) issue(t->json_path + ".step", "a step cannot be its own target");
            else if (other->is_host() != lesson.steps[i].is_host())
                issue(t->json_path + ".step", lesson.steps[i].is_host()
                                                  ? "step '" + t->step + "' is not a host step; a host step's target compares host steps"
                                                  : "step '" + t->step + "' is a host step; a kernel step's target compares kernel steps");
        }
        for (const auto& k : kDefaultKeys)
            if (overridden_everywhere.count(k) && field(root, k))
                issue(k, "this lesson-level '" + k + "' is never used: every step sets its own; remove one of them");
    }

    if (issues_.empty()) result.lesson = std::move(lesson);
    return result;
}

void Loader::parse_step(const Json& root, const Json& sj, std::size_t index, Step& step) {
    const std::string path = index_path("steps", index);
    step.json_path = path;
    if (!want_object(sj, path, "a step object")) return;

    std::vector<std::string> keys = {"id", "title", "instructions", "starter", "solution", "hints"};
    keys.insert(keys.end(), kDefaultKeys.begin(), kDefaultKeys.end());
    check_keys(sj, path, keys);

    if (auto id = get_string(sj, "id", path, true)) {
        step.id = *id;
        if (!is_step_id(*id)) issue(path + ".id", "step id '" + *id + "' may use only letters, digits, _ and -");
    }
    if (const Json* t = field(sj, "title")) step.title = text(*t, path + ".title");
    if (const Json* t = field(sj, "instructions")) step.instructions = text(*t, path + ".instructions");
    if (const Json* s = field(sj, "starter")) step.starter = source(*s, path + ".starter");
    else issue(path, "missing key 'starter' (the code the student starts from)");
    if (const Json* s = field(sj, "solution")) step.solution = source(*s, path + ".solution");
    else issue(path, "missing key 'solution' (a kernel that passes the checks)");
    if (const Json* h = field(sj, "hints")) {
        if (!h->is_array()) issue(path + ".hints", "expected an array of hints, got " + type_name(*h));
        else
            for (std::size_t i = 0; i < h->size(); ++i) step.hints.push_back(text((*h)[i], index_path(path + ".hints", i)));
    }

    // Merge: a step's own key replaces the lesson-level default wholesale;
    // in format 2 a step's "checks" object is laid over the lesson's, key by
    // key, so a step can tighten a tolerance without copying the cases.
    auto section = [&](const std::string& key) {
        const Json* own = field(sj, key);
        const Json* shared = field(root, key);
        if (format_ >= 2 && key == "checks" && own && shared && own->is_object() && shared->is_object()) {
            Json merged = *shared;
            Section merged_section;
            for (auto it = shared->begin(); it != shared->end(); ++it)
                if (!own->contains(it.key())) merged_section.inherited.insert(it.key());
            for (auto it = own->begin(); it != own->end(); ++it) merged[it.key()] = it.value();
            merged_.push_back(std::move(merged));
            merged_section.value = &merged_.back();
            merged_section.path = path + "." + key;
            return merged_section;
        }
        if (own) return Section{own, path + "." + key};
        if (shared) return Section{shared, key};
        return Section{nullptr, key};
    };
    param_names_.clear();
    parse_params(section("params"), step);
    parse_buffers(section("buffers"), step);
    parse_constants(section("constants"), step);
    parse_host(section("host"), step);
    parse_launches(section("launches"), step);
    parse_reference(section("reference"), step);
    parse_python(section("python"), step);
    parse_checks(section("checks"), step);
    parse_metrics(section("metrics"), step);
    parse_baseline(section("baseline"), step);
    parse_views(section("views"), step);
    parse_compile(section("compile"), step);
    parse_limits(section("limits"), step);
}

}  // namespace lesson_load

LoadResult load_lesson_text(const std::string& json_text, const fs::path& file, const LoadOptions& options) {
    LoadResult result;
    fs::path dir = file.parent_path();
    if (dir.empty()) dir = ".";
    lesson_load::Loader loader(file.string(), dir, options);
    try {
        result = loader.load_text(json_text);
    } catch (const std::exception& e) {
        // A bug here must not take the GUI down with the instructor's work.
        loader.issue("", std::string("internal error while loading the lesson: ") + e.what());
    } catch (...) {
        loader.issue("", "internal error while loading the lesson");
    }
    result.issues = loader.take_issues();
    if (!result.issues.empty()) result.lesson.reset();
    else result.lesson->json_text = json_text;
    return result;
}

LoadResult load_lesson(const fs::path& file, const LoadOptions& options) {
    std::string text;
    try {
        text = read_file(file, options.max_file_bytes);
    } catch (const Error& e) {
        LoadResult r;
        r.issues.push_back({file.string(), "", e.message()});
        return r;
    } catch (const std::exception& e) {
        LoadResult r;
        r.issues.push_back({file.string(), "", std::string("cannot read the file: ") + e.what()});
        return r;
    }
    return load_lesson_text(text, file, options);
}

std::vector<fs::path> list_lessons(const fs::path& folder) {
    std::vector<fs::path> out;
    std::error_code ec;
    for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
        const fs::path& p = it->path();
        const std::string name = p.filename().string();
        if (p.extension() != ".json") continue;
        if (name.size() >= 12 && name.compare(name.size() - 12, 12, ".schema.json") == 0) continue;
        std::error_code ec2;
        if (!it->is_regular_file(ec2)) continue;
        out.push_back(p);
    }
    std::sort(out.begin(), out.end());
    return out;
}

}  // namespace wb
