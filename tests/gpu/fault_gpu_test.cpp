// tests/gpu/fault_gpu_test.cpp — faulting and endless kernels cannot take the program down.
//
// Each runs through the WorkerBackend, as the GUI and the CLI do: the fault is
// explained, the worker is replaced, and the next run works (within a second).
#include "gpu_test_support.hpp"
#include "pipeline/worker.hpp"

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <dirent.h>
#include <sys/wait.h>
#include <thread>

namespace {

constexpr const char* kCorrect = R"(
extern "C" __global__ void vector_add(const float* a, const float* b, float* c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
})";

constexpr const char* kOutOfBounds = R"(
extern "C" __global__ void vector_add(const float* a, const float* b, float* c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    c[i + (1 << 28)] = a[i] + b[i];
})";

constexpr const char* kMisaligned = R"(
extern "C" __global__ void vector_add(const float* a, const float* b, float* c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) *(float*)((char*)c + 4 * i + 1) = a[i] + b[i];
})";

constexpr const char* kAssert = R"(
#include <cassert>
extern "C" __global__ void vector_add(const float* a, const float* b, float* c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    assert(i < 100);
    if (i < n) c[i] = a[i] + b[i];
})";

constexpr const char* kPrintf = R"(
#include <cstdio>
extern "C" __global__ void vector_add(const float* a, const float* b, float* c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i == 0) printf("hello from thread %d of %d\n", i, n);
    if (i < n) c[i] = a[i] + b[i];
})";

constexpr const char* kEndless = R"(
extern "C" __global__ void vector_add(const float* a, const float* b, float* c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    while (a[0] == a[0]) { if (i == -1) break; }   // never ends for finite a[0]
    if (i < n) c[i] = a[i] + b[i];
})";

wb::RunRequest request(const char* source, const char* test_case = "ragged") {
    wb::RunRequest q;
    q.trusted = true;  // on a GPU machine the bundle's binaries may not know this checkout as shipped
    q.lesson = load_shipped("01_vector_add.json");
    q.step = "1";
    q.test_case = test_case;
    q.source = wb::SourceChoice::Custom;
    q.custom_source = source;
    q.custom_origin = "student.cu";
    q.keep_buffers = false;
    return q;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

int open_fds() {
    int n = 0;
    if (DIR* d = opendir("/proc/self/fd")) {
        while (readdir(d)) ++n;
        closedir(d);
    }
    return n;
}

// GPU memory in use, from nvidia-smi (a process that is not ours, so this
// test process itself never creates a CUDA context). -1 when unavailable.
long gpu_memory_used_mib() {
    FILE* p = popen("nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits -i 0 2>/dev/null", "r");
    if (!p) return -1;
    long v = -1;
    if (std::fscanf(p, "%ld", &v) != 1) v = -1;
    pclose(p);
    return v;
}

}  // namespace

TEST(Faults, IllegalAddressIsExplainedAndTheNextRunWorksWithinASecond) {
    WB_REQUIRE_GPU();
    wb::WorkerBackend worker;
    ASSERT_EQ(worker.run(request(kCorrect)).status, wb::RunStatus::Passed);
    wb::RunResult r = worker.run(request(kOutOfBounds));
    ASSERT_EQ(r.status, wb::RunStatus::CudaError) << r.message;
    EXPECT_TRUE(r.context_lost);
    EXPECT_TRUE(r.error_code == "CUDA_ERROR_ILLEGAL_ADDRESS" || r.error_code == "CUDA_ERROR_INVALID_ADDRESS_SPACE")
        << r.error_code;
    EXPECT_NE(r.hint.find("bounds"), std::string::npos) << r.hint;
    auto t0 = std::chrono::steady_clock::now();
    wb::RunResult next = worker.run(request(kCorrect));
    double s = seconds_since(t0);
    EXPECT_EQ(next.status, wb::RunStatus::Passed) << next.message;
    EXPECT_LT(s, 1.0) << "the replacement worker was not ready in time";
    std::printf("[ figures  ] first run after an illegal address: %.3f s (worker %d started)\n", s,
                worker.workers_started());
}

TEST(Faults, MisalignedAddressIsExplained) {
    WB_REQUIRE_GPU();
    wb::WorkerBackend worker;
    wb::RunResult r = worker.run(request(kMisaligned));
    ASSERT_EQ(r.status, wb::RunStatus::CudaError) << r.message;
    EXPECT_EQ(r.error_code, "CUDA_ERROR_MISALIGNED_ADDRESS");
    EXPECT_NE(r.hint.find("aligned"), std::string::npos) << r.hint;
    EXPECT_EQ(worker.run(request(kCorrect)).status, wb::RunStatus::Passed);
}

TEST(Faults, DeviceAssertShowsItsMessageWithBlockAndThread) {
    WB_REQUIRE_GPU();
    wb::WorkerBackend worker;
    wb::RunResult r = worker.run(request(kAssert));
    ASSERT_EQ(r.status, wb::RunStatus::CudaError) << r.message;
    EXPECT_EQ(r.error_code, "CUDA_ERROR_ASSERT");
    EXPECT_NE(r.output.find("Assertion"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("block"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("thread"), std::string::npos) << r.output;
    std::printf("[ output   ] %s", r.output.substr(0, 300).c_str());
    EXPECT_EQ(worker.run(request(kCorrect)).status, wb::RunStatus::Passed);
}

TEST(Faults, DevicePrintfComesBackWithTheResult) {
    WB_REQUIRE_GPU();
    wb::WorkerBackend worker;
    wb::RunRequest q = request(kPrintf);
    q.timing = false;
    wb::RunResult r = worker.run(q);
    ASSERT_EQ(r.status, wb::RunStatus::Passed) << r.message;
    EXPECT_NE(r.output.find("hello from thread 0 of 1000"), std::string::npos) << r.output;
}

TEST(Faults, AnEndlessKernelTimesOutAndTheWorkerIsReplaced) {
    WB_REQUIRE_GPU();
    wb::WorkerBackend worker;
    wb::RunRequest q = request(kEndless);
    q.timeout_s = 3;
    auto t0 = std::chrono::steady_clock::now();
    wb::RunResult r = worker.run(q);
    EXPECT_EQ(r.status, wb::RunStatus::TimedOut) << r.message;
    EXPECT_NE(r.message.find("timed out after 3 s while running the kernel"), std::string::npos) << r.message;
    EXPECT_LT(seconds_since(t0), 6.0);
    auto t1 = std::chrono::steady_clock::now();
    EXPECT_EQ(worker.run(request(kCorrect)).status, wb::RunStatus::Passed);
    std::printf("[ figures  ] endless kernel stopped after %.2f s; next run took %.3f s\n",
                std::chrono::duration<double>(t1 - t0).count(), seconds_since(t1));
}

TEST(Faults, StopEndsAnEndlessKernelAtOnce) {
    WB_REQUIRE_GPU();
    wb::WorkerBackend worker;
    wb::RunRequest q = request(kEndless);
    q.timeout_s = 60;
    q.cancel_token = 42;
    std::thread stopper([&] {
        std::this_thread::sleep_for(std::chrono::seconds(2));
        worker.cancel(42);
    });
    auto t0 = std::chrono::steady_clock::now();
    wb::RunResult r = worker.run(q);
    stopper.join();
    EXPECT_EQ(r.status, wb::RunStatus::Stopped) << r.message;
    EXPECT_LT(seconds_since(t0), 5.0);
}

TEST(Faults, TwoHundredRunsAlternatingGoodAndFaultingLeakNothing) {
    WB_REQUIRE_GPU();
    long mem_before = gpu_memory_used_mib();
    int fds_before = open_fds();
    auto t0 = std::chrono::steady_clock::now();
    int passed = 0, faulted = 0;
    {
        wb::WorkerBackend worker;
        for (int i = 0; i < 200; ++i) {
            wb::RunRequest q = request(i % 2 ? kOutOfBounds : kCorrect, "small");
            q.timing = false;
            wb::RunResult r = worker.run(q);
            if (i % 2) {
                EXPECT_EQ(r.status, wb::RunStatus::CudaError) << i << ": " << r.message;
                faulted += r.status == wb::RunStatus::CudaError;
            } else {
                EXPECT_EQ(r.status, wb::RunStatus::Passed) << i << ": " << r.message;
                passed += r.status == wb::RunStatus::Passed;
            }
        }
        std::printf("[ figures  ] 200 runs in %.1f s: %d passed, %d faulted, %d workers started\n", seconds_since(t0),
                    passed, faulted, worker.workers_started());
    }
    EXPECT_EQ(open_fds(), fds_before) << "file descriptors leaked";
    int status;
    EXPECT_LE(waitpid(-1, &status, WNOHANG), 0) << "a worker was left unreaped";
    long mem_after = gpu_memory_used_mib();
    std::printf("[ figures  ] GPU memory used: %ld MiB before, %ld MiB after\n", mem_before, mem_after);
    if (mem_before >= 0 && mem_after >= 0) {
        EXPECT_LE(mem_after, mem_before + 16) << "GPU memory leaked";
    }
}

// ---- issue 7: the supervisor survives its worker's death; the reference cannot hurt the context

TEST(Faults, AnIdleGpuWorkerKilledFromOutsideIsReplacedForTheNextRun) {
    WB_REQUIRE_GPU();
    wb::WorkerBackend worker;
    ASSERT_EQ(worker.run(request(kCorrect)).status, wb::RunStatus::Passed);
    const int first = worker.worker_pid();
    ASSERT_EQ(kill(first, SIGKILL), 0);  // as the OOM killer would
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    auto t0 = std::chrono::steady_clock::now();
    wb::RunResult r = worker.run(request(kCorrect));
    EXPECT_EQ(r.status, wb::RunStatus::Passed) << r.message;
    EXPECT_NE(worker.worker_pid(), first);
    std::printf("[ figures  ] run after the idle worker was killed: %.3f s (a new worker and context)\n", seconds_since(t0));
}

TEST(Faults, ACrashingReferenceLeavesTheGpuWorkerAndItsContextInPlace) {
    WB_REQUIRE_GPU();
    wb::WorkerBackend worker;
    ASSERT_EQ(worker.run(request(kCorrect)).status, wb::RunStatus::Passed);
    wb::RunRequest crash;
    crash.trusted = true;
    auto loaded = wb::load_lesson(source_dir() + "/tests/data/lessons_fault/crash_reference.json");
    ASSERT_TRUE(loaded.ok());
    crash.lesson = std::make_shared<const wb::Lesson>(std::move(*loaded.lesson));
    crash.source = wb::SourceChoice::Solution;
    wb::RunResult r = worker.run(crash);
    EXPECT_EQ(r.status, wb::RunStatus::ReferenceError) << r.message;
    EXPECT_NE(r.message.find("Segmentation fault"), std::string::npos) << r.message;
    auto t0 = std::chrono::steady_clock::now();
    EXPECT_EQ(worker.run(request(kCorrect)).status, wb::RunStatus::Passed);
    EXPECT_EQ(worker.workers_started(), 1) << "the reference ran in a child: the worker and its context stay";
    std::printf("[ figures  ] run after a crashing reference: %.3f s in the same worker\n", seconds_since(t0));
}

TEST(Faults, AStopForAFinishedRunDoesNotTouchTheWarmWorker) {
    WB_REQUIRE_GPU();
    wb::WorkerBackend worker;
    wb::RunRequest q = request(kCorrect);
    q.cancel_token = 5;
    ASSERT_EQ(worker.run(q).status, wb::RunStatus::Passed);
    const int pid = worker.worker_pid();
    worker.cancel(5);
    q.cancel_token = 6;
    EXPECT_EQ(worker.run(q).status, wb::RunStatus::Passed);
    EXPECT_EQ(worker.worker_pid(), pid);
    EXPECT_EQ(worker.workers_started(), 1);
}
