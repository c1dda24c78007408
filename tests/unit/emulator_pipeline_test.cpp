// tests/unit/emulator_pipeline_test.cpp — the CPU backend as a student meets
// it, through cuda-workbook-cli run --backend cpu on a machine without a GPU:
// a solution passes and says its time is a CPU time, a write one past the end
// is reported with the buffer and index, a read far past the end with the
// buffer, index, block, thread and source line, a tiled matmul without its
// second __syncthreads() fails as a race, a reduction that adds shared slots nobody
// wrote fails, inline PTX is refused before anything runs,
// an endless kernel is stopped at the deadline and the next run works,
// the check of a lesson counts the cases it leaves out, and a step's
// limits.malloc_heap_bytes sizes the device heap its kernels' malloc takes from.
#include "cli_runner.hpp"

#include "lesson/loader.hpp"
#include "pipeline/run.hpp"

#include <gtest/gtest.h>

#include <map>
#include <memory>

namespace {

std::string data(const std::string& name) { return std::string(WB_SOURCE_DIR) + "/tests/data/" + name; }

TEST(EmulatorPipeline, ASolutionPassesAndItsTimeIsSaidToBeACpuTime) {
    auto r = run_cli("run lessons/01_vector_add.json --solution --case ragged --backend cpu");
    EXPECT_EQ(r.code, 0) << r.out;
    EXPECT_TRUE(contains(r.out, "result  passed")) << r.out;
    EXPECT_TRUE(contains(r.out, "ran on the CPU emulator")) << r.out;
}

TEST(EmulatorPipeline, AStarterFailsAsUnwritten) {
    auto r = run_cli("run lessons/01_vector_add.json --case ragged --backend cpu");
    EXPECT_EQ(r.code, 1) << r.out;
    EXPECT_TRUE(contains(r.out, "never written")) << r.out;
}

TEST(EmulatorPipeline, AWriteOnePastTheEndNamesTheBufferAndIndex) {
    auto r = run_cli("run lessons/01_vector_add.json --case ragged --backend cpu --source " +
                     data("sanitizer/write_past_end.cu"));
    EXPECT_EQ(r.code, 1) << r.out;
    // The guard page after c stops the write where it happens: the thread and the line are known.
    EXPECT_TRUE(contains(r.out, "in kernel 'vector_add', the kernel wrote outside buffer 'c' (1000 elements): element [1000], "
                                "past its end, in block (3, 0, 0), thread (232, 0, 0) at write_past_end.cu:5"))
        << r.out;
}

TEST(EmulatorPipeline, AReadFarPastTheEndNamesBufferIndexThreadAndLine) {
    auto r = run_cli("run lessons/01_vector_add.json --case ragged --backend cpu --source " +
                     data("emulator/read_past_end.cu"));
    EXPECT_EQ(r.code, 1) << r.out;
    EXPECT_TRUE(contains(r.out, "the kernel read outside buffer 'a' (1000 elements): element [")) << r.out;
    EXPECT_TRUE(contains(r.out, "past its end, in block (")) << r.out;
    EXPECT_TRUE(contains(r.out, " at read_past_end.cu:6")) << r.out;
}

TEST(EmulatorPipeline, ATiledMatmulWithoutItsSecondBarrierFails) {
    auto r = run_cli("run lessons/06_matmul.json --step shared_memory_tiles --case ragged --backend cpu --source " +
                     data("sanitizer/racy_matmul.cu"));
    EXPECT_EQ(r.code, 1) << r.out;
    // The access check finds the race itself (emulate_checks_test.cpp has the whole sentence).
    EXPECT_TRUE(contains(r.out, "result  sanitizer-errors: on the CPU emulator, in kernel 'matmul_tiled', two threads raced"))
        << r.out;
}

TEST(EmulatorPipeline, AReductionThatAddsSharedSlotsNobodyWroteFails) {
    // Threads past the end leave their slot of a static __shared__ array
    // unwritten. The emulator's old per-OS-thread storage held zeros there,
    // and this passed; now every block's shared memory starts as 0xFF bytes (a NaN).
    auto r = run_cli("run lessons/07_reduction.json --step shared_tree --case n7 --backend cpu --source " +
                     data("emulator/unwritten_shared_slots.cu"));
    EXPECT_EQ(r.code, 1) << r.out;
    // The access check sees the read of a slot nobody wrote before the wrong sum is compared.
    EXPECT_TRUE(contains(r.out, "read element [7] of the __shared__ array 'partial' at unwritten_shared_slots.cu:17, before "
                                "any thread of the block wrote it"))
        << r.out;
}

// tests/data/lessons_good/malloc_heap.json: eight threads each keep 2 MiB
// until all have asked (16 MiB in all), and thread 0 writes how many got it
// into `count`, which the run hands back (in this process, so the buffer is
// read, not a line the kernel printed).
int threads_that_got(const std::string& step, std::map<std::string, double> params = {}) {
    auto loaded = wb::load_lesson(data("lessons_good/malloc_heap.json"));
    EXPECT_TRUE(loaded.ok());
    if (!loaded.ok()) return -1;
    wb::RunRequest req;
    req.trusted = true;
    req.lesson = std::make_shared<const wb::Lesson>(std::move(*loaded.lesson));
    req.step = step;
    req.params = std::move(params);
    req.source = wb::SourceChoice::Solution;
    req.executor = wb::Executor::Cpu;
    req.timing = false;
    req.keep_buffers = true;
    const wb::RunResult r = wb::make_local_backend()->run(req);
    EXPECT_EQ(r.status, wb::RunStatus::Passed) << r.message;
    EXPECT_TRUE(r.emulated);
    for (const auto& b : r.gpu_outputs)
        if (b.name == "count") return int(b.get(0));
    ADD_FAILURE() << "no output 'count'";
    return -1;
}

TEST(EmulatorPipeline, AStepsLargerHeapLetsItsKernelsMallocPastEightMiBAndWithoutOneMallocReturnsNull) {
    EXPECT_EQ(threads_that_got("larger_heap"), 8);  // 64 MiB holds all 16 MiB
    // CUDA's default 8 MiB: four chunks fit, and the other four threads get NULL.
    EXPECT_EQ(threads_that_got("default_heap"), 4);
    // The size follows the params (a case's, or the request's): 12 MiB holds six chunks.
    EXPECT_EQ(threads_that_got("larger_heap", {{"HEAP_MIB", 12}}), 6);
    // As a student runs it.
    auto cli = run_cli("run --trust tests/data/lessons_good/malloc_heap.json --step larger_heap --solution --backend cpu --no-timing");
    EXPECT_EQ(cli.code, 0) << cli.out;
    EXPECT_TRUE(contains(cli.out, "result  passed")) << cli.out;
}

TEST(EmulatorPipeline, InlinePtxIsRefusedBeforeAnythingRuns) {
    auto r = run_cli("run lessons/01_vector_add.json --case ragged --backend cpu --source " + data("emulator/inline_ptx.cu"));
    EXPECT_EQ(r.code, 1) << r.out;
    EXPECT_TRUE(contains(r.out, "the CPU emulator cannot run this step")) << r.out;
    EXPECT_TRUE(contains(r.out, "inline_ptx.cu:6")) << r.out;
    EXPECT_TRUE(contains(r.out, "NVIDIA GPU")) << r.out;
}

TEST(EmulatorPipeline, AnEndlessKernelIsStoppedAtTheDeadlineAndTheNextRunWorks) {
    auto r = run_cli("run lessons/01_vector_add.json --case ragged --backend cpu --timeout 3 --source " +
                     data("emulator/endless.cu"));
    EXPECT_EQ(r.code, 1) << r.out;
    EXPECT_TRUE(contains(r.out, "timed out after 3 s")) << r.out;
    auto next = run_cli("run lessons/01_vector_add.json --solution --case ragged --backend cpu");
    EXPECT_EQ(next.code, 0) << next.out;
}

TEST(EmulatorPipeline, ABadBackendNameIsAUsageError) {
    auto r = run_cli("run lessons/01_vector_add.json --backend tpu");
    EXPECT_EQ(r.code, 2) << r.out;
    EXPECT_TRUE(contains(r.out, "--backend takes gpu, cpu or auto, not 'tpu'")) << r.out;
}

}  // namespace
