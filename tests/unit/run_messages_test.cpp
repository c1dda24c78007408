// tests/unit/run_messages_test.cpp — what a run says points the right way.
//
// A refusal names what to change (shared memory is not fixed by a new block
// size), a compile-as-you-type request builds and runs no CPU reference, and
// the CLI's header line prints only what is known (no "step  · case  ()"
// after an input error). WB_DISABLE_CUDA_DRIVER=1: the same on every machine.
#include "lesson/loader.hpp"
#include "pipeline/run.hpp"

#include "cli_runner.hpp"
#include "scoped_cache_dir.hpp"

#include <gtest/gtest.h>

#include <filesystem>

#include <cmath>

#include <chrono>
#include <cstdlib>

using namespace wb;

namespace {

class RunMessages : public DriverOffTest {};

std::shared_ptr<const Lesson> load(const std::string& rel) {
    auto r = load_lesson(std::string(WB_SOURCE_DIR) + "/" + rel);
    EXPECT_TRUE(r.ok()) << (r.issues.empty() ? "" : r.issues[0].to_string());
    return r.ok() ? std::make_shared<const Lesson>(std::move(*r.lesson)) : nullptr;
}

}  // namespace

TEST_F(RunMessages, ASharedMemoryRefusalSaysToUseLessSharedMemory) {
    auto lesson = load("lessons/06_matmul.json");
    ASSERT_TRUE(lesson);
    RunRequest q;
    q.lesson = lesson;
    q.step = "shared_memory_tiles";
    q.source = SourceChoice::Solution;
    LaunchOverride ov;
    ov.shared_bytes = 1 << 20;
    q.launches.push_back(ov);
    RunResult r = make_local_backend()->run(q);
    EXPECT_EQ(r.status, RunStatus::Refused) << r.message;
    EXPECT_NE(r.message.find("shared memory"), std::string::npos) << r.message;
    EXPECT_NE(r.hint.find("less shared memory"), std::string::npos) << r.hint;
    EXPECT_EQ(r.hint.find("block or grid size"), std::string::npos) << r.hint;
}

TEST_F(RunMessages, ABlockRefusalStillSaysToChangeTheBlock) {
    auto lesson = load("lessons/01_vector_add.json");
    ASSERT_TRUE(lesson);
    RunRequest q;
    q.lesson = lesson;
    q.source = SourceChoice::Solution;
    LaunchOverride ov;
    ov.block = std::array<long long, 3>{2048, 1, 1};
    q.launches.push_back(ov);
    RunResult r = make_local_backend()->run(q);
    EXPECT_EQ(r.status, RunStatus::Refused);
    EXPECT_NE(r.hint.find("block or grid size"), std::string::npos) << r.hint;
    EXPECT_NE(r.message.find("the target architecture"), std::string::npos) << "no GPU here: " << r.message;
}

TEST_F(RunMessages, CompileAsYouTypeBuildsAndRunsNoReference) {
    // The hanging reference would take the whole 3 s deadline if it ran.
    auto hang = load("tests/data/lessons_fault/hang_reference.json");
    ASSERT_TRUE(hang);
    RunRequest q;
    q.lesson = hang;
    q.source = SourceChoice::Solution;
    q.compile_only = true;
    q.reference = false;
    q.keep_buffers = false;
    auto t0 = std::chrono::steady_clock::now();
    RunResult r = make_local_backend()->run(q);
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 2.0);
    EXPECT_EQ(r.status, RunStatus::CompileOnly) << r.message;
    EXPECT_TRUE(r.compile.ok);
    EXPECT_TRUE(r.reference.command.empty()) << "the reference was built";
    EXPECT_LT(r.cpu_ms, 0) << "the reference ran";
    EXPECT_EQ(r.launches.size(), 1u) << "the launch limits are still checked";
}

TEST(RunMessagesCli, TheHeaderLinePrintsOnlyWhatIsKnown) {
    auto r = run_cli("run lessons/01_vector_add.json --param N=-5");
    EXPECT_EQ(r.code, 2) << r.out;
    EXPECT_TRUE(contains(r.out, "lesson vector_add · step one_thread_per_element · case small\n")) << r.out;
    EXPECT_FALSE(contains(r.out, "()")) << r.out;
    EXPECT_FALSE(contains(r.out, "  · ")) << r.out;
}

// The CPU time is a warm median, and says so; the warm calls start from the
// inputs as given, so an in-place reference (saxpy on y) is applied once, not six times.
TEST_F(RunMessages, TheCpuReferenceIsTimedWarmAndAnInPlaceOneRunsOnFreshInputs) {
    auto lesson = load("tests/data/lessons_good/full.json");
    ASSERT_TRUE(lesson);
    RunRequest q;
    q.lesson = lesson;
    q.step = "saxpy";
    q.source = SourceChoice::Solution;
    q.compile_only = true;
    RunResult r = make_local_backend()->run(q);
    ASSERT_EQ(r.status, RunStatus::CompileOnly) << r.message;
    EXPECT_EQ(r.cpu_warm_runs, 5) << "a fast reference is timed warm";
    EXPECT_GE(r.cpu_cold_ms, 0);
    EXPECT_GE(r.cpu_threads, 1);
    // The compiler that built it and every flag that shapes its time, from the command it ran.
    const std::string built = reference_compiler_summary(r.reference);
    ASSERT_FALSE(r.reference.command.empty());
    EXPECT_EQ(built, std::filesystem::path(r.reference.command[0]).filename().string() +
                         " -O3 -march=native -ffp-contract=off -fopenmp");
    EXPECT_EQ(render(r.cpu_method(), "en"), "median of 5 warm calls after a cold one, " + std::to_string(r.cpu_threads) +
                                                " thread(s), " + built);
    const HostBuffer* x = nullptr;
    const HostBuffer* y0 = nullptr;
    for (const HostBuffer& b : r.inputs) {
        if (b.name == "x") x = &b;
        if (b.name == "y") y0 = &b;
    }
    const HostBuffer* y = nullptr;
    for (const HostBuffer& b : r.cpu_outputs)
        if (b.name == "y") y = &b;
    ASSERT_TRUE(x && y0 && y);
    ASSERT_EQ(y->count(), x->count());
    for (std::size_t i = 0; i < y->count(); ++i)
        // In float, perhaps fused: within a few ulps of the double result; applied twice is far off.
        ASSERT_NEAR(y->get(i), 2.5 * x->get(i) + y0->get(i), 1e-5 * (1 + std::fabs(y0->get(i))))
            << "element " << i << " had saxpy applied more than once";
}
