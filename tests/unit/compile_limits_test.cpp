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
#include "lesson/loader.hpp"
#include "pipeline/worker.hpp"

#include "scoped_cache_dir.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <string>

using namespace wb;

namespace {

class CompileLimits : public ScopedCacheDirTest {
protected:
    void SetUp() override {
        ScopedCacheDirTest::SetUp();
        setenv("WB_DISABLE_CUDA_DRIVER", "1", 1);
    }
    void TearDown() override {
        unsetenv("WB_DISABLE_CUDA_DRIVER");
        ScopedCacheDirTest::TearDown();
    }
};

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
}
