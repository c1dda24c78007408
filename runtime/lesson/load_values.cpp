// runtime/lesson/load_values.cpp — the loader's small helpers for names, paths
// and messages, and the Loader's generic value checks that every section uses:
// recording an issue, unknown keys (with "did you mean"), strings, numbers,
// text in several languages, source code inline or from a file, expressions
// and the names they may use, and element types (see loader_impl.hpp).
#include "lesson/loader_impl.hpp"

#include "core/error.hpp"
#include "core/fs.hpp"
#include "lesson/expr.hpp"
#include "lesson/json_guards.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace wb::lesson_load {

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

std::string join(const std::vector<std::string>& items, const char* sep) {
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

const char* scope_hint(Scope scope) {
    switch (scope) {
    case Scope::Params: return "this expression sees params only";
    case Scope::Grid: return "grid sees params and block.x, block.y, block.z";
    case Scope::Shared: return "shared_bytes sees params, block.x/y/z and grid.x/y/z";
    }
    return "";
}

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

}  // namespace wb::lesson_load
