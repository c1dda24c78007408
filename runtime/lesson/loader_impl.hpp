// runtime/lesson/loader_impl.hpp — the Loader class that checks a lesson and
// fills the model, shared by the files it is split into, and the small helpers
// they use for names, paths and messages. Private to the loader: only
// lesson/loader.cpp and lesson/load_*.cpp include it.
//
//   loader.cpp         the entry points, the lesson's top level, a step's merge of the lesson-level defaults
//   load_values.cpp    the small helpers and the generic value checks (keys, strings, numbers, text,
//                      source, expressions, types)
//   load_data.cpp      params, buffers and their inits (images included), constants, views
//   load_launches.cpp  host, launches (args, swap), the reference, compile, limits
//   load_checks.cpp    checks (compare, cases, target, access), metrics, the baseline
#pragma once

#include "lesson/json_parse.hpp"
#include "lesson/loader.hpp"

#include <array>
#include <cstddef>
#include <deque>
#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace wb::lesson_load {

namespace fs = std::filesystem;

// ---------------------------------------------------------------------------
// Small helpers for paths and messages (load_values.cpp)
// ---------------------------------------------------------------------------

bool is_identifier(const std::string& s);
bool is_lesson_id(const std::string& s);
bool is_step_id(const std::string& s);
bool is_lang_tag(const std::string& s);  // "en", "zh", "zh-Hans", "pt-BR"
std::string type_name(const Json& j);    // "a string", "an array", ... for "expected X, got Y"
std::string fmt_num(double v);           // the shortest spelling that reads back to v
std::string join(const std::vector<std::string>& items, const char* sep = ", ");
std::size_t edit_distance(const std::string& a, const std::string& b);
std::pair<double, double> dtype_range(DType t);

// What an expression may name besides params, by where it is written.
enum class Scope { Params, Grid, Shared };

const char* scope_hint(Scope scope);

// ---------------------------------------------------------------------------
// [3] + [4] The loader
// ---------------------------------------------------------------------------

// Where a merged section came from: the value and the path it was written at.
struct Section {
    const Json* value = nullptr;
    std::string path;
    // Format 2's merged checks: keys taken from the lesson level keep the
    // lesson-level path in issues, so one mistake is reported once, where it is.
    std::set<std::string> inherited;
    std::string key_path(const std::string& key) const { return (inherited.count(key) ? std::string("checks") : path) + "." + key; }
};

class Loader {
public:
    Loader(std::string file, fs::path dir, const LoadOptions& options)
        : file_(std::move(file)), dir_(std::move(dir)), options_(options) {}

    LoadResult load_text(const std::string& text);
    std::vector<LessonIssue> take_issues() { return std::move(issues_); }
    void issue(const std::string& path, const std::string& message, int line = 0, int column = 0);

private:
    std::string file_;
    fs::path dir_;
    const LoadOptions& options_;
    std::vector<LessonIssue> issues_;
    std::set<std::pair<std::string, std::string>> seen_;
    bool truncated_ = false;
    int format_ = 1;
    std::deque<Json> merged_;  // format 2's merged step sections; a deque keeps their addresses

    // Names visible while parsing the current step.
    std::set<std::string> param_names_;
    bool pass_visible_ = false;  // inside a launch with "passes": `pass` is a name

    // --- generic value checks ---
    bool want_object(const Json& j, const std::string& path, const char* what = nullptr);
    void check_keys(const Json& obj, const std::string& path, const std::vector<std::string>& allowed);
    const Json* field(const Json& obj, const std::string& key);
    std::optional<std::string> get_string(const Json& obj, const std::string& key, const std::string& path,
                                          bool required);
    std::optional<double> get_number(const Json& obj, const std::string& key, const std::string& path,
                                     bool required);
    std::optional<std::string> string_or_lines(const Json& j, const std::string& path, const char* what);
    LocalizedText text(const Json& j, const std::string& path);
    SourceText source(const Json& j, const std::string& path);
    std::string expr(const Json& j, const std::string& path, Scope scope);
    std::optional<DType> dtype(const Json& obj, const std::string& path, bool required);

    // --- sections ---
    void parse_step(const Json& root, const Json& sj, std::size_t index, Step& step);
    void parse_params(const Section& s, Step& step);
    void parse_buffers(const Section& s, Step& step);
    void parse_init(const Json& j, const std::string& path, Buffer& b);
    void parse_constants(const Section& s, Step& step);
    void parse_launches(const Section& s, Step& step);
    void parse_host(const Section& s, Step& step);
    void parse_target(const Json& j, const std::string& path, Step& step);
    void parse_access(const Json& j, const std::string& path, Step& step);
    void parse_swap(const Json& j, const std::string& path, const Step& step, LaunchSpec& l);
    std::vector<Arg> parse_args(const Json& j, const std::string& path, const Step& step);
    void parse_reference(const Section& s, Step& step);
    void parse_python(const Section& s, Step& step);
    void parse_checks(const Section& s, Step& step);
    std::optional<std::array<long long, 3>> parse_case_block(const Json& j, const std::string& path, const Step& step);
    void parse_metrics(const Section& s, Step& step);
    void parse_baseline(const Section& s, Step& step);
    void parse_views(const Section& s, Step& step);
    void parse_compile(const Section& s, Step& step);
    void parse_limits(const Section& s, Step& step);
    std::optional<double> param_value(const Param& p, const Json& j, const std::string& path, const char* what);
    bool value_fits_type(const Param& p, double v, const std::string& path, const char* what);
    struct ImageFolder {
        fs::path dir;
        std::string what;  // how the "not found" message names it
    };
    std::vector<ImageFolder> image_folders() const;
};

}  // namespace wb::lesson_load
