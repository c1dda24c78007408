// app/json_path_line.cpp — finds a JSON path's line in a lesson's text (json_path_line.hpp).
//
// The path's grammar is the loader's (runtime/lesson/json_parse.cpp key_path and
// index_path): `key`, `.key`, `[N]`, and `["any key"]` for keys that are not
// plain. The scanner skips values it does not descend into, strings and all;
// anything it does not understand ends the walk with what it found so far.
#include "json_path_line.hpp"

#include <cctype>
#include <cstddef>
#include <optional>
#include <variant>
#include <vector>

namespace wb::app {
namespace {

using Part = std::variant<std::string, std::size_t>;  // object key or array index

// Reads a JSON string starting at the opening quote; `pos` ends past the closing one.
std::optional<std::string> read_string(const std::string& s, std::size_t& pos) {
    if (pos >= s.size() || s[pos] != '"') return std::nullopt;
    std::string out;
    for (++pos; pos < s.size(); ++pos) {
        const char c = s[pos];
        if (c == '"') {
            ++pos;
            return out;
        }
        if (c != '\\') {
            out += c;
            continue;
        }
        if (++pos >= s.size()) return std::nullopt;
        switch (s[pos]) {
        case 'n': out += '\n'; break;
        case 't': out += '\t'; break;
        case 'r': out += '\r'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        default: out += s[pos]; break;
        }
    }
    return std::nullopt;
}

std::optional<std::vector<Part>> split_path(const std::string& path) {
    std::vector<Part> parts;
    std::size_t i = 0;
    while (i < path.size()) {
        if (path[i] == '.') {
            ++i;
            continue;
        }
        if (path[i] == '[') {
            ++i;
            if (i < path.size() && path[i] == '"') {
                auto key = read_string(path, i);
                if (!key || i >= path.size() || path[i] != ']') return std::nullopt;
                parts.emplace_back(*key);
            } else {
                std::size_t n = 0;
                const std::size_t start = i;
                while (i < path.size() && std::isdigit(static_cast<unsigned char>(path[i])))
                    n = n * 10 + static_cast<std::size_t>(path[i++] - '0');
                if (i == start || i >= path.size() || path[i] != ']') return std::nullopt;
                parts.emplace_back(n);
            }
            ++i;
            continue;
        }
        std::size_t end = i;
        while (end < path.size() && path[end] != '.' && path[end] != '[') ++end;
        parts.emplace_back(path.substr(i, end - i));
        i = end;
    }
    return parts;
}

class Scanner {
public:
    explicit Scanner(const std::string& text) : s_(text) {}

    // Walks `parts` from the value at pos_; returns the line of the deepest value reached.
    int walk(const std::vector<Part>& parts) {
        int found = 0;
        for (const Part& part : parts) {
            skip_ws();
            if (pos_ >= s_.size()) return found;
            const bool entered = std::holds_alternative<std::string>(part)
                                     ? enter_key(std::get<std::string>(part))
                                     : enter_index(std::get<std::size_t>(part));
            if (!entered) return found;
            skip_ws();
            found = line_;
        }
        return found;
    }

private:
    void advance() {
        if (s_[pos_] == '\n') ++line_;
        ++pos_;
    }
    void skip_ws() {
        while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) advance();
    }
    bool skip_string() {
        if (pos_ >= s_.size() || s_[pos_] != '"') return false;
        for (advance(); pos_ < s_.size(); advance()) {
            if (s_[pos_] == '\\') {
                advance();
                if (pos_ >= s_.size()) return false;
            } else if (s_[pos_] == '"') {
                advance();
                return true;
            }
        }
        return false;
    }
    // Skips one value of any kind (nested containers by depth, strings whole).
    bool skip_value() {
        skip_ws();
        if (pos_ >= s_.size()) return false;
        if (s_[pos_] == '"') return skip_string();
        if (s_[pos_] != '{' && s_[pos_] != '[') {
            while (pos_ < s_.size() && s_[pos_] != ',' && s_[pos_] != '}' && s_[pos_] != ']' &&
                   !std::isspace(static_cast<unsigned char>(s_[pos_])))
                advance();
            return true;
        }
        int depth = 0;
        while (pos_ < s_.size()) {
            const char c = s_[pos_];
            if (c == '"') {
                if (!skip_string()) return false;
                continue;
            }
            if (c == '{' || c == '[') ++depth;
            if (c == '}' || c == ']') --depth;
            advance();
            if (depth == 0) return true;
        }
        return false;
    }
    // At '{': moves to the value of `key` (its first match, as written).
    bool enter_key(const std::string& key) {
        if (s_[pos_] != '{') return false;
        advance();
        for (;;) {
            skip_ws();
            if (pos_ >= s_.size() || s_[pos_] == '}') return false;
            std::size_t at = pos_;
            auto name = read_string(s_, at);
            if (!name) return false;
            for (std::size_t i = pos_; i < at; ++i)
                if (s_[i] == '\n') ++line_;
            pos_ = at;
            skip_ws();
            if (pos_ >= s_.size() || s_[pos_] != ':') return false;
            advance();
            if (*name == key) return true;
            if (!skip_value()) return false;
            skip_ws();
            if (pos_ < s_.size() && s_[pos_] == ',') advance();
        }
    }
    // At '[': moves to element `index`.
    bool enter_index(std::size_t index) {
        if (s_[pos_] != '[') return false;
        advance();
        for (std::size_t i = 0;; ++i) {
            skip_ws();
            if (pos_ >= s_.size() || s_[pos_] == ']') return false;
            if (i == index) return true;
            if (!skip_value()) return false;
            skip_ws();
            if (pos_ < s_.size() && s_[pos_] == ',') advance();
        }
    }

    const std::string& s_;
    std::size_t pos_ = 0;
    int line_ = 1;
};

}  // namespace

int json_path_line(const std::string& json_text, const std::string& json_path) {
    if (json_path.empty()) return 0;
    const auto parts = split_path(json_path);
    if (!parts || parts->empty()) return 0;
    return Scanner(json_text).walk(*parts);
}

}  // namespace wb::app
