// tests/unit/sanitizer_test.cpp — reading compute-sanitizer's reports without a GPU.
//
// The fixtures in tests/data/sanitizer/ are real reports, captured on an H200
// with CUDA 13.0 by scripts/capture-sanitizer-fixtures.sh: the off-by-one
// vector_add (off_by_one.cu) under memcheck, the tiled matmul without its second
// __syncthreads() (racy_matmul.cu) under racecheck, and the solutions under
// both. Also: finding the tool, findings crossing the worker pipe, and the CLI's
// answer to --memcheck on a machine without a GPU.
#include "core/error.hpp"
#include "core/fs.hpp"
#include "pipeline/wire.hpp"
#include "sanitizer/sanitizer.hpp"

#include "cli_runner.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sys/stat.h>
#include <sys/wait.h>

using namespace wb;
namespace fs = std::filesystem;

namespace {

std::string fixture(const std::string& name) {
    return read_file(std::string(WB_SOURCE_DIR) + "/tests/data/sanitizer/" + name, 4 << 20);
}

struct TempDir {
    fs::path path;
    TempDir() {
        std::random_device rd;
        path = fs::temp_directory_path() / ("wb-sanitizer-test-" + std::to_string(rd()) + std::to_string(rd()));
        fs::create_directories(path);
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
};

}  // namespace

// `if (i <= n) c[i] = a[i] + b[i]` with N = 1000, block 256: thread 232 of block 3
// is element 1000. Memcheck stops the kernel at its first bad access, which is
// the read of a[1000] on the same line (the real report says "read"), so the
// write after it is never reached; either way the line, thread and block are named.
TEST(SanitizerReport, OffByOneAccessIsFoundOnItsLineWithThread232OfBlock3) {
    SanitizerReport r = parse_sanitizer_report(fixture("memcheck_off_by_one.txt"));
    EXPECT_EQ(r.errors, 6);  // the access, then 5 CUDA calls that failed because the kernel was stopped
    ASSERT_EQ(r.findings.size(), 1u) << "the failed CUDA calls are consequences, not findings";
    const SanitizerFinding& f = r.findings[0];
    EXPECT_EQ(f.kind, "Invalid __global__ read of size 4 bytes");
    EXPECT_EQ(f.file, "off_by_one.cu");
    EXPECT_EQ(f.line, 5);
    EXPECT_EQ(f.function, "vector_add");
    ASSERT_TRUE(f.has_thread);
    EXPECT_EQ(f.block, (std::array<int, 3>{3, 0, 0}));
    EXPECT_EQ(f.thread, (std::array<int, 3>{232, 0, 0}));
    EXPECT_NE(f.address.find("is out of bounds"), std::string::npos) << f.address;
    EXPECT_EQ(f.to_string(), "off_by_one.cu:5: Invalid __global__ read of size 4 bytes by thread (232,0,0) in block (3,0,0)");
}

TEST(SanitizerReport, RawReportWithHostBacktracesGivesTheSameFinding) {
    SanitizerReport r = parse_sanitizer_report(fixture("memcheck_off_by_one_backtrace.txt"));
    ASSERT_EQ(r.findings.size(), 1u);
    EXPECT_EQ(r.findings[0].to_string(), "off_by_one.cu:5: Invalid __global__ read of size 4 bytes by thread (232,0,0) in block (3,0,0)");
    EXPECT_EQ(r.findings[0].message.find("Host Frame"), std::string::npos) << "backtraces are not part of the finding";
    EXPECT_EQ(r.errors, 6);
}

TEST(SanitizerReport, RacyTiledMatmulIsFoundBetweenTheTileStoresAndTheDotProduct) {
    SanitizerReport r = parse_sanitizer_report(fixture("racecheck_racy_matmul.txt"));
    EXPECT_EQ(r.errors, 2);  // racecheck has no ERROR SUMMARY: "(2 errors, 2 warnings)"
    EXPECT_EQ(r.warnings, 2);
    ASSERT_EQ(r.findings.size(), 2u);
    const SanitizerFinding& e = r.findings[0];
    EXPECT_TRUE(e.is_error);
    EXPECT_EQ(e.kind, "Race reported between Write access and Read access");
    EXPECT_EQ(e.file, "racy_matmul.cu");
    EXPECT_EQ(e.line, 16);        // Bs[ty][tx] = ...
    EXPECT_EQ(e.other_line, 18);  // sum += As[ty][k] * Bs[k][tx]
    EXPECT_EQ(e.function, "matmul_tiled");
    EXPECT_EQ(e.count, 2);        // once per validation run
    EXPECT_FALSE(r.findings[1].is_error);
    EXPECT_EQ(r.findings[1].line, 15);
    EXPECT_EQ(r.findings[1].other_line, 18);
}

TEST(SanitizerReport, CleanRunsHaveZeroErrorsAndNoFindings) {
    for (const char* name : {"memcheck_clean.txt", "racecheck_clean.txt"}) {
        SanitizerReport r = parse_sanitizer_report(fixture(name));
        EXPECT_EQ(r.errors, 0) << name;
        EXPECT_TRUE(r.findings.empty()) << name;
    }
}

TEST(SanitizerReport, InterleavedKernelOutputDoesNotBreakAFinding) {
    std::string text = fixture("memcheck_off_by_one.txt");
    // The kernel's printf and the worker's own lines land between the tool's lines.
    std::string mixed;
    std::size_t pos = 0;
    int n = 0;
    while (pos < text.size()) {
        std::size_t nl = text.find('\n', pos);
        if (nl == std::string::npos) nl = text.size();
        mixed += text.substr(pos, nl - pos + 1);
        if (++n % 2 == 0) mixed += "hello from thread 0 of 1000\n";
        pos = nl + 1;
    }
    SanitizerReport a = parse_sanitizer_report(text), b = parse_sanitizer_report(mixed);
    ASSERT_EQ(a.findings.size(), b.findings.size());
    for (std::size_t i = 0; i < a.findings.size(); ++i) EXPECT_EQ(a.findings[i].to_string(), b.findings[i].to_string());
    EXPECT_EQ(a.errors, b.errors);
}

TEST(SanitizerReport, TextWithoutAReportHasNoSummaryAndNoFindings) {
    SanitizerReport r = parse_sanitizer_report("compiled\nhello from the kernel\n");
    EXPECT_EQ(r.errors, -1);
    EXPECT_TRUE(r.findings.empty());
    EXPECT_EQ(parse_sanitizer_report("").errors, -1);
}

TEST(SanitizerReport, RepeatedFindingsFromTheSecondValidationRunAreMerged) {
    const std::string one =
        "========= Invalid __global__ write of size 4 bytes\n"
        "=========     at vector_add+0x80 in student.cu:5\n"
        "=========     by thread (232,0,0) in block (3,0,0)\n"
        "=========     Address 0x7f0000000fa0 is out of bounds\n"
        "=========\n";
    SanitizerReport r = parse_sanitizer_report("========= COMPUTE-SANITIZER\n" + one + one + "========= ERROR SUMMARY: 2 errors\n");
    ASSERT_EQ(r.findings.size(), 1u);
    EXPECT_EQ(r.findings[0].count, 2);
    EXPECT_EQ(r.errors, 2);
    EXPECT_NE(r.findings[0].to_string().find("[2 times]"), std::string::npos);
}

TEST(SanitizerReport, OlderLocationFormWithTheKernelAfterTheLineIsRead) {
    SanitizerReport r = parse_sanitizer_report(
        "========= Invalid __global__ write of size 4 bytes\n"
        "=========     at 0x00000080 in /tmp/student.cu:5:vector_add\n"
        "=========     by thread (232,0,0) in block (3,0,0)\n"
        "=========\n========= ERROR SUMMARY: 1 error\n");
    ASSERT_EQ(r.findings.size(), 1u);
    EXPECT_EQ(r.findings[0].file, "/tmp/student.cu");
    EXPECT_EQ(r.findings[0].line, 5);
    EXPECT_EQ(r.findings[0].function, "vector_add");
    EXPECT_EQ(r.errors, 1);
}

TEST(SanitizerWrapper, FindsTheToolInTheToolkitsBinAndNamesTheTool) {
    TempDir home;
    fs::create_directories(home.path / "bin");
    fs::path exe = home.path / "bin" / "compute-sanitizer";
    std::ofstream(exe) << "#!/bin/sh\n";
    ::chmod(exe.c_str(), 0755);
    auto m = sanitizer_wrapper(SanitizerTool::Memcheck, home.path);
    ASSERT_GE(m.size(), 3u);
    EXPECT_EQ(m[0], exe.string());
    EXPECT_EQ(m[1], "--tool");
    EXPECT_EQ(m[2], "memcheck");
    auto r = sanitizer_wrapper(SanitizerTool::Racecheck, home.path);
    EXPECT_EQ(r[2], "racecheck");
}

TEST(SanitizerWrapper, MissingToolIsAClearError) {
    TempDir home;  // no bin/compute-sanitizer, and PATH without one
    const char* old = std::getenv("PATH");
    std::string saved = old ? old : "";
    setenv("PATH", home.path.c_str(), 1);
    try {
        sanitizer_wrapper(SanitizerTool::Memcheck, home.path);
        ADD_FAILURE() << "no error without compute-sanitizer";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("compute-sanitizer not found: it comes with the CUDA Toolkit"), std::string::npos)
            << e.what();
    }
    setenv("PATH", saved.c_str(), 1);
}

TEST(Wire, SanitizerFindingsAndTheRequestsToolCrossThePipe) {
    RunResult r;
    r.status = RunStatus::SanitizerErrors;
    r.sanitizer = SanitizerTool::Memcheck;
    r.sanitizer_errors = 3;
    r.sanitizer_findings = parse_sanitizer_report(fixture("racecheck_racy_matmul.txt")).findings;
    ASSERT_FALSE(r.sanitizer_findings.empty());
    RunResult back = decode_result(encode_result(r));
    EXPECT_EQ(back.status, RunStatus::SanitizerErrors);
    EXPECT_EQ(back.sanitizer, SanitizerTool::Memcheck);
    EXPECT_EQ(back.sanitizer_errors, 3);
    ASSERT_EQ(back.sanitizer_findings.size(), r.sanitizer_findings.size());
    for (std::size_t i = 0; i < r.sanitizer_findings.size(); ++i) {
        EXPECT_EQ(back.sanitizer_findings[i].to_string(), r.sanitizer_findings[i].to_string());
        EXPECT_EQ(back.sanitizer_findings[i].message, r.sanitizer_findings[i].message);
        EXPECT_EQ(back.sanitizer_findings[i].address, r.sanitizer_findings[i].address);
    }
    Frame q = encode_request([] {
        RunRequest req;
        req.sanitizer = SanitizerTool::Racecheck;
        return req;
    }());
    EXPECT_EQ(q.json.at("sanitizer").get<int>(), int(SanitizerTool::Racecheck));
}

TEST(Cli, MemcheckWithoutAGpuIsCompileOnlyAndExits4) {
    TempDir cache;
    CliResult r = run_cli("run lessons/01_vector_add.json --case small --source tests/data/sanitizer/off_by_one.cu --memcheck",
                          "XDG_CACHE_HOME='" + cache.path.string() + "'");
    const std::string& out = r.out;
    EXPECT_EQ(r.code, 4) << out;
    EXPECT_NE(out.find("compute-sanitizer memcheck needs a GPU"), std::string::npos) << out;
    EXPECT_NE(out.find("compile-only"), std::string::npos) << out;
}

TEST(Cli, MemcheckAndRacecheckTogetherAreRefused) {
    CliResult r = run_cli("run lessons/01_vector_add.json --memcheck --racecheck");
    const std::string& out = r.out;
    EXPECT_EQ(r.code, 2) << out;
    EXPECT_NE(out.find("cannot be used together"), std::string::npos) << out;
}
