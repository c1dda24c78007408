// tests/fuzz/diagnostics_fuzz.cpp — libFuzzer target for the compiler-log parsers (compile/diagnostics.hpp).
//
// NVRTC and g++ logs are the compilers' text, shaped by whatever a student
// typed (identifiers, string literals, #error lines, a megabyte of template
// warnings). diagnostics.cpp promises the parsers never throw and skip what
// they do not recognise. Each input is parsed as an NVRTC log and as a GCC
// log; every diagnostic must have a non-negative line and column and a
// printable form, and cap_diagnostics must keep exactly its maximum with the
// errors first and count what it dropped. Built and run by
// tests/fuzz/run_fuzz.sh; the seeds are real logs in tests/fuzz/seeds/diagnostics/.
#include "compile/diagnostics.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

namespace {

void check(std::vector<wb::Diagnostic> diags) {
    int errors = 0, warnings = 0;
    for (const wb::Diagnostic& d : diags) {
        if (d.line < 0 || d.column < 0) std::abort();
        if (d.severity != wb::Severity::Error && d.severity != wb::Severity::Warning && d.severity != wb::Severity::Note)
            std::abort();
        if (d.to_string().find(d.message) == std::string::npos) std::abort();
        errors += d.severity == wb::Severity::Error;
        warnings += d.severity == wb::Severity::Warning;
    }
    // A small cap, so short inputs exercise the dropping.
    constexpr std::size_t kMax = 3;
    const std::size_t n = diags.size();
    const wb::OmittedDiagnostics dropped = wb::cap_diagnostics(diags, kMax);
    if (diags.size() != std::min(n, kMax) || dropped.count != n - diags.size()) std::abort();
    int kept_errors = 0, kept_warnings = 0;
    for (const wb::Diagnostic& d : diags) {
        kept_errors += d.severity == wb::Severity::Error;
        kept_warnings += d.severity == wb::Severity::Warning;
    }
    if (kept_errors + dropped.errors != errors || kept_warnings + dropped.warnings != warnings) std::abort();
    // Errors are kept before anything else: none dropped while a non-error was kept.
    if (dropped.errors > 0 && kept_errors != int(diags.size())) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string log(reinterpret_cast<const char*>(data), size);
    try {
        check(wb::parse_nvrtc_log(log));
        check(wb::parse_gcc_log(log));
    } catch (const std::exception&) {
        std::abort();  // the parsers never throw
    }
    return 0;
}
