// tests/unit/emulate_static_shared_test.cpp — static __shared__ variables on the CPU emulator.
//
// A static __shared__ variable in a function body starts every block as
// 0xFF bytes, as dynamic shared memory does, so a kernel that reads what no
// thread of its block wrote fails (where the old per-OS-thread storage kept
// zeros, or the last block's values); its alignment and sizeof are the
// declaration's; and a write past its end or before its start is named with
// the variable, its declaration's line and size, and the block, after which
// the same process (and, through the worker, the same worker) runs on.
// The rewrite itself is tested in emulate_header_test.cpp.
#include "emulate/emulator.hpp"
#include "emulate/shared_vars.hpp"
#include "lesson/loader.hpp"
#include "pipeline/worker.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace {

using Bytes = std::vector<unsigned char>;

template <class T>
std::vector<T> values_of(const Bytes& b) {
    std::vector<T> v(b.size() / sizeof(T));
    std::memcpy(v.data(), b.data(), v.size() * sizeof(T));
    return v;
}

void expect_a_clean_launch_works() {
    const char* src = "extern \"C\" __global__ void k(int* out) { __shared__ int s[32]; s[threadIdx.x] = 1; "
                      "__syncthreads(); out[threadIdx.x] = s[31 - threadIdx.x]; }\n";
    Bytes out(32 * sizeof(int), 0);
    const auto r = wb::emulate_for_test(src, "k", 1, 32, {&out}, {});
    EXPECT_TRUE(r.ok) << r.message;
    EXPECT_EQ(values_of<int>(out)[0], 1);
}

TEST(EmulateStaticShared, EveryBlockStartsPoisonedNotWithTheLastBlocksValues) {
    // Eight blocks on (at most) the machine's cores: each OS thread runs
    // several in a row. A scalar accumulator nobody cleared reads NaN in
    // every block, and slots nobody wrote read 0xFFFFFFFF, although the block
    // before on the same OS thread wrote them; with and without fibers.
    const char* with_barrier = R"(
extern "C" __global__ void k(const float* in, float* out)
{
    __shared__ float acc;
    __shared__ int slots[64];
    __syncthreads();
    if (threadIdx.x == 0) {
        for (int j = 0; j < (int)blockDim.x; ++j) acc += in[blockIdx.x * blockDim.x + j];
        out[blockIdx.x] = acc;
        out[gridDim.x + blockIdx.x] = (float)slots[63];
    }
    __syncthreads();
    slots[threadIdx.x] = 7;
    slots[32 + threadIdx.x] = 7;
    acc = 0.0f;
}
)";
    const char* in_order = R"(
extern "C" __global__ void k(const float* in, float* out)
{
    __shared__ float acc;
    __shared__ int slots[64];
    if (threadIdx.x == 0) {
        for (int j = 0; j < (int)blockDim.x; ++j) acc += in[blockIdx.x * blockDim.x + j];
        out[blockIdx.x] = acc;
        out[gridDim.x + blockIdx.x] = (float)slots[63];
    }
    slots[threadIdx.x] = 7;
    slots[32 + threadIdx.x] = 7;
    acc = 0.0f;
}
)";
    const unsigned grid = 8, block = 32;
    for (const char* src : {with_barrier, in_order}) {
        std::vector<float> in(grid * block, 1.0f);
        Bytes inb(in.size() * sizeof(float));
        std::memcpy(inb.data(), in.data(), inb.size());
        Bytes out(2 * grid * sizeof(float), 0);
        const auto r = wb::emulate_for_test(src, "k", grid, block, {&inb, &out}, {});
        ASSERT_TRUE(r.ok) << r.message;
        const auto v = values_of<float>(out);
        for (unsigned b = 0; b < grid; ++b) {
            EXPECT_TRUE(std::isnan(v[b])) << "block " << b << ": the uncleared accumulator read " << v[b];
            EXPECT_EQ(v[grid + b], -1.0f) << "block " << b << ": a slot no thread of it wrote";
        }
    }
}

TEST(EmulateStaticShared, AlignmentSizeofAndTemplatesAreTheDeclarations) {
    const char* src = R"(
template <class T, int N>
__device__ int probe(int* out)
{
    __shared__ T tile[N][N + 1];
    __shared__ __align__(64) float wide[3];
    __shared__ alignas(float4) float quad[5];
    __shared__ unsigned char bytes[3], one;
    __shared__ __align__(256) char page[5];
    out[0] = sizeof(tile);
    out[1] = int(reinterpret_cast<unsigned long>(&wide[0]) % 64);
    out[2] = int(reinterpret_cast<unsigned long>(&quad[0]) % 16);
    out[3] = int(reinterpret_cast<unsigned long>(&tile[0][0]) % 16) + int(reinterpret_cast<unsigned long>(&page[0]) % 256);
    out[4] = sizeof(wide) + sizeof(quad) + sizeof(bytes) + sizeof(one);
    tile[N - 1][N] = T(5);
    out[5] = int(tile[N - 1][N]);
    return 0;
}
extern "C" __global__ void k(int* out)
{
    if (threadIdx.x == 0) probe<double, 4>(out);
}
)";
    Bytes out(6 * sizeof(int), 0);
    const auto r = wb::emulate_for_test(src, "k", 2, 32, {&out}, {});
    ASSERT_TRUE(r.ok) << r.message;
    const auto v = values_of<int>(out);
    EXPECT_EQ(v[0], 4 * 5 * 8);
    EXPECT_EQ(v[1], 0) << "__align__(64) not honoured";
    EXPECT_EQ(v[2], 0) << "alignas(float4) not honoured";
    EXPECT_EQ(v[3], 0) << "an array of doubles is not 16-byte aligned, or __align__(256) not honoured";
    EXPECT_EQ(v[4], 12 + 20 + 3 + 1);
    EXPECT_EQ(v[5], 5);
}

TEST(EmulateStaticShared, AWritePastTheEndIsNamedWithTheArrayItsLineAndSize) {
    const char* src = R"(
extern "C" __global__ void k(int* out)
{
    __shared__ int tile[32];
    tile[threadIdx.x + 1] = 1;
    __syncthreads();
    out[threadIdx.x] = tile[threadIdx.x];
}
)";
    Bytes out(32 * sizeof(int), 0);
    const auto r = wb::emulate_for_test(src, "k", 3, 32, {&out}, {});
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.message.rfind("the kernel wrote past the end of the __shared__ array tile (declared at test.cu:4, 128 "
                              "bytes), in block (",
                              0),
              0u)
        << r.message;
    EXPECT_EQ(r.where, "test.cu:4");
    expect_a_clean_launch_works();
}

TEST(EmulateStaticShared, AWriteFarPastTheEndIsNamedAndLeavesTheWorkerWhole) {
    // 8 KiB past a 1 KiB array: the old thread_local storage let this run
    // over the C library's heap (the worker died of SIGSEGV or SIGABRT); the
    // emulator's own region takes it, and the guard it crossed names it.
    const char* src = R"(
extern "C" __global__ void k(int* out)
{
    __shared__ float partial[256];
    partial[threadIdx.x * 8] = 1.0f;
    __syncthreads();
    out[threadIdx.x] = 0;
}
)";
    Bytes out(256 * sizeof(int), 0);
    const auto r = wb::emulate_for_test(src, "k", 4, 256, {&out}, {});
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.message.rfind("the kernel wrote past the end of the __shared__ array partial (declared at test.cu:4, "
                              "1024 bytes), in block (",
                              0),
              0u)
        << r.message;
    expect_a_clean_launch_works();
}

TEST(EmulateStaticShared, AWriteBeforeTheStartOfA2DArrayAndPastAScalarAreNamed) {
    const char* before = R"(
#define TILE 16
extern "C" __global__ void k(int* out)
{
    __shared__ float rows[TILE][TILE];
    int r = int(threadIdx.x) / TILE - 1;  // the first row's threads write row -1
    rows[r][threadIdx.x % TILE] = 0.0f;
    out[threadIdx.x] = 0;
}
)";
    Bytes out(32 * sizeof(int), 0);
    auto r = wb::emulate_for_test(before, "k", 1, 32, {&out}, {});
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.message, "the kernel wrote before the start of the __shared__ array rows (declared at test.cu:5, 1024 bytes), "
                         "in block (0, 0, 0)");
    expect_a_clean_launch_works();
    const char* scalar = R"(
extern "C" __global__ void k(int* out)
{
    __shared__ int count;
    (&count)[threadIdx.x] = 1;  // thread 1 and up write past it
    out[threadIdx.x] = 0;
}
)";
    r = wb::emulate_for_test(scalar, "k", 1, 4, {&out}, {});
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.message, "the kernel wrote past the end of the __shared__ variable count (declared at test.cu:4, 4 bytes), "
                         "in block (0, 0, 0)");
    expect_a_clean_launch_works();
}

TEST(EmulateStaticShared, AnOverflowIsSaidBeforeTheFaultItLedTo) {
    // The overflow is found when the block faults, not only when it ends.
    const char* src = R"(
extern "C" __global__ void k(int* out)
{
    __shared__ int tile[8];
    tile[threadIdx.x] = 1;
    __syncthreads();
    if (threadIdx.x == 31) __trap();
    out[threadIdx.x] = 0;
}
)";
    Bytes out(32 * sizeof(int), 0);
    const auto r = wb::emulate_for_test(src, "k", 1, 32, {&out}, {});
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.message, "the kernel wrote past the end of the __shared__ array tile (declared at test.cu:4, 32 bytes), "
                         "in block (0, 0, 0)");
    expect_a_clean_launch_works();
}

TEST(EmulateStaticShared, NoVariableIsRecordedOutsideABlock) {
    // The list belongs to the OS thread that runs a block; this thread runs none now.
    expect_a_clean_launch_works();
    EXPECT_TRUE(wb::block_shared_vars().empty());
    EXPECT_EQ(wb::block_shared_var_at(0x1000), nullptr);
}

// Through the worker, as a student's run goes: lesson 06's tiled matmul with
// its first tile declared one column short (TILE x TILE - 1): the store of
// thread (15, 15) lands one element past its end, in every block.
TEST(EmulateStaticShared, InTheWorkerTheOverflowIsTheKernelsFaultAndTheSameWorkerRunsOn) {
    auto loaded = wb::load_lesson(std::string(WB_SOURCE_DIR) + "/lessons/06_matmul.json");
    ASSERT_TRUE(loaded.ok());
    auto lesson = std::make_shared<const wb::Lesson>(std::move(*loaded.lesson));
    auto request = [&](const std::string& source) {
        wb::RunRequest q;
        q.lesson = lesson;
        q.step = "shared_memory_tiles";
        q.test_case = "ragged";
        q.executor = wb::Executor::Cpu;
        q.trusted = true;
        q.source = source.empty() ? wb::SourceChoice::Solution : wb::SourceChoice::Custom;
        q.custom_source = source;
        q.custom_origin = "short_tile.cu";
        return q;
    };
    const std::string src =
        "#define TILE 16\n"
        "extern \"C\" __global__ void matmul_tiled(const float* A, const float* B, float* C, int M, int N, int K)\n"
        "{\n"
        "    __shared__ float As[TILE][TILE - 1];  // one column short\n"
        "    __shared__ float Bs[TILE][TILE];\n"
        "    int tx = threadIdx.x, ty = threadIdx.y;\n"
        "    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;\n"
        "    float sum = 0.0f;\n"
        "    for (int t = 0; t < K; t += TILE) {\n"
        "        As[ty][tx] = (row < M && t + tx < K) ? A[row * K + t + tx] : 0.0f;\n"
        "        Bs[ty][tx] = (t + ty < K && col < N) ? B[(t + ty) * N + col] : 0.0f;\n"
        "        __syncthreads();\n"
        "        for (int k = 0; k < TILE; ++k) sum += As[ty][k] * Bs[k][tx];\n"
        "        __syncthreads();\n"
        "    }\n"
        "    if (row < M && col < N) C[row * N + col] = sum;\n"
        "}\n";
    wb::WorkerBackend worker;
    const wb::RunResult r = worker.run(request(src));
    EXPECT_EQ(r.status, wb::RunStatus::CudaError) << r.message;
    // Every block overflows; which one is said first depends on the cores' race.
    EXPECT_EQ(r.message.rfind("on the CPU emulator, in kernel 'matmul_tiled', the kernel wrote past the end of the "
                              "__shared__ array As (declared at short_tile.cu:4, 960 bytes), in block (",
                              0),
              0u)
        << r.message;
    EXPECT_EQ(wb::render(r.message_said, "zh").rfind("在 CPU 模拟器上，在核函数 'matmul_tiled' 中，核函数写到了 __shared__ "
                                                     "数组 As（声明于 short_tile.cu:4，960 字节）的末尾之后，位于线程块 (",
                                                     0),
              0u)
        << wb::render(r.message_said, "zh");
    EXPECT_EQ(r.fault_line, 4);
    EXPECT_NE(r.hint.find("__shared__ array went outside it"), std::string::npos) << r.hint;
    const wb::RunResult next = worker.run(request(""));
    EXPECT_EQ(next.status, wb::RunStatus::Passed) << next.message;
    EXPECT_EQ(worker.workers_started(), 1);
}

}  // namespace
