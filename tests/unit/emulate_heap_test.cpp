// tests/unit/emulate_heap_test.cpp — a kernel's malloc, free, new and delete on
// the CPU emulator take from a device heap of CUDA's default size (8 MiB,
// kDeviceMallocHeapBytes) that the run's EmuArena owns: malloc returns NULL
// once the heap is full, as on a GPU, so a kernel that leaks cannot grow the
// worker; free makes room again; a pointer lives from one launch to the next
// within a run; and a run starts with an empty heap. The allocator keeps its
// bookkeeping outside the heap, so eight allocations of 1 MiB fit exactly.
#include "emulate/emulator.hpp"

#include "scoped_cache_dir.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <string>
#include <vector>

using namespace wb;

namespace {

class EmulateHeap : public ScopedCacheDirTest {};

EmuBuild build(const std::string& src, const std::vector<std::string>& entries) {
    SourceText s;
    s.text = src;
    s.origin = "heap.cu";
    EmuBuild b = build_emulated(s, entries);
    std::string why = b.log;
    for (const auto& d : b.diagnostics) why += d.to_string() + "\n";
    EXPECT_TRUE(b.ok) << why;
    return b;
}

LaunchDims dims(unsigned grid, unsigned block) {
    LaunchDims d;
    d.grid = {grid, 1, 1};
    d.block = {block, 1, 1};
    return d;
}

// This process's resident memory (VmRSS), in bytes.
long long rss_bytes() {
    std::ifstream in("/proc/self/status");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind("VmRSS:", 0) == 0) return std::stoll(line.substr(6)) * 1024;
    return -1;
}

// Each thread asks for 1 MiB, writes all of it (so the pages are really
// backed) and keeps it: the count of successes and of NULLs.
constexpr const char* kLeak = R"(
extern "C" __global__ void leak(int* got, int* refused, unsigned long long* where)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    char* p = static_cast<char*>(malloc(1 << 20));
    if (p == NULL) {
        atomicAdd(refused, 1);
        return;
    }
    memset(p, i & 0xff, 1 << 20);
    where[atomicAdd(got, 1)] = reinterpret_cast<unsigned long long>(p);
}
)";

}  // namespace

TEST_F(EmulateHeap, AThousandThreadsAskingForOneMiBGetEightThenNullAndTheWorkerDoesNotGrow) {
    const EmuBuild b = build(kLeak, {"leak"});
    ASSERT_TRUE(b.ok);
    EmuModule m(b);
    EmuArena arena;
    ASSERT_EQ(arena.heap_bytes(), kDeviceMallocHeapBytes);
    int* got = reinterpret_cast<int*>(arena.add("got", sizeof(int), sizeof(int)));
    int* refused = reinterpret_cast<int*>(arena.add("refused", sizeof(int), sizeof(int)));
    auto* where = reinterpret_cast<unsigned long long*>(arena.add("where", 1000 * 8, 8));
    *got = *refused = 0;
    void* args[] = {&got, &refused, &where};
    const long long before = rss_bytes();
    auto fault = m.launch(0, dims(4, 250), args, &arena);
    const long long after = rss_bytes();
    ASSERT_FALSE(fault) << fault->message;
    EXPECT_EQ(*got, 8) << "8 MiB hold exactly eight allocations of 1 MiB";
    EXPECT_EQ(*refused, 992);
    for (int k = 0; k < *got; ++k) EXPECT_EQ(where[k] % 16, 0u) << "CUDA's malloc is 16-byte aligned";
    EXPECT_EQ(arena.heap_in_use(), std::size_t(8) << 20);
    // libc's malloc took the worker to 2.1 GiB here; the heap caps it at 8 MiB.
    EXPECT_LT(after - before, 48ll << 20) << "RSS grew from " << before << " to " << after;

    // The next run starts with an empty heap, and the leaked pages are given back.
    arena.reset_heap();
    EXPECT_EQ(arena.heap_in_use(), 0u);
    EXPECT_LT(rss_bytes() - before, 16ll << 20);
    *got = *refused = 0;
    fault = m.launch(0, dims(4, 250), args, &arena);
    ASSERT_FALSE(fault) << fault->message;
    EXPECT_EQ(*got, 8) << "a fresh heap after reset_heap()";
    // Without a reset, the heap lasts from launch to launch, as a GPU's does.
    *got = *refused = 0;
    fault = m.launch(0, dims(4, 250), args, &arena);
    ASSERT_FALSE(fault) << fault->message;
    EXPECT_EQ(*got, 0);
    EXPECT_EQ(*refused, 1000);
}

TEST_F(EmulateHeap, FreeMakesRoomAgain) {
    // Every thread takes 1 MiB and gives it back: far more than 8 MiB in all,
    // never more than one allocation per core at once.
    const EmuBuild b = build(R"(
extern "C" __global__ void churn(int* got)
{
    int* p = static_cast<int*>(malloc(1 << 20));
    if (p == NULL) return;
    p[0] = 1;
    p[(1 << 18) - 1] = 2;
    if (p[0] + p[(1 << 18) - 1] == 3) atomicAdd(got, 1);
    free(p);
    free(NULL);
}
)",
                             {"churn"});
    ASSERT_TRUE(b.ok);
    EmuModule m(b);
    EmuArena arena;
    int* got = reinterpret_cast<int*>(arena.add("got", sizeof(int), sizeof(int)));
    *got = 0;
    void* args[] = {&got};
    const auto fault = m.launch(0, dims(4, 250), args, &arena);
    ASSERT_FALSE(fault) << fault->message;
    EXPECT_EQ(*got, 1000);
    EXPECT_EQ(arena.heap_in_use(), 0u);
    // Freed neighbours coalesce: the whole heap is one allocation again.
    void* all = arena.heap_alloc(kDeviceMallocHeapBytes);
    EXPECT_NE(all, nullptr);
    EXPECT_EQ(arena.heap_alloc(1), nullptr);
    EXPECT_TRUE(arena.heap_free(all));
    EXPECT_FALSE(arena.heap_free(all)) << "a second free of the same pointer is refused";
}

TEST_F(EmulateHeap, NewAndDeleteUseTheHeapAndNewYieldsNullWhenItIsFull) {
    // 300,000 ints are 1.2 MB: six fit in 8 MiB, the seventh is null.
    const EmuBuild b = build(R"(
struct Pair { int a, b; __device__ Pair() : a(1), b(2) {} };
extern "C" __global__ void grab(int* got, int* refused, int* pair_sum)
{
    int* p = new int[300000];
    if (p == nullptr) atomicAdd(refused, 1);
    else atomicAdd(got, 1);
    if (threadIdx.x == 0 && blockIdx.x == 0) {
        Pair* q = new Pair;  // the heap is not full yet for the first thread
        if (q != nullptr) { *pair_sum = q->a + q->b; delete q; }
    }
}
)",
                             {"grab"});
    ASSERT_TRUE(b.ok);
    EmuModule m(b);
    EmuArena arena;
    int* got = reinterpret_cast<int*>(arena.add("got", sizeof(int), sizeof(int)));
    int* refused = reinterpret_cast<int*>(arena.add("refused", sizeof(int), sizeof(int)));
    int* pair_sum = reinterpret_cast<int*>(arena.add("pair_sum", sizeof(int), sizeof(int)));
    *got = *refused = *pair_sum = 0;
    void* args[] = {&got, &refused, &pair_sum};
    const auto fault = m.launch(0, dims(1, 32), args, &arena, nullptr, 0, 1);
    ASSERT_FALSE(fault) << fault->message;
    EXPECT_EQ(*got, 6);
    EXPECT_EQ(*refused, 26);
    EXPECT_EQ(*pair_sum, 3) << "new ran the constructor";
    EXPECT_EQ(arena.heap_in_use(), std::size_t(6) * 1200000);
}

TEST_F(EmulateHeap, APointerLivesFromOneLaunchToTheNextWithinARun) {
    const EmuBuild b = build(R"(
extern "C" __global__ void keep(unsigned long long* slot)
{
    int* p = static_cast<int*>(malloc(64));
    p[0] = 42;
    *slot = reinterpret_cast<unsigned long long>(p);
}
extern "C" __global__ void release(unsigned long long* slot)
{
    int* p = reinterpret_cast<int*>(*slot);
    slot[1] = p[0];
    free(p);
}
)",
                             {"keep", "release"});
    ASSERT_TRUE(b.ok);
    EmuModule m(b);
    EmuArena arena;
    auto* slot = reinterpret_cast<unsigned long long*>(arena.add("slot", 16, 8));
    void* args[] = {&slot};
    auto fault = m.launch(0, dims(1, 1), args, &arena);
    ASSERT_FALSE(fault) << fault->message;
    EXPECT_EQ(arena.heap_in_use(), 64u);
    fault = m.launch(1, dims(1, 1), args, &arena);
    ASSERT_FALSE(fault) << fault->message;
    EXPECT_EQ(slot[1], 42u);
    EXPECT_EQ(arena.heap_in_use(), 0u);
}

TEST_F(EmulateHeap, FreeingWhatMallocDidNotReturnStopsTheLaunchAtItsLine) {
    const EmuBuild b = build(R"(
extern "C" __global__ void bad(float* x)
{
    float* p = static_cast<float*>(malloc(16));
    free(p);
    if (threadIdx.x == 3) free(x);
}
)",
                             {"bad"});
    ASSERT_TRUE(b.ok);
    EmuModule m(b);
    EmuArena arena;
    float* x = reinterpret_cast<float*>(arena.add("x", 64, 4));
    void* args[] = {&x};
    const auto fault = m.launch(0, dims(1, 8), args, &arena);
    ASSERT_TRUE(fault);
    EXPECT_EQ(fault->kind, EmuFault::Kind::BadFree);
    EXPECT_EQ(fault->thread[0], 3u);
    EXPECT_EQ(fault->where, "heap.cu:6");
    EXPECT_NE(fault->message.find("free(0x"), std::string::npos) << fault->message;
    EXPECT_NE(fault->message.find("malloc or new did not return"), std::string::npos) << fault->message;
    EXPECT_NE(render(fault->said, "zh").find("free(0x"), std::string::npos);
}

TEST(EmulateHeapArena, AlignedAllocationsAndASmallerHeap) {
    EmuArena arena(4096);
    EXPECT_EQ(arena.heap_bytes(), 4096u);
    void* a = arena.heap_alloc(10);
    void* b = arena.heap_alloc(100, 256);
    ASSERT_NE(a, nullptr);
    ASSERT_NE(b, nullptr);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(b) % 256, 0u);
    EXPECT_EQ(arena.heap_in_use(), 16u + 112u);
    EXPECT_EQ(arena.heap_alloc(4096), nullptr);
    EXPECT_EQ(arena.heap_alloc(std::size_t(-1)), nullptr) << "no overflow in the rounding";
    EXPECT_EQ(arena.heap_alloc(16, 24), nullptr) << "an alignment that is not a power of two";
    EXPECT_TRUE(arena.heap_free(a));
    EXPECT_TRUE(arena.heap_free(b));
    EXPECT_NE(arena.heap_alloc(4096), nullptr) << "the gap the alignment left coalesced back";
}
