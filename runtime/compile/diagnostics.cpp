// runtime/compile/diagnostics.cpp — turns NVRTC and GCC logs into located diagnostics.
//
// Both parsers read the log line by line and keep only what a student needs:
// file, line, column, severity and the message. NVRTC (the EDG front end)
// gives no column in its location prefix; it echoes the source line indented
// by two spaces and puts a caret under the offending byte, so the column is
// read from the caret line. Summary lines ("1 error detected ...", "Remark:
// ...", "Compilation terminated.") carry nothing new and are dropped. The
// parsers never throw: an unrecognised line is skipped, because a log format
// drift must not hide the diagnostics we can still read.
#include "compile/diagnostics.hpp"

#include <cctype>
#include <optional>
#include <string_view>

namespace wb {

const char* severity_name(Severity s) {
    switch (s) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    case Severity::Note: return "note";
    }
    return "error";
}

std::string Diagnostic::to_string() const {
    std::string out;
    if (!file.empty()) {
        out += file;
        if (line > 0) {
            out += ":" + std::to_string(line);
            if (column > 0) out += ":" + std::to_string(column);
        }
        out += ": ";
    }
    out += severity_name(severity);
    out += ": ";
    out += message;
    return out;
}

namespace {

std::vector<std::string_view> split_lines(std::string_view text) {
    std::vector<std::string_view> lines;
    std::size_t start = 0;
    while (start <= text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos) end = text.size();
        std::string_view line = text.substr(start, end - start);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        lines.push_back(line);
        if (end == text.size()) break;
        start = end + 1;
    }
    return lines;
}

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

// Parses a run of decimal digits at s[pos...]; returns the value and moves pos.
std::optional<int> read_int(std::string_view s, std::size_t& pos) {
    std::size_t begin = pos;
    long value = 0;
    while (pos < s.size() && std::isdigit(static_cast<unsigned char>(s[pos]))) {
        value = value * 10 + (s[pos] - '0');
        if (value > 100000000) return std::nullopt;
        ++pos;
    }
    if (pos == begin) return std::nullopt;
    return static_cast<int>(value);
}

// "error", "catastrophic error", "warning", "remark", "note", optionally
// followed by " #177-D" (NVRTC) and then ": ". Returns the severity, the
// diagnostic number and the message, or nothing when `rest` is not of that form.
struct SeverityAndMessage {
    Severity severity;
    std::string code;
    std::string message;
};

std::optional<SeverityAndMessage> read_severity(std::string_view rest) {
    static constexpr std::pair<std::string_view, Severity> kWords[] = {
        {"catastrophic error", Severity::Error},
        {"fatal error", Severity::Error},
        {"internal error", Severity::Error},
        {"error", Severity::Error},
        {"warning", Severity::Warning},
        {"remark", Severity::Note},
        {"note", Severity::Note},
    };
    for (const auto& [word, severity] : kWords) {
        if (!starts_with(rest, word)) continue;
        std::string_view after = rest.substr(word.size());
        SeverityAndMessage out{severity, {}, {}};
        if (starts_with(after, " #")) {  // NVRTC diagnostic number: "#177-D" or "#20"
            std::size_t pos = 2;
            std::size_t begin = pos;
            if (!read_int(after, pos)) return std::nullopt;
            out.code = std::string(after.substr(begin, pos - begin));
            if (starts_with(after.substr(pos), "-D")) pos += 2;
            after = after.substr(pos);
        }
        if (!starts_with(after, ": ") && after != ":") return std::nullopt;
        out.message = std::string(after.size() > 2 ? after.substr(2) : std::string_view{});
        return out;
    }
    return std::nullopt;
}

// A caret line: only blanks, then '^', then nothing but blanks.
std::optional<std::size_t> caret_index(std::string_view line) {
    std::size_t i = 0;
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    if (i >= line.size() || line[i] != '^') return std::nullopt;
    for (std::size_t j = i + 1; j < line.size(); ++j)
        if (line[j] != ' ' && line[j] != '\t') return std::nullopt;
    return i;
}

// "kernel.cu(12): error: ..." → file, line and the rest after "): ".
std::optional<Diagnostic> read_nvrtc_header(std::string_view line) {
    // The location is the last "(digits): " before a severity word, so file
    // names that contain parentheses still work.
    for (std::size_t close = line.find("): "); close != std::string_view::npos;
         close = line.find("): ", close + 1)) {
        std::size_t open = line.rfind('(', close);
        if (open == std::string_view::npos || open == 0) continue;
        std::size_t pos = open + 1;
        auto number = read_int(line, pos);
        if (!number || pos != close) continue;
        auto sev = read_severity(line.substr(close + 3));
        if (!sev) continue;
        Diagnostic d;
        d.file = std::string(line.substr(0, open));
        d.line = *number;
        d.severity = sev->severity;
        d.code = sev->code;
        d.message = sev->message;
        return d;
    }
    // No location: "error: ..." or "nvrtc: error: ...".
    std::string_view rest = line;
    if (starts_with(rest, "nvrtc: ")) rest.remove_prefix(7);
    if (auto sev = read_severity(rest)) {
        Diagnostic d;
        d.severity = sev->severity;
        d.code = sev->code;
        d.message = sev->message;
        return d;
    }
    return std::nullopt;
}

bool is_nvrtc_summary(std::string_view line) {
    return starts_with(line, "Remark: The warnings can be suppressed") ||
           line.find(" detected in the compilation of ") != std::string_view::npos ||
           line == "Compilation terminated." || line == "Compilation aborted.";
}

std::string_view trim(std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
    return s;
}

// "detected during instantiation of "void k(T *) [with T=float]" at line 2"
// (optionally "... at line 2 of kernel.cu"): a note on the line that asked for
// the instantiation, which is usually the student's own.
Diagnostic instantiation_note(std::string_view text, const Diagnostic& parent) {
    Diagnostic note;
    note.severity = Severity::Note;
    note.file = parent.file;
    note.message = std::string(text);
    std::size_t at = text.rfind(" at line ");
    if (at != std::string_view::npos) {
        std::size_t pos = at + 9;
        if (auto n = read_int(text, pos)) {
            note.line = *n;
            std::string_view tail = text.substr(pos);
            if (starts_with(tail, " of ")) {
                std::string_view file = trim(tail.substr(4));
                if (file.size() >= 2 && file.front() == '"' && file.back() == '"')
                    file = file.substr(1, file.size() - 2);
                note.file = std::string(file);
            }
        }
    }
    return note;
}

}  // namespace

std::vector<Diagnostic> parse_nvrtc_log(const std::string& log) {
    std::vector<Diagnostic> out;
    auto lines = split_lines(log);
    // Index in `out` of the diagnostic whose source echo / caret may follow.
    constexpr std::size_t kNone = std::size_t(-1);
    std::size_t open = kNone;
    bool saw_echo = false;
    for (std::string_view line : lines) {
        if (line.empty()) {
            open = kNone;
            continue;
        }
        if (auto d = read_nvrtc_header(line)) {
            out.push_back(std::move(*d));
            open = out.size() - 1;
            saw_echo = false;
            continue;
        }
        if (is_nvrtc_summary(line)) {
            open = kNone;
            continue;
        }
        if (open == kNone) continue;
        if (auto caret = caret_index(line); caret && saw_echo) {
            // The echo is indented by two spaces; the caret sits under the
            // byte in question, so the 1-based column is caret - 2 + 1.
            Diagnostic& d = out[open];
            if (d.column == 0 && *caret >= 2) d.column = static_cast<int>(*caret - 2 + 1);
            continue;
        }
        std::string_view t = trim(line);
        if (starts_with(t, "detected during") || starts_with(t, "instantiation of ")) {
            std::string_view text = t;
            if (starts_with(text, "detected during:")) continue;  // a list of instantiations follows
            const Diagnostic parent = out[open];
            out.push_back(instantiation_note(text, parent));
            continue;
        }
        if (starts_with(line, "  ") && !saw_echo) {
            saw_echo = true;  // the source echo
            continue;
        }
    }
    return out;
}

std::vector<Diagnostic> parse_gcc_log(const std::string& log) {
    std::vector<Diagnostic> out;
    for (std::string_view line : split_lines(log)) {
        if (line.empty() || line.front() == ' ') continue;  // source echo, carets, "  | " gutters
        if (line.find(": In function ") != std::string_view::npos ||
            line.find(": In member function ") != std::string_view::npos ||
            line.find(": In instantiation of ") != std::string_view::npos ||
            line.find(": At global scope:") != std::string_view::npos ||
            starts_with(line, "In file included from ") || starts_with(line, "                 from ") ||
            line == "compilation terminated.")
            continue;
        // file:line:col: severity: message — the file name may itself contain
        // ':' so try each ':' followed by digits.
        bool matched = false;
        for (std::size_t colon = line.find(':'); colon != std::string_view::npos && !matched;
             colon = line.find(':', colon + 1)) {
            if (colon == 0) continue;
            std::size_t pos = colon + 1;
            auto line_no = read_int(line, pos);
            if (!line_no || pos >= line.size() || line[pos] != ':') continue;
            ++pos;
            int column = 0;
            std::size_t after_line = pos;
            if (auto col = read_int(line, pos); col && pos < line.size() && line[pos] == ':') {
                column = *col;
                ++pos;
            } else {
                pos = after_line;
            }
            if (pos >= line.size() || line[pos] != ' ') continue;
            auto sev = read_severity(line.substr(pos + 1));
            if (!sev) continue;
            Diagnostic d;
            d.file = std::string(line.substr(0, colon));
            d.line = *line_no;
            d.column = column;
            d.severity = sev->severity;
            d.code = sev->code;
            d.message = sev->message;
            out.push_back(std::move(d));
            matched = true;
        }
        if (matched) continue;
        // "cc1plus: error: ...", "collect2: error: ld returned 1 exit status":
        // a tool with no source location.
        if (std::size_t colon = line.find(": "); colon != std::string_view::npos && colon > 0) {
            if (auto sev = read_severity(line.substr(colon + 2))) {
                Diagnostic d;
                d.file = std::string(line.substr(0, colon));
                d.severity = sev->severity;
                d.message = sev->message;
                out.push_back(std::move(d));
            }
        }
    }
    return out;
}

OmittedDiagnostics cap_diagnostics(std::vector<Diagnostic>& diagnostics, std::size_t max) {
    OmittedDiagnostics dropped;
    if (diagnostics.size() <= max) return dropped;
    // Errors first, then the rest in order, each kept in its original place.
    std::vector<bool> keep(diagnostics.size(), false);
    std::size_t kept = 0;
    for (std::size_t i = 0; i < diagnostics.size() && kept < max; ++i)
        if (diagnostics[i].severity == Severity::Error) keep[i] = true, ++kept;
    for (std::size_t i = 0; i < diagnostics.size() && kept < max; ++i)
        if (!keep[i]) keep[i] = true, ++kept;
    std::vector<Diagnostic> out;
    out.reserve(max);
    for (std::size_t i = 0; i < diagnostics.size(); ++i) {
        if (keep[i]) {
            out.push_back(std::move(diagnostics[i]));
            continue;
        }
        ++dropped.count;
        if (diagnostics[i].severity == Severity::Error) ++dropped.errors;
        if (diagnostics[i].severity == Severity::Warning) ++dropped.warnings;
    }
    diagnostics = std::move(out);
    return dropped;
}

}  // namespace wb
