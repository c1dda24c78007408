// tests/gpu/malloc_heap_gpu_test.cpp — a step's limits.malloc_heap_bytes on a
// GPU, with tests/data/lessons_good/malloc_heap.json (eight threads each keep
// 2 MiB until all have asked, 16 MiB in all; thread 0 prints how many got it):
// with a 64 MiB heap every thread gets its chunk, with CUDA's default 8 MiB
// some get NULL, as on the CPU emulator (emulator_pipeline_test.cpp); and
// when the driver keeps a context's heap size once a malloc kernel has run in
// it, the worker is replaced and the step runs again, so `check` passes every
// case in one go, one step after another.
#include "gpu_test_support.hpp"

#include "pipeline/run.hpp"

#include <cstdio>

namespace {

std::string heap_lesson() { return source_dir() + "/tests/data/lessons_good/malloc_heap.json"; }

// How many threads got their chunk, from the line the kernel printed; -1 when none.
int threads_that_got(const std::string& out) {
    const std::string tag = "threads that got 2 MiB: ";
    const auto at = out.find(tag);
    return at == std::string::npos ? -1 : std::atoi(out.c_str() + at + tag.size());
}

}  // namespace

TEST(MallocHeapGpu, ALargerHeapHoldsEveryChunkAndTheDefaultRefusesSomeAsOnTheEmulator) {
    WB_REQUIRE_GPU();
    const auto [larger_rc, larger] = run_cli("run --trust '" + heap_lesson() + "' --step larger_heap --solution --no-timing");
    EXPECT_EQ(larger_rc, 0) << larger;
    EXPECT_NE(larger.find("threads that got 2 MiB: 8 of 8"), std::string::npos) << larger;
    const auto [plain_rc, plain] = run_cli("run --trust '" + heap_lesson() + "' --step default_heap --solution --no-timing");
    EXPECT_EQ(plain_rc, 0) << plain;
    const int got = threads_that_got(plain);
    EXPECT_GE(got, 1) << plain;
    EXPECT_LT(got, 8) << plain;
    std::printf("[ figures  ] device heap: 8 threads x 2 MiB, %d of 8 got theirs in CUDA's default 8 MiB (the emulator: 4)\n", got);
    // The same lesson on the CPU emulator, in the same way.
    const auto [cpu_rc, cpu] = run_cli("run --trust '" + heap_lesson() + "' --step larger_heap --solution --no-timing --backend cpu");
    EXPECT_EQ(cpu_rc, 0) << cpu;
    EXPECT_NE(cpu.find("threads that got 2 MiB: 8 of 8"), std::string::npos) << cpu;
}

// One worker runs the 64 MiB step, its 48 MiB case and then the 8 MiB step:
// each change of size after a malloc kernel is one the driver may refuse in
// that context, and the run goes on in a fresh worker.
TEST(MallocHeapGpu, CheckPassesEveryStepAndCaseInOneWorker) {
    WB_REQUIRE_GPU();
    const auto [rc, out] = run_cli("check --trust '" + heap_lesson() + "'");
    EXPECT_EQ(rc, 0) << out;
    EXPECT_NE(out.find("ok   malloc_heap / larger_heap / default"), std::string::npos) << out;
    EXPECT_NE(out.find("ok   malloc_heap / larger_heap / heap_48"), std::string::npos) << out;
    EXPECT_NE(out.find("ok   malloc_heap / default_heap / default"), std::string::npos) << out;
    EXPECT_EQ(out.find("cannot be made"), std::string::npos) << out;
}

// In this process there is no worker to replace: a size the context cannot
// take any more is said, with the driver's error, and the context stays
// usable for the size it has.
TEST(MallocHeapGpu, InProcessAHeapTheContextCannotTakeIsSaidAndTheContextStaysUsable) {
    WB_REQUIRE_GPU();
    auto lesson = wb::load_lesson(heap_lesson());
    ASSERT_TRUE(lesson.ok());
    auto shared = std::make_shared<const wb::Lesson>(std::move(*lesson.lesson));
    auto backend = wb::make_local_backend();
    wb::RunRequest req;
    req.trusted = true;
    req.lesson = shared;
    req.source = wb::SourceChoice::Solution;
    req.timing = false;
    req.step = "larger_heap";
    const wb::RunResult first = backend->run(req);
    ASSERT_EQ(first.status, wb::RunStatus::Passed) << first.message;
    req.step = "default_heap";
    const wb::RunResult smaller = backend->run(req);
    if (smaller.status == wb::RunStatus::Passed) {
        std::printf("[ figures  ] device heap: this driver changed the heap's size after a malloc kernel had run\n");
    } else {
        EXPECT_EQ(smaller.status, wb::RunStatus::CudaError) << smaller.message;
        EXPECT_TRUE(wb::wants_fresh_context(smaller)) << smaller.message;
        EXPECT_EQ(smaller.error_code, "CUDA_ERROR_INVALID_VALUE");
        EXPECT_NE(smaller.message.find("the device heap cannot be made 8388608 bytes for this step"), std::string::npos)
            << smaller.message;
        std::printf("[ figures  ] device heap: this driver kept the heap's size after a malloc kernel: %s\n",
                    smaller.message.c_str());
    }
    // Back to 64 MiB: the size the context kept, so it runs; after a driver
    // that did change it, a refusal of the same kind is as right.
    req.step = "larger_heap";
    const wb::RunResult again = backend->run(req);
    if (smaller.status == wb::RunStatus::Passed && again.status != wb::RunStatus::Passed)
        EXPECT_TRUE(wb::wants_fresh_context(again)) << again.message;
    else
        EXPECT_EQ(again.status, wb::RunStatus::Passed) << again.message;
}
