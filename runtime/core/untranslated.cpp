// runtime/core/untranslated.cpp — see untranslated.hpp.
#include "core/untranslated.hpp"

#include <algorithm>
#include <cctype>
#include <unordered_set>

namespace wb {
namespace {

// Everyday English the workbook's sentences are made of. A single one of
// these in Chinese text is English left behind.
const std::unordered_set<std::string>& english_words() {
    static const std::unordered_set<std::string> words = {
        "the", "an", "of", "to", "in", "on", "at", "by", "for", "with", "from", "into", "over", "under", "about",
        "after", "before", "between", "during", "without", "within", "and", "or", "but", "not", "no", "nor", "is",
        "are", "was", "were", "be", "been", "being", "has", "have", "had", "do", "does", "did", "can", "cannot",
        "could", "will", "would", "may", "might", "must", "should", "this", "that", "these", "those", "it", "its",
        "their", "there", "here", "which", "what", "when", "where", "who", "why", "how", "each", "every", "all",
        "any", "some", "none", "one", "two", "three", "first", "last", "next", "other", "same", "than", "then",
        "so", "as", "if", "else", "only", "also", "still", "yet", "just", "more", "most", "less", "least", "very",
        "too", "again", "ever", "never", "always", "out", "up", "down", "off", "run", "runs", "ran", "running",
        "compile", "compiled", "compiling", "check", "checked", "checking", "passed", "pass", "failed", "fail",
        "fails", "error", "errors", "mismatch", "mismatched", "mismatches", "tolerance", "outside", "inside",
        "written", "write", "wrote", "writes", "read", "reads", "element", "elements", "value", "values",
        "changed", "change", "differ", "differs", "different", "race", "likely", "cause", "kernel", "kernels",
        "thread", "threads", "block", "blocks", "grid", "launch", "launched", "refused", "limit", "limits", "time",
        "timed", "stopped", "stop", "starting", "started", "waiting", "wait", "reference", "output", "outputs",
        "input", "inputs", "buffer", "buffers", "index", "row", "column", "zoom", "drag", "pan", "click", "fit",
        "picture", "sample", "find", "expected", "want", "got", "difference", "cells", "cell", "outlined",
        "zoomed", "drawn", "bucket", "extreme", "kept", "see", "show", "shows", "shown", "press", "try", "step",
        "steps", "case", "cases", "lesson", "lessons", "device", "emulator", "memory", "line", "file", "hint",
        "note", "result", "results", "done", "open", "save", "saved", "undo", "reset", "solution", "starter",
        "copy", "copies", "bytes", "seconds", "second", "because", "while", "until", "since", "both", "either",
        "such", "like", "use", "used", "uses", "need", "needs", "make", "makes", "made", "give", "gives", "given",
        "take", "takes", "took", "keep", "keeps", "let", "say", "says", "said", "work", "works", "worked", "stay",
        "stays", "per", "via", "nothing", "something", "everything", "whole", "part", "slow", "slower", "fast",
        "faster", "speed", "peak", "measured", "ceiling", "ceilings", "baseline", "sweep", "timeline", "stream",
        "streams", "yours", "your", "you", "we", "our", "unknown", "fault", "faulted",
        "itself", "division", "zero", "address", "past", "end", "start", "ended", "returned", "return", "died",
        "killed", "exited", "unexpectedly", "worker", "process", "program", "restart", "smaller", "larger",
        "size", "sizes", "dimension", "static", "dynamic", "registers", "parameter", "parameters", "passes",
        "lesson's", "nvidia", "ok", "yes", "cancel", "close", "window", "panel", "tab",
    };
    return words;
}

// Names and units that read the same in every language.
const std::unordered_set<std::string>& universal() {
    static const std::unordered_set<std::string> words = {
        "ms", "us", "ns", "kib", "mib", "gib", "kb", "mb", "gb", "tb", "hz", "mhz", "ghz", "px", "nan", "inf",
        "int", "float", "double", "half", "char", "unsigned", "void", "const", "printf", "atol", "rtol", "x", "vs",
    };
    return words;
}

bool is_letter(unsigned char c) { return std::isalpha(c) != 0; }

// Quoted text, as the student or the lesson wrote it, blanked out of `line`.
std::string without_quotes(std::string line) {
    auto blank = [&](std::size_t from, std::size_t to) {
        for (std::size_t i = from; i < to && i < line.size(); ++i) line[i] = ' ';
    };
    // ASCII quotes: ' starts a quote unless it sits between letters (step's).
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (c != '\'' && c != '"' && c != '`') continue;
        if (c == '\'' && i > 0 && is_letter(line[i - 1])) continue;
        std::size_t j = line.find(c, i + 1);
        while (c == '\'' && j != std::string::npos && j + 1 < line.size() && is_letter(line[j + 1]))
            j = line.find(c, j + 1);
        if (j == std::string::npos) break;
        blank(i, j + 1);
        i = j;
    }
    // A term's English in full-width brackets, as the term list writes it: 线程束（warp）.
    for (std::size_t i = line.find("\uff08"); i != std::string::npos; i = line.find("\uff08", i + 1)) {
        const std::size_t j = line.find("\uff09", i);
        if (j == std::string::npos) break;
        bool ascii = true;
        for (std::size_t k = i + 3; k < j; ++k) ascii = ascii && static_cast<unsigned char>(line[k]) < 0x80;
        if (ascii) blank(i, j + 3);
    }
    // Typographic quotes.
    const std::pair<std::string_view, std::string_view> pairs[] = {{"\u2018", "\u2019"}, {"\u201c", "\u201d"}};
    for (const auto& [open, close] : pairs) {
        for (std::size_t i = line.find(open); i != std::string::npos; i = line.find(open, i + 1)) {
            const std::size_t j = line.find(close, i + open.size());
            if (j == std::string::npos) break;
            blank(i, j + close.size());
        }
    }
    return line;
}

// Characters that make a word beside them part of code: threadIdx.x, WB_CHECK,
// file.cu:12, -march=native, run(), sm_90, #include.
bool code_before(char c) { return std::string_view("0123456789_.:/\\-=#@$<>[]{}*&|^~%+").find(c) != std::string_view::npos; }
bool code_after(char c, char next) {
    if (c == '.' || c == ':') return std::isalnum(static_cast<unsigned char>(next)) != 0;  // not a sentence's end
    return std::string_view("0123456789_/\\-=(#@$<>[]{}*&|^~%+").find(c) != std::string_view::npos;
}

std::string lowercase(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return s;
}

// `allowed` is lowercase already.
void scan_line(const std::string& original, const std::set<std::string>& allowed, std::vector<EnglishFound>& found) {
    const std::string line = without_quotes(original);
    struct Word {
        std::size_t begin, end;
        bool english;  // a word of the everyday list
        bool plain;    // a lowercase word, not code, not a name
    };
    std::vector<Word> words;
    for (std::size_t i = 0; i < line.size();) {
        if (!is_letter(line[i])) {
            ++i;
            continue;
        }
        std::size_t j = i;
        while (j < line.size() && (is_letter(line[j]) || (line[j] == '\'' && j + 1 < line.size() && is_letter(line[j + 1]))))
            ++j;
        const char before = i > 0 ? line[i - 1] : ' ';
        const char after = j < line.size() ? line[j] : ' ';
        const char after2 = j + 1 < line.size() ? line[j + 1] : ' ';
        const bool code = code_before(before) || code_after(after, after2) || std::isdigit(static_cast<unsigned char>(after));
        std::string w = line.substr(i, j - i);
        // Capitals after the first letter: an acronym or an identifier (GPU, threadIdx).
        const bool inner_capital = std::any_of(w.begin() + 1, w.end(), [](char c) { return std::isupper(static_cast<unsigned char>(c)); });
        const std::string lower = lowercase(w);
        const bool name = allowed.count(lower) > 0;
        const bool plain = !code && !inner_capital && !name && !universal().count(lower) && (lower.size() > 1 || lower == "a");
        words.push_back({i, j, plain && english_words().count(lower) > 0, plain});
        i = j;
    }
    // Runs of plain words separated by single spaces or ", ".
    for (std::size_t k = 0; k < words.size();) {
        if (!words[k].plain) {
            ++k;
            continue;
        }
        std::size_t e = k;
        while (e + 1 < words.size() && words[e + 1].plain) {
            const std::string gap = line.substr(words[e].end, words[e + 1].begin - words[e].end);
            if (gap != " " && gap != ", ") break;
            ++e;
        }
        bool any_english = false;
        for (std::size_t m = k; m <= e; ++m) any_english = any_english || words[m].english;
        if (e > k || any_english)
            found.push_back({original.substr(words[k].begin, words[e].end - words[k].begin), original});
        k = e + 1;
    }
}

}  // namespace

std::vector<EnglishFound> english_in(std::string_view text, const std::set<std::string>& allowed) {
    std::set<std::string> names;
    for (const std::string& a : allowed) names.insert(lowercase(a));
    std::vector<EnglishFound> found;
    std::size_t start = 0;
    while (start <= text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos) end = text.size();
        scan_line(std::string(text.substr(start, end - start)), names, found);
        start = end + 1;
    }
    return found;
}

}  // namespace wb
