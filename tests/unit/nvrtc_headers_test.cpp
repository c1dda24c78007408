// tests/unit/nvrtc_headers_test.cpp — the standard headers NVRTC lacks, as a
// kernel pasted from llm.c or a tutorial uses them, without a GPU.
//
// NVRTC ships no <cmath>, <cfloat>, <cstdint>... and no INFINITY, so on its
// own such a kernel fails with `identifier "INFINITY" is undefined`. The wrapper
// gives every program the headers in runtime/compile/nvrtc_include/, compiled
// in at build time. These tests compile real kernels for sm_90 against them,
// each header alone, and check that the embedded text is the folder's and
// that a change to it changes the digest in the compile cache key. <cmath>
// comes in two forms (see nvrtc_include/cmath): the fast one, without
// libcu++, and libcu++'s, which a source that needs it gets on a second try.
#include "compile/nvrtc.hpp"

#include "scoped_cache_dir.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace fs = std::filesystem;
using namespace wb;

namespace {

class NvrtcHeadersTest : public ScopedCacheDirTest {};

const fs::path kHeaderDir = fs::path(WB_SOURCE_DIR) / "runtime" / "compile" / "nvrtc_include";

std::string slurp(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

CompileResult compile(const std::string& text, std::vector<std::string> entries, std::string std = "c++17") {
    SourceText s;
    s.text = text;
    s.origin = "pasted.cu";
    CompileOptions o;
    o.arch = "sm_90";
    o.std = std::move(std);
    o.entries = std::move(entries);
    o.use_cache = false;
    return compile_cuda(s, o);
}

std::string diagnostics(const CompileResult& r) {
    std::string out;
    for (const auto& d : r.diagnostics) out += "  " + d.file + ":" + std::to_string(d.line) + ": " + d.message + "\n";
    return out + r.log;
}

// In the style of llm.c's dev/cuda/softmax_forward.cu (kernel 4): -INFINITY,
// fmaxf, expf, warp shuffles, an int64_t row offset. The second kernel uses
// the rest of what such files reach for.
const char* kPastedKernel = R"(#include <cuda_runtime.h>
#include <cmath>
#include <cfloat>
#include <cstdint>
#include <climits>
#include <cstddef>
#include <cstdio>
#include <cassert>

__global__ void softmax_forward_kernel4(float* out, const float* inp, int N, int C) {
    extern __shared__ float shared[];
    int idx = blockIdx.x;
    int tid = threadIdx.x;
    int warpId = threadIdx.x / 32;
    int laneId = threadIdx.x % 32;
    int warpsPerBlock = blockDim.x / 32;
    float* maxvals = shared;
    float* sumvals = &shared[warpsPerBlock];
    const float* x = inp + (int64_t)idx * C;
    float maxval = -INFINITY;
    for (int i = tid; i < C; i += blockDim.x) maxval = fmaxf(maxval, x[i]);
    for (int offset = 16; offset > 0; offset /= 2) maxval = fmaxf(maxval, __shfl_down_sync(0xFFFFFFFF, maxval, offset));
    if (laneId == 0) maxvals[warpId] = maxval;
    __syncthreads();
    if (tid == 0) {
        float val = maxvals[tid];
        for (int i = 1; i < warpsPerBlock; i++) val = fmaxf(val, maxvals[i]);
        maxvals[0] = val;
    }
    __syncthreads();
    float offset = maxvals[0];
    for (int i = tid; i < C; i += blockDim.x) out[idx * C + i] = expf(x[i] - offset);
    float sumval = 0.0f;
    for (int i = tid; i < C; i += blockDim.x) sumval += out[idx * C + i];
    for (int o = 16; o > 0; o /= 2) sumval += __shfl_down_sync(0xFFFFFFFF, sumval, o);
    if (laneId == 0) sumvals[warpId] = sumval;
    __syncthreads();
    if (tid == 0) {
        float v = sumvals[0];
        for (int i = 1; i < warpsPerBlock; ++i) v += sumvals[i];
        sumvals[0] = v;
    }
    __syncthreads();
    for (int i = tid; i < C; i += blockDim.x) out[idx * C + i] /= sumvals[0];
}

extern "C" __global__ void odds_and_ends(float* f, double* d, uint8_t* u8, int64_t* i64, size_t n) {
    size_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    assert(n > 0);
    float lowest = -FLT_MAX;
    f[i] = fmaxf(f[i], lowest) + FLT_MIN + FLT_EPSILON + (float)M_PI + sinf((float)M_PI_2) + std::sqrt(f[i]) +
           std::exp(f[i]) + std::tanh(f[i]) + std::fma(f[i], 2.0f, 1.0f) + (std::isinf(f[i]) ? HUGE_VALF : NAN);
    d[i] = DBL_MAX + std::log(d[i]) + std::pow(d[i], 2.0) + M_E;
    u8[i] = (uint8_t)(i & UCHAR_MAX);
    i64[i] = (int64_t)INT_MAX + INT_MIN + (std::uint32_t)UINT_MAX + INT32_MAX + (std::ptrdiff_t)CHAR_BIT;
    if (i == 0) printf("softmax ok %f %lld\n", f[0], (long long)i64[0]);
}
)";

// What each header gives a kernel, used by one line of device code. Every
// header in nvrtc_builtin_headers() must be here, so a new one gets a test.
const std::map<std::string, std::string>& header_uses() {
    static const std::map<std::string, std::string> uses = {
        {"cmath", "float f = -INFINITY + NAN + HUGE_VALF + (float)M_PI + std::sqrt(2.0f) + std::erf(x) + std::fmod(x, 2.f); "
                  "double g = HUGE_VAL + M_SQRT2 + std::exp(1.0) + std::fabs(-1.0); *out = f + (float)g + expf(x);"},
        {"math.h", "*out = -INFINITY + (float)M_LN2 + sqrtf(x) + fmaxf(x, 0.f) + std::floor(x);"},
        {"cfloat", "*out = FLT_MAX + FLT_MIN + FLT_EPSILON + FLT_TRUE_MIN + FLT_MANT_DIG + FLT_DIG + FLT_RADIX + "
                   "(float)(DBL_MAX / DBL_MAX + DBL_MIN + DBL_EPSILON) + DBL_MANT_DIG + FLT_MAX_EXP + DBL_MIN_EXP;"},
        {"float.h", "*out = FLT_MAX - DBL_DIG;"},
        {"cstdint", "std::int64_t a = INT64_MAX; uint8_t b = UINT8_MAX; std::uint32_t c = UINT32_MAX; int16_t d = INT16_MIN; "
                    "uintptr_t p = (uintptr_t)out; *out = (float)(a + b + c + d + (p & 1));"},
        {"stdint.h", "int64_t a = 1; uint8_t b = 2; uint64_t c = 3; int32_t d = INT32_MAX; *out = (float)(a + b + c + d);"},
        {"climits", "*out = (float)INT_MAX + INT_MIN + UINT_MAX + CHAR_BIT + LLONG_MAX + SHRT_MAX + UCHAR_MAX;"},
        {"limits.h", "*out = (float)INT_MAX + CHAR_BIT;"},
        {"cstddef", "size_t a = 1; std::size_t b = 2; std::ptrdiff_t c = -1; std::nullptr_t z = nullptr; (void)z; "
                    "*out = (float)(a + b + c + sizeof(std::max_align_t));"},
        {"stddef.h", "size_t a = 1; ptrdiff_t c = -1; *out = (float)(a + c);"},
        {"cstdio", "printf(\"%f\\n\", x); *out = x;"},
        {"stdio.h", "printf(\"%d\\n\", 1); *out = x;"},
        {"cassert", "assert(x == x); *out = x;"},
        {"assert.h", "assert(out != nullptr); *out = x;"},
        {"cstdlib", "int* p = (int*)malloc(4); free(p); *out = (float)(std::abs(-3) + abs(-2));"},
        {"stdlib.h", "*out = (float)abs(-2);"},
        {"cstring", "float y = 0; std::memcpy(&y, &x, sizeof y); memset(out, 0, sizeof *out); *out += y;"},
        {"string.h", "memcpy(out, &x, sizeof x);"},
        {"type_traits", "static_assert(std::is_same<float, std::remove_const_t<const float>>::value, \"\"); "
                        "static_assert(std::is_integral_v<int>, \"\"); *out = x;"},
        {"limits", "*out = std::numeric_limits<float>::max() + std::numeric_limits<int>::min() + "
                   "std::numeric_limits<float>::infinity() + std::numeric_limits<float>::epsilon() + x;"},
    };
    return uses;
}

}  // namespace

TEST_F(NvrtcHeadersTest, KernelPastedFromLlmCCompilesForSm90WithNoDiagnostics) {
    CompileResult r = compile(kPastedKernel, {"softmax_forward_kernel4", "odds_and_ends"});
    EXPECT_TRUE(r.ok) << diagnostics(r);
    EXPECT_EQ(r.error_count(), 0) << diagnostics(r);
    EXPECT_EQ(r.warning_count(), 0) << diagnostics(r);
    EXPECT_TRUE(r.is_cubin);
    EXPECT_FALSE(r.image.empty());
    EXPECT_EQ(r.lowered_names.count("softmax_forward_kernel4"), 1u);
}

TEST_F(NvrtcHeadersTest, EachHeaderAloneGivesWhatAKernelExpectsFromIt) {
    std::set<std::string> tested;
    for (const NvrtcHeader& h : nvrtc_builtin_headers()) {
        SCOPED_TRACE(h.name);
        auto use = header_uses().find(h.name);
        ASSERT_NE(use, header_uses().end()) << "add a use of <" << h.name << "> to header_uses()";
        tested.insert(h.name);
        const std::string text = std::string("#include <") + h.name + ">\n" +
                                 "extern \"C\" __global__ void k(float* out, float x) {\n    " + use->second + "\n}\n";
        CompileResult r = compile(text, {"k"});
        EXPECT_TRUE(r.ok) << text << diagnostics(r);
        EXPECT_EQ(r.error_count(), 0) << text << diagnostics(r);
    }
    EXPECT_EQ(tested.size(), header_uses().size()) << "header_uses() names a header that is not provided";
}

TEST_F(NvrtcHeadersTest, EveryHeaderCanBeIncludedTwiceAndAlongsideTheOthers) {
    std::string text;
    for (int pass = 0; pass < 2; ++pass)
        for (const NvrtcHeader& h : nvrtc_builtin_headers()) text += std::string("#include <") + h.name + ">\n";
    text += "extern \"C\" __global__ void k(float* out) { *out = -INFINITY + FLT_MAX + INT_MAX; }\n";
    CompileResult r = compile(text, {"k"});
    EXPECT_TRUE(r.ok) << diagnostics(r);
    EXPECT_EQ(r.warning_count(), 0) << diagnostics(r);
}

TEST_F(NvrtcHeadersTest, OlderDialectGetsOneSentenceNamingCxx17) {
    // libcu++ needs C++17; a lesson on c++14 that includes <limits> is told what to change.
    CompileResult r = compile("#include <limits>\nextern \"C\" __global__ void k(float* o) { *o = std::numeric_limits<float>::max(); }\n",
                              {"k"}, "c++14");
    ASSERT_FALSE(r.ok);
    ASSERT_GE(r.error_count(), 1);
    EXPECT_NE(diagnostics(r).find("C++17 or newer"), std::string::npos) << diagnostics(r);
    // The plain-macro headers and the fast <cmath> work in every dialect.
    r = compile("#include <cfloat>\n#include <cstdio>\n#include <cassert>\n#include <cmath>\n"
                "extern \"C\" __global__ void k(float* o) { assert(o); *o = FLT_MAX + std::sqrt(*o) - INFINITY; printf(\"x\"); }\n",
                {"k"}, "c++11");
    EXPECT_TRUE(r.ok) << diagnostics(r);
}

bool has_option(const CompileResult& r, const std::string& o) {
    return std::find(r.options.begin(), r.options.end(), o) != r.options.end();
}

const char* kLibcuxxCmath = "-DWB_CMATH_FROM_LIBCUXX";

// The softmax of lesson 11, step 1: -INFINITY, fmaxf and expf from <cmath>.
const char* kSoftmax = R"(#include <cmath>
extern "C" __global__ void softmax(const float* x, float* y, int R, int C) {
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= R) return;
    const float* xr = x + static_cast<size_t>(row) * C;
    float* yr = y + static_cast<size_t>(row) * C;
    float m = -INFINITY;
    for (int j = 0; j < C; ++j) m = fmaxf(m, xr[j]);
    float s = 0.0f;
    for (int j = 0; j < C; ++j) s += std::exp(xr[j] - m);
    for (int j = 0; j < C; ++j) yr[j] = std::exp(xr[j] - m) / s;
}
)";

TEST_F(NvrtcHeadersTest, CmathSourceCompilesWithoutLibcuxxToTheSameKernelAndNoUnusedGlobals) {
    // The fast <cmath> is NVRTC's own functions: no libcu++ in the program,
    // so none of its static constexpr members (mangled under cuda::std,
    // "_ZN4cuda3std...") is left in the cubin as an unused device global.
    CompileResult fast = compile(kSoftmax, {"softmax"});
    ASSERT_TRUE(fast.ok) << diagnostics(fast);
    EXPECT_FALSE(has_option(fast, kLibcuxxCmath));
    EXPECT_EQ(fast.image.find("_ZN4cuda3std"), std::string::npos);

    SourceText s;
    s.text = kSoftmax;
    s.origin = "pasted.cu";
    CompileOptions o;
    o.arch = "sm_90";
    o.entries = {"softmax"};
    o.use_cache = false;
    o.extra = {kLibcuxxCmath};
    CompileResult libcuxx = compile_cuda(s, o);
    ASSERT_TRUE(libcuxx.ok) << diagnostics(libcuxx);
    EXPECT_NE(libcuxx.image.find("_ZN4cuda3std"), std::string::npos) << "libcu++'s form no longer leaves its globals";
    EXPECT_LT(fast.image.size() * 2, libcuxx.image.size());

    // The same kernel: the PTX from the entry to its closing brace is the same
    // instructions. Only the line records differ (libcu++'s std::exp is an
    // inlined function of its own, with a file and line).
    o.arch = "compute_90";
    CompileResult p_libcuxx = compile_cuda(s, o);
    o.extra.clear();
    CompileResult p_fast = compile_cuda(s, o);
    ASSERT_TRUE(p_fast.ok && p_libcuxx.ok);
    auto instructions = [](const std::string& ptx) {
        const std::size_t begin = ptx.find(".visible .entry");
        const std::size_t end = ptx.find("\n}\n", begin);
        std::istringstream in(ptx.substr(begin, end - begin));
        std::string out, line;
        while (std::getline(in, line))
            if (line.rfind("\t.loc", 0) != 0) out += line + "\n";
        return out;
    };
    EXPECT_EQ(instructions(p_fast.image), instructions(p_libcuxx.image));
    EXPECT_NE(instructions(p_fast.image).find("ex2.approx"), std::string::npos);  // the kernel is there
}

TEST_F(NvrtcHeadersTest, FastCmathGivesTheStandardsOverloadsForIntegerAndMixedArguments) {
    CompileResult r = compile(R"(#include <cmath>
static_assert(sizeof(std::sqrt(2)) == sizeof(double), "an integer argument is a double");
static_assert(sizeof(std::sqrt(2.0f)) == sizeof(float), "");
static_assert(sizeof(std::pow(2.0f, 3)) == sizeof(double), "std::pow(float, int) is double, unlike NVRTC's ::pow");
static_assert(sizeof(std::pow(2.0f, 3.0f)) == sizeof(float), "");
static_assert(sizeof(std::fmax(1.0f, 2.0)) == sizeof(double), "mixed arguments are promoted");
static_assert(sizeof(std::fma(1.0f, 2, 3.0f)) == sizeof(double), "");
constexpr float kInf = INFINITY;
static_assert(kInf > 3.4e38f && NAN != NAN && HUGE_VAL > 1.7e308, "the constants are constant expressions");
extern "C" __global__ void k(float* o, double* d, int* n) {
    using namespace std;
    o[0] = exp(o[1]) + sqrt(o[2]) + fmaxf(o[3], 0.f) + float(isnan(o[4])) + float(std::fpclassify(o[5]) == FP_NORMAL);
    d[0] = std::lround(2.5) + std::ilogb(8) + std::isgreater(o[1], 2.0) + std::signbit(-3);
    int e;
    n[0] = std::abs(-2) + int(std::frexp(o[6], &e)) + e;
}
)",
                              {"k"});
    EXPECT_TRUE(r.ok) << diagnostics(r);
    EXPECT_FALSE(has_option(r, kLibcuxxCmath));
}

TEST_F(NvrtcHeadersTest, AStdNameTheFastCmathLacksCompilesWithLibcuxxs) {
    // std::numeric_limits through <cmath> alone, std::lerp, and std::sqrt of a
    // __half: libcu++'s <cmath> gives them, so the source compiles as before.
    for (const char* use : {"*o = std::numeric_limits<float>::max();",
                            "*o = std::lerp(*o, 2.0f, 0.5f);",
                            "*h = std::sqrt(*h);",
                            "using namespace std; *o = lerp(*o, 1.0f, 0.25f);"}) {
        SCOPED_TRACE(use);
        CompileResult r = compile(std::string("#include <cuda_fp16.h>\n#include <cmath>\n") +
                                      "extern \"C\" __global__ void k(float* o, __half* h) { " + use + " }\n",
                                  {"k"}, "c++20");
        EXPECT_TRUE(r.ok) << diagnostics(r);
        EXPECT_TRUE(has_option(r, kLibcuxxCmath));
    }
}

TEST_F(NvrtcHeadersTest, AStudentsOwnErrorInACmathSourceIsNotCompiledAgainWithLibcuxx) {
    CompileResult r = compile("#include <cmath>\nextern \"C\" __global__ void k(float* o)\n{\n    *o = expf(undeclared_thing);\n}\n",
                              {"k"});
    ASSERT_FALSE(r.ok);
    EXPECT_FALSE(has_option(r, kLibcuxxCmath));
    ASSERT_GE(r.error_count(), 1);
    EXPECT_EQ(r.diagnostics.front().line, 4);
    EXPECT_NE(r.diagnostics.front().message.find("undeclared_thing"), std::string::npos);
}

TEST(NvrtcHeaders, EmbeddedTextIsTheIncludeFoldersText) {
    // The build embeds runtime/compile/nvrtc_include/; an edited header must
    // reach the binary, and with it the cache key.
    std::map<std::string, std::string> on_disk;
    for (const auto& e : fs::directory_iterator(kHeaderDir)) {
        const std::string name = e.path().filename().string();
        if (e.is_regular_file() && name[0] != '.' && name.back() != '~') on_disk[name] = slurp(e.path());
    }
    ASSERT_FALSE(on_disk.empty()) << kHeaderDir;
    std::map<std::string, std::string> embedded;
    for (const NvrtcHeader& h : nvrtc_builtin_headers()) embedded[h.name] = h.text;
    EXPECT_EQ(embedded.size(), on_disk.size());
    for (const auto& [name, text] : on_disk) {
        SCOPED_TRACE(name);
        ASSERT_EQ(embedded.count(name), 1u) << "not embedded; re-run cmake";
        EXPECT_EQ(embedded[name], text) << "embedded text is stale; rebuild";
    }
    for (const char* name : {"cmath", "math.h", "cstdint", "stdint.h", "climits", "limits.h", "cfloat", "float.h",
                             "cstddef", "cstdio", "cassert", "type_traits", "limits"})
        EXPECT_EQ(embedded.count(name), 1u) << name;
}

TEST(NvrtcHeaders, CacheKeyDigestChangesWhenAHeadersTextOrNameChanges) {
    const std::vector<NvrtcHeader>& shipped = nvrtc_builtin_headers();
    const std::string digest = nvrtc_builtin_headers_digest();
    EXPECT_EQ(digest, nvrtc_headers_digest(shipped));
    EXPECT_EQ(digest.size(), 64u);

    for (std::size_t i = 0; i < shipped.size(); ++i) {
        SCOPED_TRACE(shipped[i].name);
        std::vector<NvrtcHeader> edited = shipped;
        const std::string text = std::string(shipped[i].text) + " ";
        edited[i].text = text.c_str();
        EXPECT_NE(nvrtc_headers_digest(edited), digest) << "a one-space edit must change the key";

        std::vector<NvrtcHeader> renamed = shipped;
        const std::string name = std::string(shipped[i].name) + "x";
        renamed[i].name = name.c_str();
        EXPECT_NE(nvrtc_headers_digest(renamed), digest);
    }
    // Moving text from one header's end to the next one's start is a change too.
    ASSERT_GE(shipped.size(), 2u);
    std::vector<NvrtcHeader> moved = shipped;
    std::string first = shipped[0].text, second = shipped[1].text;
    second.insert(0, 1, first.back());
    first.pop_back();
    moved[0].text = first.c_str();
    moved[1].text = second.c_str();
    EXPECT_NE(nvrtc_headers_digest(moved), digest);
}
