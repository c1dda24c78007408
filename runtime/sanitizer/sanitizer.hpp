// runtime/sanitizer/sanitizer.hpp — compute-sanitizer: the command that wraps a run, and its report.
//
// A kernel that writes one element past the end of a buffer usually passes a
// normal run: the allocation is rounded up, the stray write lands in padding,
// and the comparison never sees it. compute-sanitizer (part of the CUDA
// Toolkit) instruments every access and reports it. The worker backend runs a
// one-shot worker under the command sanitizer_wrapper() gives; the kernel is
// compiled with -lineinfo (always, see compile/nvrtc.cpp), so the report names
// the student's file and line. parse_sanitizer_report() turns the report into
// findings the CLI prints and the editor marks. This file does no I/O beyond
// looking the program up, so the parser is tested on captured reports in CI.
#pragma once

#include <array>
#include <filesystem>
#include <string>
#include <vector>

namespace wb {

enum class SanitizerTool { None, Memcheck, Racecheck };

const char* sanitizer_tool_name(SanitizerTool t);  // "memcheck", "racecheck", "" for None

struct SanitizerFinding {
    std::string kind;      // the report's headline, e.g. "Invalid __global__ write of size 4 bytes", "Race reported between Write access and Read access"
    std::string file;      // as the kernel was compiled ("student.cu"); empty without line info
    int line = 0;          // 1-based; 0 = unknown
    int other_line = 0;    // a race's second access, when on another line
    std::string function;  // the kernel (or device function) the access is in
    bool has_thread = false;  // block and thread are known (memcheck always, racecheck hazards)
    std::array<int, 3> block{0, 0, 0};
    std::array<int, 3> thread{0, 0, 0};
    std::string address;   // "0x7f1c2e000fa0 is out of bounds", the report's own words
    std::string message;   // the finding as one or more report lines, "=========" stripped
    bool is_error = true;  // false for racecheck's warnings (e.g. a benign WAW of the same value)
    int count = 1;         // identical findings merged (the pipeline runs a kernel twice)

    // "student.cu:12: Invalid __global__ write of size 4 bytes by thread (232,0,0) in block (3,0,0)"
    std::string to_string() const;
    // The same without the "file:line: " prefix, for a marker already on its line.
    std::string description() const;
};

struct SanitizerReport {
    std::vector<SanitizerFinding> findings;
    int errors = -1;      // "ERROR SUMMARY: N errors" (memcheck) or racecheck's "(N errors, ...)"; -1 without a summary
    int warnings = 0;     // racecheck's "RACECHECK SUMMARY: ... N warnings", when given
};

// The command to put before the worker: {".../compute-sanitizer", "--tool", "memcheck", ...}.
// Looks in <cuda_home>/bin, then PATH. Throws wb::Error (NoDevice) when absent:
// "compute-sanitizer not found: it comes with the CUDA Toolkit".
std::vector<std::string> sanitizer_wrapper(SanitizerTool tool, const std::filesystem::path& cuda_home);

// Finds compute-sanitizer the same way; empty when there is none.
std::filesystem::path find_compute_sanitizer(const std::filesystem::path& cuda_home);

// Parses compute-sanitizer's text. Lines that do not start with "=========" (the
// kernel's own printf, the worker's messages) are ignored wherever they fall, so
// interleaved output does not break a finding. Identical findings are merged.
SanitizerReport parse_sanitizer_report(const std::string& text);

}  // namespace wb
