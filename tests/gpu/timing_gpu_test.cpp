// tests/gpu/timing_gpu_test.cpp — the timing method on a real GPU: a kernel of
// a few microseconds is timed without a launch's latency, its sampling ended
// by the stopping rule; every sample starts from a clean L2 (CUPTI's method)
// or, by events, buffers that fit in L2 are timed cold and larger ones are
// batched; a kernel that stops computing once it is being timed fails the
// check after timing; the GPU's state before timing is recorded.
// (scripts/timing-vs-ncu.sh compares the medians with Nsight Compute.)
#include "gpu_test_support.hpp"

#include "core/phrase.hpp"
#include "measure/gpu_quiet.hpp"
#include "pipeline/run.hpp"

#include <cmath>
#include <cstdio>

namespace {

wb::RunResult run(const std::string& lesson, const std::string& step, const std::string& test_case) {
    static auto backend = wb::make_local_backend();
    return backend->run(solution_request(lesson, step, test_case));
}

void print(const char* what, const wb::RunResult& r) {
    const wb::Timing& t = *r.gpu_time;
    std::printf("[ figures  ] timing %s: median %.4f ms (min %.4f, max %.4f), %s\n", what, t.median_ms, t.min_ms, t.max_ms,
                wb::render(wb::timing_method(t), "en").c_str());
}

// Where CUPTI is there (the lent H100 has it), every sample is the kernels'
// own time after a clean L2; without it, nvbench's event method batches short
// kernels in graph replays and flushes L2 only when the buffers fit in it.
TEST(Timing, AShortKernelSettlesWithoutALaunchsLatency) {
    WB_REQUIRE_GPU();
    const wb::RunResult r = run("01_vector_add.json", "1", "ragged");
    ASSERT_EQ(r.status, wb::RunStatus::Passed) << r.message;
    ASSERT_TRUE(r.gpu_time);
    print("vector add N=1000", r);
    EXPECT_FALSE(r.gpu_time->near_resolution);
    EXPECT_LT(r.gpu_time->median_ms, 0.010);
    // Whether 1000 samples of a 3 us kernel get its median to within 0.5% depends on the GPU's
    // jitter that minute (an H200 once gave a spread of 16.1%, a hair over): what holds every time
    // is that sampling ended by the rule, and never by the time budget.
    const wb::Timing& t = *r.gpu_time;
    EXPECT_NE(t.stopped_by, "budget") << "1000 samples of a short kernel take well under " << wb::kTimingBudgetS << " s";
    if (t.stopped_by == "noise") EXPECT_LE(t.noise / std::sqrt(double(t.samples_ms.size())), wb::kTimingNoiseTarget);
    else EXPECT_EQ(t.samples_ms.size(), std::size_t(wb::kTimingMaxSamples)) << t.stopped_by;
    if (r.gpu_time->traced) EXPECT_EQ(r.gpu_time->batch, 1) << "a kernel's own time needs no batching";
    else EXPECT_GT(r.gpu_time->batch, 1);
}

TEST(Timing, EverySampleStartsFromACleanL2) {
    WB_REQUIRE_GPU();
    const wb::RunResult small = run("06_matmul.json", "3", "large");  // 1024^2 floats x 3: 12 MiB, under the H100's 50 MiB
    ASSERT_EQ(small.status, wb::RunStatus::Passed) << small.message;
    print("tiled matmul 1024", small);
    EXPECT_TRUE(small.gpu_time->l2_flushed);
    EXPECT_EQ(small.gpu_time->batch, 1);
    const wb::RunResult large = run("01_vector_add.json", "1", "large");  // 192 MiB
    ASSERT_EQ(large.status, wb::RunStatus::Passed) << large.message;
    print("vector add 16M", large);
    EXPECT_EQ(large.gpu_time->traced, small.gpu_time->traced);
    if (large.gpu_time->traced) {
        // The last sample's dirty lines would cost the next one their write-back: flushed clean, even past L2's size.
        EXPECT_TRUE(large.gpu_time->l2_flushed);
        EXPECT_EQ(large.gpu_time->batch, 1);
        EXPECT_NE(wb::render(wb::timing_method(*large.gpu_time), "en").find("CUPTI"), std::string::npos);
    } else {
        EXPECT_FALSE(large.gpu_time->l2_flushed);
        EXPECT_GT(large.gpu_time->batch, 1) << "a streaming kernel that overflows L2 is batched";
    }
    EXPECT_GT(large.gpu_time->sm_clock_mhz, 0u) << "NVML gives the SM clock the samples ran at";
    EXPECT_GE(large.gpu_time->max_sm_clock_mhz, large.gpu_time->sm_clock_mhz);
    EXPECT_FALSE(large.gpu_time->stopped_by.empty());
}

// The cheats graders of GPU code meet: a kernel that counts its launches and,
// past the two validation runs and a little warm-up, returns at once (it
// "replays" the answer it left in c). Its validated runs pass; its timed ones
// leave the poison the last sample starts from.
TEST(Timing, AKernelThatStopsComputingWhileTimedFailsTheCheckAfterTiming) {
    WB_REQUIRE_GPU();
    static auto backend = wb::make_local_backend();
    for (const char* test_case : {"ragged", "large"}) {  // a batched short kernel, and a streaming one
        wb::RunRequest req = solution_request("01_vector_add.json", "1", test_case);
        req.source = wb::SourceChoice::Custom;
        req.custom_source = R"(
__device__ unsigned int launches;
extern "C" __global__ void vector_add(const float* a, const float* b, float* c, int n)
{
    if (blockIdx.x == 0 && threadIdx.x == 0) atomicAdd(&launches, 1u);
    if (*(volatile unsigned int*)&launches > 4) return;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}
)";
        const wb::RunResult r = backend->run(req);
        EXPECT_EQ(r.status, wb::RunStatus::Mismatch) << test_case << ": " << r.message;
        EXPECT_NE(r.message.find("changed while it was timed"), std::string::npos) << r.message;
        EXPECT_FALSE(r.gpu_time) << "a time that stands for wrong outputs is not kept";
        EXPECT_NE(wb::render(r.message_said, "zh").find("计时过程中结果变了"), std::string::npos);
    }
}

TEST(Timing, AnHonestKernelPassesTheCheckAfterTimingAndTheGpuWasQuiet) {
    WB_REQUIRE_GPU();
    const wb::RunResult r = run("01_vector_add.json", "1", "large");
    ASSERT_EQ(r.status, wb::RunStatus::Passed) << r.message;
    ASSERT_TRUE(r.gpu_time);
    std::printf("[ figures  ] before timing: waited %.0f ms, %d other busy process(es), slowed by '%s'\n",
                r.gpu_time->waited_ms, r.gpu_time->busy_processes, r.gpu_time->throttled_before.c_str());
    EXPECT_GE(r.gpu_time->waited_ms, 0.0);
    EXPECT_LE(r.gpu_time->waited_ms, wb::kQuietWaitS * 1e3 + 100);
    EXPECT_EQ(r.gpu_time->busy_processes, 0) << "nothing else runs on the test GPU";
}

}  // namespace
