// tests/gpu/format2_gpu_test.cpp — format 2 on a GPU: float atomics pass, races on
// integers fail, accumulating outputs are refilled, stray writes are caught.
#include "gpu_test_support.hpp"
#include "pipeline/worker.hpp"

#include <cstdio>
#include <string>
#include <utility>

namespace {

std::shared_ptr<const wb::Lesson> load_data(const std::string& rel) {
    auto r = wb::load_lesson(source_dir() + "/tests/data/" + rel);
    if (!r.ok()) return nullptr;
    return std::make_shared<const wb::Lesson>(std::move(*r.lesson));
}

wb::RunRequest solution(std::shared_ptr<const wb::Lesson> lesson, const std::string& step, const std::string& test_case) {
    wb::RunRequest q;
    q.trusted = true;
    q.lesson = std::move(lesson);
    q.step = step;
    q.test_case = test_case;
    q.source = wb::SourceChoice::Solution;
    q.keep_buffers = false;
    return q;
}

}  // namespace

TEST(Format2, FloatAtomicSumsPassAtEverySizeInBothSteps) {
    WB_REQUIRE_GPU();
    auto lesson = load_data("lessons_good/format2.json");
    ASSERT_TRUE(lesson);
    wb::WorkerBackend worker;
    for (const auto& step : lesson->steps)
        for (const auto& tc : step.checks.cases) {
            wb::RunResult r = worker.run(solution(lesson, step.id, tc.name));
            EXPECT_EQ(r.status, wb::RunStatus::Passed) << step.id << "/" << tc.name << ": " << r.message;
            ASSERT_EQ(r.comparisons.size(), 1u);
            const auto& c = r.comparisons[0];
            std::printf("[ figures  ] format2 %s/%s (N=%.0f): %s, atol %.3g, max abs err %.3g, %zu changed between runs%s\n",
                        step.id.c_str(), tc.name.c_str(), r.params.at("N"), wb::run_status_name(r.status), c.atol,
                        c.max_abs_error, c.nondeterministic,
                        r.gpu_time ? (", GPU " + std::to_string(r.gpu_time->median_ms) + " ms").c_str() : "");
        }
}

TEST(Format2, ARacyIntegerHistogramStillFails) {
    WB_REQUIRE_GPU();
    auto lesson = load_data("lessons_fault/racy_histogram.json");
    ASSERT_TRUE(lesson);
    wb::WorkerBackend worker;
    wb::RunResult r = worker.run(solution(lesson, "racy", "million"));
    EXPECT_EQ(r.status, wb::RunStatus::Mismatch) << r.message;
    std::printf("[ figures  ] racy histogram: %s: %s\n", wb::run_status_name(r.status), r.message.c_str());
}

TEST(Format2, AKernelWithoutItsBoundsTestIsCaughtByTheGuardZones) {
    // Lesson 01's ragged case (N = 1000, blocks of 256): threads 1000..1023
    // write c[1000..1023], which without guard zones land in the allocation's padding.
    WB_REQUIRE_GPU();
    wb::WorkerBackend worker;
    wb::RunRequest q = solution(load_shipped("01_vector_add.json"), "", "ragged");
    q.source = wb::SourceChoice::Custom;
    q.custom_origin = "student.cu";
    q.custom_source = R"(
extern "C" __global__ void vector_add(const float* a, const float* b, float* c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    c[i] = a[i] + b[i];
})";
    wb::RunResult r = worker.run(q);
    EXPECT_EQ(r.status, wb::RunStatus::Mismatch) << r.message;
    EXPECT_NE(r.message.find("the kernel wrote outside buffer 'c' (1000 elements): first at element [1000], past its end"),
              std::string::npos) << r.message;
    std::printf("[ figures  ] no bounds test: %s\n", r.message.c_str());
    q.custom_source = R"(
extern "C" __global__ void vector_add(const float* a, const float* b, float* c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
})";
    EXPECT_EQ(worker.run(q).status, wb::RunStatus::Passed);
}

TEST(Format2, AKernelWhoseParametersDoNotMatchTheArgsIsRefusedBeforeItRuns) {
    WB_REQUIRE_GPU();
    wb::WorkerBackend worker;
    wb::RunRequest q = solution(load_shipped("01_vector_add.json"), "", "ragged");
    q.source = wb::SourceChoice::Custom;
    q.custom_origin = "student.cu";
    q.custom_source = R"(
extern "C" __global__ void vector_add(const float* a, float* c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i];
})";
    wb::RunResult r = worker.run(q);
    EXPECT_EQ(r.status, wb::RunStatus::Refused) << r.message;
    EXPECT_NE(r.message.find("takes 3 parameters, but the lesson passes 4 (a, b, c, N)"), std::string::npos) << r.message;
    std::printf("[ figures  ] wrong parameter list: %s\n", r.message.c_str());
    q.custom_source = R"(
extern "C" __global__ void vector_add(const float* a, const float* b, float* c, double n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
})";
    r = worker.run(q);
    EXPECT_EQ(r.status, wb::RunStatus::Refused) << r.message;
    EXPECT_NE(r.message.find("parameter 4 is 8 bytes, but the lesson passes 'N' there, which is 4 bytes"), std::string::npos)
        << r.message;
}

TEST(Format2, AConstantIsFilledFromItsBufferAndAMissingOneIsRefused) {
    WB_REQUIRE_GPU();
    auto lesson = load_data("lessons_good/constant_mask.json");
    ASSERT_TRUE(lesson);
    wb::WorkerBackend worker;
    for (const char* c : {"one", "ragged"}) {
        wb::RunResult r = worker.run(solution(lesson, "", c));
        EXPECT_EQ(r.status, wb::RunStatus::Passed) << c << ": " << r.message;
    }
    wb::RunRequest q = solution(lesson, "", "ragged");
    q.source = wb::SourceChoice::Custom;
    q.custom_origin = "student.cu";
    q.custom_source = R"(
__constant__ float mask[5];
extern "C" __global__ void conv1d(const float* x, float* y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = mask[2] * x[i];
})";
    wb::RunResult r = worker.run(q);
    EXPECT_EQ(r.status, wb::RunStatus::Refused) << r.message;
    EXPECT_NE(r.message.find("the kernel declares no __constant__ 'c_mask'"), std::string::npos) << r.message;
    std::printf("[ figures  ] missing constant: %s\n", r.message.c_str());
}

TEST(Format2, AMultiPassScanPassesEveryCaseWithItsPassesAndSwaps) {
    WB_REQUIRE_GPU();
    auto lesson = load_data("lessons_good/multipass_scan.json");
    ASSERT_TRUE(lesson);
    wb::WorkerBackend worker;
    for (const auto& tc : lesson->steps[0].checks.cases) {
        wb::RunResult r = worker.run(solution(lesson, "", tc.name));
        EXPECT_EQ(r.status, wb::RunStatus::Passed) << tc.name << ": " << r.message;
        ASSERT_EQ(r.launches.size(), 2u);
        std::printf("[ figures  ] scan %s (N=%.0f): %s, %lld passes%s\n", tc.name.c_str(), r.params.at("N"),
                    wb::run_status_name(r.status), r.launches[1].passes,
                    r.gpu_time ? (", GPU " + std::to_string(r.gpu_time->median_ms) + " ms").c_str() : "");
    }
}

TEST(Format2, AScanPassThatReadsItsOwnOutputFails) {
    // The classic mistake the swap exists to prevent: reading the buffer this
    // pass writes, so a thread sees a neighbour's sum from this pass or poison.
    WB_REQUIRE_GPU();
    wb::WorkerBackend worker;
    wb::RunRequest q = solution(load_data("lessons_good/multipass_scan.json"), "", "ragged");
    q.source = wb::SourceChoice::Custom;
    q.custom_source = R"(
extern "C" __global__ void zero(int* y, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) y[i] = 0; }
extern "C" __global__ void scan_pass(const int* in, int* out, int n, int offset)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    out[i] = in[i] + (i >= offset ? out[i - offset] : 0);
})";
    wb::RunResult r = worker.run(q);
    EXPECT_EQ(r.status, wb::RunStatus::Mismatch) << r.message;
    std::printf("[ figures  ] scan reading its own output: %s: %s\n", wb::run_status_name(r.status), r.message.c_str());
}

TEST(Format2, TheTunedLaunchTakesTheBlockAndTheHelperKeepsItsOwn) {
    WB_REQUIRE_GPU();
    auto lesson = load_data("lessons_good/multipass_scan.json");
    ASSERT_TRUE(lesson);
    const auto [rc, out] = run_cli("run --trust '" + source_dir() + "/tests/data/lessons_good/multipass_scan.json' --solution --case ragged --block 64");
    EXPECT_EQ(rc, 0) << out;
    EXPECT_NE(out.find("launch  zero<<<(8,1,1), (128,1,1), 0>>>"), std::string::npos) << out;
    EXPECT_NE(out.find("launch  scan_pass<<<(16,1,1), (64,1,1), 0>>>"), std::string::npos) << out;
    EXPECT_NE(out.find("10 passes"), std::string::npos) << out;
    EXPECT_NE(out.find("result  passed"), std::string::npos) << out;
}

TEST(Format2, ConstantsFilledFromValuesMatchTheBufferFilledOnes) {
    WB_REQUIRE_GPU();
    auto lesson = load_data("lessons_good/constant_mask.json");
    ASSERT_TRUE(lesson);
    wb::WorkerBackend worker;
    wb::RunResult r = worker.run(solution(lesson, "constant_values", "ragged"));
    EXPECT_EQ(r.status, wb::RunStatus::Passed) << r.message;
}

TEST(Format2, ACaseThatRequiresACleanMemoryCheckFailsOnAnOutOfBoundsRead) {
    WB_REQUIRE_GPU();
    const std::string fault = source_dir() + "/tests/data/lessons_fault/oob_read_memcheck.json";
    // Without the sanitizer the read goes unseen: the answer is right.
    wb::WorkerBackend worker;
    wb::RunResult plain = worker.run(solution(load_data("lessons_fault/oob_read_memcheck.json"), "", "ragged"));
    EXPECT_EQ(plain.status, wb::RunStatus::Passed) << plain.message;

    const auto [rc, out] = run_cli("check --trust '" + fault + "'");
    EXPECT_EQ(rc, 1) << out;
    EXPECT_NE(out.find("FAIL oob_read_memcheck / reads_past_the_end / ragged"), std::string::npos) << out;
    EXPECT_NE(out.find("the lesson requires a clean memory check: compute-sanitizer memcheck found"), std::string::npos) << out;

    const auto [rc_good, out_good] = run_cli("check --trust '" + source_dir() + "/tests/data/lessons_good/multipass_scan.json'");
    EXPECT_EQ(rc_good, 0) << out_good;
    EXPECT_NE(out_good.find("ragged (N=1000): passed; memcheck: no errors"), std::string::npos) << out_good;
    std::printf("[ figures  ] required memcheck: %s", out.c_str());
}
