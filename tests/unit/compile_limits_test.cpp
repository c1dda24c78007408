// tests/unit/compile_limits_test.cpp — a pathological kernel cannot hang the
// workbook in the compiler, nor flood it with compiler output.
//
// Compiling runs inside the worker process (runtime/pipeline/worker.hpp), so
// the run's deadline covers NVRTC too: a kernel whose templates expand into
// 2^16 distinct instantiations (about 100 s of NVRTC on the 2-core CI
// machine, and still many seconds on a fast one) is killed at a 3-second
// deadline, reported as timed out "while compiling the kernel", and the next
// run gets a fresh worker. A kernel with thousands of warnings gives NVRTC a
// log over 1 MiB (12,000 warnings in under a second of compiling), which the
// runtime cuts at 1 MiB with a note (runtime/compile/nvrtc.cpp, kMaxLogBytes).
// No GPU needed: WB_DISABLE_CUDA_DRIVER=1 makes these the same everywhere.
#include "compile/nvrtc.hpp"
#include "core/fs.hpp"
#include "lesson/loader.hpp"
#include "pipeline/worker.hpp"

#include "cli_runner.hpp"
#include "scoped_cache_dir.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <unistd.h>
#include <cstdlib>
#include <string>

using namespace wb;

namespace {

class CompileLimits : public DriverOffTest {};

std::shared_ptr<const Lesson> minimal_lesson() {
    auto r = load_lesson(std::string(WB_SOURCE_DIR) + "/tests/data/lessons_good/minimal.json");
    EXPECT_TRUE(r.ok()) << (r.issues.empty() ? "" : r.issues[0].to_string());
    return r.ok() ? std::make_shared<const Lesson>(std::move(*r.lesson)) : nullptr;
}

// Tree<D, X> instantiates Tree<D-1, 2X> and Tree<D-1, 2X+1>: 2^D distinct
// class templates, none shared, so NVRTC's front end cannot memoise its way out.
constexpr const char* kTemplateBomb = R"(
template <int D, unsigned X> struct Tree {
    static constexpr unsigned value = Tree<D - 1, 2 * X>::value ^ Tree<D - 1, 2 * X + 1>::value;
};
template <unsigned X> struct Tree<0, X> { static constexpr unsigned value = X * 2654435761u; };
extern "C" __global__ void twice(const float* x, float* y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = 2 * x[i] + (Tree<16, 1>::value & 0);
}
)";

}  // namespace

TEST_F(CompileLimits, ACompileThatNeverEndsTimesOutAtTheDeadlineAndTheNextRunWorks) {
    auto lesson = minimal_lesson();
    ASSERT_TRUE(lesson);
    WorkerBackend worker;
    RunRequest q;
    q.lesson = lesson;
    q.source = SourceChoice::Custom;
    q.custom_source = kTemplateBomb;
    q.custom_origin = "bomb.cu";
    q.timeout_s = 3;
    q.trusted = true;  // a test lesson, outside the shipped folder
    const auto t0 = std::chrono::steady_clock::now();
    RunResult r = worker.run(q);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_EQ(r.status, RunStatus::TimedOut) << run_status_name(r.status) << ": " << r.message;
    EXPECT_NE(r.message.find("timed out after 3 s"), std::string::npos) << r.message;
    EXPECT_NE(r.message.find("while compiling the kernel"), std::string::npos) << r.message;
    EXPECT_LT(s, 10.0) << "the deadline did not stop the compiler";

    RunRequest good;
    good.lesson = lesson;
    good.source = SourceChoice::Solution;
    good.trusted = true;
    RunResult next = worker.run(good);
    EXPECT_EQ(next.status, RunStatus::CompileOnly) << next.message;
    EXPECT_EQ(worker.workers_started(), 2);
}

TEST_F(CompileLimits, AHugeCompilerLogIsCutAt1MiBWithANote) {
    std::string text = "extern \"C\" __global__ void twice(const float* x, float* y, int n)\n{\n";
    for (int i = 0; i < 12000; ++i) text += "    int unused_variable_number_" + std::to_string(i) + ";\n";
    text += "    int i = threadIdx.x;\n    if (i < n) y[i] = 2 * x[i];\n}\n";
    SourceText src;
    src.text = text;
    src.origin = "noisy.cu";
    CompileOptions o;
    o.entries = {"twice"};
    CompileResult c = compile_cuda(src, o);
    EXPECT_TRUE(c.ok) << "warnings alone must not fail the compile";
    const std::string note = "\n[log truncated at 1 MiB by CUDA Workbook]\n";
    EXPECT_EQ(c.log.size(), (std::size_t(1) << 20) + note.size());
    EXPECT_EQ(c.log.substr(c.log.size() - note.size()), note);
    // The diagnostics are parsed from the whole log before it is cut.
    EXPECT_GE(c.warning_count(), 12000);
    // The list is capped, and the totals still count every warning.
    EXPECT_EQ(c.diagnostics.size(), kMaxDiagnostics);
    EXPECT_EQ(c.diagnostics_omitted + c.diagnostics.size(), std::size_t(c.warning_count()));
}

TEST(Diagnostics, TheCapKeepsEveryErrorBeforeAnyWarning) {
    std::vector<Diagnostic> ds;
    for (int i = 0; i < 500; ++i) ds.push_back({"k.cu", i + 1, 1, Severity::Warning, "w", ""});
    ds.push_back({"k.cu", 999, 3, Severity::Error, "the one that matters", ""});
    OmittedDiagnostics dropped = cap_diagnostics(ds, 200);
    ASSERT_EQ(ds.size(), 200u);
    EXPECT_EQ(dropped.count, 301u);
    EXPECT_EQ(dropped.warnings, 301);
    EXPECT_EQ(dropped.errors, 0);
    EXPECT_EQ(ds.back().line, 999) << "the error is kept, in its place after the warnings before it";
    EXPECT_EQ(ds.front().line, 1);
}

namespace {

// A copy of minimal.json in a fresh folder with `starter` as the starter.
// The folder is removed when the test ends.
struct TempLesson {
    std::filesystem::path dir;
    ~TempLesson() {
        std::error_code ec;
        std::filesystem::remove_all(dir, ec);
    }
};

std::string lesson_with_starter(TempLesson& tmp, const std::string& name, const std::string& starter) {
    const auto dir = std::filesystem::temp_directory_path() / ("wb_compile_limits_" + std::to_string(::getpid()) + "_" + name);
    tmp.dir = dir;
    std::filesystem::create_directories(dir);
    auto j = nlohmann::json::parse(read_file(std::string(WB_SOURCE_DIR) + "/tests/data/lessons_good/minimal.json"));
    j["steps"][0]["starter"] = starter;
    const auto file = dir / (name + ".json");
    write_file_atomic(file, j.dump(2));
    return file.string();
}

}  // namespace

TEST(CompileLimitsCli, AWarningFloodPrintsTheFirst200AndACount) {
    std::string text = "extern \"C\" __global__ void twice(const float* x, float* y, int n)\n{\n";
    for (int i = 0; i < 19000; ++i) text += "    int unused_" + std::to_string(i) + ";\n";
    text += "    int i = threadIdx.x;\n    if (i < n) y[i] = 2 * x[i];\n}\n";
    TempLesson tmp;
    const std::string file = lesson_with_starter(tmp, "flood", text);
    auto r = run_cli("compile '" + file + "' --trust");
    EXPECT_EQ(r.code, 0) << r.out.substr(0, 2000);
    EXPECT_TRUE(contains(r.out, "... and 18800 more (only the first 200 are listed)")) << r.out.substr(r.out.size() - 2000);
    EXPECT_LT(r.out.size(), 100u * 1024) << "5.5 MB of warnings were printed before the cap";
    auto j = run_cli("compile '" + file + "' --trust --json");
    auto parsed = nlohmann::json::parse(j.out, nullptr, false);
    ASSERT_FALSE(parsed.is_discarded()) << j.out.substr(0, 500);
    const auto& starter = parsed["results"][0];
    EXPECT_EQ(starter["diagnostics"].size(), 200u);
    EXPECT_EQ(starter["diagnostics_omitted"], 18800);
    EXPECT_EQ(starter["warnings"], 19000);
}

TEST(CompileLimitsCli, CompileHasTheRunsDeadline) {
    // `compile` runs NVRTC in the worker, under the run's deadline.
    TempLesson tmp;
    const std::string file = lesson_with_starter(tmp, "bomb", kTemplateBomb);
    auto t0 = std::chrono::steady_clock::now();
    auto r = run_cli("compile '" + file + "' --trust --step 1 --timeout 3");
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_EQ(r.code, 1) << r.out;
    EXPECT_TRUE(contains(r.out, "FAILED (timed-out: timed out after 3 s while compiling the kernel)")) << r.out;
    EXPECT_LT(s, 20.0) << "two compiles (starter and solution), only the starter stopped at 3 s";
}
