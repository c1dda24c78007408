// runtime/lesson/json_guards.cpp — the guards on a lesson's raw text (see json_guards.hpp).
#include "lesson/json_guards.hpp"

#include <algorithm>
#include <cctype>

namespace wb::lesson_load {


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

}  // namespace wb::lesson_load
