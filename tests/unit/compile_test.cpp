// tests/unit/compile_test.cpp — NVRTC compilation and its cache, without a GPU.
//
// NVRTC needs no device, so these run everywhere: real compiles of real
// kernels to cubin and PTX, diagnostics on the student's own lines, the
// friendly message for a kernel name that is not in the source, and the
// memory/disk cache (hits, key sensitivity, corrupt entries).
#include "compile/cache.hpp"
#include "compile/nvrtc.hpp"
#include "core/error.hpp"
#include "core/fs.hpp"
#include "driver/gpu.hpp"

#include "scoped_cache_dir.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <thread>

namespace fs = std::filesystem;
using namespace wb;

namespace {

class CompileTest : public ScopedCacheDirTest {};

SourceText source(std::string text, std::string origin = "kernel.cu") {
    SourceText s;
    s.text = std::move(text);
    s.origin = std::move(origin);
    s.json_path = "steps[0].starter";
    return s;
}

const char* kVectorAdd = R"(extern "C" __global__ void vector_add(const float* a, const float* b, float* c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}
)";

CompileOptions options_for(std::vector<std::string> entries, std::string arch = "sm_90") {
    CompileOptions o;
    o.arch = std::move(arch);
    o.entries = std::move(entries);
    return o;
}

const Diagnostic* first_of(const CompileResult& r, Severity s) {
    for (const auto& d : r.diagnostics)
        if (d.severity == s) return &d;
    return nullptr;
}

}  // namespace

TEST_F(CompileTest, GoodKernelCompilesToSm90Cubin) {
    CompileCache cache;
    auto r = compile_cuda(source(kVectorAdd), options_for({"vector_add"}), cache);
    ASSERT_TRUE(r.ok) << r.log;
    EXPECT_TRUE(r.is_cubin);
    EXPECT_EQ(r.arch, "sm_90");
    ASSERT_GE(r.image.size(), 4u);
    EXPECT_EQ(r.image.substr(0, 4), std::string("\x7f" "ELF", 4));  // a cubin is an ELF file
    EXPECT_EQ(r.lowered_names.at("vector_add"), "vector_add");
    EXPECT_GT(r.seconds, 0.0);
    EXPECT_FALSE(r.from_cache);
    EXPECT_EQ(r.error_count(), 0);
    EXPECT_NE(std::find(r.options.begin(), r.options.end(), "--gpu-architecture=sm_90"), r.options.end());
    EXPECT_NE(std::find(r.options.begin(), r.options.end(), "-lineinfo"), r.options.end());
}

TEST_F(CompileTest, ComputeArchGivesPtxText) {
    CompileCache cache;
    auto r = compile_cuda(source(kVectorAdd), options_for({"vector_add"}, "compute_90"), cache);
    ASSERT_TRUE(r.ok) << r.log;
    EXPECT_FALSE(r.is_cubin);
    EXPECT_NE(r.image.find(".target sm_90"), std::string::npos);
    EXPECT_NE(r.image.find(".entry vector_add"), std::string::npos);
    EXPECT_EQ(r.image.find('\0'), std::string::npos) << "PTX text must not carry NVRTC's terminating NUL";
}

TEST_F(CompileTest, CxxLinkageAndTemplateKernelsGetLoweredNames) {
    CompileCache cache;
    auto r = compile_cuda(source(R"(__global__ void scale(float* x, float s, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= s;
}
template <typename T> __global__ void fill(T* x, T v) { x[threadIdx.x] = v; }
extern "C" __global__ void plain(int* p) { *p = 1; }
)"),
                          options_for({"scale", "fill<double>", "plain"}), cache);
    ASSERT_TRUE(r.ok) << r.log;
    EXPECT_EQ(r.lowered_names.at("scale"), "_Z5scalePffi");
    EXPECT_EQ(r.lowered_names.at("fill<double>"), "_Z4fillIdEvPT_S0_");
    EXPECT_EQ(r.lowered_names.at("plain"), "plain");
}

TEST_F(CompileTest, TypoOnLine3IsAnErrorAtLine3WithColumn) {
    CompileCache cache;
    auto r = compile_cuda(source("extern \"C\" __global__ void k(float* a, int n) {\n"
                                 "    int i = threadIdx.x;\n"
                                 "    a[i] = bb[i] + 1.0f;\n"
                                 "}\n"),
                          options_for({"k"}), cache);
    EXPECT_FALSE(r.ok);
    EXPECT_TRUE(r.image.empty());
    const Diagnostic* e = first_of(r, Severity::Error);
    ASSERT_NE(e, nullptr) << r.log;
    EXPECT_EQ(e->file, "kernel.cu");
    EXPECT_EQ(e->line, 3);
    EXPECT_EQ(e->column, 12);  // the 'b' of "bb" in "    a[i] = bb[i]"
    EXPECT_NE(e->message.find("\"bb\" is undefined"), std::string::npos) << e->message;
    EXPECT_EQ(e->to_string(), "kernel.cu:3:12: error: identifier \"bb\" is undefined");
    EXPECT_NE(r.log.find("bb"), std::string::npos);
}

TEST_F(CompileTest, UnusedVariableIsAWarningAtItsLineAndStillCompiles) {
    CompileCache cache;
    auto r = compile_cuda(source("extern \"C\" __global__ void k(float* a) {\n"
                                 "    a[0] = 1.0f;\n"
                                 "    int unused = 3;\n"
                                 "}\n"),
                          options_for({"k"}), cache);
    ASSERT_TRUE(r.ok) << r.log;
    EXPECT_EQ(r.error_count(), 0);
    EXPECT_EQ(r.warning_count(), 1);
    const Diagnostic* w = first_of(r, Severity::Warning);
    ASSERT_NE(w, nullptr);
    EXPECT_EQ(w->line, 3);
    EXPECT_EQ(w->column, 9);
    EXPECT_EQ(w->code, "177");
    EXPECT_NE(w->message.find("\"unused\""), std::string::npos);
}

TEST_F(CompileTest, CooperativeGroupsHalfAndCubHeadersCompile) {
    CompileCache cache;
    auto r = compile_cuda(source(R"(#include <cooperative_groups.h>
#include <cuda_fp16.h>
#include <cub/block/block_reduce.cuh>
namespace cg = cooperative_groups;

extern "C" __global__ void block_sum(const __half* in, float* out) {
    using Reduce = cub::BlockReduce<float, 128>;
    __shared__ typename Reduce::TempStorage tmp;
    cg::thread_block block = cg::this_thread_block();
    float v = __half2float(in[block.thread_rank()]);
    float total = Reduce(tmp).Sum(v);
    if (block.thread_rank() == 0) *out = total;
}
)"),
                          options_for({"block_sum"}), cache);
    EXPECT_TRUE(r.ok) << r.log;
    EXPECT_EQ(r.error_count(), 0);
}

TEST_F(CompileTest, MissingEntryNameGivesAFriendlyMessage) {
    CompileCache cache;
    auto r = compile_cuda(source(kVectorAdd), options_for({"vectoradd"}), cache);
    EXPECT_FALSE(r.ok);
    ASSERT_EQ(r.error_count(), 1) << r.log;
    const Diagnostic* e = first_of(r, Severity::Error);
    EXPECT_EQ(e->file, "kernel.cu");
    EXPECT_NE(e->message.find("kernel 'vectoradd' not found: check the name after __global__"), std::string::npos)
        << e->message;
    for (const auto& d : r.diagnostics) EXPECT_EQ(d.to_string().find("__nv_name_map"), std::string::npos);
}

TEST_F(CompileTest, DeviceFunctionAsEntrySaysItIsNotAKernel) {
    CompileCache cache;
    auto r = compile_cuda(source("__device__ void helper() {}\n__global__ void k() { helper(); }\n"),
                          options_for({"helper"}), cache);
    EXPECT_FALSE(r.ok);
    const Diagnostic* e = first_of(r, Severity::Error);
    ASSERT_NE(e, nullptr);
    EXPECT_NE(e->message.find("'helper' is not a kernel"), std::string::npos) << e->message;
}

TEST_F(CompileTest, SecondCompileHitsMemory) {
    CompileCache cache;
    auto first = compile_cuda(source(kVectorAdd), options_for({"vector_add"}), cache);
    ASSERT_TRUE(first.ok);
    auto second = compile_cuda(source(kVectorAdd), options_for({"vector_add"}), cache);
    ASSERT_TRUE(second.ok);
    EXPECT_TRUE(second.from_cache);
    EXPECT_EQ(second.cache_source, "memory");
    EXPECT_EQ(second.seconds, 0.0);
    EXPECT_EQ(second.image, first.image);
    EXPECT_EQ(second.cache_key, first.cache_key);
    EXPECT_EQ(second.lowered_names, first.lowered_names);
}

TEST_F(CompileTest, NewCacheInstanceHitsDiskUnderXdgCacheHome) {
    std::string key;
    std::string image;
    {
        CompileCache cache;
        auto r = compile_cuda(source(kVectorAdd), options_for({"vector_add"}), cache);
        ASSERT_TRUE(r.ok);
        key = r.cache_key;
        image = r.image;
        EXPECT_TRUE(fs::is_regular_file(cache.entry_path(key)));
        EXPECT_EQ(cache.directory(), dir_ / "cuda-workbook" / "nvrtc");
    }
    CompileCache fresh;
    auto r = compile_cuda(source(kVectorAdd), options_for({"vector_add"}), fresh);
    ASSERT_TRUE(r.ok);
    EXPECT_TRUE(r.from_cache);
    EXPECT_EQ(r.cache_source, "disk");
    EXPECT_EQ(r.image, image);
    EXPECT_EQ(r.lowered_names.at("vector_add"), "vector_add");
    // Having been read from disk, it is now in memory.
    auto again = compile_cuda(source(kVectorAdd), options_for({"vector_add"}), fresh);
    EXPECT_EQ(again.cache_source, "memory");
}

TEST_F(CompileTest, ChangingAnythingThatAffectsOutputChangesTheKey) {
    CompileCache cache;
    auto base = compile_cuda(source(kVectorAdd), options_for({"vector_add"}), cache);
    ASSERT_TRUE(base.ok);

    auto with_option = options_for({"vector_add"});
    with_option.extra = {"--use_fast_math"};
    auto r1 = compile_cuda(source(kVectorAdd), with_option, cache);
    EXPECT_FALSE(r1.from_cache);
    EXPECT_NE(r1.cache_key, base.cache_key);

    auto r2 = compile_cuda(source(kVectorAdd), options_for({"vector_add"}, "sm_80"), cache);
    EXPECT_NE(r2.cache_key, base.cache_key);
    auto r3 = compile_cuda(source(kVectorAdd, "other.cu"), options_for({"vector_add"}), cache);
    EXPECT_NE(r3.cache_key, base.cache_key);
    auto r4 = compile_cuda(source(std::string(kVectorAdd) + "\n"), options_for({"vector_add"}), cache);
    EXPECT_NE(r4.cache_key, base.cache_key);
    auto no_lineinfo = options_for({"vector_add"});
    no_lineinfo.line_info = false;
    auto r5 = compile_cuda(source(kVectorAdd), no_lineinfo, cache);
    EXPECT_NE(r5.cache_key, base.cache_key);
    auto r6 = compile_cuda(source(kVectorAdd), options_for({}), cache);
    EXPECT_NE(r6.cache_key, base.cache_key);
}

TEST_F(CompileTest, CorruptDiskEntryIsIgnoredRemovedAndRecompiled) {
    std::string key;
    std::string image;
    fs::path entry;
    {
        CompileCache cache;
        auto r = compile_cuda(source(kVectorAdd), options_for({"vector_add"}), cache);
        ASSERT_TRUE(r.ok);
        key = r.cache_key;
        image = r.image;
        entry = cache.entry_path(key);
    }
    // Flip one byte in the middle of the payload (the cubin).
    std::string bytes = read_file(entry);
    bytes[bytes.size() - 100] ^= 0x5a;
    {
        std::ofstream out(entry, std::ios::binary | std::ios::trunc);
        out.write(bytes.data(), std::streamsize(bytes.size()));
    }
    CompileCache fresh;
    EXPECT_FALSE(fresh.find(key).has_value());
    EXPECT_FALSE(fs::exists(entry)) << "a corrupt entry is removed";

    auto r = compile_cuda(source(kVectorAdd), options_for({"vector_add"}), fresh);
    ASSERT_TRUE(r.ok);
    EXPECT_FALSE(r.from_cache);
    EXPECT_EQ(r.image, image);
    EXPECT_TRUE(fs::exists(entry)) << "the recompiled result is written again";

    // A truncated file (a crash mid-copy) and garbage are rejected too.
    {
        std::ofstream out(entry, std::ios::binary | std::ios::trunc);
        out << "WBNVRTC\n{\"format\":1";
    }
    CompileCache third;
    EXPECT_FALSE(third.find(key).has_value());
}

TEST_F(CompileTest, FailedCompilesAreNotCached) {
    CompileCache cache;
    auto bad = source("__global__ void k() { oops }\n");
    auto r1 = compile_cuda(bad, options_for({"k"}), cache);
    EXPECT_FALSE(r1.ok);
    auto r2 = compile_cuda(bad, options_for({"k"}), cache);
    EXPECT_FALSE(r2.from_cache);
    EXPECT_FALSE(fs::exists(cache.entry_path(r1.cache_key)));
}

bool has_option(const CompileResult& r, const char* o) {
    return std::find(r.options.begin(), r.options.end(), o) != r.options.end();
}

TEST_F(CompileTest, PlainKernelCompilesWithMinimalToTheSameCode) {
    CompileCache cache;
    auto fast = compile_cuda(source(kVectorAdd), options_for({"vector_add"}), cache);
    ASSERT_TRUE(fast.ok) << fast.log;
    EXPECT_TRUE(has_option(fast, "-minimal"));
    auto o = options_for({"vector_add"});
    o.minimal = false;
    auto full = compile_cuda(source(kVectorAdd), o, cache);
    ASSERT_TRUE(full.ok) << full.log;
    EXPECT_FALSE(has_option(full, "-minimal"));
    EXPECT_NE(fast.cache_key, full.cache_key);
    // The same machine code: -minimal only leaves declarations out. (The cubins
    // differ in their recorded options, so compare the PTX.)
    auto po = options_for({"vector_add"}, "compute_90");
    auto p_fast = compile_cuda(source(kVectorAdd), po, cache);
    po.minimal = false;
    auto p_full = compile_cuda(source(kVectorAdd), po, cache);
    ASSERT_TRUE(p_fast.ok && p_full.ok);
    auto body = [](const std::string& ptx) { return ptx.substr(ptx.find(".visible .entry")); };
    EXPECT_EQ(body(p_fast.image), body(p_full.image));
}

TEST_F(CompileTest, SourcesThatMayNeedWhatMinimalOmitsCompileInFull) {
    CompileCache cache;
    const char* texture = R"(extern "C" __global__ void k(cudaTextureObject_t t, float* y) { y[0] = tex1Dfetch<float>(t, 0); }
)";
    auto r = compile_cuda(source(texture), options_for({"k"}), cache);
    ASSERT_TRUE(r.ok) << r.log;
    EXPECT_FALSE(has_option(r, "-minimal"));
    const char* half = R"(#include <cuda_fp16.h>
extern "C" __global__ void k(const __half* x, float* y) { y[0] = __half2float(x[0]); }
)";
    r = compile_cuda(source(half), options_for({"k"}), cache);
    ASSERT_TRUE(r.ok) << r.log;
    EXPECT_FALSE(has_option(r, "-minimal"));
    // The built-in standard headers keep -minimal.
    const char* cmath = R"(#include <cmath>
extern "C" __global__ void k(float* y) { y[0] = expf(y[0]); }
)";
    r = compile_cuda(source(cmath), options_for({"k"}), cache);
    ASSERT_TRUE(r.ok) << r.log;
    EXPECT_TRUE(has_option(r, "-minimal"));
}

TEST_F(CompileTest, WordsInCommentsDoNotKeepAKernelFromMinimal) {
    CompileCache cache;
    // "the texture", "cudaMemcpy" in comments are words, not identifiers; in code they count.
    const char* commented = R"(// Copies go by cudaMemcpyAsync; the text says why. /* a texture would not help */
extern "C" __global__ void k(float* y) { y[0] = 1.0f; }  // cudaMalloc'd by the host
)";
    auto r = compile_cuda(source(commented), options_for({"k"}), cache);
    ASSERT_TRUE(r.ok) << r.log;
    EXPECT_TRUE(has_option(r, "-minimal"));
    const char* in_code = R"(// nothing here
extern "C" __global__ void k(float* y) { y[0] = sizeof(cudaError_t); }
)";
    r = compile_cuda(source(in_code), options_for({"k"}), cache);
    ASSERT_TRUE(r.ok) << r.log;
    EXPECT_FALSE(has_option(r, "-minimal"));
}

TEST_F(CompileTest, AHiddenRuntimeNameFallsBackToTheFullCompile) {
    CompileCache cache;
    // The scan cannot see cudaTextureObject_t through the token paste, so
    // -minimal is tried, fails on that name, and the full compile stands.
    const char* hidden = R"(#define RUNTIME(name) cuda##name
extern "C" __global__ void k(RUNTIME(TextureObject_t) t, float* y) { y[0] = 1.0f; }
)";
    auto r = compile_cuda(source(hidden), options_for({"k"}), cache);
    ASSERT_TRUE(r.ok) << r.log;
    EXPECT_FALSE(has_option(r, "-minimal"));
}

TEST_F(CompileTest, AStudentsOwnErrorIsReportedFromTheMinimalCompile) {
    CompileCache cache;
    auto r = compile_cuda(source("extern \"C\" __global__ void k(float* y)\n{\n    y[0] = undeclared_thing;\n}\n"),
                          options_for({"k"}), cache);
    EXPECT_FALSE(r.ok);
    EXPECT_TRUE(has_option(r, "-minimal"));  // not compiled a second time
    const Diagnostic* e = first_of(r, Severity::Error);
    ASSERT_NE(e, nullptr);
    EXPECT_EQ(e->line, 3);
    EXPECT_NE(e->message.find("undeclared_thing"), std::string::npos);
}

TEST_F(CompileTest, UseCacheFalseAlwaysCompiles) {
    CompileCache cache;
    auto o = options_for({"vector_add"});
    ASSERT_TRUE(compile_cuda(source(kVectorAdd), o, cache).ok);
    o.use_cache = false;
    auto r = compile_cuda(source(kVectorAdd), o, cache);
    EXPECT_FALSE(r.from_cache);
    EXPECT_GT(r.seconds, 0.0);
}

TEST_F(CompileTest, UnsupportedArchThrowsUsageErrorListingSupportedOnes) {
    CompileCache cache;
    try {
        compile_cuda(source(kVectorAdd), options_for({"vector_add"}, "sm_99"), cache);
        FAIL() << "sm_99 should be refused";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::Usage);
        std::string text = e.describe();
        EXPECT_NE(text.find("sm_99"), std::string::npos) << text;
        EXPECT_NE(text.find("sm_90"), std::string::npos) << text;
        EXPECT_NE(text.find("sm_80"), std::string::npos) << text;
    }
    EXPECT_THROW(compile_cuda(source(kVectorAdd), options_for({}, "hopper"), cache), Error);
}

TEST_F(CompileTest, RejectedOptionThrowsWithNvrtcsWords) {
    CompileCache cache;
    auto o = options_for({"vector_add"});
    o.extra = {"--no-such-option"};
    try {
        compile_cuda(source(kVectorAdd), o, cache);
        FAIL() << "NVRTC should reject the option";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::Compile);
        EXPECT_EQ(e.code(), "NVRTC_ERROR_INVALID_OPTION");
        EXPECT_NE(e.message().find("--no-such-option"), std::string::npos) << e.message();
    }
}

TEST_F(CompileTest, VersionArchsAndToolkitAreFound) {
    EXPECT_EQ(nvrtc_version().find('.') != std::string::npos, true);
    auto archs = nvrtc_supported_archs();
    ASSERT_FALSE(archs.empty());
    EXPECT_TRUE(std::is_sorted(archs.begin(), archs.end()));
    EXPECT_TRUE(fs::exists(cuda_home() / "include" / "cuda_runtime.h"));
    std::string arch = default_arch();
    EXPECT_EQ(arch.rfind("sm_", 0), 0u);
}

TEST_F(CompileTest, GlobalCacheFollowsXdgCacheHome) {
    CompileCache::global().clear_memory();
    auto r = compile_cuda(source(kVectorAdd), options_for({"vector_add"}));
    ASSERT_TRUE(r.ok);
    EXPECT_TRUE(fs::exists(dir_ / "cuda-workbook" / "nvrtc" / (r.cache_key + ".wbc")));
    CompileCache::global().clear_memory();
}

TEST_F(CompileTest, CacheIsSafeToShareBetweenThreads) {
    // The GUI compiles in the background while the UI thread may ask too.
    CompileCache cache(fs::path{}, 2);  // a tiny LRU so eviction runs concurrently as well
    std::vector<std::string> kernels;
    for (int i = 0; i < 3; ++i)
        kernels.push_back("extern \"C\" __global__ void k(int* p) { *p = " + std::to_string(i) + "; }\n");
    std::vector<std::string> failures(4);
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) {
        threads.emplace_back([&, t] {
            for (int round = 0; round < 3; ++round) {
                auto r = compile_cuda(source(kernels[std::size_t((t + round) % 3)]), options_for({"k"}), cache);
                if (!r.ok || r.lowered_names.at("k") != "k") failures[std::size_t(t)] = r.log;
            }
        });
    }
    for (auto& th : threads) th.join();
    for (const auto& f : failures) EXPECT_EQ(f, "");
    for (const auto& k : kernels) {
        auto r = compile_cuda(source(k), options_for({"k"}), cache);
        EXPECT_TRUE(r.from_cache);
    }
}

// Students write code for nvcc: <cstdio> for printf, <cassert>, <cstdint>. NVRTC
// ships none of them; the wrapper provides them so such code compiles unchanged.
TEST_F(CompileTest, HeadersWrittenForNvccCompile) {
    SourceText s;
    s.origin = "kernel.cu";
    s.text = "#include <cstdio>\n#include <cassert>\n#include <cstdint>\n#include <stdint.h>\n"
             "extern \"C\" __global__ void k(uint8_t* out, int64_t n)\n"
             "{\n"
             "    int32_t i = blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    assert(i >= 0);\n"
             "    if (i == 0) printf(\"n = %lld\\n\", (long long)n);\n"
             "    if (i < n) out[i] = uint8_t(i);\n"
             "}\n";
    CompileOptions o;
    o.entries = {"k"};
    CompileResult r = compile_cuda(s, o);
    EXPECT_TRUE(r.ok) << r.log;
}

// A module with a __device__ variable keeps its value between runs, so it is
// never reused; one without may be. Read from the cubin's sections and the PTX.
TEST(ModuleReuse, OnlyImagesWithoutWritableGlobals) {
    wb::CompileOptions cubin;
    cubin.arch = "sm_90";
    cubin.use_cache = false;
    cubin.entries = {"k"};
    const char* plain = "extern \"C\" __global__ void k(float* x) { x[threadIdx.x] += 1.0f; }\n";
    const char* counting =
        "__device__ int hits;\nextern \"C\" __global__ void k(float* x) { atomicAdd(&hits, 1); x[threadIdx.x] = hits; }\n";
    const char* constant = "__constant__ float scale[4];\nextern \"C\" __global__ void k(float* x) { x[0] *= scale[0]; }\n";
    for (const auto& [src, writable] : {std::pair{plain, false}, std::pair{counting, true}, std::pair{constant, false}}) {
        const wb::CompileResult c = wb::compile_cuda(wb::SourceText{src, "k.cu", ""}, cubin);
        ASSERT_TRUE(c.ok) << c.log;
        ASSERT_TRUE(c.is_cubin);
        EXPECT_EQ(wb::image_has_writable_globals(c.image, true), writable) << src;
    }
    EXPECT_TRUE(wb::image_has_writable_globals(".version 8.0\n.target sm_90\n.visible .global .align 4 .u32 hits;\n", false));
    EXPECT_FALSE(wb::image_has_writable_globals(".version 8.0\n.visible .entry k(\n.param .u64 x\n)\n{\nld.global.f32 %f1, [%rd1];\n}\n", false));
    EXPECT_TRUE(wb::image_has_writable_globals("not an image", true)) << "unreadable: not reused";
}
