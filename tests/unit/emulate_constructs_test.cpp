// tests/unit/emulate_constructs_test.cpp — CUDA constructs behave on the CPU emulator as on a GPU.
//
// One small kernel per group of constructs (indices, barriers and shared
// memory, every shuffle, votes, atomics from many blocks, vector types,
// intrinsics, half conversions, dynamic shared memory, cooperative groups,
// a failing assert), run through wb::emulate_for_test with a 1-D launch, and
// the values a GPU gives. emulate_header_test.cpp checks the header's
// arithmetic alone; this file needs the scheduler: fibers, barriers and the
// warp exchange.
#include "emulate/emulator.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace {

using Bytes = std::vector<unsigned char>;

template <class T>
Bytes bytes_of(const std::vector<T>& v) {
    Bytes b(v.size() * sizeof(T));
    std::memcpy(b.data(), v.data(), b.size());
    return b;
}

template <class T>
Bytes zeros(std::size_t n) {
    return Bytes(n * sizeof(T), 0);
}

template <class T>
std::vector<T> values_of(const Bytes& b) {
    std::vector<T> v(b.size() / sizeof(T));
    std::memcpy(v.data(), b.data(), v.size() * sizeof(T));
    return v;
}

// ---------------------------------------------------------------------------

TEST(EmulateConstructs, ThreadAndBlockIndicesAndSizes) {
    const char* src = R"(
extern "C" __global__ void k(int* out)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[4 * i + 0] = threadIdx.x + 1000 * blockIdx.x;
    out[4 * i + 1] = blockDim.x + 1000 * gridDim.x;
    out[4 * i + 2] = threadIdx.y + threadIdx.z + blockIdx.y + blockIdx.z + blockDim.y + blockDim.z + gridDim.y + gridDim.z;
    out[4 * i + 3] = warpSize;
}
)";
    const unsigned grid = 3, block = 96;
    Bytes out = zeros<int>(4 * grid * block);
    const auto r = wb::emulate_for_test(src, "k", grid, block, {&out}, {});
    ASSERT_TRUE(r.ok) << r.message;
    const auto v = values_of<int>(out);
    for (unsigned b = 0; b < grid; ++b)
        for (unsigned t = 0; t < block; ++t) {
            const unsigned i = b * block + t;
            EXPECT_EQ(v[4 * i + 0], static_cast<int>(t + 1000 * b)) << i;
            EXPECT_EQ(v[4 * i + 1], static_cast<int>(block + 1000 * grid)) << i;
            EXPECT_EQ(v[4 * i + 2], 4) << i;  // y, z indices 0; the y, z sizes 1
            EXPECT_EQ(v[4 * i + 3], 32) << i;
        }
}

TEST(EmulateConstructs, SyncthreadsMakesSharedWritesVisibleToTheBlock) {
    // Each block reverses its slice through shared memory: thread t reads
    // what thread blockDim - 1 - t wrote, which only works if the barrier holds.
    const char* src = R"(
extern "C" __global__ void reverse(const int* in, int* out, int n)
{
    __shared__ int s[256];
    const int t = threadIdx.x;
    const int i = blockIdx.x * blockDim.x + t;
    s[t] = in[i];
    __syncthreads();
    out[i] = s[blockDim.x - 1 - t];
    __syncthreads();
    s[t] = -1;  // the next round must not disturb this block's readers
}
)";
    const unsigned grid = 8, block = 256;
    std::vector<int> in(grid * block);
    for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<int>(i * 7 + 3);
    Bytes inb = bytes_of(in), out = zeros<int>(in.size());
    const auto r = wb::emulate_for_test(src, "reverse", grid, block, {&inb, &out}, {static_cast<long long>(in.size())});
    ASSERT_TRUE(r.ok) << r.message;
    const auto v = values_of<int>(out);
    for (unsigned b = 0; b < grid; ++b)
        for (unsigned t = 0; t < block; ++t) ASSERT_EQ(v[b * block + t], in[b * block + block - 1 - t]) << b << " " << t;
}

TEST(EmulateConstructs, SyncthreadsCountAndOr) {
    const char* src = R"(
extern "C" __global__ void k(int* out)
{
    const int t = threadIdx.x;
    int* o = out + 5 * t;
    o[0] = __syncthreads_count(t % 3 == 0);
    o[1] = __syncthreads_and(t < 1000);
    o[2] = __syncthreads_and(t < 100);
    o[3] = __syncthreads_or(t == 77);
    o[4] = __syncthreads_or(0);
}
)";
    const unsigned block = 128;
    Bytes out = zeros<int>(5 * block);
    const auto r = wb::emulate_for_test(src, "k", 1, block, {&out}, {});
    ASSERT_TRUE(r.ok) << r.message;
    const auto v = values_of<int>(out);
    for (unsigned t = 0; t < block; ++t) {
        EXPECT_EQ(v[5 * t + 0], 43) << t;  // 0, 3, ..., 126
        EXPECT_NE(v[5 * t + 1], 0) << t;
        EXPECT_EQ(v[5 * t + 2], 0) << t;
        EXPECT_NE(v[5 * t + 3], 0) << t;
        EXPECT_EQ(v[5 * t + 4], 0) << t;
    }
}

TEST(EmulateConstructs, EveryShuffleKindWithFullAndSixteenWideSegments) {
    // Two warps; each lane's value is 100 + its index in the block.
    const char* src = R"(
extern "C" __global__ void k(int* out)
{
    const int t = threadIdx.x;
    const int v = 100 + t;
    const unsigned full = 0xffffffffu;
    int* o = out + 10 * t;
    o[0] = __shfl_sync(full, v, 3);
    o[1] = __shfl_sync(full, v, 3, 16);
    o[2] = __shfl_sync(full, v, 35);          // out of range: 35 % 32
    o[3] = __shfl_up_sync(full, v, 1);
    o[4] = __shfl_up_sync(full, v, 2, 16);
    o[5] = __shfl_down_sync(full, v, 5);
    o[6] = __shfl_down_sync(full, v, 5, 16);
    o[7] = __shfl_xor_sync(full, v, 1);
    o[8] = __shfl_xor_sync(full, v, 4, 16);
    o[9] = __shfl_xor_sync(full, v, 16, 16);  // reads the segment below; from the lower one: its own value
}
)";
    const unsigned block = 64;
    Bytes out = zeros<int>(10 * block);
    const auto r = wb::emulate_for_test(src, "k", 1, block, {&out}, {});
    ASSERT_TRUE(r.ok) << r.message;
    const auto v = values_of<int>(out);
    for (int t = 0; t < static_cast<int>(block); ++t) {
        const int warp = t / 32 * 32, lane = t % 32, seg = lane / 16 * 16, in_seg = lane % 16;
        const int* o = &v[10 * t];
        EXPECT_EQ(o[0], 100 + warp + 3) << t;
        EXPECT_EQ(o[1], 100 + warp + seg + 3) << t;
        EXPECT_EQ(o[2], 100 + warp + 3) << t;
        EXPECT_EQ(o[3], lane >= 1 ? 100 + t - 1 : 100 + t) << t;
        EXPECT_EQ(o[4], in_seg >= 2 ? 100 + t - 2 : 100 + t) << t;
        EXPECT_EQ(o[5], lane + 5 < 32 ? 100 + t + 5 : 100 + t) << t;
        EXPECT_EQ(o[6], in_seg + 5 < 16 ? 100 + t + 5 : 100 + t) << t;
        EXPECT_EQ(o[7], 100 + (t ^ 1)) << t;
        EXPECT_EQ(o[8], 100 + (t ^ 4)) << t;
        EXPECT_EQ(o[9], lane >= 16 ? 100 + t - 16 : 100 + t) << t;
    }
}

TEST(EmulateConstructs, ShufflesCarryFloatsDoublesAnd64BitIntegersWhole) {
    const char* src = R"(
extern "C" __global__ void k(float* f, double* d, long long* ll, unsigned long long* ull)
{
    const int t = threadIdx.x;
    f[t] = __shfl_down_sync(0xffffffffu, 0.5f + t, 1);
    d[t] = __shfl_xor_sync(0xffffffffu, 1.0 / 3.0 + t, 2);
    ll[t] = __shfl_up_sync(0xffffffffu, -(1ll << 40) - t, 1);
    ull[t] = __shfl_sync(0xffffffffu, (1ull << 63) + t, 31);
}
)";
    Bytes f = zeros<float>(32), d = zeros<double>(32), ll = zeros<long long>(32), ull = zeros<unsigned long long>(32);
    const auto r = wb::emulate_for_test(src, "k", 1, 32, {&f, &d, &ll, &ull}, {});
    ASSERT_TRUE(r.ok) << r.message;
    const auto fv = values_of<float>(f);
    const auto dv = values_of<double>(d);
    const auto lv = values_of<long long>(ll);
    const auto uv = values_of<unsigned long long>(ull);
    for (int t = 0; t < 32; ++t) {
        EXPECT_EQ(fv[t], 0.5f + (t < 31 ? t + 1 : t)) << t;
        EXPECT_EQ(dv[t], 1.0 / 3.0 + (t ^ 2)) << t;
        EXPECT_EQ(lv[t], -(1ll << 40) - (t > 0 ? t - 1 : t)) << t;
        EXPECT_EQ(uv[t], (1ull << 63) + 31) << t;
    }
}

TEST(EmulateConstructs, WarpReductionGivesLaneZeroTheWarpsSum) {
    // Lesson 07's pattern, with float values that sum exactly.
    const char* src = R"(
extern "C" __global__ void k(float* out)
{
    float v = threadIdx.x;
    for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
    if (threadIdx.x % 32 == 0) out[threadIdx.x / 32] = v;
}
)";
    Bytes out = zeros<float>(4);
    const auto r = wb::emulate_for_test(src, "k", 1, 128, {&out}, {});
    ASSERT_TRUE(r.ok) << r.message;
    const auto v = values_of<float>(out);
    for (int w = 0; w < 4; ++w) EXPECT_EQ(v[w], static_cast<float>(32 * 32 * w + 496)) << w;
}

TEST(EmulateConstructs, BallotAnyAllAndMatchAcrossAFullAndAPartialWarp) {
    // 48 threads: warp 1 has 16 lanes; the missing 16 take no part.
    const char* src = R"(
extern "C" __global__ void k(unsigned* out)
{
    const unsigned t = threadIdx.x, lane = t % 32;
    unsigned* o = out + 8 * t;
    o[0] = __ballot_sync(0xffffffffu, lane % 2);
    o[1] = __ballot_sync(0xffffffffu, 1);
    o[2] = __any_sync(0xffffffffu, lane == 5);
    o[3] = __any_sync(0xffffffffu, 0);
    o[4] = __all_sync(0xffffffffu, lane < 32);
    o[5] = __all_sync(0xffffffffu, lane < 8);
    o[6] = __match_any_sync(0xffffffffu, lane / 4);
    o[7] = __reduce_add_sync(0xffffffffu, lane);
}
)";
    const unsigned block = 48;
    Bytes out = zeros<unsigned>(8 * block);
    const auto r = wb::emulate_for_test(src, "k", 1, block, {&out}, {});
    ASSERT_TRUE(r.ok) << r.message;
    const auto v = values_of<unsigned>(out);
    for (unsigned t = 0; t < block; ++t) {
        const bool full = t < 32;
        const unsigned lane = t % 32;
        const unsigned* o = &v[8 * t];
        EXPECT_EQ(o[0], full ? 0xaaaaaaaau : 0x0000aaaau) << t;
        EXPECT_EQ(o[1], full ? 0xffffffffu : 0x0000ffffu) << t;
        EXPECT_NE(o[2], 0u) << t;
        EXPECT_EQ(o[3], 0u) << t;
        EXPECT_NE(o[4], 0u) << t;
        EXPECT_EQ(o[5], 0u) << t;
        EXPECT_EQ(o[6], 0xfu << (lane / 4 * 4)) << t;
        EXPECT_EQ(o[7], full ? 496u : 120u) << t;
    }
}

TEST(EmulateConstructs, SyncwarpAndActivemask) {
    // Lanes write, __syncwarp, then read their neighbour's; __activemask in a
    // warp where lanes 20-31 returned early.
    const char* src = R"(
extern "C" __global__ void k(int* out)
{
    __shared__ int s[32];
    const int lane = threadIdx.x;
    s[lane] = lane * 3;
    __syncwarp();
    out[lane] = s[(lane + 1) % 32];
    __syncwarp();
    if (lane >= 20) return;
    out[32 + lane] = __activemask();
}
)";
    Bytes out = zeros<int>(64);
    const auto r = wb::emulate_for_test(src, "k", 1, 32, {&out}, {});
    ASSERT_TRUE(r.ok) << r.message;
    const auto v = values_of<int>(out);
    for (int lane = 0; lane < 32; ++lane) EXPECT_EQ(v[lane], (lane + 1) % 32 * 3) << lane;
    for (int lane = 0; lane < 20; ++lane) EXPECT_EQ(static_cast<unsigned>(v[32 + lane]), 0x000fffffu) << lane;
}

TEST(EmulateConstructs, AtomicsFromManyBlocksAreAtomic) {
    const char* src = R"(
extern "C" __global__ void k(int* ints, unsigned* u, float* f, unsigned long long* ull)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    atomicAdd(&ints[0], 1);
    atomicAdd(&f[0], 1.0f);
    atomicAdd(&f[1], 0.5f);
    atomicMax(&ints[1], i);
    atomicMin(&ints[2], i + 5);
    atomicSub(&ints[3], 2);
    // A counter built on compare-and-swap.
    int old = ints[4], assumed;
    do {
        assumed = old;
        old = atomicCAS(&ints[4], assumed, assumed + 2);
    } while (old != assumed);
    // Every value written by exchange is read back exactly once, or is the last.
    atomicAdd(&ull[1], static_cast<unsigned long long>(atomicExch(&u[0], static_cast<unsigned>(i + 1))));
    atomicInc(&u[1], 9u);
    atomicDec(&u[2], 9u);
    atomicOr(&u[3], 1u << (i % 32));
    atomicAnd(&u[4], ~(1u << (i % 32)));
    atomicXor(&u[5], 1u << (i % 3));
    atomicAdd_block(&u[6], 1u);
    atomicAdd_system(&u[7], 1u);
}
)";
    const unsigned grid = 64, block = 256, n = grid * block;  // 16384 threads
    std::vector<int> ints = {0, -1, 1 << 30, 0, 0};
    std::vector<unsigned> u = {0, 0, 0, 0, 0xffffffffu, 0, 0, 0};
    Bytes ib = bytes_of(ints), ub = bytes_of(u), fb = zeros<float>(2), ullb = zeros<unsigned long long>(2);
    const auto r = wb::emulate_for_test(src, "k", grid, block, {&ib, &ub, &fb, &ullb}, {});
    ASSERT_TRUE(r.ok) << r.message;
    const auto iv = values_of<int>(ib);
    const auto uv = values_of<unsigned>(ub);
    const auto fv = values_of<float>(fb);
    const auto lv = values_of<unsigned long long>(ullb);
    EXPECT_EQ(iv[0], static_cast<int>(n));
    EXPECT_EQ(fv[0], static_cast<float>(n));
    EXPECT_EQ(fv[1], static_cast<float>(n) / 2);
    EXPECT_EQ(iv[1], static_cast<int>(n) - 1);
    EXPECT_EQ(iv[2], 5);
    EXPECT_EQ(iv[3], -2 * static_cast<int>(n));
    EXPECT_EQ(iv[4], 2 * static_cast<int>(n));
    const unsigned long long all = static_cast<unsigned long long>(n) * (n + 1) / 2;  // 1 + 2 + ... + n
    EXPECT_EQ(lv[1] + uv[0], all);
    EXPECT_EQ(uv[1], n % 10);                // 0, 1, ..., 9, 0, ...
    EXPECT_EQ(uv[2], (10 - n % 10) % 10);    // 0, 9, 8, ..., 0, 9, ...
    EXPECT_EQ(uv[3], 0xffffffffu);
    EXPECT_EQ(uv[4], 0u);
    EXPECT_EQ(uv[5], 6u);  // i % 3 over 16384 threads: bit 0 flipped 5462 times (even), bits 1 and 2 5461 (odd)
    EXPECT_EQ(uv[6], n);
    EXPECT_EQ(uv[7], n);
}

TEST(EmulateConstructs, VectorTypesLoadAndStoreWhole) {
    const char* src = R"(
extern "C" __global__ void k(const float* in, float* out, double* d, int n4)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n4) return;
    const float4 v = reinterpret_cast<const float4*>(in)[i];
    reinterpret_cast<float4*>(out)[i] = make_float4(v.w, v.z, v.y, v.x);
    const int2 p = make_int2(i, -i);
    reinterpret_cast<double2*>(d)[i] = make_double2(p.x * 0.5, p.y * 0.25);
    static_assert(alignof(float4) == 16 && sizeof(float3) == 12 && alignof(double2) == 16, "CUDA's layouts");
}
)";
    const int n4 = 50;
    std::vector<float> in(4 * n4);
    for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<float>(i);
    Bytes inb = bytes_of(in), out = zeros<float>(in.size()), d = zeros<double>(2 * n4);
    const auto r = wb::emulate_for_test(src, "k", 2, 32, {&inb, &out, &d}, {n4});
    ASSERT_TRUE(r.ok) << r.message;
    const auto ov = values_of<float>(out);
    const auto dv = values_of<double>(d);
    for (int i = 0; i < n4; ++i) {
        for (int c = 0; c < 4; ++c) EXPECT_EQ(ov[4 * i + c], in[4 * i + 3 - c]) << i;
        EXPECT_EQ(dv[2 * i], i * 0.5);
        EXPECT_EQ(dv[2 * i + 1], -i * 0.25);
    }
}

TEST(EmulateConstructs, LdgAndIntrinsics) {
    const char* src = R"(
extern "C" __global__ void k(const float* in, float* f, int* ints)
{
    if (threadIdx.x != 0) return;
    f[0] = __ldg(&in[0]) * 2.0f;
    f[1] = __saturatef(1.5f);
    f[2] = __saturatef(-0.5f);
    f[3] = __fdividef(1.0f, 4.0f);
    f[4] = rsqrtf(4.0f);
    f[5] = __int_as_float(__float_as_int(in[1]));
    ints[0] = __popc(0xf0f0u);
    ints[1] = __float2int_rn(2.5f);
    ints[2] = __float2int_rn(3.5f);
    ints[3] = __float2int_rn(-2.5f);
    ints[4] = __float2int_rz(-2.7f);
    ints[5] = __clz(1);
    ints[6] = __ffs(8);
    ints[7] = static_cast<int>(__brev(1u) >> 28);
    ints[8] = min(3, 7) + max(3, 7) * 10;
}
)";
    std::vector<float> in = {1.25f, -3.5f};
    Bytes inb = bytes_of(in), f = zeros<float>(6), ints = zeros<int>(9);
    const auto r = wb::emulate_for_test(src, "k", 1, 32, {&inb, &f, &ints}, {});
    ASSERT_TRUE(r.ok) << r.message;
    const auto fv = values_of<float>(f);
    const auto iv = values_of<int>(ints);
    EXPECT_EQ(fv[0], 2.5f);
    EXPECT_EQ(fv[1], 1.0f);
    EXPECT_EQ(fv[2], 0.0f);
    EXPECT_EQ(fv[3], 0.25f);
    EXPECT_EQ(fv[4], 0.5f);
    EXPECT_EQ(fv[5], -3.5f);
    EXPECT_EQ(iv, (std::vector<int>{8, 2, 4, -2, -2, 31, 4, 8, 73}));
}

TEST(EmulateConstructs, HalfConversionsRoundToNearestEven) {
    const char* src = R"(
#include <cuda_fp16.h>
extern "C" __global__ void k(const float* in, __half* h, float* back, int n)
{
    const int i = threadIdx.x;
    if (i >= n) return;
    h[i] = __float2half(in[i]);
    back[i] = __half2float(h[i]);
    if (i == 0) back[n] = __half2float(__hadd(__float2half(1.0f), __float2half(0.1f)));
}
)";
    const std::vector<float> in = {1.0f, 0.1f, 65504.0f, 70000.0f, 1e-8f, -2.0f, 1.0f + 3.0f / 2048};
    const std::vector<std::uint16_t> bits = {0x3c00, 0x2e66, 0x7bff, 0x7c00, 0x0000, 0xc000, 0x3c02};
    const int n = static_cast<int>(in.size());
    Bytes inb = bytes_of(in), h = zeros<std::uint16_t>(in.size()), back = zeros<float>(in.size() + 1);
    const auto r = wb::emulate_for_test(src, "k", 1, 32, {&inb, &h, &back}, {n});
    ASSERT_TRUE(r.ok) << r.message;
    EXPECT_EQ(values_of<std::uint16_t>(h), bits);
    const auto bv = values_of<float>(back);
    EXPECT_EQ(bv[0], 1.0f);
    EXPECT_EQ(bv[1], 0.0999755859375f);
    EXPECT_TRUE(std::isinf(bv[3]));
    EXPECT_EQ(bv[n], 1.099609375f);
}

TEST(EmulateConstructs, DynamicSharedMemoryIsPerBlockAndSharedByItsThreads) {
    // 1 KiB of the launch's dynamic shared memory (emulate_for_test gives 4 KiB).
    const char* src = R"(
extern "C" __global__ void k(const int* in, int* out)
{
    extern __shared__ __align__(16) int buf[];
    const int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    buf[t] = in[i];
    __syncthreads();
    int sum = 0;
    for (int j = 0; j < (int)blockDim.x; ++j) sum += buf[j];
    out[i] = sum;
}
)";
    const unsigned grid = 4, block = 256;
    std::vector<int> in(grid * block);
    for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<int>(i % 256 + (i / 256) * 1000);
    Bytes inb = bytes_of(in), out = zeros<int>(in.size());
    const auto r = wb::emulate_for_test(src, "k", grid, block, {&inb, &out}, {});
    ASSERT_TRUE(r.ok) << r.message;
    const auto v = values_of<int>(out);
    for (unsigned b = 0; b < grid; ++b)
        for (unsigned t = 0; t < block; ++t) ASSERT_EQ(v[b * block + t], 32640 + 256000 * static_cast<int>(b)) << b;
}

TEST(EmulateConstructs, DynamicSharedMemoryStartsPoisonedNotZeroed) {
    // An accumulator in shared memory that no thread cleared: zero on the
    // emulator used to make this pass; a GPU leaves whatever was there.
    const char* src = R"(
extern "C" __global__ void k(const float* in, float* out)
{
    extern __shared__ float acc[];
    if (threadIdx.x == 0) for (int j = 0; j < (int)blockDim.x; ++j) acc[0] += in[blockIdx.x * blockDim.x + j];
    __syncthreads();
    if (threadIdx.x == 0) out[blockIdx.x] = acc[0];
    int bits;
    memcpy(&bits, &acc[1], 4);
    if (threadIdx.x == 0) out[gridDim.x + blockIdx.x] = (float)bits;  // a slot nobody wrote
}
)";
    const unsigned grid = 3, block = 32;
    std::vector<float> in(grid * block, 1.0f);
    Bytes inb = bytes_of(in), out = zeros<float>(2 * grid);
    const auto r = wb::emulate_for_test(src, "k", grid, block, {&inb, &out}, {});
    ASSERT_TRUE(r.ok) << r.message;
    const auto v = values_of<float>(out);
    for (unsigned b = 0; b < grid; ++b) {
        EXPECT_TRUE(std::isnan(v[b])) << "block " << b << ": the uncleared accumulator read " << v[b];
        EXPECT_EQ(v[grid + b], -1.0f) << "block " << b;  // 0xFFFFFFFF as an int
    }
}

TEST(EmulateConstructs, CooperativeGroupsBlockAndTiles) {
    const char* src = R"(
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
extern "C" __global__ void k(int* out)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    cg::thread_block_tile<8> eight = cg::tiled_partition<8>(block);
    const int t = block.thread_rank();
    int v = t;
    for (int offset = warp.size() / 2; offset > 0; offset /= 2) v += warp.shfl_down(v, offset);
    block.sync();
    out[4 * t + 0] = v;                                    // the warp's sum in rank 0
    out[4 * t + 1] = cg::reduce(eight, t, cg::plus<int>());
    out[4 * t + 2] = eight.thread_rank() + 10 * eight.meta_group_rank();
    out[4 * t + 3] = eight.ballot(t % 2);
}
)";
    const unsigned block = 64;
    Bytes out = zeros<int>(4 * block);
    const auto r = wb::emulate_for_test(src, "k", 1, block, {&out}, {});
    ASSERT_TRUE(r.ok) << r.message;
    const auto v = values_of<int>(out);
    for (int t = 0; t < static_cast<int>(block); ++t) {
        if (t % 32 == 0) {
            EXPECT_EQ(v[4 * t], 32 * t + 496) << t;
        }
        const int base = t / 8 * 8;
        EXPECT_EQ(v[4 * t + 1], 8 * base + 28) << t;
        EXPECT_EQ(v[4 * t + 2], t % 8 + 10 * (t / 8)) << t;
        EXPECT_EQ(v[4 * t + 3], 0xaa) << t;
    }
}

TEST(EmulateConstructs, AFailingAssertEndsTheRunNamingTheAssertion) {
    const char* src = R"(
#include <cassert>
extern "C" __global__ void k(int* out, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    assert(i < n);
    out[i] = i;
}
)";
    Bytes out = zeros<int>(64);
    const auto r = wb::emulate_for_test(src, "k", 2, 32, {&out}, {40});
    EXPECT_FALSE(r.ok);
    EXPECT_NE(r.message.find("i < n"), std::string::npos) << r.message;
    EXPECT_NE(r.message.find("test.cu:6"), std::string::npos) << r.message;  // the student's line
}

TEST(EmulateConstructs, TrapEndsTheRun) {
    const char* src = R"(
extern "C" __global__ void k(int* out)
{
    if (threadIdx.x == 3) __trap();
    out[threadIdx.x] = 1;
}
)";
    Bytes out = zeros<int>(32);
    const auto r = wb::emulate_for_test(src, "k", 1, 32, {&out}, {});
    EXPECT_FALSE(r.ok);
    EXPECT_NE(r.message.find("__trap()"), std::string::npos) << r.message;
}

TEST(EmulateConstructs, InlinePtxIsRefusedWithTheLine) {
    const char* src = "extern \"C\" __global__ void k(int* out)\n{\n    asm volatile(\"trap;\");\n}\n";
    Bytes out = zeros<int>(1);
    const auto r = wb::emulate_for_test(src, "k", 1, 1, {&out}, {});
    EXPECT_FALSE(r.ok);
    EXPECT_NE(r.message.find(":3:"), std::string::npos) << r.message;
    EXPECT_NE(r.message.find("inline PTX"), std::string::npos) << r.message;
}

}  // namespace

// ---------------------------------------------------------------------------
// Tensor Cores' nvcuda::wmma (emulate/include/mma.h): a warp's fragments loaded,
// multiplied, scaled element by element and stored, in each documented shape
// family, against the same products added in float on the CPU.

namespace {

float half_round(float v) {
    // The value a float becomes as a half (round to nearest even), for inputs built from small integers/64.
    return static_cast<float>(static_cast<int>(v * 64.0f)) / 64.0f;
}

}  // namespace

TEST(EmulateConstructs, WmmaHalfGemmOfTwoTilesAlongKMatchesTheProductsAddedInFloat) {
    // One warp: C (16x16, row-major) = A (16x32, row-major) * B (32x16, col-major), two k steps.
    const char* src = R"(
#include <mma.h>
#include <cuda_fp16.h>
using namespace nvcuda;
extern "C" __global__ void gemm(const float* a32, const float* b32, float* c)
{
    __shared__ half a[16 * 32], b[32 * 16];
    for (int i = threadIdx.x; i < 16 * 32; i += 32) { a[i] = __float2half(a32[i]); b[i] = __float2half(b32[i]); }
    __syncthreads();
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    for (int k = 0; k < 32; k += 16) {
        wmma::load_matrix_sync(fa, a + k, 32);       // rows of A, from column k
        wmma::load_matrix_sync(fb, b + k, 32);       // B is column-major: column j at b + j * 32
        wmma::mma_sync(acc, fa, fb, acc);
    }
    for (int i = 0; i < acc.num_elements; ++i) acc.x[i] *= 2.0f;  // element-wise, the same for every element
    wmma::store_matrix_sync(c, acc, 16, wmma::mem_row_major);
}
)";
    std::vector<float> a(16 * 32), b(32 * 16);
    for (int i = 0; i < 16 * 32; ++i) a[i] = half_round(float((i * 7) % 23 - 11) / 8.0f), b[i] = half_round(float((i * 5) % 19 - 9) / 4.0f);
    Bytes ba = bytes_of(a), bb = bytes_of(b), bc = zeros<float>(16 * 16);
    const auto r = wb::emulate_for_test(src, "gemm", 1, 32, {&ba, &bb, &bc}, {});
    ASSERT_TRUE(r.ok) << r.message;
    const auto c = values_of<float>(bc);
    for (int i = 0; i < 16; ++i)
        for (int j = 0; j < 16; ++j) {
            float want = 0;
            for (int k = 0; k < 32; ++k) want += a[i * 32 + k] * b[j * 32 + k];  // B column-major
            EXPECT_FLOAT_EQ(c[i * 16 + j], 2.0f * want) << i << "," << j;
        }
}

TEST(EmulateConstructs, WmmaBfloat16WithAHalfAccumulatorInTheTallShapeStoresColumnMajor) {
    // m32n8k16: A 32x16 (col-major in memory), B 16x8 (row-major), a half accumulator loaded
    // from memory, stored column-major.
    const char* src = R"(
#include <mma.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
using namespace nvcuda;
extern "C" __global__ void k(const float* a32, const float* b32, const float* c32, float* out)
{
    __shared__ __nv_bfloat16 a[32 * 16], b[16 * 8];
    __shared__ half c[32 * 8], d[32 * 8];
    for (int i = threadIdx.x; i < 32 * 16; i += 32) a[i] = __float2bfloat16(a32[i]);
    for (int i = threadIdx.x; i < 16 * 8; i += 32) b[i] = __float2bfloat16(b32[i]);
    for (int i = threadIdx.x; i < 32 * 8; i += 32) c[i] = __float2half(c32[i]);
    __syncthreads();
    wmma::fragment<wmma::matrix_a, 32, 8, 16, __nv_bfloat16, wmma::col_major> fa;
    wmma::fragment<wmma::matrix_b, 32, 8, 16, __nv_bfloat16, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 32, 8, 16, half> acc;
    wmma::load_matrix_sync(fa, a, 32);
    wmma::load_matrix_sync(fb, b, 8);
    wmma::load_matrix_sync(acc, c, 8, wmma::mem_row_major);
    wmma::mma_sync(acc, fa, fb, acc);
    wmma::store_matrix_sync(d, acc, 32, wmma::mem_col_major);
    __syncthreads();
    for (int i = threadIdx.x; i < 32 * 8; i += 32) out[i] = __half2float(d[i]);
}
)";
    std::vector<float> a(32 * 16), b(16 * 8), c(32 * 8);
    for (int i = 0; i < 32 * 16; ++i) a[i] = float(i % 5 - 2);
    for (int i = 0; i < 16 * 8; ++i) b[i] = float(i % 3 - 1) * 0.5f;
    for (int i = 0; i < 32 * 8; ++i) c[i] = float(i % 7) * 0.25f;
    Bytes ba = bytes_of(a), bb = bytes_of(b), bc = bytes_of(c), bo = zeros<float>(32 * 8);
    const auto r = wb::emulate_for_test(src, "k", 1, 32, {&ba, &bb, &bc, &bo}, {});
    ASSERT_TRUE(r.ok) << r.message;
    const auto out = values_of<float>(bo);
    for (int i = 0; i < 32; ++i)
        for (int j = 0; j < 8; ++j) {
            float want = c[i * 8 + j];
            for (int k = 0; k < 16; ++k) want += a[k * 32 + i] * b[k * 8 + j];  // A column-major
            EXPECT_FLOAT_EQ(out[j * 32 + i], want) << i << "," << j;             // stored column-major
        }
}

TEST(EmulateConstructs, WmmaTf32RoundsItsInputsToTenMantissaBits) {
    const char* src = R"(
#include <mma.h>
using namespace nvcuda;
extern "C" __global__ void k(const float* a, const float* b, float* c)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 8, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    wmma::load_matrix_sync(fa, a, 8);
    wmma::load_matrix_sync(fb, b, 16);
    wmma::mma_sync(acc, fa, fb, acc);
    wmma::store_matrix_sync(c, acc, 16, wmma::mem_row_major);
}
)";
    // A is 1 + 2^-12 everywhere (tf32 keeps 10 mantissa bits: it reads 1), B is 1: each sum is 8.
    std::vector<float> a(16 * 8, 1.0f + 1.0f / 4096.0f), b(8 * 16, 1.0f);
    Bytes ba = bytes_of(a), bb = bytes_of(b), bc = zeros<float>(16 * 16);
    const auto r = wb::emulate_for_test(src, "k", 1, 32, {&ba, &bb, &bc}, {});
    ASSERT_TRUE(r.ok) << r.message;
    for (float v : values_of<float>(bc)) EXPECT_EQ(v, 8.0f);
}
