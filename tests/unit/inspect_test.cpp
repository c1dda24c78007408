// tests/unit/inspect_test.cpp — looking inside a step without a GPU: ptxas's
// report parsed per kernel, NVIDIA's occupancy calculator over an
// architecture's published limits (values checked by hand against the CUDA
// occupancy rules), the largest block a kernel's registers allow, and PTX
// with the student's lines woven in, from a real NVRTC compile of a lesson.
#include "inspect/inspect.hpp"

#include "core/error.hpp"
#include "lesson/loader.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace {

using wb::KernelUsage;

constexpr const char* kPtxasLog =
    "ptxas info    : 0 bytes gmem\n"
    "ptxas info    : Compiling entry function 'matmul_tiled' for 'sm_90'\n"
    "ptxas info    : Function properties for matmul_tiled\n"
    "ptxas         .     16 bytes stack frame, 8 bytes spill stores, 12 bytes spill loads\n"
    "ptxas info    : Used 40 registers, used 1 barriers, 2048 bytes smem, 384 bytes cmem[0]\n"
    "ptxas info    : Function properties for helper\n"
    "ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
    "ptxas info    : Compiling entry function '_Z3fooPf' for 'sm_90'\n"
    "ptxas info    : Function properties for _Z3fooPf\n"
    "ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
    "ptxas info    : Used 8 registers\n"
    "ptxas info    : Compile time = 18.623 ms\n";

TEST(Inspect, PtxasReportGivesEachKernelsResources) {
    const std::vector<KernelUsage> k = wb::parse_ptxas_usage(kPtxasLog);
    ASSERT_EQ(k.size(), 2u);  // the device function `helper` is not a kernel
    EXPECT_EQ(k[0].entry, "matmul_tiled");
    EXPECT_EQ(k[0].registers, 40);
    EXPECT_EQ(k[0].barriers, 1);
    EXPECT_EQ(k[0].shared_static, 2048);
    EXPECT_EQ(k[0].constant, 384);
    EXPECT_EQ(k[0].stack_frame, 16);
    EXPECT_EQ(k[0].spill_stores, 8);
    EXPECT_EQ(k[0].spill_loads, 12);
    EXPECT_EQ(k[1].entry, "_Z3fooPf");
    EXPECT_EQ(k[1].registers, 8);
    EXPECT_EQ(k[1].shared_static, 0);
    EXPECT_TRUE(wb::parse_ptxas_usage("no report here\n").empty());
}

KernelUsage kernel(int registers, long long shared = 0) {
    KernelUsage k;
    k.entry = "k";
    k.registers = registers;
    k.shared_static = shared;
    return k;
}

TEST(Inspect, OccupancyOnHopperFollowsTheLimitThatBinds) {
    const wb::DeviceLimits h100 = wb::limits_for_arch(90);  // 2048 threads, 64K registers, 228 KiB shared per SM
    // 32 registers x 256 threads: 8 blocks fill the SM's 64 warps.
    wb::Occupancy o = wb::occupancy(90, h100, kernel(32), 256, 0);
    EXPECT_EQ(o.active_blocks, 8);
    EXPECT_EQ(o.active_warps, 64);
    EXPECT_DOUBLE_EQ(o.fraction(), 1.0);
    // 64 registers: 16 Ki registers a block, 4 blocks, half the warps.
    o = wb::occupancy(90, h100, kernel(64), 256, 0);
    EXPECT_EQ(o.active_blocks, 4);
    EXPECT_DOUBLE_EQ(o.fraction(), 0.5);
    EXPECT_NE(std::find(o.limited_by.begin(), o.limited_by.end(), "registers"), o.limited_by.end());
    // 48 KiB of shared memory (+1 KiB the driver keeps per block): 4 blocks of 49 KiB in 228 KiB.
    o = wb::occupancy(90, h100, kernel(32, 48 * 1024), 256, 0);
    EXPECT_EQ(o.active_blocks, 4);
    EXPECT_EQ(o.shared_allocated, 49 * 1024);
    EXPECT_NE(std::find(o.limited_by.begin(), o.limited_by.end(), "shared memory"), o.limited_by.end());
    // Dynamic shared memory counts the same way.
    EXPECT_EQ(wb::occupancy(90, h100, kernel(32), 256, 48 * 1024).active_blocks, 4);
    // 32-thread blocks: the SM's 32-block limit binds first (32 of 64 warps).
    o = wb::occupancy(90, h100, kernel(16), 32, 0);
    EXPECT_EQ(o.active_blocks, 32);
    EXPECT_DOUBLE_EQ(o.fraction(), 0.5);
    EXPECT_NE(std::find(o.limited_by.begin(), o.limited_by.end(), "blocks"), o.limited_by.end());
}

TEST(Inspect, AnAmpereConsumerCardHoldsFewerThreads) {
    // sm_86: 1536 threads and 16 blocks per SM.
    const wb::Occupancy o = wb::occupancy(86, wb::limits_for_arch(86), kernel(32), 256, 0);
    EXPECT_EQ(o.max_warps, 48);
    EXPECT_EQ(o.active_blocks, 6);
    EXPECT_DOUBLE_EQ(o.fraction(), 1.0);
}

TEST(Inspect, TheChartCoversEveryWholeWarpBlockSize) {
    const wb::DeviceLimits l = wb::limits_for_arch(90);
    const std::vector<wb::Occupancy> chart = wb::occupancy_by_block_size(90, l, kernel(64), 0);
    ASSERT_EQ(chart.size(), 32u);
    EXPECT_EQ(chart.front().block_threads, 32);
    EXPECT_EQ(chart.back().block_threads, 1024);
    for (const wb::Occupancy& o : chart) EXPECT_LE(o.fraction(), 0.5 + 1e-9) << o.block_threads;  // 64 registers cap it at half
}

TEST(Inspect, RegistersBoundTheLargestBlock) {
    const wb::DeviceLimits l = wb::limits_for_arch(90);
    EXPECT_EQ(wb::largest_block_for_registers(l, 32), 1024);
    EXPECT_EQ(wb::largest_block_for_registers(l, 128), 512);
    EXPECT_EQ(wb::largest_block_for_registers(l, 255), 256);  // 255 x 32 rounds up to 8192 a warp
}

TEST(Inspect, ALessonsKernelCompilesWithItsReportAndPtxWithItsLines) {
    const wb::LoadResult loaded = wb::load_lesson(std::string(WB_SOURCE_DIR) + "/lessons/01_vector_add.json");
    ASSERT_TRUE(loaded.lesson) << (loaded.issues.empty() ? "" : loaded.issues[0].to_string());
    const wb::Step& step = loaded.lesson->steps.front();
    const wb::Inspection in = wb::inspect_source(step.solution, step, "sm_90", true);
    ASSERT_TRUE(in.cubin.ok);
    ASSERT_EQ(in.kernels.size(), 1u);
    EXPECT_EQ(in.kernels[0].entry, "vector_add");
    EXPECT_GT(in.kernels[0].registers, 0);
    ASSERT_TRUE(in.ptx.ok);
    const wb::Listing listing = wb::ptx_listing(in.ptx.image, step.solution);
    // The line that adds is shown, and the global store comes after it.
    auto add_line = std::find_if(listing.begin(), listing.end(), [](const wb::ListingLine& l) {
        return l.is_source && l.text.find("c[i] = a[i] + b[i]") != std::string::npos;
    });
    ASSERT_NE(add_line, listing.end());
    auto store = std::find_if(add_line, listing.end(),
                              [](const wb::ListingLine& l) { return l.text.find("st.global.f32") != std::string::npos; });
    ASSERT_NE(store, listing.end());
    EXPECT_EQ(store->source_line, add_line->source_line);
}

TEST(Inspect, SassNeedsNvdisasmAndSaysWhichPackageHasIt) {
    if (!wb::find_nvdisasm().empty()) GTEST_SKIP() << "nvdisasm is installed here; the GPU tests cover SASS";
    try {
        wb::disassemble_cubin("not a cubin");
        FAIL() << "no error without nvdisasm";
    } catch (const wb::Error& e) {
        EXPECT_NE(e.message().find("nvdisasm"), std::string::npos);
        EXPECT_NE(e.describe().find("cuda-nvdisasm"), std::string::npos);
    }
}

}  // namespace
