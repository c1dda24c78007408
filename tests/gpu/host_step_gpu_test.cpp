// tests/gpu/host_step_gpu_test.cpp — host steps on a GPU: run() called in the worker, traced, timed,
// and every way it can go wrong handled like a faulting kernel, with the next run working.
#include "core/fs.hpp"
#include "gpu_test_support.hpp"
#include "pipeline/worker.hpp"
#include "sandbox/sandbox.hpp"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <unistd.h>

namespace {

std::shared_ptr<const wb::Lesson> host_lesson() {
    auto r = wb::load_lesson(source_dir() + "/tests/data/host/host_add.json");
    if (!r.ok()) return nullptr;
    return std::make_shared<const wb::Lesson>(std::move(*r.lesson));
}

wb::RunRequest fault(const std::string& file, const char* test_case = "small") {
    wb::RunRequest q;
    q.trusted = true;
    q.lesson = host_lesson();
    q.step = "add";
    q.test_case = test_case;
    q.source = wb::SourceChoice::Custom;
    q.custom_source = wb::read_file(source_dir() + "/tests/data/host/faults/" + file);
    q.custom_origin = file;
    q.keep_buffers = false;
    q.timing = false;
    return q;
}

wb::RunRequest solution(const char* step = "add", const char* test_case = "small") {
    wb::RunRequest q;
    q.trusted = true;
    q.lesson = host_lesson();
    q.step = step;
    q.test_case = test_case;
    q.source = wb::SourceChoice::Solution;
    q.keep_buffers = false;
    return q;
}

// After a failure, the same worker backend runs the solution again, and it passes.
void expect_next_run_passes(wb::WorkerBackend& w) {
    wb::RunRequest q = solution();
    q.timing = false;
    const wb::RunResult next = w.run(q);
    EXPECT_EQ(next.status, wb::RunStatus::Passed) << next.message;
}

}  // namespace

TEST(HostSteps, SolutionPassesWithATimelineOfItsCopiesAndKernel) {
    WB_REQUIRE_GPU();
    wb::WorkerBackend w;
    const wb::RunResult r = w.run(solution("add", "large"));
    ASSERT_EQ(r.status, wb::RunStatus::Passed) << r.message;
    ASSERT_TRUE(r.wall_time);
    ASSERT_TRUE(r.timeline);
    ASSERT_TRUE(r.timeline->unavailable.empty()) << r.timeline->unavailable;
    int htod = 0, dtoh = 0, kernels = 0;
    for (const auto& a : r.timeline->activities) {
        htod += a.kind == wb::ActivityKind::CopyHtoD;
        dtoh += a.kind == wb::ActivityKind::CopyDtoH;
        if (a.kind == wb::ActivityKind::Kernel) {
            ++kernels;
            EXPECT_EQ(a.name, "add");
            EXPECT_EQ(a.block[0], 256);
        }
        if (wb::activity_is_copy(a.kind)) {
            EXPECT_EQ(a.bytes, 16777216ull * 4);
            EXPECT_TRUE(a.pageable);
        }
    }
    EXPECT_EQ(htod, 2);
    EXPECT_EQ(dtoh, 1);
    EXPECT_EQ(kernels, 1);
    EXPECT_GT(r.timeline->wall_us, r.timeline->copy_us());
    std::printf("[ figures  ] run() %.3f ms median (%zu samples); copies %.3f ms (%.1f GB/s), kernel %.3f ms\n",
                r.wall_time->median_ms, r.wall_time->samples_ms.size(), r.timeline->copy_us() / 1e3,
                double(r.timeline->copy_bytes()) / r.timeline->copy_us() / 1e3, r.timeline->kernel_us() / 1e3);
}

TEST(HostSteps, StreamsOverlapCopiesWithKernelsAndTheTargetIsMeasuredInTheSameRun) {
    WB_REQUIRE_GPU();
    wb::WorkerBackend w;
    const wb::RunResult r = w.run(solution("add_streams", "large"));
    ASSERT_EQ(r.status, wb::RunStatus::Passed) << r.message;
    ASSERT_TRUE(r.timeline && r.timeline->unavailable.empty());
    EXPECT_EQ(r.timeline->lanes().size(), 4u);
    EXPECT_GT(r.timeline->copy_kernel_overlap_us(), 0);
    ASSERT_TRUE(r.target);
    EXPECT_EQ(r.target->step, "add");
    EXPECT_GT(r.target->that_ms, 0);
    EXPECT_GT(r.target->this_ms, 0);
    std::printf("[ figures  ] 4 streams: run() %.3f ms vs one stream %.3f ms = %.2fx; copies under kernels %.3f ms\n",
                r.target->this_ms, r.target->that_ms, r.target->ratio(), r.timeline->copy_kernel_overlap_us() / 1e3);
}

TEST(HostSteps, StarterThatDoesNothingLeavesTheOutputNeverWritten) {
    WB_REQUIRE_GPU();
    wb::WorkerBackend w;
    wb::RunRequest q = solution();
    q.source = wb::SourceChoice::Starter;
    q.timing = false;
    const wb::RunResult r = w.run(q);
    ASSERT_EQ(r.status, wb::RunStatus::Mismatch) << r.message;
    ASSERT_EQ(r.comparisons.size(), 1u);
    EXPECT_EQ(r.comparisons[0].unwritten, r.comparisons[0].count);
}

TEST(HostSteps, ForgettingTheCopyBackIsNeverWritten) {
    WB_REQUIRE_GPU();
    wb::WorkerBackend w;
    const wb::RunResult r = w.run(fault("no_copy_back.cu"));
    ASSERT_EQ(r.status, wb::RunStatus::Mismatch) << r.message;
    EXPECT_NE(r.message.find("never written"), std::string::npos) << r.message;
}

TEST(HostSteps, LeakedDeviceMemoryFailsTheRunAndTheWorkerIsReplaced) {
    WB_REQUIRE_GPU();
    wb::WorkerBackend w;
    const wb::RunResult r = w.run(fault("leak.cu"));
    ASSERT_EQ(r.status, wb::RunStatus::HostError) << r.message;
    EXPECT_NE(r.message.find("still allocated"), std::string::npos) << r.message;
    EXPECT_NE(r.message.find("on GPU 0"), std::string::npos) << r.message;
    EXPECT_TRUE(r.context_lost);
    std::printf("[ message  ] %s\n", r.message.c_str());
    expect_next_run_passes(w);
}

TEST(HostSteps, LeakedPinnedMemoryFailsTheRun) {
    WB_REQUIRE_GPU();
    wb::WorkerBackend w;
    const wb::RunResult r = w.run(fault("leak_pinned.cu"));
    ASSERT_EQ(r.status, wb::RunStatus::HostError) << r.message;
    EXPECT_NE(r.message.find("pinned host memory"), std::string::npos) << r.message;
    expect_next_run_passes(w);
}

TEST(HostSteps, ReturningWhileTheGpuWorksFailsTheRun) {
    WB_REQUIRE_GPU();
    wb::WorkerBackend w;
    const wb::RunResult r = w.run(fault("no_sync.cu"));
    ASSERT_EQ(r.status, wb::RunStatus::HostError) << r.message;
    EXPECT_NE(r.message.find("still working"), std::string::npos) << r.message;
    EXPECT_NE(r.message.find("spin"), std::string::npos) << r.message;
    std::printf("[ message  ] %s\n", r.message.c_str());
    expect_next_run_passes(w);
}

TEST(HostSteps, AnUncheckedBadLaunchIsNamed) {
    WB_REQUIRE_GPU();
    wb::WorkerBackend w;
    const wb::RunResult r = w.run(fault("unchecked.cu"));
    ASSERT_EQ(r.status, wb::RunStatus::HostError) << r.message;
    EXPECT_NE(r.message.find("nothing checked it: cudaError"), std::string::npos) << r.message;
    expect_next_run_passes(w);
}

TEST(HostSteps, WbCheckReportsTheCallAndItsLine) {
    WB_REQUIRE_GPU();
    wb::WorkerBackend w;
    const wb::RunResult r = w.run(fault("check_fails.cu"));
    ASSERT_EQ(r.status, wb::RunStatus::HostError) << r.message;
    EXPECT_NE(r.message.find("check_fails.cu:5: cudaMalloc(&d, size_t(1) << 50) failed: cudaErrorMemoryAllocation"),
              std::string::npos)
        << r.message;
    expect_next_run_passes(w);
}

TEST(HostSteps, AFaultingKernelLosesTheContextAndTheNextRunWorks) {
    WB_REQUIRE_GPU();
    wb::WorkerBackend w;
    const wb::RunResult r = w.run(fault("illegal_address.cu"));
    ASSERT_EQ(r.status, wb::RunStatus::CudaError) << r.message;
    EXPECT_TRUE(r.context_lost);
    // A store 1 GiB past the buffer: an H100 reports an illegal address, an H200 (whose larger
    // memory maps the address space differently) an invalid address space. Both lose the context.
    EXPECT_TRUE(r.message.find("cudaErrorIllegalAddress") != std::string::npos ||
                r.message.find("cudaErrorInvalidAddressSpace") != std::string::npos)
        << r.message;
    expect_next_run_passes(w);
}

TEST(HostSteps, AHostCrashIsReportedAndTheNextRunWorks) {
    WB_REQUIRE_GPU();
    wb::WorkerBackend w;
    const wb::RunResult r = w.run(fault("segfault.cu"));
    ASSERT_EQ(r.status, wb::RunStatus::Crashed) << r.message;
    std::printf("[ message  ] %s\n", r.message.c_str());
    expect_next_run_passes(w);
}

// An exception out of run() is the student's error, in the student's words.
TEST(HostSteps, AnExceptionOutOfRunIsTheStudentsErrorAndTheNextRunWorks) {
    WB_REQUIRE_GPU();
    wb::WorkerBackend w;
    const wb::RunResult r = w.run(fault("throws.cu"));
    ASSERT_EQ(r.status, wb::RunStatus::HostError) << r.message;
    EXPECT_EQ(r.message, "run() threw std::runtime_error: the input file is missing");
    EXPECT_EQ(r.message_in("zh"), "run() 抛出了 std::runtime_error：the input file is missing");
    EXPECT_NE(r.hint.find("an exception must not leave run()"), std::string::npos) << r.hint;
    EXPECT_EQ(w.workers_started(), 1);
    expect_next_run_passes(w);
}

// A thread run() started and left running cannot be stopped safely: the run
// is the student's error, naming how many, and the worker that still runs it
// is replaced (the next run is a fresh worker's, and passes).
TEST(HostSteps, AThreadLeftRunningByRunIsTheStudentsErrorAndTheWorkerIsReplaced) {
    WB_REQUIRE_GPU();
    wb::WorkerBackend w;
    const wb::RunResult r = w.run(fault("thread_left.cu"));
    ASSERT_EQ(r.status, wb::RunStatus::HostError) << r.message;
    EXPECT_EQ(r.message, "run() returned while a thread it started was still running: join it "
                         "(std::thread::join) before run() returns");
    EXPECT_EQ(r.message_in("zh"), "run() 返回时，它启动的一个线程仍在运行：在 run() 返回之前等待它结束（std::thread::join）");
    EXPECT_TRUE(r.context_lost);
    expect_next_run_passes(w);
    EXPECT_EQ(w.workers_started(), 2);
}

// exit() in run() ends the worker: the supervisor says exit() was called, with its status and the phase.
TEST(HostSteps, ExitInRunIsNamedWithItsStatusAndTheNextRunWorks) {
    WB_REQUIRE_GPU();
    wb::WorkerBackend w;
    const wb::RunResult r = w.run(fault("exits.cu"));
    ASSERT_EQ(r.status, wb::RunStatus::Crashed) << r.message;
    EXPECT_EQ(r.message, "exit(3) was called while run() was running");
    EXPECT_NE(r.hint.find("run() must return"), std::string::npos) << r.hint;
    expect_next_run_passes(w);
}

TEST(HostSteps, AnEndlessKernelTimesOutAndTheNextRunWorks) {
    WB_REQUIRE_GPU();
    wb::WorkerBackend w;
    wb::RunRequest q = fault("endless.cu");
    q.timeout_s = 4;
    const auto t0 = std::chrono::steady_clock::now();
    const wb::RunResult r = w.run(q);
    ASSERT_EQ(r.status, wb::RunStatus::TimedOut) << r.message;
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 8.0);
    std::printf("[ message  ] %s\n", r.message.c_str());
    expect_next_run_passes(w);
}

// run() is under the worker's memory cap (RLIMIT_DATA, sandbox/), with or
// without bwrap: a 1 TiB malloc returns null, and touching 4 GiB under a
// 1 GiB cap fails part way. run() then returns without writing its output.
TEST(HostSteps, RunIsUnderTheWorkersMemoryCap) {
    WB_REQUIRE_GPU();
    setenv("WB_WORKER_MEMORY_MB", "1024", 1);  // read by the worker, which inherits it
    wb::WorkerBackend w;
    const wb::RunResult r = w.run(fault("touches_4gib.cu"));
    unsetenv("WB_WORKER_MEMORY_MB");
    EXPECT_EQ(r.status, wb::RunStatus::Mismatch) << "run() went past the cap: " << r.message;
    EXPECT_EQ(r.message.find("exit(42)"), std::string::npos) << r.message;
    expect_next_run_passes(w);
}

// run() cannot write to $HOME where the worker is contained (bwrap); where
// bwrap is missing (the GPU machine has none), the write works as before and
// the first result says, once, that runs are not contained.
TEST(HostSteps, RunCannotWriteToHomeWhenContainedAndSaysSoWhenNot) {
    WB_REQUIRE_GPU();
    const std::string home = ::testing::TempDir() + "wb-host-home-" + std::to_string(::getpid());
    std::filesystem::create_directories(home);
    const char* old = std::getenv("HOME");
    const std::string saved = old ? old : "";
    setenv("HOME", home.c_str(), 1);
    const wb::SandboxChoice sandbox = wb::worker_sandbox({});
    wb::WorkerBackend w;
    const wb::RunResult r = w.run(fault("writes_home.cu"));
    const bool wrote = std::filesystem::exists(home + "/wb-host-step-wrote-here");
    if (!saved.empty()) setenv("HOME", saved.c_str(), 1);
    std::filesystem::remove_all(home);
    if (sandbox.contained()) {
        EXPECT_EQ(r.status, wb::RunStatus::Mismatch) << "run() wrote to $HOME: " << r.message;
        EXPECT_FALSE(wrote);
        EXPECT_TRUE(r.notice_said.empty());
    } else {
        std::printf("[ sandbox  ] not available here (%s): asserting that the run goes on uncontained and says so\n",
                    wb::render(sandbox.not_contained, "en").c_str());
        EXPECT_EQ(r.message, "exit(42) was called while run() was running");
        EXPECT_TRUE(wrote);
        ASSERT_FALSE(r.notice_said.empty());
        EXPECT_EQ(r.notice_said[0].key, "sandbox.not_contained");
    }
    expect_next_run_passes(w);
}
