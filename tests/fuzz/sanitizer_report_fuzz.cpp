// tests/fuzz/sanitizer_report_fuzz.cpp — libFuzzer target for the compute-sanitizer report parser.
//
// parse_sanitizer_report (sanitizer/sanitizer.hpp) reads compute-sanitizer's
// text with the kernel's own printf output interleaved, so any bytes can reach
// it. It must not crash, throw or hang; every finding it returns must have a
// non-negative line, a merge count of at least one and printable forms, and
// the error summary is -1 (none) or a count. Built and run by
// tests/fuzz/run_fuzz.sh, seeded with the captures in tests/data/sanitizer/.
#include "sanitizer/sanitizer.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        const wb::SanitizerReport report = wb::parse_sanitizer_report(text);
        if (report.errors < -1 || report.warnings < 0) std::abort();
        for (const wb::SanitizerFinding& f : report.findings) {
            if (f.line < 0 || f.other_line < 0 || f.count < 1) std::abort();
            const std::string where = f.to_string(), what = f.description();
            if (where.find(what) == std::string::npos) std::abort();  // to_string is description with a location
        }
    } catch (const std::exception&) {
        std::abort();  // the parser never throws
    }
    return 0;
}
