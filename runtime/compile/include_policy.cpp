// runtime/compile/include_policy.cpp — the #include rule every compile path asks (include_policy.hpp).
//
// Two passes over the text. The first joins spliced lines (a backslash, blanks
// allowed, then a line break: `#inc\<newline>lude` is an include to the
// compiler) and keeps each character's line and column. The second is a small
// lexer that knows comments, string and character literals (raw strings too)
// and numbers with digit separators, so that a '#' is taken as a directive only
// where the compiler would: first on its line, after blanks and comments. A
// comment that spans lines does not end the line it began on, as in the
// compiler's translation phases.
#include "compile/include_policy.hpp"

#include "compile/nvrtc.hpp"
#include "core/error.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <system_error>

namespace fs = std::filesystem;

namespace wb {

namespace {

// The text after line splices, with each character's place in the original.
struct Spliced {
    std::string text;
    std::vector<int> line, column;
};

Spliced splice(const std::string& in) {
    Spliced out;
    out.text.reserve(in.size());
    out.line.reserve(in.size());
    out.column.reserve(in.size());
    int line = 1, column = 1;
    for (std::size_t i = 0; i < in.size();) {
        // A backslash (or the trigraph ??/) and blanks before a line break join the lines.
        std::size_t after = std::string::npos;
        if (in[i] == '\\') after = i + 1;
        else if (in.compare(i, 3, "?\?/") == 0) after = i + 3;
        if (after != std::string::npos) {
            std::size_t j = after;
            while (j < in.size() && (in[j] == ' ' || in[j] == '\t' || in[j] == '\r')) ++j;
            if (j < in.size() && in[j] == '\n') {
                i = j + 1;
                ++line;
                column = 1;
                continue;
            }
        }
        if (in.compare(i, 3, "?\?=") == 0) {  // the trigraph for '#'
            out.text += '#';
            out.line.push_back(line);
            out.column.push_back(column);
            i += 3;
            column += 3;
            continue;
        }
        out.text += in[i];
        out.line.push_back(line);
        out.column.push_back(column);
        if (in[i] == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
        ++i;
    }
    return out;
}

bool is_ident(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }
bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

// Past a block comment that starts at i ("/*"); the end of the text when it is not closed.
std::size_t skip_block_comment(const std::string& s, std::size_t i) {
    const std::size_t end = s.find("*/", i + 2);
    return end == std::string::npos ? s.size() : end + 2;
}

// Past a literal that opens with `quote` at i: to its closing quote, or to the
// line's end (where the compiler stops an unclosed one too).
std::size_t skip_quoted(const std::string& s, std::size_t i, char quote) {
    for (std::size_t j = i + 1; j < s.size(); ++j) {
        if (s[j] == '\\') {
            ++j;
            continue;
        }
        if (s[j] == quote || s[j] == '\n') return s[j] == quote ? j + 1 : j;
    }
    return s.size();
}

// Past a raw string whose `"` is at i: R"delim( ... )delim". npos when what
// follows is not a raw string's opening.
std::size_t skip_raw_string(const std::string& s, std::size_t i) {
    const std::size_t open = s.find('(', i + 1);
    if (open == std::string::npos || open - i - 1 > 16) return std::string::npos;
    const std::string delim = s.substr(i + 1, open - i - 1);
    for (char c : delim)
        if (c == ' ' || c == ')' || c == '\\' || c == '\t' || c == '\n' || c == '"') return std::string::npos;
    const std::size_t close = s.find(")" + delim + "\"", open + 1);
    return close == std::string::npos ? s.size() : close + delim.size() + 2;
}

// Blanks and comments inside a directive, from i.
std::size_t skip_directive_space(const std::string& s, std::size_t i) {
    for (;;) {
        while (i < s.size() && is_blank(s[i])) ++i;
        if (s.compare(i, 2, "/*") == 0) {
            i = skip_block_comment(s, i);
            continue;
        }
        return i;
    }
}

// The folders a quoted name may be found in, resolved (so /usr/local/cuda's
// link is followed), each once.
std::vector<fs::path> quoted_roots() {
    std::vector<fs::path> roots;
    try {
        const fs::path home = cuda_home();
        roots.push_back(home / "include");
        roots.push_back(home / "include" / "cccl");
    } catch (const Error&) {  // no toolkit: its headers are nowhere to be found
    }
    for (const char* system : {"/usr/include", "/usr/local/include", "/usr/lib/gcc"}) roots.emplace_back(system);
    std::vector<fs::path> out;
    for (const fs::path& r : roots) {
        std::error_code ec;
        fs::path c = fs::canonical(r, ec);
        if (!ec && fs::is_directory(c, ec) && std::find(out.begin(), out.end(), c) == out.end()) out.push_back(c);
    }
    return out;
}

bool inside(const fs::path& file, const fs::path& root) {
    auto f = file.begin();
    for (auto r = root.begin(); r != root.end(); ++r, ++f)
        if (f == file.end() || *f != *r) return false;
    return true;
}

// Whether `name`, given in quotes, is one of the headers the rule allows.
bool quoted_allowed(const std::string& name, const std::vector<std::string>& embedded,
                    const std::vector<fs::path>& roots) {
    if (std::find(embedded.begin(), embedded.end(), name) != embedded.end()) return true;
    const auto& builtin = nvrtc_builtin_headers();
    if (std::any_of(builtin.begin(), builtin.end(), [&](const NvrtcHeader& h) { return name == h.name; })) return true;
    for (const fs::path& root : roots) {
        std::error_code ec;
        const fs::path candidate = root / name;
        if (!fs::is_regular_file(candidate, ec)) continue;
        const fs::path real = fs::canonical(candidate, ec);
        if (ec) continue;
        // A link may lead from one allowed folder to another, never out of them.
        if (std::any_of(roots.begin(), roots.end(), [&](const fs::path& r) { return inside(real, r); })) return true;
    }
    return false;
}

// The include's name as the student wrote it, kept short for the message. An
// argument that starts with '@' would be read as a catalogue key.
std::string shown(std::string name) {
    if (name.size() > 120) name = name.substr(0, 117) + "...";
    if (!name.empty() && name[0] == '@') name = " " + name;
    return name;
}

struct Scan {
    const Spliced& in;
    const std::string& origin;
    const std::vector<std::string>& embedded;
    std::vector<IncludeRefusal> refusals;
    std::vector<fs::path> roots;
    bool roots_known = false;

    void refuse(std::size_t hash, const std::string& name, const char* why) {
        IncludeRefusal r;
        r.said = {{"include.refused", {shown(name), std::string("@") + why}}};
        r.diagnostic.file = origin;
        r.diagnostic.line = in.line[hash];
        r.diagnostic.column = in.column[hash];
        r.diagnostic.severity = Severity::Error;
        r.diagnostic.message = render(r.said, "en");
        r.diagnostic.code = kIncludeRefused;
        refusals.push_back(std::move(r));
    }

    // The directive whose '#' is at `hash` and whose name starts at i. Returns
    // where lexing goes on.
    std::size_t directive(std::size_t hash, std::size_t i) {
        const std::string& s = in.text;
        i = skip_directive_space(s, i);
        std::size_t word_end = i;
        while (word_end < s.size() && is_ident(s[word_end])) ++word_end;
        const std::string word = s.substr(i, word_end - i);
        if (word != "include" && word != "include_next" && word != "import" && word != "embed") return word_end;
        i = skip_directive_space(s, word_end);
        const std::size_t line_end = std::min(s.find('\n', i), s.size());
        const char open = i < s.size() ? s[i] : '\n';
        const char close = open == '<' ? '>' : open == '"' ? '"' : '\0';
        const std::size_t end = close ? s.find(close, i + 1) : std::string::npos;
        if (!close || end == std::string::npos || end > line_end) {
            std::string rest = s.substr(i, line_end - i);
            while (!rest.empty() && is_blank(rest.back())) rest.pop_back();
            refuse(hash, rest.empty() ? std::string("(nothing)") : rest, "include.not_a_name");
            return line_end;
        }
        const std::string name = s.substr(i + 1, end - i - 1);
        const std::string written = open + name + close;
        if (!name.empty() && (name[0] == '/' || name[0] == '\\'))
            refuse(hash, written, "include.absolute");
        else if (name.find("..") != std::string::npos)
            refuse(hash, written, "include.dotdot");
        else if (name.empty())
            refuse(hash, written, "include.not_found");
        else if (open == '"') {
            if (!roots_known) {
                roots = quoted_roots();
                roots_known = true;
            }
            if (!quoted_allowed(name, embedded, roots)) refuse(hash, written, "include.not_found");
        }
        return end + 1;
    }

    void run() {
        const std::string& s = in.text;
        bool line_start = true;  // only blanks and comments so far on this line
        for (std::size_t i = 0; i < s.size();) {
            const char c = s[i];
            if (c == '\n') {
                line_start = true;
                ++i;
            } else if (is_blank(c)) {
                ++i;
            } else if (s.compare(i, 2, "//") == 0) {
                i = std::min(s.find('\n', i), s.size());
            } else if (s.compare(i, 2, "/*") == 0) {
                i = skip_block_comment(s, i);
            } else if (line_start && (c == '#' || s.compare(i, 2, "%:") == 0)) {
                line_start = false;
                i = directive(i, i + (c == '#' ? 1 : 2));
            } else if (c == '"' || c == '\'') {
                line_start = false;
                i = skip_quoted(s, i, c);
            } else if (std::isdigit(static_cast<unsigned char>(c)) != 0 ||
                       (c == '.' && i + 1 < s.size() && std::isdigit(static_cast<unsigned char>(s[i + 1])) != 0)) {
                // A number, digit separators (1'000) and exponent signs (1e-5) included.
                line_start = false;
                ++i;
                while (i < s.size()) {
                    if (is_ident(s[i]) || s[i] == '.' || (s[i] == '\'' && i + 1 < s.size() && is_ident(s[i + 1]))) {
                        ++i;
                    } else if ((s[i] == '+' || s[i] == '-') && std::string("eEpP").find(s[i - 1]) != std::string::npos) {
                        ++i;
                    } else {
                        break;
                    }
                }
            } else if (is_ident(c)) {
                line_start = false;
                std::size_t j = i;
                while (j < s.size() && is_ident(s[j])) ++j;
                const std::string word = s.substr(i, j - i);
                if (j < s.size() && s[j] == '"' && (word == "R" || word == "u8R" || word == "uR" || word == "UR" || word == "LR")) {
                    const std::size_t past = skip_raw_string(s, j);
                    i = past == std::string::npos ? j : past;
                } else {
                    i = j;  // an encoding prefix (u8, L...) leaves its quote to the literal branch
                }
            } else {
                line_start = false;
                ++i;
            }
        }
    }
};

}  // namespace

std::vector<IncludeRefusal> refused_includes(const std::string& text, const std::string& origin,
                                             const std::vector<std::string>& embedded) {
    const Spliced spliced = splice(text);
    Scan scan{spliced, origin, embedded, {}, {}, false};
    scan.run();
    return std::move(scan.refusals);
}

std::vector<Diagnostic> refusal_diagnostics(const std::vector<IncludeRefusal>& refusals) {
    std::vector<Diagnostic> out;
    out.reserve(refusals.size());
    for (const auto& r : refusals) out.push_back(r.diagnostic);
    return out;
}

}  // namespace wb
