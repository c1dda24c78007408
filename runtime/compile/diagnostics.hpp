// runtime/compile/diagnostics.hpp — compiler messages, located on the student's own lines.
//
// Shared by the NVRTC wrapper (kernel code) and the host compiler wrapper
// (CPU references), so the CLI and the GUI show both the same way.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace wb {

enum class Severity { Error, Warning, Note };

const char* severity_name(Severity s);

// Diagnostic::code of "the source defines no kernel the lesson launches by this name": the
// student's mistake in a starter or an edit, the lesson's own when its solution has it.
inline constexpr const char* kEntryNotFound = "entry-not-found";

struct Diagnostic {
    std::string file;      // the source's display name, e.g. "kernel.cu" or "<inline>"
    int line = 0;          // 1-based, on the student's source; 0 when the compiler gave none
    int column = 0;        // 1-based; 0 when unknown
    Severity severity = Severity::Error;
    std::string message;   // the compiler's text, without the location prefix
    std::string code;      // NVRTC's diagnostic number (e.g. "20" for #20-D) when given; kEntryNotFound

    std::string to_string() const;  // "kernel.cu:12:5: error: identifier \"x\" is undefined"
};

// NVRTC log: lines like
//   kernel.cu(12): error: identifier "x" is undefined
//   kernel.cu(7): warning #177-D: variable "y" was declared but never referenced
// followed by the source line and a caret line, which gives the column.
std::vector<Diagnostic> parse_nvrtc_log(const std::string& log);

// GCC/Clang: "file:line:col: error: message".
std::vector<Diagnostic> parse_gcc_log(const std::string& log);

// The most diagnostics one compile reports. A kernel can produce tens of
// thousands of warnings (19,000 from one instantiated template, 5.5 MB of
// text); past the first few hundred nobody reads them, and the CLI, the JSON
// and the GUI's list would all drown in them.
constexpr std::size_t kMaxDiagnostics = 200;

// What cap_diagnostics dropped, so totals stay right: "and 18,800 more".
struct OmittedDiagnostics {
    std::size_t count = 0;
    int errors = 0, warnings = 0;
};

// Keeps the first `max` diagnostics, but every error before any warning or
// note once the list is over `max` (an error is what stops the build), and
// returns what was dropped.
OmittedDiagnostics cap_diagnostics(std::vector<Diagnostic>& diagnostics, std::size_t max = kMaxDiagnostics);

}  // namespace wb
