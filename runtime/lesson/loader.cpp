// runtime/lesson/loader.cpp — turns a lesson file (format 1 or 2) into wb::Lesson (see loader.hpp).
//
// Sections, in order: [1] reading and the guards that run before nlohmann
// parses anything (size cap, UTF-8, nesting depth), [2] the parse itself with
// a callback that catches duplicate keys, [3] shape checks of each JSON value
// (unknown keys, wrong types) that fill the model, and [4] the semantic checks
// that need several sections at once (names an expression uses, args, compare
// buffers, case bounds, image layouts).
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

#include "core/data_dirs.hpp"
#include "core/error.hpp"
#include "core/fs.hpp"
#include "lesson/expr.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <deque>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <set>
#include <utility>

#ifndef WB_INSTALL_DATA_DIR
#define WB_INSTALL_DATA_DIR "/usr/share/cuda-workbook"
#endif

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

namespace {

// Insertion order is kept so params, buffers and languages stay in the order
// the instructor wrote them (the GUI shows params in that order).
using Json = nlohmann::ordered_json;

// The keys a step may take over from the lesson level.
const std::vector<std::string> kDefaultKeys = {"params",  "buffers",  "launches", "constants", "reference", "checks",
                                               "metrics", "baseline", "views",    "compile",   "host"};

// ---------------------------------------------------------------------------
// [1] Guards before parsing
// ---------------------------------------------------------------------------

// 1-based line and column of byte `offset` (columns count bytes, as editors
// do for ASCII, which is where JSON syntax errors live).
std::pair<int, int> line_col(const std::string& text, std::size_t offset) {
    int line = 1, col = 1;
    offset = std::min(offset, text.size());
    for (std::size_t i = 0; i < offset; ++i) {
        if (text[i] == '\n') {
            ++line;
            col = 1;
        } else {
            ++col;
        }
    }
    return {line, col};
}

// nlohmann reports the byte just past the token it could not accept. Editors
// are more helpful pointing at the token's first character: for a missing
// comma that is the key right after where the comma belongs.
std::size_t token_start(const std::string& text, std::size_t byte) {
    if (byte == 0 || text.empty()) return 0;
    std::size_t pos = std::min(byte - 1, text.size() - 1);
    auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '+' || c == '.'; };
    if (text[pos] == '"') {
        for (std::size_t k = pos; k-- > 0;) {
            if (text[k] == '\n') break;
            if (text[k] == '"' && (k == 0 || text[k - 1] != '\\')) return k;
        }
    } else if (word(text[pos])) {
        while (pos > 0 && word(text[pos - 1])) --pos;
    }
    return pos;
}

// Offset of the first byte that is not well-formed UTF-8 (overlongs,
// surrogates and code points past U+10FFFF included), or npos.
std::size_t first_invalid_utf8(const std::string& s) {
    std::size_t i = 0, n = s.size();
    auto cont = [&](std::size_t k) { return k < n && (static_cast<unsigned char>(s[k]) & 0xC0) == 0x80; };
    while (i < n) {
        const unsigned char c = static_cast<unsigned char>(s[i]);
        if (c < 0x80) {
            ++i;
        } else if (c >= 0xC2 && c <= 0xDF) {
            if (!cont(i + 1)) return i;
            i += 2;
        } else if (c >= 0xE0 && c <= 0xEF) {
            if (!cont(i + 1) || !cont(i + 2)) return i;
            const unsigned char c1 = static_cast<unsigned char>(s[i + 1]);
            if ((c == 0xE0 && c1 < 0xA0) || (c == 0xED && c1 > 0x9F)) return i;  // overlong, surrogate
            i += 3;
        } else if (c >= 0xF0 && c <= 0xF4) {
            if (!cont(i + 1) || !cont(i + 2) || !cont(i + 3)) return i;
            const unsigned char c1 = static_cast<unsigned char>(s[i + 1]);
            if ((c == 0xF0 && c1 < 0x90) || (c == 0xF4 && c1 > 0x8F)) return i;  // overlong, > U+10FFFF
            i += 4;
        } else {
            return i;
        }
    }
    return std::string::npos;
}

// Offset of the first bracket that opens nesting level max_depth + 1, or npos.
// A plain scan, so a hostile file of a million '[' costs nothing before it is refused.
std::size_t too_deep_at(const std::string& text, int max_depth) {
    int depth = 0;
    bool in_string = false, escaped = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (in_string) {
            if (escaped) escaped = false;
            else if (c == '\\') escaped = true;
            else if (c == '"') in_string = false;
        } else if (c == '"') {
            in_string = true;
        } else if (c == '[' || c == '{') {
            if (++depth > max_depth) return i;
        } else if (c == ']' || c == '}') {
            --depth;
        }
    }
    return std::string::npos;
}

// ---------------------------------------------------------------------------
// Small helpers for paths and messages
// ---------------------------------------------------------------------------

bool is_identifier(const std::string& s) {
    if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
    return std::all_of(s.begin(), s.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

bool is_lesson_id(const std::string& s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
    });
}

bool is_step_id(const std::string& s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
    });
}

// "en", "zh", "zh-Hans", "pt-BR": a primary subtag of 2-3 letters, then optional subtags.
bool is_lang_tag(const std::string& s) {
    const std::size_t dash = s.find('-');
    const std::string primary = s.substr(0, dash);
    if (primary.size() < 2 || primary.size() > 3) return false;
    if (!std::all_of(primary.begin(), primary.end(), [](char c) { return c >= 'a' && c <= 'z'; })) return false;
    if (dash == std::string::npos) return true;
    const std::string rest = s.substr(dash + 1);
    return !rest.empty() && std::all_of(rest.begin(), rest.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '-';
    });
}

std::string key_path(const std::string& base, const std::string& key) {
    const bool plain = !key.empty() && std::all_of(key.begin(), key.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '-';
    });
    if (!plain) return base + "[" + Json(key).dump() + "]";
    return base.empty() ? key : base + "." + key;
}

std::string index_path(const std::string& base, std::size_t i) { return base + "[" + std::to_string(i) + "]"; }

std::string type_name(const Json& j) {
    switch (j.type()) {
    case Json::value_t::null: return "null";
    case Json::value_t::boolean: return "true/false";
    case Json::value_t::string: return "a string";
    case Json::value_t::array: return "an array";
    case Json::value_t::object: return "an object";
    case Json::value_t::binary: return "binary data";
    case Json::value_t::discarded: return "nothing";
    default: return "a number";
    }
}

std::string fmt_num(double v) {
    if (std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 1e15)
        return std::to_string(static_cast<long long>(v));
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    // Prefer the short spelling when it reads back to the same value (1e-06, not 9.9999999999999995e-07).
    char shorter[40];
    std::snprintf(shorter, sizeof shorter, "%.15g", v);
    if (std::strtod(shorter, nullptr) == v) return shorter;
    return buf;
}

std::string join(const std::vector<std::string>& items, const char* sep = ", ") {
    std::string out;
    for (std::size_t i = 0; i < items.size(); ++i) out += (i ? sep : "") + items[i];
    return out;
}

// Levenshtein distance, for "did you mean" on misspelt keys.
std::size_t edit_distance(const std::string& a, const std::string& b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diag = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t up = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diag = up;
        }
    }
    return row[b.size()];
}

// Integer ranges of the param types, for "default 300 does not fit u8".
std::pair<double, double> dtype_range(DType t) {
    switch (t) {
    case DType::U8: return {0, 255};
    case DType::I32: return {-2147483648.0, 2147483647.0};
    case DType::U32: return {0, 4294967295.0};
    case DType::F16: return {-65504.0, 65504.0};
    case DType::F32: return {-3.4028234663852886e38, 3.4028234663852886e38};
    case DType::F64: return {-1.7976931348623157e308, 1.7976931348623157e308};
    }
    return {0, 0};
}

// What an expression may name besides params, by where it is written.
enum class Scope { Params, Grid, Shared };

const char* scope_hint(Scope scope) {
    switch (scope) {
    case Scope::Params: return "this expression sees params only";
    case Scope::Grid: return "grid sees params and block.x, block.y, block.z";
    case Scope::Shared: return "shared_bytes sees params, block.x/y/z and grid.x/y/z";
    }
    return "";
}

// ---------------------------------------------------------------------------
// [2] Parsing with duplicate-key detection
// ---------------------------------------------------------------------------

// nlohmann keeps the last of two equal keys without a word. The parser
// callback sees every key, so a small stack of open containers tells us the
// JSON path of a duplicate as it is read.
class DuplicateKeyFinder {
public:
    std::vector<std::pair<std::string, std::string>> found;  // (path, key)

    bool on_event(Json::parse_event_t event, const Json& parsed) {
        switch (event) {
        case Json::parse_event_t::object_start: frames_.push_back({false, 0, {}, {}}); break;
        case Json::parse_event_t::array_start: frames_.push_back({true, 0, {}, {}}); break;
        case Json::parse_event_t::key:
            if (!frames_.empty() && parsed.is_string()) {
                Frame& top = frames_.back();
                top.key = parsed.get<std::string>();
                if (!top.keys.insert(top.key).second && found.size() < 20) found.emplace_back(path(), top.key);
            }
            break;
        case Json::parse_event_t::object_end:
        case Json::parse_event_t::array_end:
            if (!frames_.empty()) frames_.pop_back();
            element_done();
            break;
        case Json::parse_event_t::value: element_done(); break;
        }
        return true;
    }

private:
    struct Frame {
        bool is_array;
        std::size_t index;
        std::set<std::string> keys;
        std::string key;
    };
    std::vector<Frame> frames_;

    void element_done() {
        if (!frames_.empty() && frames_.back().is_array) ++frames_.back().index;
    }
    std::string path() const {
        std::string out;
        for (std::size_t i = 0; i + 1 < frames_.size(); ++i)
            out = frames_[i].is_array ? index_path(out, frames_[i].index) : key_path(out, frames_[i].key);
        return out;
    }
};

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
    void parse_swap(const Json& j, const std::string& path, const Step& step, LaunchSpec& l);
    std::vector<Arg> parse_args(const Json& j, const std::string& path, const Step& step);
    void parse_reference(const Section& s, Step& step);
    void parse_checks(const Section& s, Step& step);
    std::optional<std::array<long long, 3>> parse_case_block(const Json& j, const std::string& path, const Step& step);
    void parse_metrics(const Section& s, Step& step);
    void parse_baseline(const Section& s, Step& step);
    void parse_views(const Section& s, Step& step);
    void parse_compile(const Section& s, Step& step);
    std::optional<double> param_value(const Param& p, const Json& j, const std::string& path, const char* what);
    bool value_fits_type(const Param& p, double v, const std::string& path, const char* what);
    struct ImageFolder {
        fs::path dir;
        std::string what;  // how the "not found" message names it
    };
    std::vector<ImageFolder> image_folders() const;
};

void Loader::issue(const std::string& path, const std::string& message, int line, int column) {
    if (!seen_.insert({path, message}).second) return;
    if (issues_.size() >= options_.max_issues) {
        if (!truncated_) {
            truncated_ = true;
            issues_.push_back({file_, "", "stopped after " + std::to_string(options_.max_issues) +
                                              " issues; fix these and load again to see the rest"});
        }
        return;
    }
    issues_.push_back({file_, path, message, line, column});
}

bool Loader::want_object(const Json& j, const std::string& path, const char* what) {
    if (j.is_object()) return true;
    issue(path, std::string("expected ") + (what ? what : "an object") + ", got " + type_name(j));
    return false;
}

void Loader::check_keys(const Json& obj, const std::string& path, const std::vector<std::string>& allowed) {
    for (const auto& [key, value] : obj.items()) {
        if (std::find(allowed.begin(), allowed.end(), key) != allowed.end()) continue;
        std::string msg = "unknown key '" + key + "'";
        std::string best;
        std::size_t best_d = 3;
        for (const auto& a : allowed) {
            const std::size_t d = edit_distance(key, a);
            if (d < best_d) best_d = d, best = a;
        }
        if (!best.empty()) msg += " (did you mean '" + best + "'?)";
        msg += "; expected one of " + join(allowed);
        issue(key_path(path, key), msg);
    }
}

const Json* Loader::field(const Json& obj, const std::string& key) {
    if (!obj.is_object()) return nullptr;
    auto it = obj.find(key);
    return it == obj.end() ? nullptr : &*it;
}

std::optional<std::string> Loader::get_string(const Json& obj, const std::string& key, const std::string& path,
                                              bool required) {
    const Json* v = field(obj, key);
    if (!v) {
        if (required) issue(path, "missing key '" + key + "' (a string)");
        return std::nullopt;
    }
    if (!v->is_string()) {
        issue(key_path(path, key), "expected a string, got " + type_name(*v));
        return std::nullopt;
    }
    return v->get<std::string>();
}

std::optional<double> Loader::get_number(const Json& obj, const std::string& key, const std::string& path,
                                         bool required) {
    const Json* v = field(obj, key);
    if (!v) {
        if (required) issue(path, "missing key '" + key + "' (a number)");
        return std::nullopt;
    }
    if (!v->is_number()) {
        issue(key_path(path, key), "expected a number, got " + type_name(*v));
        return std::nullopt;
    }
    return v->get<double>();
}

std::optional<std::string> Loader::string_or_lines(const Json& j, const std::string& path, const char* what) {
    if (j.is_string()) return j.get<std::string>();
    if (j.is_array()) {
        std::string out;
        bool ok = true;
        for (std::size_t i = 0; i < j.size(); ++i) {
            if (!j[i].is_string()) {
                issue(index_path(path, i), std::string("expected a string (one line of ") + what + "), got " +
                                               type_name(j[i]));
                ok = false;
                continue;
            }
            if (i) out += '\n';
            out += j[i].get<std::string>();
        }
        if (ok) return out;
        return std::nullopt;
    }
    return std::nullopt;
}

LocalizedText Loader::text(const Json& j, const std::string& path) {
    LocalizedText t;
    if (j.is_string() || j.is_array()) {
        if (auto s = string_or_lines(j, path, "text")) t.by_lang[""] = *s;
        return t;
    }
    if (j.is_object()) {
        for (const auto& [lang, value] : j.items()) {
            const std::string p = key_path(path, lang);
            if (!is_lang_tag(lang)) {
                issue(p, "'" + lang + "' is not a language tag; expected one like \"en\", \"zh\" or \"zh-Hans\"");
                continue;
            }
            if (!value.is_string() && !value.is_array()) {
                issue(p, "expected a string or an array of strings, got " + type_name(value));
                continue;
            }
            if (auto s = string_or_lines(value, p, "text")) t.by_lang[lang] = *s;
        }
        if (j.empty()) issue(path, "expected text in at least one language, got an empty object");
        return t;
    }
    issue(path, "expected a string or an array of strings, or an object of them by language "
                "({\"en\": ..., \"zh\": ...}); got " + type_name(j));
    return t;
}

SourceText Loader::source(const Json& j, const std::string& path) {
    SourceText src;
    src.json_path = path;
    src.origin = "<inline>";
    if (j.is_string() || j.is_array()) {
        if (auto s = string_or_lines(j, path, "source")) {
            src.text = *s;
            if (j.is_array() && !src.text.empty()) src.text += '\n';
        }
        return src;
    }
    if (!j.is_object()) {
        issue(path, "expected source code: a string, an array of lines, or {\"file\": \"relative/path\"}; got " +
                        type_name(j));
        return src;
    }
    check_keys(j, path, {"file"});
    auto rel = get_string(j, "file", path, true);
    if (!rel) return src;
    const std::string file_path = key_path(path, "file");
    src.origin = *rel;
    try {
        const fs::path full = resolve_inside(dir_, *rel);
        src.text = read_file(full, options_.max_file_bytes, /*follow_final_symlink=*/false);  // `full` is resolved
        if (std::size_t bad = first_invalid_utf8(src.text); bad != std::string::npos) {
            auto [line, col] = line_col(src.text, bad);
            issue(file_path, "'" + *rel + "' is not valid UTF-8 (line " + std::to_string(line) + ", column " +
                                 std::to_string(col) + "); save it as UTF-8");
            src.text.clear();
        }
    } catch (const Error& e) {
        issue(file_path, e.message());
    } catch (const std::exception& e) {
        issue(file_path, std::string("cannot read '") + *rel + "': " + e.what());
    }
    return src;
}

std::string Loader::expr(const Json& j, const std::string& path, Scope scope) {
    if (j.is_number()) {
        const double v = j.get<double>();
        if (j.is_number_unsigned()) return std::to_string(j.get<unsigned long long>());
        if (j.is_number_integer()) return std::to_string(j.get<long long>());
        return fmt_num(v);
    }
    if (!j.is_string()) {
        issue(path, "expected a number or an expression string, got " + type_name(j));
        return "0";
    }
    const std::string e = j.get<std::string>();
    if (e.find_first_not_of(" \t") == std::string::npos) {
        issue(path, "empty expression");
        return e;
    }
    try {
        for (const auto& name : expr_names(e)) {
            if (param_names_.count(name)) continue;
            if (name == "pass") {
                if (pass_visible_) continue;
                issue(path, "unknown parameter 'pass' (pass is known only in the block, grid, shared_bytes and args "
                            "of a launch with \"passes\")");
                continue;
            }
            const bool block = name == "block.x" || name == "block.y" || name == "block.z";
            const bool grid = name == "grid.x" || name == "grid.y" || name == "grid.z";
            if (block && (scope == Scope::Grid || scope == Scope::Shared)) continue;
            if (grid && scope == Scope::Shared) continue;
            std::string msg = "unknown parameter '" + name + "'";
            if (block || grid || name.find('.') != std::string::npos) msg += std::string(" (") + scope_hint(scope) + ")";
            issue(path, msg);
        }
    } catch (const Error& err) {
        issue(path, err.message());
    }
    return e;
}

std::optional<DType> Loader::dtype(const Json& obj, const std::string& path, bool required) {
    auto s = get_string(obj, "type", path, required);
    if (!s) return std::nullopt;
    if (auto t = parse_dtype(*s)) return t;
    issue(key_path(path, "type"), "unknown type '" + *s + "'; expected one of u8, i32, u32, f16, f32, f64");
    return std::nullopt;
}

// Where an image named by init.file is looked for, in order: the lesson's own
// folder (so an instructor ships an image beside the lesson), its assets/
// subfolder, the assets/ beside the lessons folder (the shipped layout: lessons/
// and assets/ side by side), and the shipped assets folder by the one
// data-folder rule the app and the CLI share (core/data_dirs.hpp), else the
// compiled-in install folder. Each image is looked up on its own, so a local
// folder never hides a shipped image it lacks. LoadOptions::assets_dir
// replaces the last two. A folder reached twice is listed once.
std::vector<Loader::ImageFolder> Loader::image_folders() const {
    std::vector<ImageFolder> out;
    std::vector<fs::path> seen;
    auto add = [&](const fs::path& dir, std::string what) {
        std::error_code ec;
        fs::path key = fs::weakly_canonical(dir, ec);
        if (ec) key = dir.lexically_normal();
        if (std::find(seen.begin(), seen.end(), key) != seen.end()) return;
        seen.push_back(key);
        out.push_back({dir.lexically_normal(), std::move(what)});
    };
    add(dir_, "the lesson's folder");
    add(dir_ / "assets", "the lesson's assets folder");
    if (!options_.assets_dir.empty()) {
        add(options_.assets_dir, "the assets folder");
        return out;
    }
    add(dir_ / ".." / "assets", "the assets folder beside the lessons folder");
    if (auto shipped = find_data_folder("assets")) add(shipped->dir, "the shipped assets");
    else add(fs::path(WB_INSTALL_DATA_DIR) / "assets", "the shipped assets");
    return out;
}

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

    Json root;
    DuplicateKeyFinder dups;
    try {
        root = Json::parse(text_in, [&](int, Json::parse_event_t ev, Json& parsed) { return dups.on_event(ev, parsed); });
    } catch (const Json::parse_error& e) {
        auto [line, col] = line_col(text_in, token_start(text_in, e.byte));
        std::string msg = e.what();
        // Drop "[json.exception.parse_error.101] parse error at line 3, column 5: ": the location is ours.
        if (auto p = msg.find("]"); p != std::string::npos && msg.compare(0, 6, "[json.") == 0) msg = msg.substr(p + 2);
        if (auto p = msg.find(": "); p != std::string::npos && msg.compare(0, 15, "parse error at ") == 0)
            msg = msg.substr(p + 2);
        if (msg.find("while parsing object - unexpected string literal") != std::string::npos ||
            msg.find("while parsing array - unexpected") != std::string::npos)
            msg += " (is a comma missing before it?)";
        issue("", "JSON syntax error: " + msg, line, col);
        return result;
    }
    for (const auto& [path, key] : dups.found) issue(key_path(path, key), "duplicate key '" + key + "'");

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
            for (const auto& k : kDefaultKeys)
                if (!field(sj, k)) overridden_everywhere.erase(k);
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
    parse_checks(section("checks"), step);
    parse_metrics(section("metrics"), step);
    parse_baseline(section("baseline"), step);
    parse_views(section("views"), step);
    parse_compile(section("compile"), step);
}

void Loader::parse_params(const Section& s, Step& step) {
    if (!s.value) return;  // a kernel may take no params
    if (!want_object(*s.value, s.path, "an object of params by name ({\"N\": {...}})")) return;
    for (const auto& [name, pj] : s.value->items()) {
        const std::string path = key_path(s.path, name);
        if (!is_identifier(name)) {
            issue(path, "'" + name + "' is not a valid parameter name; use letters, digits and _, not starting with a digit");
            continue;
        }
        if (name == "pass") {
            issue(path, "'pass' is reserved: it is the pass number inside a launch with \"passes\"; choose another name");
            continue;
        }
        param_names_.insert(name);  // known even if its body has problems, so later checks don't pile up
        if (!want_object(pj, path, "a param object ({\"type\": \"i32\", \"default\": ...})")) continue;
        check_keys(pj, path, {"type", "default", "min", "max", "description"});
        Param p;
        p.name = name;
        p.json_path = path;
        const auto type = dtype(pj, path, true);
        if (type) p.type = *type;
        auto def = get_number(pj, "default", path, true);
        p.min = get_number(pj, "min", path, false);
        p.max = get_number(pj, "max", path, false);
        // A bound the type cannot hold (an i32 max of 2^40) would let a slider
        // or a case reach values the kernel's argument cannot carry.
        if (type) {
            for (auto [bound, key] : {std::pair{&p.min, "min"}, std::pair{&p.max, "max"}})
                if (*bound && !value_fits_type(p, **bound, key_path(path, key), key)) bound->reset();
        }
        if (const Json* d = field(pj, "description")) p.description = text(*d, path + ".description");
        if (p.min && p.max && *p.min > *p.max)
            issue(path, "min " + fmt_num(*p.min) + " is greater than max " + fmt_num(*p.max));
        if (def) {
            p.default_value = *def;
            if (auto v = param_value(p, *field(pj, "default"), path + ".default", "default")) p.default_value = *v;
        }
        step.params.push_back(std::move(p));
    }
}

// Checks a value given for param `p` (its default, or a case's override):
// whole for integer types, inside the type's range and inside [min, max].
std::optional<double> Loader::param_value(const Param& p, const Json& j, const std::string& path, const char* what) {
    if (!j.is_number()) {
        issue(path, "expected a number, got " + type_name(j));
        return std::nullopt;
    }
    const double v = j.get<double>();
    bool ok = value_fits_type(p, v, path, what);
    if (p.min && v < *p.min) {
        issue(path, std::string(what) + " " + fmt_num(v) + " for '" + p.name + "' is below its min " + fmt_num(*p.min));
        ok = false;
    }
    if (p.max && v > *p.max) {
        issue(path, std::string(what) + " " + fmt_num(v) + " for '" + p.name + "' is above its max " + fmt_num(*p.max));
        ok = false;
    }
    return ok ? std::optional<double>(v) : std::nullopt;
}

// True when `v` (a param's default, min, max or a case's value) is a value of
// the param's type: whole for integer types, and inside the type's range
// (finite for floats). Otherwise reports at `path` and returns false.
bool Loader::value_fits_type(const Param& p, double v, const std::string& path, const char* what) {
    const std::string type(dtype_name(p.type));
    if (!std::isfinite(v)) {
        issue(path, std::string(what) + " for '" + p.name + "' is not a finite number");
        return false;
    }
    bool ok = true;
    if (!dtype_is_float(p.type) && v != std::floor(v)) {
        issue(path, std::string(what) + " " + fmt_num(v) + " is not a whole number, but '" + p.name + "' is " + type);
        ok = false;
    }
    auto [lo, hi] = dtype_range(p.type);
    if (v < lo || v > hi) {
        issue(path, std::string(what) + " " + fmt_num(v) + " does not fit '" + p.name + "' (" + type + ": " +
                        fmt_num(lo) + " to " + fmt_num(hi) + ")");
        ok = false;
    }
    return ok;
}

void Loader::parse_buffers(const Section& s, Step& step) {
    if (!s.value) {
        issue(step.json_path, "missing key 'buffers' (here or at the lesson level)");
        return;
    }
    if (!s.value->is_array()) {
        issue(s.path, "expected an array of buffers, got " + type_name(*s.value));
        return;
    }
    for (std::size_t i = 0; i < s.value->size(); ++i) {
        const Json& bj = (*s.value)[i];
        const std::string path = index_path(s.path, i);
        if (!want_object(bj, path, "a buffer object")) continue;
        check_keys(bj, path, {"name", "type", "shape", "role", "init"});
        Buffer b;
        b.json_path = path;
        if (auto name = get_string(bj, "name", path, true)) {
            b.name = *name;
            if (!is_identifier(*name))
                issue(path + ".name", "'" + *name + "' is not a valid buffer name; use letters, digits and _, not starting with a digit");
            else if (step.find_buffer(*name))
                issue(path + ".name", "duplicate buffer name '" + *name + "'");
            else if (param_names_.count(*name))
                issue(path + ".name", "buffer '" + *name + "' has the same name as a param; args could not tell them apart");
        }
        if (auto t = dtype(bj, path, true)) b.type = *t;
        if (const Json* sh = field(bj, "shape")) {
            if (!sh->is_array()) {
                issue(path + ".shape", "expected an array of sizes (numbers or expressions), got " + type_name(*sh));
            } else if (sh->size() > 4) {
                issue(path + ".shape", "a buffer has at most 4 dimensions, got " + std::to_string(sh->size()));
            } else {
                for (std::size_t d = 0; d < sh->size(); ++d)
                    b.shape.push_back(expr((*sh)[d], index_path(path + ".shape", d), Scope::Params));
            }
        } else {
            issue(path, "missing key 'shape' (e.g. [\"N\"], or [] for a single value)");
        }
        if (auto role = get_string(bj, "role", path, true)) {
            if (*role == "input") b.role = BufferRole::Input;
            else if (*role == "output") b.role = BufferRole::Output;
            else if (*role == "inout") b.role = BufferRole::InOut;
            else issue(path + ".role", "unknown role '" + *role + "'; expected one of input, output, inout");
        }
        if (const Json* init = field(bj, "init")) parse_init(*init, path + ".init", b);
        step.buffers.push_back(std::move(b));
    }
}

void Loader::parse_constants(const Section& s, Step& step) {
    if (!s.value) return;
    if (!s.value->is_array()) {
        issue(s.path, "expected an array of constants ({\"name\": \"mask\", \"buffer\": \"mask\"}), got " + type_name(*s.value));
        return;
    }
    std::set<std::string> seen;
    for (std::size_t i = 0; i < s.value->size(); ++i) {
        const Json& cj = (*s.value)[i];
        const std::string path = index_path(s.path, i);
        if (!want_object(cj, path, "a constant object ({\"name\": \"mask\", \"buffer\": \"mask\"})")) continue;
        check_keys(cj, path, {"name", "buffer", "values", "type"});
        ConstantSpec c;
        c.json_path = path;
        if (auto name = get_string(cj, "name", path, true)) {
            c.name = *name;
            if (!is_identifier(*name))
                issue(path + ".name", "'" + *name + "' is not a C++ name; give the __constant__ variable's name");
            else if (!seen.insert(*name).second)
                issue(path + ".name", "constant '" + *name + "' is filled twice");
        }
        const Json* values = field(cj, "values");
        if (values && field(cj, "buffer")) {
            issue(path, "give either 'buffer' (an input buffer's bytes) or 'values' (expressions), not both");
        } else if (values) {
            // A short table written out, e.g. a 3x3 mask: [1, 2, 1, 2, 4, 2, 1, 2, 1] or "1/16.0".
            if (!values->is_array() || values->empty() || values->size() > 16384) {
                issue(path + ".values", "expected an array of 1 to 16384 numbers or expressions over params, got " +
                                            (values->is_array() ? std::to_string(values->size()) + " items" : type_name(*values)));
            } else {
                for (std::size_t k = 0; k < values->size(); ++k)
                    c.values.push_back(expr((*values)[k], index_path(path + ".values", k), Scope::Params));
            }
            if (auto t = dtype(cj, path, false)) c.type = *t;
        } else {
            if (field(cj, "type")) issue(path + ".type", "type goes with 'values'; a constant filled from a buffer has the buffer's type");
            if (auto buf = get_string(cj, "buffer", path, false)) {
                c.buffer = *buf;
                const Buffer* b = step.find_buffer(*buf);
                if (!b) issue(path + ".buffer", "unknown buffer '" + *buf + "'");
                else if (b->role != BufferRole::Input)
                    issue(path + ".buffer", "buffer '" + *buf + "' is not an input; a constant is filled from an input buffer");
            } else {
                issue(path, "missing key 'buffer' (an input buffer to copy in) or 'values' (a list of expressions)");
            }
        }
        step.constants.push_back(std::move(c));
    }
}

void Loader::parse_init(const Json& j, const std::string& path, Buffer& b) {
    if (!want_object(j, path, "an init object ({\"kind\": ...})")) return;
    if (field(j, "fill") && !field(j, "kind")) {
        // {"fill": v}: an output the kernel accumulates into starts from v.
        check_keys(j, path, {"fill"});
        if (b.role != BufferRole::Output)
            issue(path + ".fill", "fill is for output buffers that kernels accumulate into; an input or inout "
                                  "buffer gets its contents from {\"kind\": ...}");
        else if (auto v = get_number(j, "fill", path, true))
            b.fill = *v;
        return;
    }
    auto kind = get_string(j, "kind", path, true);
    if (!kind) return;
    BufferInit& in = b.init;
    auto seed = [&] {
        if (auto s = get_number(j, "seed", path, false)) {
            if (*s < 0 || *s != std::floor(*s) || *s > 9007199254740992.0)
                issue(path + ".seed", "seed " + fmt_num(*s) + " must be a whole number >= 0");
            else in.seed = static_cast<uint64_t>(*s);
        }
    };
    if (*kind == "zero") {
        check_keys(j, path, {"kind"});
        in.kind = InitKind::Zero;
    } else if (*kind == "constant") {
        check_keys(j, path, {"kind", "value"});
        in.kind = InitKind::Constant;
        if (auto v = get_number(j, "value", path, true)) in.value = *v;
    } else if (*kind == "ramp") {
        check_keys(j, path, {"kind", "start", "step"});
        in.kind = InitKind::Ramp;
        if (auto v = get_number(j, "start", path, false)) in.start = *v;
        if (auto v = get_number(j, "step", path, false)) in.step = *v;
    } else if (*kind == "uniform") {
        check_keys(j, path, {"kind", "min", "max", "seed"});
        in.kind = InitKind::Uniform;
        if (auto v = get_number(j, "min", path, false)) in.min = *v;
        if (auto v = get_number(j, "max", path, false)) in.max = *v;
        if (in.min > in.max) issue(path, "min " + fmt_num(in.min) + " is greater than max " + fmt_num(in.max));
        seed();
    } else if (*kind == "normal") {
        check_keys(j, path, {"kind", "mean", "stddev", "seed"});
        in.kind = InitKind::Normal;
        if (auto v = get_number(j, "mean", path, false)) in.mean = *v;
        if (auto v = get_number(j, "stddev", path, false)) {
            if (*v < 0) issue(path + ".stddev", "stddev must be >= 0, got " + fmt_num(*v));
            else in.stddev = *v;
        }
        seed();
    } else if (*kind == "identity") {
        check_keys(j, path, {"kind"});
        in.kind = InitKind::Identity;
        if (b.shape.size() != 2)
            issue(path, "identity needs a 2-D buffer, but the shape has " + std::to_string(b.shape.size()) + " dimensions");
    } else if (*kind == "image") {
        check_keys(j, path, {"kind", "file", "layout", "channels"});
        in.kind = InitKind::Image;
        if (auto layout = get_string(j, "layout", path, false)) {
            if (*layout == "HWC") in.layout = ImageLayout::HWC;
            else if (*layout == "CHW") in.layout = ImageLayout::CHW;
            else issue(path + ".layout", "unknown layout '" + *layout + "'; expected HWC or CHW");
        }
        if (auto ch = get_string(j, "channels", path, false)) {
            if (*ch == "rgb") in.channels = ImageChannels::RGB;
            else if (*ch == "gray") in.channels = ImageChannels::Gray;
            else issue(path + ".channels", "unknown channels '" + *ch + "'; expected rgb or gray");
        }
        if (auto file = get_string(j, "file", path, true)) {
            in.image_name = *file;
            const fs::path rel(*file);
            bool relative = !file->empty() && rel.is_relative() && !rel.has_root_name();
            for (const auto& part : rel) relative = relative && part != "..";
            if (file->empty()) {
                issue(path + ".file", "empty file name");
            } else if (!relative) {
                issue(path + ".file", "'" + *file + "' must be a relative path without '..': an image is named "
                                      "relative to the lesson's folder or an assets folder");
            } else {
                // The first folder that holds the file wins; resolve_inside then
                // refuses a symlink there that leads out of that folder.
                std::string searched;
                bool found = false;
                for (const ImageFolder& f : image_folders()) {
                    std::error_code ec;
                    if (!fs::is_regular_file(f.dir / rel, ec)) {
                        searched += (searched.empty() ? "" : ", ") + f.dir.string() + " (" + f.what + ")";
                        continue;
                    }
                    found = true;
                    try {
                        in.image = resolve_inside(f.dir, *file);
                    } catch (const Error& e) {
                        issue(path + ".file", e.message());
                    } catch (const std::exception& e) {
                        issue(path + ".file", std::string("cannot resolve '") + *file + "': " + e.what());
                    }
                    break;
                }
                if (!found)
                    issue(path + ".file", "image '" + *file + "' does not exist in any of the folders images are "
                                          "looked up in: " + searched);
            }
        }
        // The shape must say where the channels go, so the resampler knows H and W.
        const auto& sh = b.shape;
        const std::string shape_str = "[" + join(sh) + "]";
        if (in.channels == ImageChannels::Gray) {
            if (sh.size() != 2) issue(path, "a gray image needs a 2-D shape [H, W]; the shape is " + shape_str);
        } else if (in.layout == ImageLayout::HWC) {
            if (sh.size() != 3 || sh[2] != "3") issue(path, "an HWC rgb image needs shape [H, W, 3]; the shape is " + shape_str);
        } else {
            if (sh.size() != 3 || sh[0] != "3") issue(path, "a CHW rgb image needs shape [3, H, W]; the shape is " + shape_str);
        }
    } else {
        issue(path + ".kind", "unknown init kind '" + *kind + "'; expected one of zero, constant, ramp, uniform, normal, identity, image");
    }
}

std::vector<Arg> Loader::parse_args(const Json& j, const std::string& path, const Step& step) {
    std::vector<Arg> args;
    if (!j.is_array()) {
        issue(path, "expected an array of arguments, got " + type_name(j));
        return args;
    }
    for (std::size_t i = 0; i < j.size(); ++i) {
        const Json& aj = j[i];
        const std::string p = index_path(path, i);
        Arg a;
        a.json_path = p;
        if (aj.is_string()) {
            a.name = aj.get<std::string>();
            if (const Buffer* b = step.find_buffer(a.name)) {
                a.kind = Arg::Kind::Buffer;
                a.type = b->type;
            } else if (const Param* prm = step.find_param(a.name)) {
                a.kind = Arg::Kind::Param;
                a.type = prm->type;
            } else if (param_names_.count(a.name)) {
                a.kind = Arg::Kind::Param;  // a param with problems of its own, already reported
            } else {
                issue(p, "unknown buffer or parameter '" + a.name + "'");
            }
        } else if (aj.is_object()) {
            check_keys(aj, p, {"expr", "type"});
            a.kind = Arg::Kind::Expr;
            if (const Json* e = field(aj, "expr")) a.name = expr(*e, p + ".expr", Scope::Params);
            else issue(p, "missing key 'expr' (the value to pass, e.g. \"N*N\")");
            if (auto t = dtype(aj, p, true)) a.type = *t;
        } else {
            issue(p, "expected a buffer or param name, or {\"expr\": ..., \"type\": ...}; got " + type_name(aj));
        }
        args.push_back(std::move(a));
    }
    return args;
}

void Loader::parse_host(const Section& s, Step& step) {
    if (!s.value) return;
    if (!want_object(*s.value, s.path, "a host object ({\"libraries\": [\"cublas\"]})")) return;
    check_keys(*s.value, s.path, {"libraries", "pinned"});
    HostSpec h;
    h.json_path = s.path;
    if (const Json* p = field(*s.value, "pinned")) {
        if (!p->is_boolean()) issue(s.path + ".pinned", "expected true or false, got " + type_name(*p));
        else h.pinned = p->get<bool>();
    }
    if (const Json* libs = field(*s.value, "libraries")) {
        if (!libs->is_array()) issue(s.path + ".libraries", "expected an array of library names, got " + type_name(*libs));
        else
            for (std::size_t i = 0; i < libs->size(); ++i) {
                const std::string p = index_path(s.path + ".libraries", i);
                const Json& l = (*libs)[i];
                const auto& known = host_libraries_known();
                if (!l.is_string()) issue(p, "expected a library name, got " + type_name(l));
                else if (std::find(known.begin(), known.end(), l.get<std::string>()) == known.end()) {
                    std::string names;
                    for (const auto& k : known) names += (names.empty() ? "" : ", ") + k;
                    issue(p, "unknown library '" + l.get<std::string>() + "'; a host step may link " + names);
                } else h.libraries.push_back(l.get<std::string>());
            }
    }
    step.host = std::move(h);
}

void Loader::parse_launches(const Section& s, Step& step) {
    if (step.host) {
        if (s.value)
            issue(s.path, "a host step launches its own kernels from run(); remove 'launches' (or 'host', to make this a kernel step)");
        return;
    }
    if (!s.value) {
        issue(step.json_path, "missing key 'launches' (here or at the lesson level)");
        return;
    }
    if (!s.value->is_array()) {
        issue(s.path, "expected an array of launches, got " + type_name(*s.value));
        return;
    }
    if (s.value->empty()) issue(s.path, "at least one launch is needed");
    for (std::size_t i = 0; i < s.value->size(); ++i) {
        const Json& lj = (*s.value)[i];
        const std::string path = index_path(s.path, i);
        if (!want_object(lj, path, "a launch object")) continue;
        check_keys(lj, path, {"entry", "block", "grid", "shared_bytes", "args", "passes", "swap", "tuned"});
        LaunchSpec l;
        l.json_path = path;
        if (const Json* t = field(lj, "tuned")) {
            if (!t->is_boolean()) {
                issue(path + ".tuned", "expected true or false, got " + type_name(*t));
            } else if (t->get<bool>()) {
                l.tuned = true;
                for (const auto& other : step.launches)
                    if (other.tuned)
                        issue(path + ".tuned", "only one launch can be tuned; " + other.json_path + " already is");
            }
        }
        if (const Json* p = field(lj, "passes")) l.passes = expr(*p, path + ".passes", Scope::Params);
        pass_visible_ = l.multi_pass();
        if (auto e = get_string(lj, "entry", path, true)) {
            l.entry = *e;
            if (!is_identifier(*e))
                issue(path + ".entry", e->empty() ? "the kernel name is empty"
                                                  : "'" + *e + "' is not a kernel name (letters, digits and _)");
        }
        auto dims = [&](const char* key, Scope scope, std::array<std::string, 3>& out) {
            const Json* d = field(lj, key);
            const std::string p = path + "." + key;
            if (!d) {
                issue(path, std::string("missing key '") + key + "' (an array of 1 to 3 sizes)");
            } else if (!d->is_array() || d->empty() || d->size() > 3) {
                issue(p, "expected an array of 1 to 3 sizes (numbers or expressions), got " +
                             (d->is_array() ? std::to_string(d->size()) + " items" : type_name(*d)));
            } else {
                for (std::size_t k = 0; k < d->size(); ++k) out[k] = expr((*d)[k], index_path(p, k), scope);
            }
        };
        dims("block", Scope::Params, l.block);
        dims("grid", Scope::Grid, l.grid);
        if (const Json* sb = field(lj, "shared_bytes")) l.shared_bytes = expr(*sb, path + ".shared_bytes", Scope::Shared);
        if (const Json* a = field(lj, "args")) l.args = parse_args(*a, path + ".args", step);
        else issue(path, "missing key 'args' (the kernel's arguments in order; [] for none)");
        pass_visible_ = false;
        if (const Json* sw = field(lj, "swap")) parse_swap(*sw, path + ".swap", step, l);
        step.launches.push_back(std::move(l));
    }
}

void Loader::parse_swap(const Json& j, const std::string& path, const Step& step, LaunchSpec& l) {
    const char* example = "an array of buffer pairs ([[\"in\", \"out\"]])";
    if (!l.multi_pass()) {
        issue(path, "swap exchanges buffers between passes; this launch has no \"passes\"");
        return;
    }
    if (!j.is_array()) {
        issue(path, std::string("expected ") + example + ", got " + type_name(j));
        return;
    }
    std::set<std::string> used;
    for (std::size_t i = 0; i < j.size(); ++i) {
        const std::string p = index_path(path, i);
        const Json& pj = j[i];
        if (!pj.is_array() || pj.size() != 2 || !pj[0].is_string() || !pj[1].is_string()) {
            issue(p, "expected a pair of buffer names ([\"in\", \"out\"])");
            continue;
        }
        const std::string a = pj[0].get<std::string>(), b = pj[1].get<std::string>();
        const Buffer* ba = step.find_buffer(a);
        const Buffer* bb = step.find_buffer(b);
        if (!ba) issue(index_path(p, 0), "unknown buffer '" + a + "'");
        if (!bb) issue(index_path(p, 1), "unknown buffer '" + b + "'");
        if (!ba || !bb) continue;
        if (a == b) {
            issue(p, "a buffer cannot swap with itself");
            continue;
        }
        if (ba->type != bb->type)
            issue(p, "buffers '" + a + "' (" + std::string(dtype_name(ba->type)) + ") and '" + b + "' (" + std::string(dtype_name(bb->type)) +
                         ") have different types; swapped buffers must have the same type and size");
        for (const auto& n : {a, b})
            if (!used.insert(n).second) issue(p, "buffer '" + n + "' is in two swap pairs");
        l.swap.emplace_back(a, b);
    }
}

void Loader::parse_reference(const Section& s, Step& step) {
    ReferenceSpec& r = step.reference;
    r.json_path = s.path;
    if (!s.value) {
        issue(step.json_path, "missing key 'reference' (the CPU reference the kernel is checked against)");
        return;
    }
    if (!want_object(*s.value, s.path, "a reference object ({\"source\": ..., \"entry\": ...})")) return;
    const Json& j = *s.value;
    check_keys(j, s.path, {"source", "entry", "args"});
    if (const Json* src = field(j, "source")) r.source = source(*src, s.path + ".source");
    else issue(s.path, "missing key 'source' (C++ code of the reference function)");
    if (auto e = get_string(j, "entry", s.path, false)) {
        r.entry = *e;
        if (!is_identifier(*e)) issue(s.path + ".entry", "'" + *e + "' is not a C++ function name");
    }
    if (const Json* a = field(j, "args")) r.args = parse_args(*a, s.path + ".args", step);
    else if (!step.launches.empty()) r.args = step.launches.front().args;
    else if (step.host) issue(s.path, "missing key 'args': a host step has no launch whose arguments the reference could take");
}

void Loader::parse_target(const Json& j, const std::string& path, Step& step) {
    if (!want_object(j, path, "a target object ({\"step\": \"one_stream\", \"at_most\": 0.6})")) return;
    check_keys(j, path, {"step", "at_most", "measure", "min_gpus"});
    TargetSpec t;
    // A kernel step is measured by its kernels' GPU time, nothing else.
    if (!step.host) t.measure = TargetMeasure::Kernels;
    t.json_path = path;
    if (auto s = get_string(j, "step", path, true)) t.step = *s;
    if (auto v = get_number(j, "at_most", path, true)) {
        if (!(*v > 0)) issue(path + ".at_most", "expected a ratio above 0, got " + fmt_num(*v));
        t.at_most = *v;
    }
    if (auto m = get_string(j, "measure", path, false)) {
        if (*m == "wall") t.measure = TargetMeasure::Wall;
        else if (*m == "copies") t.measure = TargetMeasure::Copies;
        else if (*m == "kernels") t.measure = TargetMeasure::Kernels;
        else issue(path + ".measure", "unknown measure '" + *m + "'; use wall (run()'s time), copies or kernels (their summed times on the timeline)");
        if (!step.host && t.measure != TargetMeasure::Kernels)
            issue(path + ".measure", "a kernel step's target compares its kernels' GPU time; leave out 'measure' or write \"kernels\"");
    }
    if (auto g = get_number(j, "min_gpus", path, false)) {
        if (*g < 1 || *g != std::floor(*g)) issue(path + ".min_gpus", "expected a whole number of GPUs from 1, got " + fmt_num(*g));
        else t.min_gpus = int(*g);
    }
    step.checks.target = std::move(t);
}

void Loader::parse_checks(const Section& s, Step& step) {
    Checks& c = step.checks;
    c.json_path = s.path;
    if (!s.value) {
        issue(step.json_path, "missing key 'checks' (which buffers to compare, and the cases to run)");
        return;
    }
    if (!want_object(*s.value, s.path, "a checks object")) return;
    const Json& j = *s.value;
    check_keys(j, s.path, {"compare", "cases", "warmup", "repeat", "timeout_s", "memcheck", "racecheck", "target"});
    if (const Json* t = field(j, "target")) parse_target(*t, s.path + ".target", step);

    // A number, or an expression over params so a tolerance can grow with
    // the problem ("1e-6 * N" for a sum of N floats); `expr_out` gets the
    // expression, evaluated for each case by the run.
    auto tolerance = [&](const Json& cj, const char* key, const std::string& p, double fallback, std::string& expr_out) {
        const Json* f = field(cj, key);
        if (f && f->is_string()) {
            expr_out = expr(*f, p + "." + key, Scope::Params);
            return fallback;
        }
        auto v = get_number(cj, key, p, false);
        if (!v) return fallback;
        if (*v < 0 || !std::isfinite(*v)) {
            issue(p + "." + key, std::string(key) + " must be a number >= 0 or an expression over params, got " + fmt_num(*v));
            return fallback;
        }
        return *v;
    };
    auto defaults_for = [](DType t) -> std::pair<double, double> {
        if (t == DType::F16) return {1e-3, 1e-3};  // half keeps 11 significant bits: 4.9e-4 is its rounding
        if (t == DType::F32) return {1e-5, 1e-5};
        if (t == DType::F64) return {1e-12, 1e-12};
        return {0, 0};
    };

    if (const Json* cmp = field(j, "compare")) {
        const std::string path = s.key_path("compare");
        if (!cmp->is_array()) {
            issue(path, "expected an array of {\"buffer\": ...} entries, got " + type_name(*cmp));
        } else if (cmp->empty()) {
            issue(path, "compare is empty, so nothing would be checked; name at least one output buffer");
        } else {
            std::set<std::string> seen;
            for (std::size_t i = 0; i < cmp->size(); ++i) {
                const Json& cj = (*cmp)[i];
                const std::string p = index_path(path, i);
                if (!want_object(cj, p, "an object ({\"buffer\": \"c\", \"atol\": ..., \"rtol\": ...})")) continue;
                check_keys(cj, p, {"buffer", "atol", "rtol", "deterministic"});
                CompareSpec spec;
                spec.json_path = p;
                DType type = DType::F32;
                if (auto name = get_string(cj, "buffer", p, true)) {
                    spec.buffer = *name;
                    const Buffer* b = step.find_buffer(*name);
                    if (!b) issue(p + ".buffer", "unknown buffer '" + *name + "'");
                    else if (b->role == BufferRole::Input)
                        issue(p + ".buffer", "buffer '" + *name + "' is an input; only output or inout buffers can be compared");
                    else type = b->type;
                    if (!seen.insert(*name).second) issue(p + ".buffer", "buffer '" + *name + "' is compared twice");
                }
                auto [atol, rtol] = defaults_for(type);
                spec.atol = tolerance(cj, "atol", p, atol, spec.atol_expr);
                spec.rtol = tolerance(cj, "rtol", p, rtol, spec.rtol_expr);
                if (const Json* d = field(cj, "deterministic")) {
                    if (!d->is_boolean()) issue(p + ".deterministic", "expected true or false, got " + type_name(*d));
                    else spec.deterministic = d->get<bool>();
                }
                c.compare.push_back(std::move(spec));
            }
        }
    } else {
        // No list: compare every buffer the kernel writes, at the default tolerances.
        for (const auto& b : step.buffers) {
            if (b.role == BufferRole::Input) continue;
            auto [atol, rtol] = defaults_for(b.type);
            CompareSpec spec;
            spec.buffer = b.name;
            spec.atol = atol;
            spec.rtol = rtol;
            spec.json_path = s.path;
            c.compare.push_back(std::move(spec));
        }
        if (c.compare.empty() && !step.buffers.empty())
            issue(s.path, "no output or inout buffer to compare; mark the buffer the kernel writes as \"role\": \"output\"");
    }

    const Json* cases = field(j, "cases");
    const std::string cpath = s.key_path("cases");
    if (!cases) {
        issue(s.path, "missing key 'cases'; at least one case is needed");
    } else if (!cases->is_array()) {
        issue(cpath, "expected an array of cases, got " + type_name(*cases));
    } else if (cases->empty()) {
        issue(cpath, "at least one case is needed");
    } else {
        for (std::size_t i = 0; i < cases->size(); ++i) {
            const Json& tj = (*cases)[i];
            const std::string p = index_path(cpath, i);
            if (!want_object(tj, p, "a case object ({\"name\": ..., \"params\": {...}})")) continue;
            check_keys(tj, p, {"name", "params", "inputs", "timing", "timeout_s", "memcheck", "racecheck", "block", "emulate"});
            TestCase tc;
            tc.json_path = p;
            if (auto name = get_string(tj, "name", p, true)) {
                tc.name = *name;
                if (name->empty()) issue(p + ".name", "the case name is empty");
                else if (step.find_case(*name))
                    issue(p + ".name", "duplicate case name '" + *name + "'");
            }
            if (const Json* t = field(tj, "timeout_s")) {
                if (!t->is_number() || t->get<double>() <= 0 || t->get<double>() > 3600)
                    issue(p + ".timeout_s", "timeout_s must be a number of seconds above 0 and at most 3600");
                else
                    tc.timeout_s = t->get<double>();
            }
            if (const Json* t = field(tj, "timing")) {
                if (!t->is_boolean()) issue(p + ".timing", "expected true or false, got " + type_name(*t));
                else tc.timing = t->get<bool>();
            }
            if (const Json* m = field(tj, "memcheck")) {
                if (!m->is_boolean()) issue(p + ".memcheck", "expected true or false, got " + type_name(*m));
                else tc.memcheck = m->get<bool>();
            }
            if (const Json* m = field(tj, "racecheck")) {
                if (!m->is_boolean()) issue(p + ".racecheck", "expected true or false, got " + type_name(*m));
                else tc.racecheck = m->get<bool>();
            }
            if (const Json* b = field(tj, "block")) tc.block = parse_case_block(*b, p + ".block", step);
            if (const Json* e = field(tj, "emulate")) {
                if (!e->is_boolean()) issue(p + ".emulate", "expected true or false, got " + type_name(*e));
                else tc.emulate = e->get<bool>();
            }
            if (const Json* pj = field(tj, "params")) {
                if (want_object(*pj, p + ".params", "an object of param values ({\"N\": 8})")) {
                    for (const auto& [name, value] : pj->items()) {
                        const std::string vp = key_path(p + ".params", name);
                        const Param* prm = step.find_param(name);
                        if (!prm) {
                            if (!param_names_.count(name)) issue(vp, "unknown parameter '" + name + "'");
                            continue;
                        }
                        if (auto v = param_value(*prm, value, vp, "value")) tc.params[name] = *v;
                    }
                }
            }
            if (const Json* ij = field(tj, "inputs")) {
                // Per-case contents of an input: the worst case for a histogram
                // is an image of one colour. Parsed as that buffer's own init.
                if (want_object(*ij, p + ".inputs", "an object of buffer inits ({\"img\": {\"kind\": \"constant\", \"value\": 7}})")) {
                    for (const auto& [name, init] : ij->items()) {
                        const std::string ip = key_path(p + ".inputs", name);
                        const Buffer* b = step.find_buffer(name);
                        if (!b) {
                            issue(ip, "unknown buffer '" + name + "'");
                            continue;
                        }
                        if (b->role == BufferRole::Output) {
                            issue(ip, "buffer '" + name + "' is an output; a case can set the contents of inputs and inouts only");
                            continue;
                        }
                        Buffer copy = *b;
                        copy.init = BufferInit{};
                        parse_init(init, ip, copy);
                        tc.inputs[name] = copy.init;
                    }
                }
            }
            c.cases.push_back(std::move(tc));
        }
    }

    auto count = [&](const char* key, int min, int& out) {
        const Json* v = field(j, key);
        if (!v) return;
        if (!v->is_number_integer() || v->get<long long>() < min || v->get<long long>() > 100000)
            issue(s.key_path(key), std::string(key) + " must be a whole number from " + std::to_string(min) + " to 100000");
        else
            out = static_cast<int>(v->get<long long>());
    };
    count("warmup", 0, c.warmup);
    count("repeat", 1, c.repeat);
    if (const Json* t = field(j, "timeout_s")) {
        if (!t->is_number() || t->get<double>() <= 0 || t->get<double>() > 3600)
            issue(s.path + ".timeout_s", "timeout_s must be a number of seconds above 0 and at most 3600");
        else
            c.timeout_s = t->get<double>();
    }
    if (const Json* m = field(j, "memcheck")) {
        if (!m->is_boolean()) issue(s.key_path("memcheck"), "expected true or false, got " + type_name(*m));
        else c.memcheck = m->get<bool>();
    }
    if (const Json* m = field(j, "racecheck")) {
        if (!m->is_boolean()) issue(s.key_path("racecheck"), "expected true or false, got " + type_name(*m));
        else c.racecheck = m->get<bool>();
    }
}

// A case's "block": 1 to 3 whole numbers (not expressions: the case pins one
// size), at most 1024 threads in all, for a step whose kernels the lesson
// launches. Missing axes are 1.
std::optional<std::array<long long, 3>> Loader::parse_case_block(const Json& j, const std::string& path, const Step& step) {
    if (step.host) {
        issue(path, "a host step makes its own launches, so a case cannot pin their block; leave out 'block'");
        return std::nullopt;
    }
    if (!j.is_array() || j.empty() || j.size() > 3) {
        issue(path, "expected an array of 1 to 3 whole numbers ([64] or [16, 8]), got " +
                        (j.is_array() ? std::to_string(j.size()) + " items" : type_name(j)));
        return std::nullopt;
    }
    std::array<long long, 3> b{1, 1, 1};
    bool ok = true;
    for (std::size_t k = 0; k < j.size(); ++k) {
        const Json& v = j[k];
        if (!v.is_number() || v.get<double>() < 1 || v.get<double>() != std::floor(v.get<double>()) || v.get<double>() > 1024) {
            issue(index_path(path, k), "expected a whole number of threads from 1 to 1024, got " +
                                           (v.is_number() ? fmt_num(v.get<double>()) : type_name(v)));
            ok = false;
            continue;
        }
        b[k] = v.get<long long>();
    }
    if (!ok) return std::nullopt;
    if (b[0] * b[1] * b[2] > 1024) {
        issue(path, "a block of " + std::to_string(b[0] * b[1] * b[2]) + " threads is more than any GPU runs (1024)");
        return std::nullopt;
    }
    return b;
}

void Loader::parse_metrics(const Section& s, Step& step) {
    if (!s.value) return;
    if (!want_object(*s.value, s.path, "a metrics object ({\"bytes\": ..., \"flops\": ...})")) return;
    check_keys(*s.value, s.path, {"bytes", "flops"});
    if (const Json* b = field(*s.value, "bytes")) step.metrics.bytes = expr(*b, s.path + ".bytes", Scope::Params);
    if (const Json* f = field(*s.value, "flops")) step.metrics.flops = expr(*f, s.path + ".flops", Scope::Params);
}

void Loader::parse_baseline(const Section& s, Step& step) {
    if (!s.value) return;
    if (!want_object(*s.value, s.path, "a baseline object ({\"kind\": \"cublas_sgemm\", ...})")) return;
    const auto kind = get_string(*s.value, "kind", s.path, true);
    if (!kind) return;
    BaselineSpec b;
    b.json_path = s.path;
    std::vector<std::string> buffers, sizes;
    if (*kind == "cublas_sgemm") {
        b.kind = BaselineKind::CublasSgemm;
        buffers = {"a", "b", "c"};
        sizes = {"m", "n", "k"};
    } else if (*kind == "memcpy") {
        b.kind = BaselineKind::Memcpy;
        buffers = {"from", "to"};
    } else if (*kind == "cub_reduce_sum") {
        b.kind = BaselineKind::CubReduceSum;
        buffers = {"in", "out"};
        sizes = {"n"};
    } else if (*kind == "cub_scan_sum") {
        b.kind = BaselineKind::CubScanSum;
        buffers = {"in", "out"};
        sizes = {"n"};
    } else {
        issue(s.path + ".kind",
              "unknown baseline kind '" + *kind + "'; expected one of cublas_sgemm, memcpy, cub_reduce_sum, cub_scan_sum");
        return;
    }
    std::vector<std::string> keys = {"kind"};
    keys.insert(keys.end(), buffers.begin(), buffers.end());
    keys.insert(keys.end(), sizes.begin(), sizes.end());
    check_keys(*s.value, s.path, keys);
    bool ok = true;
    for (const std::string& role : buffers) {
        const auto name = get_string(*s.value, role, s.path, true);
        if (!name) {
            ok = false;
            continue;
        }
        const Buffer* buf = step.find_buffer(*name);
        if (!buf) {
            issue(s.path + "." + role, "unknown buffer '" + *name + "'");
            ok = false;
        } else if (b.kind == BaselineKind::CubScanSum && buf->type != DType::F32 && buf->type != DType::I32) {
            issue(s.path + "." + role, "buffer '" + *name + "' is " + std::string(dtype_name(buf->type)) + "; " + *kind +
                                           " works on f32 or i32 buffers");
            ok = false;
        } else if (b.kind != BaselineKind::Memcpy && b.kind != BaselineKind::CubScanSum && buf->type != DType::F32) {
            issue(s.path + "." + role, "buffer '" + *name + "' is " + std::string(dtype_name(buf->type)) + "; " + *kind +
                                           " works on f32 buffers");
            ok = false;
        } else if ((role == "c" || role == "out" || role == "to") && buf->role == BufferRole::Input) {
            issue(s.path + "." + role, "buffer '" + *name + "' is an input; the baseline writes its " + role +
                                           ", which must be an output");
            ok = false;
        }
        b.buffers[role] = *name;
    }
    if (ok && b.kind == BaselineKind::CubScanSum) {
        const Buffer* in = step.find_buffer(b.buffers["in"]);
        const Buffer* out = step.find_buffer(b.buffers["out"]);
        if (in && out && in->type != out->type) {
            issue(s.path + ".out", "buffer '" + out->name + "' is " + std::string(dtype_name(out->type)) + " but '" + in->name +
                                       "' is " + std::string(dtype_name(in->type)) + "; cub_scan_sum writes the type it reads");
            ok = false;
        }
    }
    for (const std::string& role : sizes) {
        const Json* v = field(*s.value, role);
        if (!v) {
            issue(s.path, "missing \"" + role + "\" (an expression over params)");
            ok = false;
            continue;
        }
        b.sizes[role] = expr(*v, s.path + "." + role, Scope::Params);
    }
    if (ok) step.baseline = std::move(b);
}

void Loader::parse_views(const Section& s, Step& step) {
    if (!s.value) return;
    if (!s.value->is_array()) {
        issue(s.path, "expected an array of views, got " + type_name(*s.value));
        return;
    }
    for (std::size_t i = 0; i < s.value->size(); ++i) {
        const Json& vj = (*s.value)[i];
        const std::string p = index_path(s.path, i);
        if (!want_object(vj, p, "a view object ({\"buffer\": ..., \"kind\": ...})")) continue;
        check_keys(vj, p, {"buffer", "kind", "title"});
        View v;
        v.json_path = p;
        if (auto b = get_string(vj, "buffer", p, true)) {
            v.buffer = *b;
            if (!step.find_buffer(*b)) issue(p + ".buffer", "unknown buffer '" + *b + "'");
        }
        if (auto k = get_string(vj, "kind", p, true)) {
            if (*k == "image") v.kind = ViewKind::Image;
            else if (*k == "matrix") v.kind = ViewKind::Matrix;
            else if (*k == "vector") v.kind = ViewKind::Vector;
            else if (*k == "scalar") v.kind = ViewKind::Scalar;
            else issue(p + ".kind", "unknown view kind '" + *k + "'; expected one of image, matrix, vector, scalar");
        }
        if (const Json* t = field(vj, "title")) v.title = text(*t, p + ".title");
        step.views.push_back(std::move(v));
    }
}

void Loader::parse_compile(const Section& s, Step& step) {
    if (!s.value) return;
    if (!want_object(*s.value, s.path, "a compile object ({\"std\": \"c++17\", \"options\": [...]})")) return;
    check_keys(*s.value, s.path, {"std", "options"});
    if (auto st = get_string(*s.value, "std", s.path, false)) {
        static const std::vector<std::string> kStds = {"c++11", "c++14", "c++17", "c++20"};
        if (std::find(kStds.begin(), kStds.end(), *st) == kStds.end())
            issue(s.path + ".std", "unknown language standard '" + *st + "'; expected one of " + join(kStds));
        else step.compile.std = *st;
    }
    if (const Json* o = field(*s.value, "options")) {
        if (!o->is_array()) {
            issue(s.path + ".options", "expected an array of strings, got " + type_name(*o));
        } else {
            for (std::size_t i = 0; i < o->size(); ++i) {
                if (!(*o)[i].is_string()) issue(index_path(s.path + ".options", i), "expected a string, got " + type_name((*o)[i]));
                else step.compile.options.push_back((*o)[i].get<std::string>());
            }
        }
    }
}

}  // namespace

LoadResult load_lesson_text(const std::string& json_text, const fs::path& file, const LoadOptions& options) {
    LoadResult result;
    fs::path dir = file.parent_path();
    if (dir.empty()) dir = ".";
    Loader loader(file.string(), dir, options);
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
