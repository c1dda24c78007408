// runtime/emulate/rewrite.cpp — `__shared__` declarations rewritten for the CPU emulator.
//
// `extern __shared__` declarations become pointers to the block's dynamic
// shared memory, and static ones in a function body become guarded storage
// that the emulator poisons per block (rewrite.hpp says the forms).
// The scan works on a copy of the source whose comments and literals are
// blanked (same offsets), so a declaration in a comment or a string is never
// touched. Brace depth decides the form: a declaration inside a function body
// is rewritten in place, one at namespace scope (only namespace and
// extern "C" braces open around it) becomes an object from cuda_emu.h
// (extern) or is left to cuda_emu.h's `static thread_local` (static).
#include "emulate/rewrite.hpp"

#include <cctype>
#include <cstddef>
#include <vector>

namespace wb {

namespace {

bool is_ident_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
}

// The identifier that starts at i, or "" when none does.
std::string ident_at(const std::string& s, std::size_t i) {
    if (i >= s.size() || !(std::isalpha(static_cast<unsigned char>(s[i])) != 0 || s[i] == '_')) return "";
    if (i > 0 && is_ident_char(s[i - 1])) return "";
    std::size_t j = i;
    while (j < s.size() && is_ident_char(s[j])) ++j;
    return s.substr(i, j - i);
}

std::size_t skip_space(const std::string& s, std::size_t i) {
    while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i])) != 0) ++i;
    return i;
}

// The previous identifier ending before i (after whitespace), and where it starts.
std::string ident_before(const std::string& s, std::size_t i, std::size_t* start) {
    while (i > 0 && std::isspace(static_cast<unsigned char>(s[i - 1])) != 0) --i;
    std::size_t j = i;
    while (j > 0 && is_ident_char(s[j - 1])) --j;
    *start = j;
    return s.substr(j, i - j);
}

// After a '(' at i: the offset just past its matching ')', or npos.
std::size_t skip_parens(const std::string& s, std::size_t i) {
    int depth = 0;
    for (; i < s.size(); ++i) {
        if (s[i] == '(') ++depth;
        if (s[i] == ')' && --depth == 0) return i + 1;
    }
    return std::string::npos;
}

std::string trim_collapse(const std::string& s) {
    std::string out;
    bool space = false;
    for (char c : s) {
        if (std::isspace(static_cast<unsigned char>(c)) != 0) {
            space = !out.empty();
            continue;
        }
        if (space) out += ' ';
        space = false;
        out += c;
    }
    return out;
}

// Whether the '{' at i opens a namespace or an extern "C" block (so that what
// is directly inside it is at namespace scope).
bool opens_namespace(const std::string& code, std::size_t i) {
    std::size_t start = 0;
    std::string word = ident_before(code, i, &start);
    if (word == "namespace") return true;
    if (!word.empty()) {  // namespace a::b { / inline namespace x {
        std::size_t k = start;
        while (k > 0) {
            std::size_t prev_start = 0;
            const std::string prev = ident_before(code, k, &prev_start);
            if (prev == "namespace") return true;
            std::size_t c = k;
            while (c > 0 && std::isspace(static_cast<unsigned char>(code[c - 1])) != 0) --c;
            if (c >= 2 && code[c - 1] == ':' && code[c - 2] == ':') {
                std::size_t ns = 0;
                ident_before(code, c - 2, &ns);
                k = ns;
                continue;
            }
            break;
        }
        return false;
    }
    // extern "C" {  (the literal's text is blanked, its quotes are kept)
    std::size_t k = i;
    while (k > 0 && std::isspace(static_cast<unsigned char>(code[k - 1])) != 0) --k;
    if (k == 0 || code[k - 1] != '"') return false;
    --k;
    while (k > 0 && code[k - 1] != '"') --k;
    if (k == 0) return false;
    std::size_t s = 0;
    return ident_before(code, k - 1, &s) == "extern";
}

// One `extern __shared__ ... name[];` found in the blanked code.
struct SharedDecl {
    std::size_t begin = 0, end = 0;  // [begin, end) covers the declaration and its ';'
    std::string type, name;
};

// Parses what follows `extern __shared__` (or `__shared__ extern`), from
// `from` up to the next ';'. Alignment specifiers are dropped: the dynamic
// shared memory is 16-byte aligned.
bool parse_decl(const std::string& code, std::size_t from, SharedDecl* decl) {
    const std::size_t semi = code.find(';', from);
    if (semi == std::string::npos) return false;
    std::string rest;
    for (std::size_t i = from; i < semi;) {
        const std::string word = ident_at(code, i);
        if (word == "__align__" || word == "alignas" || word == "__attribute__" || word == "__builtin_align__") {
            const std::size_t open = skip_space(code, i + word.size());
            if (open >= semi || code[open] != '(') return false;
            const std::size_t close = skip_parens(code, open);
            if (close == std::string::npos || close > semi) return false;
            rest += ' ';
            i = close;
            continue;
        }
        if (word.empty() && (code[i] == '{' || code[i] == '}' || code[i] == '=' || code[i] == ',')) return false;
        if (!word.empty()) {
            rest += word;
            i += word.size();
        } else {
            rest += code[i];
            ++i;
        }
    }
    // rest: "<type> name [ ]"
    std::size_t k = rest.size();
    while (k > 0 && std::isspace(static_cast<unsigned char>(rest[k - 1])) != 0) --k;
    if (k == 0 || rest[k - 1] != ']') return false;
    --k;
    while (k > 0 && std::isspace(static_cast<unsigned char>(rest[k - 1])) != 0) --k;
    if (k == 0 || rest[k - 1] != '[') return false;
    --k;
    std::size_t name_start = 0;
    decl->name = ident_before(rest, k, &name_start);
    if (decl->name.empty() || std::isdigit(static_cast<unsigned char>(decl->name[0])) != 0) return false;
    decl->type = trim_collapse(rest.substr(0, name_start));
    decl->end = semi + 1;
    return !decl->type.empty();
}

bool is_alignment_word(const std::string& word) {
    return word == "__align__" || word == "alignas" || word == "__attribute__" || word == "__builtin_align__";
}

// One declarator of a static `__shared__` declaration: `name` of type `type`
// (the declaration's type with the declarator's `*`s and `[dims]`).
struct StaticShared {
    std::string type, name;
};

// Parses what follows a static `__shared__` in a function body, from `from`
// up to the next ';': `[specifiers] T [specifiers] d1 [, d2...]` where each
// declarator is `[*...] name [dims]...` and the specifiers are alignments
// (__align__(n), alignas(n), __attribute__((...))), kept verbatim in
// `*specs`. False, and nothing rewritten, for anything else: an initializer
// (NVRTC refuses those for __shared__), a reference, a function declarator,
// a parenthesised type (decltype) or an empty `[]`.
bool parse_static_decl(const std::string& code, std::size_t from, std::vector<StaticShared>* out, std::string* specs,
                       std::size_t* end) {
    const std::size_t semi = code.find(';', from);
    if (semi == std::string::npos) return false;
    // The declaration without its specifiers, split at top-level commas.
    std::vector<std::string> pieces(1);
    int square = 0, angle = 0;
    for (std::size_t i = from; i < semi;) {
        const std::string word = ident_at(code, i);
        if (is_alignment_word(word)) {
            const std::size_t open = skip_space(code, i + word.size());
            if (open >= semi || code[open] != '(') return false;
            const std::size_t close = skip_parens(code, open);
            if (close == std::string::npos || close > semi) return false;
            *specs += code.substr(i, close - i) + " ";
            pieces.back() += ' ';
            i = close;
            continue;
        }
        if (!word.empty()) {
            pieces.back() += word;
            i += word.size();
            continue;
        }
        const char c = code[i];
        if (c == '[') ++square;
        if (c == ']') --square;
        if (square == 0 && c == '<') ++angle;
        if (square == 0 && c == '>') --angle;
        if (square == 0 && (c == '(' || c == ')' || c == '{' || c == '}' || c == '=' || c == '&')) return false;
        if (square == 0 && angle == 0 && c == ',') {
            pieces.emplace_back();
            ++i;
            continue;
        }
        pieces.back() += c;
        ++i;
    }
    if (square != 0 || angle != 0) return false;
    std::string base;  // the declaration's type, without the first declarator's '*'s
    for (std::size_t p = 0; p < pieces.size(); ++p) {
        std::string piece = trim_collapse(pieces[p]);
        // Trailing [dims] groups, innermost last.
        std::size_t k = piece.size();
        while (k > 0 && piece[k - 1] == ']') {
            int depth = 0;
            std::size_t j = k;
            while (j > 0) {
                --j;
                if (piece[j] == ']') ++depth;
                if (piece[j] == '[' && --depth == 0) break;
            }
            if (depth != 0 || trim_collapse(piece.substr(j + 1, k - j - 2)).empty()) return false;
            k = j;
            while (k > 0 && piece[k - 1] == ' ') --k;
        }
        std::string dims = trim_collapse(piece.substr(k));
        for (std::size_t sp = dims.find("] ["); sp != std::string::npos; sp = dims.find("] [")) dims.erase(sp + 1, 1);
        std::size_t name_start = 0;
        StaticShared d;
        d.name = ident_before(piece, k, &name_start);
        if (d.name.empty() || std::isdigit(static_cast<unsigned char>(d.name[0])) != 0) return false;
        std::string before = trim_collapse(piece.substr(0, name_start));  // type and/or '*'s
        if (p == 0) {
            const std::size_t star = before.find('*');
            base = trim_collapse(before.substr(0, star));
            before = star == std::string::npos ? "" : before.substr(star);
            if (base.empty() || base == "const" || base == "volatile") return false;
        }
        for (char c : before)
            if (c != '*' && c != ' ' && !is_ident_char(c)) return false;
        d.type = base + (before.empty() ? "" : " " + before) + dims;
        out->push_back(std::move(d));
    }
    *end = semi + 1;
    return true;
}

// `#pragma unroll [n]` and NVCC's `#pragma nv_...`: GCC would warn that it
// ignores them, on the student's line, about code that is right. The line
// stays (empty), so the numbering does not move.
std::string drop_device_pragmas(const std::string& source) {
    const std::string code = blank_comments_and_strings(source);
    std::string out = source;
    std::size_t line = 0;
    while (line < code.size()) {
        std::size_t end = code.find('\n', line);
        if (end == std::string::npos) end = code.size();
        std::size_t i = skip_space(code, line);
        if (i < end && code[i] == '#') {
            i = skip_space(code, i + 1);
            if (ident_at(code, i) == "pragma") {
                i = skip_space(code, i + 6);
                const std::string word = ident_at(code, i);
                if (i < end && (word == "unroll" || word.rfind("nv_", 0) == 0) && code[end - 1] != '\\') {
                    for (std::size_t k = line; k < end; ++k) out[k] = ' ';
                }
            }
        }
        line = end + 1;
    }
    return out;
}

std::string replacement(const SharedDecl& d, bool namespace_scope) {
    if (namespace_scope) {
        return "static const wb_emu::DynamicShared<" + d.type + " > " + d.name + "{};";
    }
    return d.type + "* const " + d.name + " = (" + d.type + "*)wb_emu_thread()->dynamic_shared;";
}

// Whether offset i is on a preprocessor directive's line (or a line that a
// backslash joins to one): a `__shared__` in a macro's body is left to
// cuda_emu.h, since the rewrite's names and strings would not follow the
// macro's parameters.
bool in_directive(const std::string& code, std::size_t i) {
    std::size_t start = code.rfind('\n', i == 0 ? 0 : i - 1);
    start = start == std::string::npos ? 0 : start + 1;
    for (;;) {
        const std::size_t first = skip_space(code, start);
        if (first < code.size() && code[first] == '#') return true;
        // The line before, when it ends with a backslash, continues onto this one.
        if (start < 2 || code[start - 2] != '\\') return false;
        const std::size_t prev = code.rfind('\n', start - 2);
        start = prev == std::string::npos ? 0 : prev + 1;
    }
}

// One statement pair per declarator, all on the declaration's first line (so
// __LINE__ is the line the student wrote `__shared__` on).
std::string static_replacement(const std::vector<StaticShared>& decls, const std::string& specs) {
    std::string out;
    for (const auto& d : decls) {
        if (!out.empty()) out += ' ';
        const std::string slot = "wb_emu_shared_" + d.name;
        out += specs + "static thread_local wb_emu::SharedVar<" + d.type + " > " + slot + "; auto& " + d.name + " = " +
               slot + ".enter(\"" + d.name + "\", __FILE__, __LINE__, __alignof__(" + slot + "));";
    }
    return out;
}

// Where a static declaration starts: before the words that may come ahead of
// `__shared__` (`volatile __shared__ int x;`, `static __shared__ ...`), and
// which of them belong to the type (volatile, const); `static` and
// `__device__` are dropped.
std::size_t static_decl_begin(const std::string& code, std::size_t shared_at, std::string* qualifiers) {
    std::size_t begin = shared_at;
    for (;;) {
        std::size_t start = 0;
        const std::string word = ident_before(code, begin, &start);
        if (word != "volatile" && word != "const" && word != "static" && word != "__device__") return begin;
        if (word == "volatile" || word == "const") *qualifiers = word + " " + *qualifiers;
        begin = start;
    }
}

std::string rewrite_shared(const std::string& source) {
    const std::string code = blank_comments_and_strings(source);
    std::vector<bool> braces;  // per open '{': does it open a namespace (or extern "C") block?
    std::string out;
    out.reserve(source.size() + 256);
    std::size_t copied = 0;
    std::size_t i = 0;
    while (i < code.size()) {
        const char c = code[i];
        if (c == '{') {
            braces.push_back(opens_namespace(code, i));
            ++i;
            continue;
        }
        if (c == '}') {
            if (!braces.empty()) braces.pop_back();
            ++i;
            continue;
        }
        const std::string word = ident_at(code, i);
        if (word.empty()) {
            ++i;
            continue;
        }
        if (word != "extern" && word != "__shared__") {
            i += word.size();
            continue;
        }
        // extern __shared__ / __shared__ extern, with nothing but space between.
        const std::size_t next = skip_space(code, i + word.size());
        const std::string other = ident_at(code, next);
        SharedDecl decl;
        if (((word == "extern" && other == "__shared__") || (word == "__shared__" && other == "extern")) &&
            parse_decl(code, next + other.size(), &decl)) {
            decl.begin = i;
            bool namespace_scope = true;
            for (bool b : braces) namespace_scope = namespace_scope && b;
            out.append(source, copied, decl.begin - copied);
            out += replacement(decl, namespace_scope);
            for (std::size_t k = decl.begin; k < decl.end; ++k) {
                if (source[k] == '\n') out += '\n';
            }
            copied = decl.end;
            i = decl.end;
            continue;
        }
        // A static __shared__ in a function body (at namespace scope
        // cuda_emu.h's `static thread_local` stays: not poisoned, no guards).
        std::vector<StaticShared> statics;
        std::string specs, qualifiers;
        std::size_t end = 0;
        bool in_function = false;
        for (bool b : braces) in_function = in_function || !b;
        if (word == "__shared__" && other != "extern" && in_function && !in_directive(code, i) &&
            parse_static_decl(code, i + word.size(), &statics, &specs, &end)) {
            const std::size_t begin = static_decl_begin(code, i, &qualifiers);
            if (begin >= copied) {
                for (auto& d : statics) d.type = qualifiers + d.type;
                out.append(source, copied, begin - copied);
                out += static_replacement(statics, specs);
                for (std::size_t k = begin; k < end; ++k) {
                    if (source[k] == '\n') out += '\n';
                }
                copied = end;
                i = end;
                continue;
            }
        }
        i += word.size();
    }
    out.append(source, copied, std::string::npos);
    return out;
}

}  // namespace

std::string blank_comments_and_strings(const std::string& source) {
    std::string out = source;
    const std::size_t n = source.size();
    auto blank = [&](std::size_t i) {
        if (out[i] != '\n') out[i] = ' ';
    };
    std::size_t i = 0;
    while (i < n) {
        const char c = source[i];
        if (c == '/' && i + 1 < n && source[i + 1] == '/') {
            // To the end of the line; a backslash before the newline continues it.
            while (i < n && !(source[i] == '\n' && (i == 0 || source[i - 1] != '\\'))) blank(i++);
            continue;
        }
        if (c == '/' && i + 1 < n && source[i + 1] == '*') {
            blank(i++);
            blank(i++);
            while (i < n && !(source[i] == '*' && i + 1 < n && source[i + 1] == '/')) blank(i++);
            if (i < n) {
                blank(i++);
                blank(i++);
            }
            continue;
        }
        if (c == '"' && i > 0 && source[i - 1] == 'R' && (i < 2 || !is_ident_char(source[i - 2]) ||
                                                          source[i - 2] == 'u' || source[i - 2] == 'U' ||
                                                          source[i - 2] == 'L' || source[i - 2] == '8')) {
            // Raw string R"delim( ... )delim"
            const std::size_t open = source.find('(', i + 1);
            if (open != std::string::npos) {
                const std::string close = ")" + source.substr(i + 1, open - i - 1) + "\"";
                const std::size_t end = source.find(close, open);
                const std::size_t stop = end == std::string::npos ? n : end + close.size() - 1;
                for (std::size_t k = i + 1; k < stop; ++k) blank(k);
                i = stop + 1;
                continue;
            }
        }
        if (c == '"' || (c == '\'' && !(i > 0 && std::isxdigit(static_cast<unsigned char>(source[i - 1])) != 0 &&
                                        i + 1 < n && std::isxdigit(static_cast<unsigned char>(source[i + 1])) != 0))) {
            // A literal (a ' between two digits is a digit separator: 1'000'000).
            ++i;
            while (i < n && source[i] != c && source[i] != '\n') {
                if (source[i] == '\\' && i + 1 < n) blank(i++);
                blank(i++);
            }
            if (i < n && source[i] == c) ++i;
            continue;
        }
        ++i;
    }
    return out;
}

std::string rewrite_for_emulation(const std::string& source) {
    return drop_device_pragmas(rewrite_shared(source));
}

}  // namespace wb
