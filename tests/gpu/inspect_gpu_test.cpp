// tests/gpu/inspect_gpu_test.cpp — what `inspect` says without a GPU, checked
// against the GPU: for every kernel of every shipped lesson's solutions,
// ptxas's register and shared-memory counts equal the driver's, and the
// occupancy calculator's blocks per SM equal cuOccupancyMaxActiveBlocksPerMultiprocessor
// at every block size, with and without dynamic shared memory. SASS comes out
// of the toolkit's nvdisasm with the student's lines woven in.
#include "gpu_test_support.hpp"

#include "driver/gpu.hpp"
#include "inspect/inspect.hpp"
#include "lesson/loader.hpp"

#include <cstdio>
#include <filesystem>

namespace {

TEST(Inspect, PtxasAndTheOccupancyCalculatorAgreeWithTheDriverOnEveryLessonKernel) {
    WB_REQUIRE_GPU();
    wb::GpuContext ctx;
    const wb::DeviceInfo& dev = ctx.info();
    // Without a GPU, inspect uses the architecture's published limits: they
    // must be this GPU's where occupancy reads them.
    const wb::DeviceLimits published = wb::limits_for_arch(dev.cc_major * 10 + dev.cc_minor);
    EXPECT_EQ(published.max_threads_per_sm, dev.limits.max_threads_per_sm);
    EXPECT_EQ(published.regs_per_sm, dev.limits.regs_per_sm);
    EXPECT_EQ(published.shared_per_sm, dev.limits.shared_per_sm);
    EXPECT_EQ(published.shared_per_block_optin, dev.limits.shared_per_block_optin);
    int kernels = 0, points = 0;
    for (const auto& file : std::filesystem::directory_iterator(source_dir() + "/lessons")) {
        if (file.path().extension() != ".json" || file.path().filename() == "lesson.schema.json") continue;
        const wb::LoadResult loaded = wb::load_lesson(file.path());
        ASSERT_TRUE(loaded.lesson) << file.path();
        for (const wb::Step& step : loaded.lesson->steps) {
            if (step.is_host()) {  // a whole CUDA C++ file built by nvcc, not an NVRTC module
                std::printf("[ skipped  ] %s %s: a host step, built by nvcc, not NVRTC\n",
                            file.path().filename().c_str(), step.id.c_str());
                continue;
            }
            const wb::Inspection in = wb::inspect_source(step.solution, step, dev.arch(), false);
            ASSERT_TRUE(in.cubin.ok) << file.path() << " " << step.id;
            wb::GpuModule module(ctx.driver(), in.cubin.image);
            for (const wb::KernelUsage& k : in.kernels) {
                // ptxas names a kernel as the module does (mangled unless extern "C").
                CUfunction f = module.function(k.entry, k.entry);
                const wb::KernelResources res = module.resources(f);
                const std::string what = file.path().filename().string() + " " + step.id + " " + k.entry;
                EXPECT_EQ(k.registers, res.registers) << what;
                EXPECT_EQ(k.shared_static, res.static_shared) << what;
                ++kernels;
                for (long long dynamic : {0LL, 16LL * 1024}) {
                    for (const wb::Occupancy& o : wb::occupancy_by_block_size(dev.cc_major * 10 + dev.cc_minor, dev.limits, k, dynamic)) {
                        if (o.block_threads > res.max_threads_per_block) continue;
                        const int driver = module.active_blocks_per_sm(f, o.block_threads, static_cast<std::size_t>(dynamic));
                        EXPECT_EQ(o.active_blocks, driver) << what << " at " << o.block_threads << " threads, " << dynamic
                                                           << " B dynamic shared";
                        ++points;
                    }
                }
            }
        }
    }
    std::printf("[ figures  ] inspect: %d kernels; ptxas registers and shared memory equal the driver's; "
                "occupancy equal to the driver's at %d block sizes\n", kernels, points);
    EXPECT_GT(kernels, 5);
}

TEST(Inspect, SassComesFromNvdisasmWithTheStudentsLines) {
    WB_REQUIRE_GPU();
    if (wb::find_nvdisasm().empty()) GTEST_SKIP() << "no nvdisasm in the toolkit here";
    wb::GpuContext ctx;
    const wb::LoadResult loaded = wb::load_lesson(source_dir() + "/lessons/01_vector_add.json");
    ASSERT_TRUE(loaded.lesson);
    const wb::Step& step = loaded.lesson->steps.front();
    const wb::Inspection in = wb::inspect_source(step.solution, step, ctx.info().arch(), false);
    ASSERT_TRUE(in.cubin.ok);
    const wb::Listing sass = wb::sass_listing(wb::disassemble_cubin(in.cubin.image), step.solution);
    bool source_line = false, store_after = false;
    int add_line = 0;
    for (const wb::ListingLine& l : sass) {
        if (l.is_source && l.text.find("c[i] = a[i] + b[i]") != std::string::npos) source_line = true, add_line = l.source_line;
        if (source_line && !l.is_source && l.text.find("STG.E") != std::string::npos && l.source_line == add_line) store_after = true;
    }
    EXPECT_TRUE(source_line) << "no source line in the SASS listing";
    EXPECT_TRUE(store_after) << "the global store is not under its source line";
    std::printf("[ figures  ] inspect: SASS of vector_add, %zu lines with the source woven in\n", sass.size());
}

}  // namespace
