// tests/gpu/format2_gpu_test.cpp — format 2 on a GPU: float atomics pass, races on
// integers fail, accumulating outputs are refilled, stray writes are caught.
#include "gpu_test_support.hpp"
#include "pipeline/worker.hpp"

#include <cstdio>

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
