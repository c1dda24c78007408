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
#include "pipeline/worker.hpp"

#include <cstdio>
#include <memory>

namespace {

std::string heap_lesson() { return source_dir() + "/tests/data/lessons_good/malloc_heap.json"; }

// The solution of `step` through `backend` (the GPU, or the emulator with
// Executor::Cpu), as a result whose outputs came back.
wb::RunResult run_step(wb::RunBackend& backend, const std::string& step, wb::Executor where = wb::Executor::Auto) {
    auto loaded = wb::load_lesson(heap_lesson());
    EXPECT_TRUE(loaded.ok());
    wb::RunRequest req;
    req.trusted = true;
    req.lesson = std::make_shared<const wb::Lesson>(std::move(*loaded.lesson));
    req.step = step;
    req.source = wb::SourceChoice::Solution;
    req.executor = where;
    req.timing = false;
    req.keep_buffers = true;
    return backend.run(req);
}

// How many threads got their chunk (the output `count`); -1 when it is not there.
int threads_that_got(const wb::RunResult& r) {
    for (const auto& b : r.gpu_outputs)
        if (b.name == "count") return int(b.get(0));
    return -1;
}

}  // namespace

// Through one worker, as the GUI runs them: the 8 MiB step after the 64 MiB
// one is a change the driver may refuse in that context (the worker is then
// replaced and the step runs again), and both answer as on the emulator.
TEST(MallocHeapGpu, ALargerHeapHoldsEveryChunkAndTheDefaultRefusesSomeAsOnTheEmulator) {
    WB_REQUIRE_GPU();
    wb::WorkerBackend worker;
    const wb::RunResult larger = run_step(worker, "larger_heap");
    ASSERT_EQ(larger.status, wb::RunStatus::Passed) << larger.message;
    ASSERT_FALSE(larger.emulated);
    EXPECT_EQ(threads_that_got(larger), 8);
    const wb::RunResult plain = run_step(worker, "default_heap");
    ASSERT_EQ(plain.status, wb::RunStatus::Passed) << plain.message;
    ASSERT_FALSE(plain.emulated);
    const int got = threads_that_got(plain);
    EXPECT_GE(got, 1);
    EXPECT_LT(got, 8);
    const wb::RunResult emulated = run_step(worker, "default_heap", wb::Executor::Cpu);
    ASSERT_EQ(emulated.status, wb::RunStatus::Passed) << emulated.message;
    ASSERT_TRUE(emulated.emulated);
    EXPECT_EQ(threads_that_got(emulated), 4);
    std::printf("[ figures  ] device heap: 8 threads x 2 MiB, %d of 8 got theirs in CUDA's default 8 MiB on the GPU, %d on the "
                "emulator\n", got, threads_that_got(emulated));
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
// usable for the size it has, and for every step that gives none.
TEST(MallocHeapGpu, InProcessAHeapTheContextCannotTakeIsSaidAndTheContextStaysUsable) {
    WB_REQUIRE_GPU();
    auto backend = wb::make_local_backend();
    const wb::RunResult first = run_step(*backend, "larger_heap");
    ASSERT_EQ(first.status, wb::RunStatus::Passed) << first.message;
    const wb::RunResult smaller = run_step(*backend, "default_heap");
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
    const wb::RunResult again = run_step(*backend, "larger_heap");
    if (smaller.status == wb::RunStatus::Passed && again.status != wb::RunStatus::Passed)
        EXPECT_TRUE(wb::wants_fresh_context(again)) << again.message;
    else
        EXPECT_EQ(again.status, wb::RunStatus::Passed) << again.message;
    // A step that gives no size runs with the heap the context has, whatever
    // it is: once, every later in-process run failed here, each test of the
    // suite after this one included.
    auto loaded = wb::load_lesson(source_dir() + "/lessons/01_vector_add.json");
    ASSERT_TRUE(loaded.ok());
    wb::RunRequest req;
    req.trusted = true;
    req.lesson = std::make_shared<const wb::Lesson>(std::move(*loaded.lesson));
    req.source = wb::SourceChoice::Solution;
    req.test_case = "ragged";
    req.timing = false;
    const wb::RunResult plain = backend->run(req);
    EXPECT_EQ(plain.status, wb::RunStatus::Passed) << plain.message;
}
