// tests/unit/emulate_checks_test.cpp — what the CPU emulator checks at every
// access (emulate/access_check.hpp), as a student meets it through
// cuda-workbook-cli run --backend cpu: a race names both threads and both
// lines, on global memory and on static shared memory (a function body's, and
// a namespace-scope one), on every run whatever the thread order, also on an
// input a kernel writes; a read of shared memory no thread wrote is
// initcheck's error with its line; misaligned atomics and vector loads stop
// as error 716 does; running past the launch's dynamic shared memory is named;
// an order-dependent result differs between the two validation runs, which
// take their threads in different orders; and a case too large to shadow
// says it was not checked.
#include "cli_runner.hpp"

#include <gtest/gtest.h>

namespace {

std::string data(const std::string& name) { return std::string(WB_SOURCE_DIR) + "/tests/data/emulator/" + name; }

TEST(EmulateChecks, APlainSumIntoOneElementIsARaceWithBothThreadsAndBothLines) {
    for (int i = 0; i < 2; ++i) {  // found on every run, the same pair named
        auto r = run_cli("run lessons/07_reduction.json --step atomic_per_element --case n1000 --backend cpu --source " +
                         data("race_sum.cu"));
        EXPECT_EQ(r.code, 1) << r.out;
        EXPECT_TRUE(contains(r.out, "result  sanitizer-errors: on the CPU emulator, in kernel 'reduce_sum', two threads raced on "
                                    "element [0] of buffer 'sum': thread (0, 0, 0) of block (0, 0, 0) wrote it at race_sum.cu:7; "
                                    "thread (1, 0, 0) of block (0, 0, 0) read it at race_sum.cu:7"))
            << r.out;
        EXPECT_TRUE(contains(r.out, "use atomicAdd")) << r.out;
    }
}

TEST(EmulateChecks, ATiledMatmulWithoutItsSecondBarrierRacesOnTheNamedSharedArray) {
    auto r = run_cli("run lessons/06_matmul.json --step shared_memory_tiles --case ragged --backend cpu --source " +
                     std::string(WB_SOURCE_DIR) + "/tests/data/sanitizer/racy_matmul.cu");
    EXPECT_EQ(r.code, 1) << r.out;
    EXPECT_TRUE(contains(r.out, "two threads raced on element [0] of the __shared__ array 'As': thread (0, 0, 0) of block "
                                "(0, 0, 0) wrote it at racy_matmul.cu:15; thread (1, 0, 0) of block (0, 0, 0) read it at "
                                "racy_matmul.cu:18, with no __syncthreads() or __syncwarp() between the two"))
        << r.out;
}

TEST(EmulateChecks, ARaceOnANamespaceScopeSharedArrayIsNamedFromTheLibrarysSymbols) {
    // Not rewritten into the emulator's region: found among the kernel library's thread-locals (static_shared.hpp).
    auto r = run_cli("run lessons/01_vector_add.json --case ragged --backend cpu --source " + data("namespace_shared_race.cu"));
    EXPECT_EQ(r.code, 1) << r.out;
    EXPECT_TRUE(contains(r.out, "two threads raced on element [0] of the __shared__ array 'staged': thread (0, 0, 0) of block "
                                "(0, 0, 0) wrote it at namespace_shared_race.cu:8; thread (1, 0, 0) of block (0, 0, 0) read it "
                                "at namespace_shared_race.cu:9"))
        << r.out;
}

TEST(EmulateChecks, AReadOfASharedSlotNoThreadWroteIsInitchecksErrorWithItsLine) {
    auto r = run_cli("run lessons/07_reduction.json --step shared_tree --case n1000 --backend cpu --source " +
                     data("unwritten_tail.cu"));
    EXPECT_EQ(r.code, 1) << r.out;
    EXPECT_TRUE(contains(r.out, "of the __shared__ array 'partial' at unwritten_tail.cu:14, before any thread of the block "
                                "wrote it (compute-sanitizer's initcheck reports this on a GPU"))
        << r.out;
    EXPECT_TRUE(contains(r.out, "clear accumulators first")) << r.out;
}

TEST(EmulateChecks, AnAtomicOnAMisalignedIntStopsAsError716WithItsLine) {
    auto r = run_cli("run lessons/01_vector_add.json --case ragged --backend cpu --source " + data("misaligned_atomic.cu"));
    EXPECT_EQ(r.code, 1) << r.out;
    EXPECT_TRUE(contains(r.out, "an address that 4 does not divide, in buffer 'c', in block (0, 0, 0), thread (7, 0, 0) at "
                                "misaligned_atomic.cu:7 (on a GPU the kernel stops here with error 716"))
        << r.out;
}

TEST(EmulateChecks, AMisalignedVectorLoadStopsAsError716NotAsAnAddressOfNoBuffer) {
    auto r = run_cli("run lessons/01_vector_add.json --case ragged --backend cpu --source " + data("misaligned_float4.cu"));
    EXPECT_EQ(r.code, 1) << r.out;
    EXPECT_TRUE(contains(r.out, "the kernel read 16 bytes at 0x")) << r.out;
    EXPECT_TRUE(contains(r.out, "an address that 16 does not divide, in buffer 'a'")) << r.out;
    EXPECT_TRUE(contains(r.out, "misaligned_float4.cu:7 (on a GPU the kernel stops here with error 716")) << r.out;
    EXPECT_FALSE(contains(r.out, "no buffer's")) << r.out;
}

TEST(EmulateChecks, AResultThatDependsOnTheThreadOrderDiffersBetweenTheTwoRuns) {
    // Run one takes the threads in order, which happens to give the right
    // answer here; run two shuffles them, and the difference is said.
    auto r = run_cli("run lessons/01_vector_add.json --case ragged --backend cpu --source " + data("order_dependent.cu"));
    EXPECT_EQ(r.code, 1) << r.out;
    EXPECT_TRUE(contains(r.out, "changed between two runs: a race is the likely cause")) << r.out;
}

TEST(EmulateChecks, AKernelThatWritesItsInputIsCheckedOnEveryReadOfIt) {
    // Reads of an input are recorded only once a kernel is seen writing it: the run is then repeated.
    auto r = run_cli("run lessons/01_vector_add.json --case ragged --backend cpu --source " + data("writes_its_input.cu"));
    EXPECT_EQ(r.code, 1) << r.out;
    EXPECT_TRUE(contains(r.out, "two threads raced on element [1] of buffer 'a': thread (0, 0, 0) of block (0, 0, 0) wrote "
                                "it at writes_its_input.cu:8; thread (1, 0, 0) of block (0, 0, 0) read it at "
                                "writes_its_input.cu:7"))
        << r.out;
}

TEST(EmulateChecks, AWritePastTheLaunchsDynamicSharedMemoryIsNamedAndTheWorkerLives) {
    // The step asks for no dynamic shared memory: the kernel's extern __shared__ array has 0 bytes,
    // and a page that cannot be touched follows them (before, this wrote over the worker's heap).
    auto r = run_cli("run lessons/01_vector_add.json --case ragged --backend cpu --source " + data("dynamic_past_end.cu"));
    EXPECT_EQ(r.code, 1) << r.out;
    EXPECT_TRUE(contains(r.out, "the kernel wrote past the end of the block's dynamic shared memory (extern __shared__, 0 bytes "
                                "in this launch)"))
        << r.out;
    EXPECT_TRUE(contains(r.out, "at dynamic_past_end.cu:8")) << r.out;
    EXPECT_FALSE(contains(r.out, "crashed")) << r.out;
}

TEST(EmulateChecks, ACaseTooLargeToShadowSaysGlobalMemoryWasNotChecked) {
    auto r = run_cli("run lessons/08_histogram.json --step 1 --case one_colour --solution --backend cpu");
    EXPECT_EQ(r.code, 0) << r.out;
    EXPECT_TRUE(contains(r.out, "global memory was not checked for races or unwritten reads in this case")) << r.out;
}

TEST(EmulateChecks, TheShippedSolutionsOfRaceProneStepsPassWithEveryAccessChecked) {
    for (const char* args : {"lessons/06_matmul.json --step shared_memory_tiles --case ragged",
                             "lessons/07_reduction.json --step shared_tree --case n1000",
                             "lessons/10_scan.json --step 1 --case n1000"}) {
        auto r = run_cli(std::string("run ") + args + " --solution --backend cpu");
        EXPECT_EQ(r.code, 0) << args << "\n" << r.out;
        EXPECT_FALSE(contains(r.out, "not checked")) << args << "\n" << r.out;
    }
}

}  // namespace
