// tests/unit/emulate_endings_test.cpp — every way an emulated kernel can end is named.
//
// A stack overflow (deep recursion, a large local array) is named as one,
// with the stack's size; exit(), abort() and raise() in a kernel end its
// launch with those words, and the worker lives on; a block stuck at a warp
// operation names the line of it and of the barrier; a warp operation whose
// mask leaves out its own lane is a warning with its line. Each test then
// runs a clean kernel in the same process (the worker's, in the last two).
#include "emulate/emulator.hpp"
#include "lesson/loader.hpp"
#include "pipeline/worker.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

namespace {

using Bytes = std::vector<unsigned char>;

// A kernel that writes 1 to out[threadIdx.x]: the launch after a failing one works.
void expect_a_clean_launch_works() {
    const char* src = "extern \"C\" __global__ void k(int* out) { __syncthreads(); out[threadIdx.x] = 1; }\n";
    Bytes out(32 * sizeof(int), 0);
    const auto r = wb::emulate_for_test(src, "k", 1, 32, {&out}, {});
    EXPECT_TRUE(r.ok) << r.message;
    int last = 0;
    std::memcpy(&last, out.data() + 31 * sizeof(int), sizeof last);
    EXPECT_EQ(last, 1);
}

TEST(EmulateEndings, DeepRecursionOnAFiberIsAStackOverflowWithTheFibersStackSize) {
    const char* src = R"(
__device__ int depth(int n)
{
    volatile char pad[256];
    pad[0] = char(n);
    return n == 0 ? pad[0] : depth(n - 1) + pad[0];
}
extern "C" __global__ void k(int* out)
{
    __syncthreads();
    out[threadIdx.x] = depth(1 << 20);
}
)";
    Bytes out(32 * sizeof(int), 0);
    const auto r = wb::emulate_for_test(src, "k", 1, 32, {&out}, {});
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.message.rfind("the kernel ran out of stack: each thread has 128 KiB of stack on the CPU emulator, and a "
                              "large local array or deep recursion exhausts it, in block (0, 0, 0), thread (0, 0, 0) at test.cu:",
                              0),
              0u)
        << r.message;
    EXPECT_EQ(r.message.find("no buffer's"), std::string::npos) << r.message;
    EXPECT_EQ(r.where.rfind("test.cu:", 0), 0u) << r.where;
    expect_a_clean_launch_works();
}

TEST(EmulateEndings, ALargeLocalArrayOnAFiberIsAStackOverflowNotAWriteToNowhere) {
    const char* src = R"(
extern "C" __global__ void k(int* out)
{
    volatile float big[64 * 1024];
    big[threadIdx.x] = 1.0f;
    __syncthreads();
    out[threadIdx.x] = int(big[threadIdx.x]);
}
)";
    Bytes out(32 * sizeof(int), 0);
    const auto r = wb::emulate_for_test(src, "k", 1, 32, {&out}, {});
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.message.rfind("the kernel ran out of stack: each thread has 128 KiB of stack on the CPU emulator", 0), 0u)
        << r.message;
    EXPECT_NE(r.message.find(", in block (0, 0, 0), thread (0, 0, 0) at test.cu:"), std::string::npos) << r.message;
    expect_a_clean_launch_works();
}

TEST(EmulateEndings, DeepRecursionWithoutFibersOverflowsTheThreadsOwnStack) {
    // No barrier: the threads run in order on the OS thread's stack.
    const char* src = R"(
__device__ int depth(int n)
{
    volatile char pad[256];
    pad[0] = char(n);
    return n == 0 ? pad[0] : depth(n - 1) + pad[0];
}
extern "C" __global__ void k(int* out) { out[threadIdx.x] = depth(1 << 22); }
)";
    Bytes out(32 * sizeof(int), 0);
    const auto r = wb::emulate_for_test(src, "k", 1, 32, {&out}, {});
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.message.rfind("the kernel ran out of stack: each thread has ", 0), 0u) << r.message;
    EXPECT_NE(r.message.find(", in block (0, 0, 0), thread (0, 0, 0) at test.cu:"), std::string::npos) << r.message;
    expect_a_clean_launch_works();
}

TEST(EmulateEndings, ExitInAKernelIsNamedWithItsStatusThreadAndLine) {
    const char* src = R"(
#include <cstdlib>
extern "C" __global__ void k(int* out)
{
    if (threadIdx.x == 5) std::exit(3);
    out[threadIdx.x] = 1;
}
)";
    Bytes out(32 * sizeof(int), 0);
    const auto r = wb::emulate_for_test(src, "k", 1, 32, {&out}, {});
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.message, "the kernel called exit(3), in block (0, 0, 0), thread (5, 0, 0) at test.cu:5");
    EXPECT_EQ(r.where, "test.cu:5");
    expect_a_clean_launch_works();
}

TEST(EmulateEndings, AbortQuickExitAndUnderscoreExitAreNamed) {
    const char* src = R"(
#include <cstdlib>
#include <unistd.h>
extern "C" __global__ void k(int* out, int how)
{
    if (threadIdx.x == 2) {
        if (how == 0) abort();
        if (how == 1) std::quick_exit(4);
        if (how == 2) _exit(5);
    }
    out[threadIdx.x] = 1;
}
)";
    const char* want[] = {"the kernel called abort(), in block (0, 0, 0), thread (2, 0, 0) at test.cu:7",
                          "the kernel called quick_exit(4), in block (0, 0, 0), thread (2, 0, 0) at test.cu:8",
                          "the kernel called _exit(5), in block (0, 0, 0), thread (2, 0, 0) at test.cu:9"};
    for (int how = 0; how < 3; ++how) {
        Bytes out(32 * sizeof(int), 0);
        const auto r = wb::emulate_for_test(src, "k", 1, 32, {&out}, {how});
        EXPECT_FALSE(r.ok);
        EXPECT_EQ(r.message, want[how]);
    }
    expect_a_clean_launch_works();
}

TEST(EmulateEndings, ARaisedSegvIsARaisedSignalNotAReadAtAnInventedAddress) {
    const char* src = R"(
#include <csignal>
extern "C" __global__ void k(int* out)
{
    if (threadIdx.x == 7) raise(SIGSEGV);
    out[threadIdx.x] = 1;
}
)";
    Bytes out(32 * sizeof(int), 0);
    const auto r = wb::emulate_for_test(src, "k", 1, 32, {&out}, {});
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.message, "the kernel raised signal 11 (SIGSEGV), in block (0, 0, 0), thread (7, 0, 0) at test.cu:5");
    expect_a_clean_launch_works();
}

TEST(EmulateEndings, ASignalSentToTheKernelsOwnThreadIsNamedAsSent) {
    // pthread_kill does not go through raise(): the handler tells it from a real fault by si_code.
    const char* src = R"(
#include <csignal>
#include <pthread.h>
extern "C" __global__ void k(int* out)
{
    if (threadIdx.x == 1) pthread_kill(pthread_self(), SIGBUS);
    out[threadIdx.x] = 1;
}
)";
    Bytes out(32 * sizeof(int), 0);
    const auto r = wb::emulate_for_test(src, "k", 1, 32, {&out}, {});
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.message.rfind("the kernel raised signal 7 (SIGBUS), in block (0, 0, 0), thread (1, 0, 0)", 0), 0u) << r.message;
    expect_a_clean_launch_works();
}

TEST(EmulateEndings, AStuckWarpOperationNamesItsLineAndTheBarriers) {
    const char* src = R"(
extern "C" __global__ void k(int* out)
{
    int v = threadIdx.x;
    if (threadIdx.x < 16)
        v = __shfl_down_sync(0xffffffffu, v, 1);
    __syncthreads();
    out[threadIdx.x] = v;
}
)";
    Bytes out(32 * sizeof(int), 0);
    const auto r = wb::emulate_for_test(src, "k", 1, 32, {&out}, {});
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.message,
              "block (0, 0, 0) cannot go on: 16 of its threads wait at a warp operation (a shuffle, vote or __syncwarp) "
              "whose lanes will not all arrive, while 16 wait at __syncthreads(); the warp operation is at test.cu:6, "
              "the __syncthreads() at test.cu:7");
    EXPECT_EQ(r.where, "test.cu:6");
    expect_a_clean_launch_works();
}

TEST(EmulateEndings, AShuffleWhoseMaskLeavesOutItsLaneIsAWarningWithTheLine) {
    const char* src = R"(
extern "C" __global__ void k(int* out)
{
    int v = __shfl_sync(0x0000ffffu, int(threadIdx.x), 0);
    out[threadIdx.x] = v;
}
)";
    Bytes out(32 * sizeof(int), 0);
    const auto r = wb::emulate_for_test(src, "k", 1, 32, {&out}, {});
    EXPECT_TRUE(r.ok) << r.message;
    EXPECT_EQ(r.notes,
              "; warning: lane 16 of a warp called a warp operation whose mask (0x0000ffff) leaves it out at test.cu:4; "
              "CUDA leaves the result of such a call undefined (every lane that calls a warp operation must be in its mask)");
    // A mask that names every caller says nothing.
    const char* full = R"(
extern "C" __global__ void k(int* out)
{
    int v = threadIdx.x < 16 ? __shfl_sync(0x0000ffffu, int(threadIdx.x), 0) : 0;
    out[threadIdx.x] = v;
}
)";
    const auto quiet = wb::emulate_for_test(full, "k", 1, 32, {&out}, {});
    EXPECT_TRUE(quiet.ok) << quiet.message;
    EXPECT_EQ(quiet.notes, "");
}

// Through the worker, as a student's run goes: the message names the kernel,
// and the same worker runs the next request.
class EmulateEndingsInWorker : public ::testing::Test {
protected:
    static std::shared_ptr<const wb::Lesson> vector_add() {
        auto r = wb::load_lesson(std::string(WB_SOURCE_DIR) + "/lessons/01_vector_add.json");
        return r.ok() ? std::make_shared<const wb::Lesson>(std::move(*r.lesson)) : nullptr;
    }
    static wb::RunRequest request(std::shared_ptr<const wb::Lesson> lesson, const std::string& source) {
        wb::RunRequest q;
        q.lesson = std::move(lesson);
        q.test_case = "ragged";
        q.executor = wb::Executor::Cpu;
        q.trusted = true;
        q.source = source.empty() ? wb::SourceChoice::Solution : wb::SourceChoice::Custom;
        q.custom_source = source;
        q.custom_origin = "exit.cu";
        return q;
    }
};

TEST_F(EmulateEndingsInWorker, ExitInAKernelIsTheKernelsAndTheSameWorkerRunsOn) {
    auto lesson = vector_add();
    ASSERT_TRUE(lesson);
    wb::WorkerBackend worker;
    const char* src = "#include <cstdlib>\n"
                      "extern \"C\" __global__ void vector_add(const float* a, const float* b, float* c, int n)\n"
                      "{\n"
                      "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                      "#ifndef __CUDACC_RTC__\n"
                      "    if (i == 40) std::exit(3);\n"
                      "#endif\n"
                      "    if (i < n) c[i] = a[i] + b[i];\n"
                      "}\n";
    const wb::RunResult r = worker.run(request(lesson, src));
    EXPECT_EQ(r.status, wb::RunStatus::CudaError) << r.message;
    EXPECT_EQ(r.message, "on the CPU emulator, in kernel 'vector_add', the kernel called exit(3), in block (0, 0, 0), "
                         "thread (40, 0, 0) at exit.cu:6");
    EXPECT_EQ(r.fault_line, 6);
    EXPECT_NE(r.hint.find("a kernel cannot end its program"), std::string::npos) << r.hint;
    const wb::RunResult next = worker.run(request(lesson, ""));
    EXPECT_EQ(next.status, wb::RunStatus::Passed) << next.message;
    EXPECT_EQ(worker.workers_started(), 1);
}

TEST_F(EmulateEndingsInWorker, AWorkerThatDiesInAKernelNamesTheKernelAndTheSignalAndIsReplaced) {
    auto lesson = vector_add();
    ASSERT_TRUE(lesson);
    wb::WorkerBackend worker;
    // std::terminate aborts from inside the C++ library, where no --wrap reaches: the worker dies of SIGABRT.
    const char* src = "#ifndef __CUDACC_RTC__\n"
                      "#include <exception>\n"
                      "#endif\n"
                      "extern \"C\" __global__ void vector_add(const float* a, const float* b, float* c, int n)\n"
                      "{\n"
                      "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                      "#ifndef __CUDACC_RTC__\n"
                      "    if (i == 40) std::terminate();\n"
                      "#endif\n"
                      "    if (i < n) c[i] = a[i] + b[i];\n"
                      "}\n";
    const wb::RunResult r = worker.run(request(lesson, src));
    EXPECT_EQ(r.status, wb::RunStatus::Crashed) << r.message;
    EXPECT_EQ(r.message, "the worker process died of signal 6 (SIGABRT, Aborted: abort() was called, or an exception was "
                         "not caught) while running kernel 'vector_add' on the CPU emulator");
    const wb::RunResult next = worker.run(request(lesson, ""));
    EXPECT_EQ(next.status, wb::RunStatus::Passed) << next.message;
    EXPECT_EQ(worker.workers_started(), 2);
}

}  // namespace

// Only code the host compiler alone sees can throw (NVRTC refuses `throw`):
// an exception that leaves the kernel ends its launch with its type and
// what(), on a fiber as without one, and the next launch works.
TEST(EmulateEndings, AnExceptionOutOfAKernelIsNamedWithItsTypeAndWhat) {
    const char* plain = R"(
#include <stdexcept>
extern "C" __global__ void k(int* out)
{
    if (threadIdx.x == 7) throw std::runtime_error("index 7 is out of range");
    out[threadIdx.x] = 1;
}
)";
    const char* fibers = R"(
extern "C" __global__ void k(int* out)
{
    __syncthreads();
    if (threadIdx.x == 3) throw 42;
    out[threadIdx.x] = 1;
}
)";
    Bytes out(32 * sizeof(int), 0);
    auto r = wb::emulate_for_test(plain, "k", 1, 32, {&out}, {});
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.message, "the kernel threw std::runtime_error: index 7 is out of range, in block (0, 0, 0), thread (7, 0, 0)");
    expect_a_clean_launch_works();
    r = wb::emulate_for_test(fibers, "k", 1, 32, {&out}, {});
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.message, "the kernel threw int, in block (0, 0, 0), thread (3, 0, 0)");
    expect_a_clean_launch_works();
    // Thrown and caught inside the kernel's own code, nothing is said.
    const char* caught = R"(
#include <stdexcept>
extern "C" __global__ void k(int* out)
{
    try { throw std::runtime_error("x"); } catch (const std::exception&) { out[threadIdx.x] = 1; }
}
)";
    r = wb::emulate_for_test(caught, "k", 1, 32, {&out}, {});
    EXPECT_TRUE(r.ok) << r.message;
}
