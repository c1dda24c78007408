// tests/unit/emulate_header_test.cpp — the CPU emulator's view of CUDA C++:
// the `__shared__` rewrites (extern and static) keep the student's line numbers, the
// refusals name the construct and its line, every shipped lesson kernel
// compiles as host C++ against cuda_emu.h, and the header's intrinsics,
// atomics and warp arithmetic give the GPU's answers (run here with stand-in
// hooks; emulate_constructs_test.cpp runs whole kernels on the emulator).
#include "emulate/refuse.hpp"
#include "emulate/rewrite.hpp"

#include "lesson/loader.hpp"

#include <gtest/gtest.h>

#include <set>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace fs = std::filesystem;

namespace {

const std::string kIncludeDir = WB_SOURCE_DIR "/runtime/emulate/include";

int count_lines(const std::string& s) { return static_cast<int>(std::count(s.begin(), s.end(), '\n')); }

// The 1-based line of the first occurrence of `needle` in `s`, or 0.
int line_of(const std::string& s, const std::string& needle) {
    const std::size_t at = s.find(needle);
    return at == std::string::npos ? 0 : count_lines(s.substr(0, at)) + 1;
}

std::string read_file(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// A fresh folder under the system's temporary directory, removed at the end.
class TempDir {
public:
    TempDir() {
        std::random_device rd;
        path_ = fs::temp_directory_path() / ("wb-emu-header-" + std::to_string(rd()) + std::to_string(rd()));
        fs::create_directories(path_);
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path_, ec);
    }
    const fs::path& path() const { return path_; }

private:
    fs::path path_;
};

struct CommandResult {
    int status = -1;
    std::string output;
};

CommandResult run(const std::string& command) {
    CommandResult r;
    FILE* p = ::popen((command + " 2>&1").c_str(), "r");
    if (p == nullptr) return r;
    char buf[4096];
    std::size_t n = 0;
    while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) r.output.append(buf, n);
    r.status = ::pclose(p);
    return r;
}

// The translation unit the emulator compiles for `source` from `origin`.
std::string emulated_tu(const std::string& source, const std::string& origin) {
    return "#include \"cuda_emu.h\"\n#line 1 \"" + origin + "\"\n" + wb::rewrite_for_emulation(source);
}

// The emulator's compiler flags, less -shared (these tests compile objects or programs).
const std::string kFlags = "-std=c++17 -O2 -march=native -ffp-contract=off -fno-strict-aliasing -fPIC -pthread -I\"" +
                           kIncludeDir + "\"";

// Every kernel file of the shipped lessons; host steps' files (whole
// programs for nvcc, lessons 16 to 20) are not kernels for the emulator.
std::vector<fs::path> lesson_kernels() {
    std::set<fs::path> host_files;
    for (const auto& file : wb::list_lessons(WB_SOURCE_DIR "/lessons")) {
        auto r = wb::load_lesson(file);
        if (!r.ok()) continue;
        for (const auto& step : r.lesson->steps)
            if (step.is_host())
                for (const auto* src : {&step.starter, &step.solution})
                    host_files.insert(fs::weakly_canonical(r.lesson->dir / src->origin));
    }
    std::vector<fs::path> files;
    for (const auto& lesson : fs::directory_iterator(WB_SOURCE_DIR "/lessons")) {
        if (!lesson.is_directory()) continue;
        for (const auto& f : fs::directory_iterator(lesson.path()))
            if (f.path().extension() == ".cu" && !host_files.count(fs::weakly_canonical(f.path()))) files.push_back(f.path());
    }
    std::sort(files.begin(), files.end());
    EXPECT_FALSE(host_files.empty()) << "no host step's file was found: is the origin rule still the lesson-relative path?";
    return files;
}

// ---------------------------------------------------------------------------
// The rewrite
// ---------------------------------------------------------------------------

TEST(EmulateRewrite, ExternSharedInAKernelBecomesAPointerToTheBlocksDynamicMemory) {
    const std::string src =
        "extern \"C\" __global__ void k(float* x)\n"
        "{\n"
        "    extern __shared__ float s[];\n"
        "    s[threadIdx.x] = x[threadIdx.x];\n"
        "}\n";
    const std::string out = wb::rewrite_for_emulation(src);
    EXPECT_NE(out.find("float* const s = (float*)wb_emu_thread()->dynamic_shared;"), std::string::npos) << out;
    EXPECT_EQ(out.find("extern __shared__"), std::string::npos) << out;
    EXPECT_EQ(count_lines(out), count_lines(src));
    EXPECT_EQ(line_of(out, "s[threadIdx.x] = x"), 4);
}

TEST(EmulateRewrite, AlignmentSpecifiersAndQualifiedTypesAreHandled) {
    const std::string src =
        "__global__ void k() {\n"
        "    extern __shared__ __align__(16) unsigned char raw[];\n"
        "    extern __shared__ alignas(sizeof(float4)) float4 v4[ ];\n"
        "    extern __shared__ volatile int vi[];\n"
        "    __shared__ extern double d[];\n"
        "    extern __shared__ float after[] __attribute__((aligned(8)));\n"
        "}\n";
    const std::string out = wb::rewrite_for_emulation(src);
    EXPECT_NE(out.find("unsigned char* const raw = (unsigned char*)wb_emu_thread()->dynamic_shared;"),
              std::string::npos) << out;
    EXPECT_NE(out.find("float4* const v4 = (float4*)wb_emu_thread()->dynamic_shared;"), std::string::npos) << out;
    EXPECT_NE(out.find("volatile int* const vi = (volatile int*)"), std::string::npos) << out;
    EXPECT_NE(out.find("double* const d = (double*)"), std::string::npos) << out;
    EXPECT_NE(out.find("float* const after = (float*)"), std::string::npos) << out;
    EXPECT_EQ(count_lines(out), count_lines(src));
}

TEST(EmulateRewrite, ATemplateParameterTypeWorks) {
    const std::string src = "template <class T> __global__ void k(T* x) { extern __shared__ T buf[]; buf[0] = x[0]; }\n";
    const std::string out = wb::rewrite_for_emulation(src);
    EXPECT_NE(out.find("T* const buf = (T*)wb_emu_thread()->dynamic_shared;"), std::string::npos) << out;
}

TEST(EmulateRewrite, ADeclarationOverSeveralLinesKeepsTheLinesBelowWhereTheyWere) {
    const std::string src =
        "__global__ void k() {\n"
        "    extern __shared__\n"
        "        float\n"
        "        tile[];\n"
        "    tile[0] = 1.0f;  // line 5\n"
        "}\n";
    const std::string out = wb::rewrite_for_emulation(src);
    EXPECT_NE(out.find("float* const tile = (float*)wb_emu_thread()->dynamic_shared;"), std::string::npos) << out;
    EXPECT_EQ(count_lines(out), count_lines(src));
    EXPECT_EQ(line_of(out, "tile[0] = 1.0f"), 5);
}

TEST(EmulateRewrite, AtNamespaceScopeItBecomesAnObjectReadAtEachUse) {
    // A pointer initialised at namespace scope would be read once, when the
    // library loads, on a thread that runs no block.
    const std::string src =
        "extern __shared__ float sdata[];\n"
        "namespace a::b { extern __shared__ int inner[]; }\n"
        "extern \"C\" { extern __shared__ char c_block[]; }\n"
        "__global__ void k() { sdata[threadIdx.x] = 0; }\n";
    const std::string out = wb::rewrite_for_emulation(src);
    EXPECT_NE(out.find("static const wb_emu::DynamicShared<float > sdata{};"), std::string::npos) << out;
    EXPECT_NE(out.find("static const wb_emu::DynamicShared<int > inner{};"), std::string::npos) << out;
    EXPECT_NE(out.find("static const wb_emu::DynamicShared<char > c_block{};"), std::string::npos) << out;
    EXPECT_EQ(count_lines(out), count_lines(src));
}

TEST(EmulateRewrite, CommentsStringsAndNamespaceScopeStaticSharedAreLeftAlone) {
    const std::string src =
        "// extern __shared__ float in_a_comment[];\n"
        "/* __shared__ float in_a_block_comment[4]; */\n"
        "const char* s = \"extern __shared__ float in_a_string[]; __shared__ int x;\";\n"
        "__shared__ float at_namespace_scope[32];\n"
        "namespace n { __shared__ int in_a_namespace; }\n"
        "__global__ void k() { extern int not_shared[]; }\n";
    EXPECT_EQ(wb::rewrite_for_emulation(src), src);
}

// The form every test below expects for `__shared__ <type-of> name...;`.
std::string slot(const std::string& type, const std::string& name) {
    return "static thread_local wb_emu::SharedVar<" + type + " > wb_emu_shared_" + name + "; auto& " + name +
           " = wb_emu_shared_" + name + ".enter(\"" + name + "\", __FILE__, __LINE__, __alignof__(wb_emu_shared_" + name +
           "));";
}

TEST(EmulateRewrite, StaticSharedInAFunctionBecomesAGuardedSlotOnItsOwnLine) {
    const std::string src =
        "#define TILE 16\n"
        "__global__ void k(float* x)\n"
        "{\n"
        "    __shared__ float tile[TILE][TILE + 1];  // a comment after it stays\n"
        "    tile[threadIdx.y][threadIdx.x] = x[0];\n"
        "}\n";
    const std::string out = wb::rewrite_for_emulation(src);
    EXPECT_NE(out.find("    " + slot("float[TILE][TILE + 1]", "tile") + "  // a comment after it stays\n"),
              std::string::npos) << out;
    EXPECT_EQ(out.find("__shared__"), std::string::npos) << out;
    EXPECT_EQ(count_lines(out), count_lines(src));
    EXPECT_EQ(line_of(out, "enter(\"tile\""), 4);
    EXPECT_EQ(line_of(out, "tile[threadIdx.y]"), 5);
}

TEST(EmulateRewrite, StaticSharedScalarsPointersAndSeveralDeclaratorsEachGetASlot) {
    const std::string src =
        "__device__ void f() {\n"
        "    __shared__ int n;\n"
        "    __shared__ float a[4], *p, b;\n"
        "    volatile __shared__ unsigned int flag;\n"
        "    static __shared__ float2 pairs[8];\n"
        "}\n";
    const std::string out = wb::rewrite_for_emulation(src);
    EXPECT_NE(out.find(slot("int", "n")), std::string::npos) << out;
    EXPECT_NE(out.find(slot("float[4]", "a") + " " + slot("float *", "p") + " " + slot("float", "b")),
              std::string::npos) << out;
    EXPECT_NE(out.find(slot("volatile unsigned int", "flag")), std::string::npos) << out;
    EXPECT_NE(out.find("    " + slot("float2[8]", "pairs")), std::string::npos) << out;
    EXPECT_EQ(out.find("static static"), std::string::npos) << out;
    EXPECT_EQ(count_lines(out), count_lines(src));
    EXPECT_EQ(line_of(out, "enter(\"b\""), 3);
}

TEST(EmulateRewrite, StaticSharedInTemplatesKeepsDependentTypes) {
    const std::string src =
        "template <class T, int N, class R>\n"
        "__global__ void k(T* x) {\n"
        "    __shared__ T tile[N][N + 1];\n"
        "    __shared__ typename R::TempStorage tmp;\n"
        "    __shared__ Pair<T, N> pairs[2];\n"
        "}\n";
    const std::string out = wb::rewrite_for_emulation(src);
    EXPECT_NE(out.find(slot("T[N][N + 1]", "tile")), std::string::npos) << out;
    EXPECT_NE(out.find(slot("typename R::TempStorage", "tmp")), std::string::npos) << out;
    EXPECT_NE(out.find(slot("Pair<T, N>[2]", "pairs")), std::string::npos) << out;
    EXPECT_EQ(count_lines(out), count_lines(src));
}

TEST(EmulateRewrite, StaticSharedAlignmentSpecifiersGoOnTheSlot) {
    const std::string src =
        "__global__ void k() {\n"
        "    __shared__ __align__(16) float As[BK][BM];\n"
        "    __shared__ alignas(sizeof(float4)) float v[8];\n"
        "    __shared__ float after[4] __attribute__((aligned(32)));\n"
        "}\n";
    const std::string out = wb::rewrite_for_emulation(src);
    EXPECT_NE(out.find("__align__(16) " + slot("float[BK][BM]", "As")), std::string::npos) << out;
    EXPECT_NE(out.find("alignas(sizeof(float4)) " + slot("float[8]", "v")), std::string::npos) << out;
    EXPECT_NE(out.find("__attribute__((aligned(32))) " + slot("float[4]", "after")), std::string::npos) << out;
    EXPECT_EQ(count_lines(out), count_lines(src));
}

TEST(EmulateRewrite, AStaticSharedDeclarationOverSeveralLinesNamesItsFirstLine) {
    const std::string src =
        "__global__ void k() {\n"
        "    __shared__\n"
        "        float tile[32]\n"
        "        [33];\n"
        "    tile[0][0] = 1.0f;\n"
        "}\n";
    const std::string out = wb::rewrite_for_emulation(src);
    EXPECT_NE(out.find(slot("float[32][33]", "tile")), std::string::npos) << out;
    EXPECT_EQ(line_of(out, "enter(\"tile\""), 2);
    EXPECT_EQ(line_of(out, "tile[0][0] = 1.0f"), 5);
    EXPECT_EQ(count_lines(out), count_lines(src));
}

TEST(EmulateRewrite, StaticSharedShapesItCannotRewriteAreLeftAsTheyWere) {
    // NVRTC refuses an initializer on __shared__; the others are rare enough
    // to keep cuda_emu.h's static thread_local (not poisoned, not guarded),
    // and in a macro's body the rewrite's names would not follow its parameter.
    const std::string src =
        "__global__ void k() {\n"
        "    __shared__ int with_init = 0;\n"
        "    __shared__ int no_size[];\n"
        "    __shared__ float (*fp)(float);\n"
        "    __shared__ decltype(1.0f) d;\n"
        "#define TILE_OF(name) __shared__ float name[16]\n"
        "#define PAIR_OF(name) \\\n"
        "    __shared__ float name[2]\n"
        "}\n";
    EXPECT_EQ(wb::rewrite_for_emulation(src), src);
}

TEST(EmulateRewrite, DevicePragmasGoButTheirLinesStay) {
    const std::string src =
        "__global__ void k(float* x) {\n"
        "    #pragma unroll\n"
        "    for (int i = 0; i < 4; ++i) x[i] = 0;\n"
        "#pragma unroll 4\n"
        "#pragma nv_diag_suppress 177\n"
        "#pragma once\n"
        "}\n";
    const std::string out = wb::rewrite_for_emulation(src);
    EXPECT_EQ(out.find("unroll"), std::string::npos) << out;
    EXPECT_EQ(out.find("nv_diag"), std::string::npos) << out;
    EXPECT_NE(out.find("#pragma once"), std::string::npos) << out;
    EXPECT_EQ(count_lines(out), count_lines(src));
    EXPECT_EQ(line_of(out, "x[i] = 0"), 3);
}

TEST(EmulateRewrite, BlankingKeepsOffsetsAndLineBreaks) {
    const std::string src = "a // b\nc /* d\ne */ f \"g\\\"h\" 'i' R\"x(j)x\" 1'000\n";
    const std::string out = wb::blank_comments_and_strings(src);
    ASSERT_EQ(out.size(), src.size());
    EXPECT_EQ(count_lines(out), count_lines(src));
    for (const char* gone : {"b", "d", "e", "g", "h", "i", "j"}) EXPECT_EQ(out.find(gone), std::string::npos) << gone;
    EXPECT_NE(out.find("1'000"), std::string::npos) << out;  // a digit separator is no literal
    EXPECT_NE(out.find('f'), std::string::npos);
}

// ---------------------------------------------------------------------------
// The refusals
// ---------------------------------------------------------------------------

struct RefusalCase {
    const char* code;   // put on line 3 of a kernel, from column 5
    const char* at;     // where in `code` the diagnostic's column points
    const char* words;  // expected in the message
};

TEST(EmulateRefuse, EachConstructIsNamedAtItsLineAndColumn) {
    const RefusalCase cases[] = {
        {"asm(\"mov.u32 %0, %%laneid;\" : \"=r\"(x));", "asm", "inline PTX (asm)"},
        {"asm volatile(\"membar.gl;\");", "asm", "inline PTX (asm)"},
        {"__asm__ __volatile__(\"nop;\");", "__asm__", "inline PTX (asm)"},
        {"float v = tex1Dfetch<float>(tex, x);", "tex1Dfetch", "tex1Dfetch"},
        {"float v = tex2D<float>(tex, 0.5f, 0.5f);", "tex2D", "tex2D"},
        {"float v = tex3D<float>(tex, 0, 0, 0);", "tex3D", "tex3D"},
        {"texture<float, 2> t;", "texture", "textures"},
        {"cudaTextureObject_t t = 0;", "cudaTextureObject_t", "cudaTextureObject_t"},
        {"surf2Dwrite(v, surf, 0, 0);", "surf2Dwrite", "surf2Dwrite"},
        {"surf1Dwrite(v, surf, 0);", "surf1Dwrite", "surf1Dwrite"},
        {"asm volatile(\"mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 ...\");", "asm", "inline PTX (asm)"},
        {"auto g = cooperative_groups::this_grid();", "this_grid", "grid-wide sync (this_grid)"},
        {"cooperative_groups::grid_group g = cg::this_grid(); g.sync();", "grid_group", "grid-wide sync (grid_group)"},
        {"child<<<1, 32>>>(x);", "<<<", "kernel launches from device code"},
        {"cudaDeviceSynchronize();", "cudaDeviceSynchronize", "cudaDeviceSynchronize"},
    };
    for (const auto& c : cases) {
        const std::string src = std::string("__global__ void k(float* x)\n{\n    ") + c.code + "\n}\n";
        const auto d = wb::unsupported_construct(src, "kernel.cu");
        ASSERT_TRUE(d.has_value()) << c.code;
        EXPECT_EQ(d->file, "kernel.cu");
        EXPECT_EQ(d->line, 3) << c.code;
        EXPECT_EQ(d->column, 5 + static_cast<int>(std::string(c.code).find(c.at))) << c.code;
        EXPECT_EQ(d->severity, wb::Severity::Error);
        EXPECT_NE(d->message.find(c.words), std::string::npos) << d->message;
        EXPECT_NE(d->message.find("the CPU emulator cannot run"), std::string::npos) << d->message;
        EXPECT_NE(d->message.find("this kernel needs an NVIDIA GPU"), std::string::npos) << d->message;
    }
}

TEST(EmulateRefuse, TheMessageReadsAsASentenceForTheStudent) {
    const auto d = wb::unsupported_construct("__global__ void k() {\n  asm(\"trap;\");\n}\n", "k.cu");
    ASSERT_TRUE(d.has_value());
    EXPECT_EQ(d->to_string(),
              "k.cu:2:3: error: the CPU emulator cannot run inline PTX (asm): this kernel needs an NVIDIA GPU");
}

TEST(EmulateRefuse, TheFirstOccurrenceInTheSourceIsReported) {
    const std::string src = "__global__ void k(float* x) {\n  float v = tex2D<float>(t, 0, 0);\n  asm(\"nop;\");\n}\n";
    const auto d = wb::unsupported_construct(src, "k.cu");
    ASSERT_TRUE(d.has_value());
    EXPECT_EQ(d->line, 2);
    EXPECT_NE(d->message.find("tex2D"), std::string::npos);
}

TEST(EmulateRefuse, MentionsInCommentsAndStringsAndLookalikeNamesAreNotRefused) {
    const std::string src =
        "// asm(\"nop\"); tex2D, this_grid(), k<<<1, 1>>>()\n"
        "/* wmma::fragment cudaDeviceSynchronize() */\n"
        "__global__ void k(int* x) {\n"
        "    const char* s = \"asm volatile(\\\"nop\\\"); tex1Dfetch\";\n"
        "    int tex2Dx = 1, my_asm = 2, texture = 3, this_grid_size = 4;\n"
        "    x[0] = (x[1] << 2) + tex2Dx + my_asm + texture + this_grid_size;\n"
        "}\n";
    const auto d = wb::unsupported_construct(src, "k.cu");
    EXPECT_FALSE(d.has_value()) << d->to_string();
}

TEST(EmulateRefuse, NoShippedLessonKernelIsRefused) {
    for (const auto& f : lesson_kernels()) {
        const auto d = wb::unsupported_construct(read_file(f), f.filename().string());
        EXPECT_FALSE(d.has_value()) << f << ": " << d->to_string();
    }
}

// ---------------------------------------------------------------------------
// The header, compiled
// ---------------------------------------------------------------------------

// cuda_emu.h is precompiled once next to the translation units (a quoted
// include looks there first), and the files are checked a few per g++ call on
// every core: about 0.05 s of CPU a file instead of 0.3.
TEST(EmulateHeader, EveryLessonSolutionAndStarterCompilesAsHostCpp) {
    TempDir dir;
    const CommandResult pch = run("g++ " + kFlags + " -x c++-header \"" + kIncludeDir + "/cuda_emu.h\" -o \"" +
                                  (dir.path() / "cuda_emu.h.gch").string() + "\"");
    ASSERT_EQ(pch.status, 0) << pch.output;
    std::ofstream list(dir.path() / "files.txt");
    int n = 0;
    for (const auto& f : lesson_kernels()) {
        const std::string name = f.parent_path().filename().string() + "_" + f.stem().string() + ".cpp";
        std::ofstream(dir.path() / name) << emulated_tu(read_file(f), f.string());
        list << '"' << (dir.path() / name).string() << "\"\n";
        ++n;
    }
    list.close();
    ASSERT_GE(n, 30) << "the lessons were not found";
    const CommandResult r = run("xargs -P " + std::to_string(std::max(1u, std::thread::hardware_concurrency())) +
                                " -n 4 g++ " + kFlags + " -fsyntax-only < \"" + (dir.path() / "files.txt").string() + "\"");
    EXPECT_EQ(r.status, 0) << r.output;
    EXPECT_EQ(r.output.find("error"), std::string::npos) << r.output;
}

// Everything the header and its shims promise, used once, and CUDA's sizes
// and alignments of the vector types.
constexpr const char* kEveryConstruct = R"CUDA(
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <math_constants.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cassert>
#include <assert.h>
#include <cmath>
#include <cstdio>
#include <climits>
#include <cfloat>
#include <cstdint>
namespace cg = cooperative_groups;

static_assert(sizeof(char1) == 1 && alignof(char2) == 2 && sizeof(char3) == 3 && alignof(char4) == 4, "");
static_assert(sizeof(short2) == 4 && alignof(short2) == 4 && alignof(short4) == 8, "");
static_assert(sizeof(int2) == 8 && alignof(int2) == 8 && sizeof(int3) == 12 && alignof(int3) == 4, "");
static_assert(sizeof(int4) == 16 && alignof(int4) == 16 && alignof(uint4) == 16, "");
static_assert(sizeof(float2) == 8 && alignof(float2) == 8, "");
static_assert(sizeof(float3) == 12 && alignof(float3) == 4, "");
static_assert(sizeof(float4) == 16 && alignof(float4) == 16, "");
static_assert(sizeof(double2) == 16 && alignof(double2) == 16, "");
static_assert(sizeof(double3) == 24 && alignof(double3) == 8, "");
static_assert(sizeof(double4) == 32 && alignof(double4) == 16, "");
static_assert(sizeof(longlong2) == 16 && alignof(longlong2) == 16 && alignof(ulonglong4) == 16, "");
static_assert(sizeof(long2) == 16 && alignof(long2) == 16 && sizeof(ulong1) == 8, "");
static_assert(sizeof(uchar4) == 4 && alignof(uchar4) == 4 && sizeof(ushort4) == 8, "");
static_assert(sizeof(uint3) == 12 && sizeof(dim3) == 12, "");
static_assert(sizeof(__half) == 2 && alignof(__half) == 2 && sizeof(__half2) == 4 && alignof(__half2) == 4, "");
static_assert(sizeof(__nv_bfloat16) == 2 && sizeof(__nv_bfloat162) == 4, "");
static_assert(__CUDA_ARCH__ >= 700 && warpSize == 32, "");

__constant__ float c_table[16];
__device__ int d_counter = 0;
struct __align__(16) Packed { float a, b, c, d; };
static_assert(alignof(Packed) == 16, "");

__device__ __forceinline__ float helper(float v) { return v * 2.0f; }
__device__ __noinline__ int other(int v) { return v + 1; }
__host__ __device__ inline int both(int v) { return v; }

template <int N>
__global__ void __launch_bounds__(256, 2) templated(float* __restrict__ out) { out[threadIdx.x] = N; }

extern "C" __global__ void __launch_bounds__(128) every(const float* __restrict__ in, float* out, int* ints,
                                                         unsigned int* u, unsigned long long* ull, double* dbl,
                                                         __half* h, __nv_bfloat16* bf, int n)
{
    __shared__ float tile[32][33];
    __shared__ __align__(16) float aligned_tile[64];
    extern __shared__ float dyn[];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const dim3 b = blockDim; const dim3 g = gridDim; const uint3 t = threadIdx; (void)b; (void)g; (void)t;
    dim3 made(4, 2); dim3 from_uint3 = make_uint3(1, 2, 3); (void)made; (void)from_uint3;
    tile[threadIdx.y][threadIdx.x] = in[i]; aligned_tile[0] = dyn[0];
    __syncthreads();
    int cnt = __syncthreads_count(i < n) + __syncthreads_and(i < n) + __syncthreads_or(i < n);
    __syncwarp(); __syncwarp(0xffffu);
    float f = __shfl_sync(0xffffffffu, in[i], 0) + __shfl_up_sync(0xffffffffu, 1.0f, 1) +
              __shfl_down_sync(0xffffffffu, 1.0f, 2, 16) + __shfl_xor_sync(0xffffffffu, 1.0f, 1, 8);
    int si = __shfl_sync(0xffffffffu, i, 3); unsigned su = __shfl_xor_sync(0xffffffffu, 5u, 1);
    long long sll = __shfl_down_sync(0xffffffffu, 5ll, 1); unsigned long long sull = __shfl_up_sync(0xffffffffu, 5ull, 1);
    double sd = __shfl_sync(0xffffffffu, 1.0, 1); __half sh = __shfl_xor_sync(0xffffffffu, h[0], 1);
    __half2 sh2 = __shfl_down_sync(0xffffffffu, __halves2half2(h[0], h[1]), 1);
    unsigned bal = __ballot_sync(0xffffffffu, i & 1); int an = __any_sync(0xffffffffu, i) + __all_sync(0xffffffffu, i);
    unsigned act = __activemask(); unsigned mat = __match_any_sync(act, i / 4); int pred = 0;
    unsigned mall = __match_all_sync(act, 1, &pred);
    unsigned red = __reduce_add_sync(act, 1u) + __reduce_max_sync(act, 2u) + __reduce_or_sync(act, 1u);
    int redi = __reduce_min_sync(act, i) + __reduce_add_sync(act, i);
    atomicAdd(&ints[0], 1); atomicAdd(&u[0], 1u); atomicAdd(&ull[0], 1ull); atomicAdd(&out[0], 1.0f);
    atomicAdd(&dbl[0], 1.0); atomicAdd(&h[0], __float2half(1.0f)); atomicAdd(&bf[0], __float2bfloat16(1.0f));
    atomicSub(&ints[1], 1); atomicSub(&u[1], 1u); atomicExch(&ints[2], 5); atomicExch(&out[1], 2.0f);
    atomicExch(&ull[1], 3ull); atomicMin(&ints[3], i); atomicMax(&ints[3], i); atomicMin(&u[2], 3u);
    atomicMax(&ull[2], 4ull); atomicMin(reinterpret_cast<long long*>(&ull[3]), -1ll); atomicInc(&u[3], 10u);
    atomicDec(&u[4], 10u); atomicCAS(&ints[4], 0, 1); atomicCAS(&u[5], 0u, 1u); atomicCAS(&ull[4], 0ull, 1ull);
    atomicAnd(&ints[5], 1); atomicOr(&u[6], 2u); atomicXor(&ull[5], 3ull);
    atomicAdd_block(&ints[6], 1); atomicAdd_system(&out[2], 1.0f); atomicCAS_block(&ints[7], 1, 2);
    atomicMax_system(&u[7], 9u); atomicExch_block(&out[3], 1.0f); atomicInc_system(&u[8], 3u);
    atomicAdd(reinterpret_cast<float2*>(out), make_float2(1.0f, 2.0f));
    atomicAdd(reinterpret_cast<float4*>(out), make_float4(1.0f, 2.0f, 3.0f, 4.0f));
    __threadfence(); __threadfence_block(); __threadfence_system();
    float l = __ldg(&in[i]) + __ldcg(&in[i]) + __ldcs(&in[i]) + __ldca(&in[i]) + __ldlu(&in[i]) + __ldcv(&in[i]);
    float4 v4 = __ldg(reinterpret_cast<const float4*>(in)); __stcg(&out[i], l); __stcs(&out[i], l); __stwb(&out[i], l);
    int2 i2 = make_int2(1, 2); uchar4 c4 = make_uchar4(1, 2, 3, 4); double2 d2 = make_double2(1, 2);
    longlong2 ll2 = make_longlong2(1, 2); short2 s2 = make_short2(1, 2); char4 ch4 = make_char4(1, 2, 3, 4);
    ulonglong2 ull2 = make_ulonglong2(1, 2); float3 f3 = make_float3(1, 2, 3); int4 i4 = make_int4(1, 2, 3, 4);
    float m = min(1.0f, f) + max(2.0f, f) + min(1, 2) + max(3u, 4u) + min(1ll, 2ll) + max(1.0, 2.0) + min(i, 3u) +
              max(n, 2) + fminf(f, 1.0f) + fmaxf(f, 2.0f) + min(static_cast<size_t>(i), static_cast<size_t>(n));
    float math = expf(f) + sqrtf(f) + fmaf(f, f, f) + rsqrtf(f) + (float)rsqrt(2.0) + __expf(f) + __logf(f) + __log2f(f) +
                 __sinf(f) + __cosf(f) + __tanf(f) + __powf(f, 2.0f) + __fdividef(f, 3.0f) + __frcp_rn(f) +
                 __fsqrt_rn(f) + __saturatef(f) + __fadd_rn(f, f) + __fmul_rn(f, f) + __fmaf_rn(f, f, f) +
                 __fadd_rz(f, f) + __fmul_ru(f, f) + __fsub_rd(f, f) + __fdiv_rn(f, f) + exp10f(f) + norm3df(f, f, f) +
                 rnorm3df(f, f, f) + sqrt(f) + exp(f) + fabs(f) + erff(f) + log1pf(f) + tanhf(f) + copysignf(f, -1.0f) +
                 truncf(f) + roundf(f) + floorf(f) + ceilf(f) + cbrtf(f) + hypotf(f, f) + sinpif(f) + cospif(f) +
                 normcdff(f) + (float)__dadd_rn(1.0, 2.0) + (float)__fma_rn(1.0, 2.0, 3.0) + powf(f, 2) + ldexpf(f, 2);
    float s, c; sincosf(f, &s, &c); __sincosf(f, &s, &c);
    int conv = __float2int_rn(f) + __float2int_rz(f) + __float2int_rd(f) + __float2int_ru(f) +
               (int)__float2uint_rn(f) + (int)__int2float_rn(3) + __float_as_int(f) + (int)__int_as_float(3) +
               (int)__float_as_uint(f) + (int)__uint_as_float(3u) + (int)__double_as_longlong(1.0) +
               (int)__longlong_as_double(3) + __double2int_rn(1.5) + (int)__float2ll_rn(f) + (int)__ll2float_rn(3);
    int bits = __popc(5u) + __popcll(5ull) + __clz(1) + __clzll(1ll) + __ffs(8) + __ffsll(8ll) + (int)__brev(1u) +
               __mul24(3, 4) + (int)__umul24(3u, 4u) + __mulhi(3, 4) + (int)__umulhi(3u, 4u) + (int)__sad(1, 2, 3u) +
               (int)__usad(1u, 2u, 3u) + (int)__funnelshift_l(1u, 2u, 3u) + (int)__funnelshift_r(1u, 2u, 3u) +
               (int)__byte_perm(1u, 2u, 0x3210u) + __hadd(3, 4) + __rhadd(3, 4) + (int)__brevll(1ull) +
               (int)__mul64hi(3ll, 4ll) + __dp4a(1, 2, 3);
    __half ha = __float2half(f), hb = __float2half_rn(1.0f);
    __half hc = __hadd(ha, hb) + __hmul(ha, hb) - __hfma(ha, hb, hb) / __hneg(ha) + __hsub(ha, hb) + __habs(ha);
    __half2 h2 = __floats2half2_rn(1.0f, 2.0f); h2 = __hadd2(h2, h2) * __hmul2(h2, h2) + __hfma2(h2, h2, h2);
    float2 back = __half22float2(__float22half2_rn(make_float2(1.0f, 2.0f)));
    bool cmp = __hgt(ha, hb) || __hlt(ha, hb) || __heq(ha, hb) || __hge(ha, hb) || __hle(ha, hb) || __hne(ha, hb) ||
               ha < hb || ha == hb || __hisnan(ha) || hsqrt(ha) > hexp(hb);
    float hf = __half2float(hc) + __low2float(h2) + __high2float(h2) + __half2float(__low2half(h2)) +
               __half2float(__high2half(h2)) + (float)__hmax(ha, hb) + back.x;
    half legacy = ha; half2 legacy2 = h2; (void)legacy; (void)legacy2;
    __nv_bfloat16 bfa = __float2bfloat16(f); float bff = __bfloat162float(__hadd(bfa, bfa) * bfa);
    float consts = CUDART_INF_F + CUDART_NAN_F + CUDART_PI_F + (float)CUDART_PI + FLT_MAX + INFINITY + (float)M_PI;
    cg::thread_block block = cg::this_thread_block();
    block.sync(); cg::sync(block);
    unsigned long long rank = block.thread_rank() + block.size() + block.group_index().x + block.thread_index().x;
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    cg::thread_block_tile<8> eight = cg::tiled_partition<8>(block);
    float w = warp.shfl_down(f, 1) + warp.shfl(f, 0) + warp.shfl_xor(f, 4) + warp.shfl_up(f, 1) + eight.shfl_down(f, 1);
    warp.sync(); eight.sync();
    rank += warp.thread_rank() + warp.meta_group_rank() + warp.size() + eight.meta_group_size() + warp.any(1) + warp.all(1) +
            warp.ballot(1);
    float r = cg::reduce(warp, f, cg::plus<float>()) + cg::reduce(eight, f, cg::greater<float>()) +
              cg::inclusive_scan(warp, f, cg::plus<float>());
    long long t0 = clock64(); clock_t t1 = clock(); __nanosleep(100); (void)t0; (void)t1;
    if (i == 0) printf("%d %f\n", i, f);
    assert(i >= 0);
    if (n < 0) __trap();
    d_counter += c_table[0] > 0.0f;
    out[i] = f + helper(f) + other(cnt) + both(si) + (float)su + sll + sull + sd + __half2float(sh) + __low2float(sh2) +
             bal + an + act + mat + mall + pred + red + redi + l + v4.x + i2.x + c4.x + d2.x + ll2.x + s2.x + ch4.x +
             ull2.x + f3.x + i4.x + m + math + s + c + conv + bits + hf + cmp + bff + consts + rank + w + r;
}

template __global__ void templated<3>(float*);
)CUDA";

TEST(EmulateHeader, EveryConstructItPromisesCompilesWithCudasSizesAndAlignments) {
    TempDir dir;
    const fs::path tu = dir.path() / "every.cpp";
    std::ofstream(tu) << emulated_tu(kEveryConstruct, "every.cu");
    const CommandResult r = run("g++ " + kFlags + " -Wall -Wno-unused-variable -shared -o \"" +
                                (dir.path() / "every.so").string() + "\" \"" + tu.string() + "\"");
    ASSERT_EQ(r.status, 0) << r.output;
    // Nothing the header itself says is worth a warning on the student's screen.
    EXPECT_EQ(r.output.find("cuda_emu.h"), std::string::npos) << r.output;
    EXPECT_EQ(r.output.find("cuda_fp16.h"), std::string::npos) << r.output;

    // The library exports what the emulator looks up, once each.
    const CommandResult syms = run("nm -D --defined-only \"" + (dir.path() / "every.so").string() + "\"");
    ASSERT_EQ(syms.status, 0) << syms.output;
    for (const char* name : {" wb_emu_thread\n", " wb_emu_bind\n", " every\n", " c_table\n", " d_counter\n"})
        EXPECT_NE(syms.output.find(name), std::string::npos) << name << " not exported:\n" << syms.output;
}

TEST(EmulateHeader, GridSyncIsNotProvided) {
    // refuse.cpp stops such a kernel first; the header must not make it look runnable.
    TempDir dir;
    const fs::path tu = dir.path() / "grid.cpp";
    std::ofstream(tu) << emulated_tu(
        "#include <cooperative_groups.h>\n__global__ void k() { cooperative_groups::this_grid().sync(); }\n", "grid.cu");
    const CommandResult r = run("g++ " + kFlags + " -fsyntax-only \"" + tu.string() + "\"");
    EXPECT_NE(r.status, 0) << r.output;
    EXPECT_NE(r.output.find("grid.cu:2"), std::string::npos) << r.output;
}

// The header's arithmetic, run on the host: intrinsics and conversions
// against values a GPU gives, atomics from many OS threads at once, and the
// warp operations' lane arithmetic against CUDA's documented rules, with
// stand-in hooks that show each lane a full warp of known values.
constexpr const char* kHostChecks = R"CUDA(
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <math_constants.h>
#include <string>
#include <thread>
#include <vector>

static int failures = 0;
#define CHECK(cond) do { if (!(cond)) { std::printf("FAILED line %d: %s\n", __LINE__, #cond); ++failures; } } while (0)

static uint64_t g_slots[32];
static unsigned g_arrived = 0xffffffffu;
static const uint64_t* fake_exchange(unsigned, uint64_t mine, unsigned* arrived)
{
    g_slots[wb_emu_thread()->lane] = mine;
    *arrived = g_arrived;
    return g_slots;
}
static int fake_sync(int p) { return p; }
static std::string g_trap;
static void fake_trap(const char* what, const char*, int) { g_trap = what; throw 1; }
static const WbEmuHooks kFake = {fake_sync, fake_exchange, fake_trap};

// CUDA's documented rules, written independently of the header's PTX-style arithmetic.
static int src_idx(int lane, int src, int w) { return (lane / w) * w + (src % w); }
static int src_up(int lane, int d, int w) { return (lane % w) >= d ? lane - d : lane; }
static int src_down(int lane, int d, int w) { return (lane % w) + d < w ? lane + d : lane; }
static int src_xor(int lane, int m, int w) { int j = lane ^ m; return (j / w) > (lane / w) ? lane : j; }

static void check_shuffles()
{
    for (int width : {32, 16, 8, 4, 2, 1}) {
        for (int lane = 0; lane < 32; ++lane) {
            for (int k = 0; k < 32; ++k) {
                for (int i = 0; i < 32; ++i) g_slots[i] = static_cast<uint64_t>(100 + i);
                wb_emu_thread()->lane = lane;
                const int mine = 100 + lane;
                CHECK(__shfl_sync(0xffffffffu, mine, k, width) == 100 + src_idx(lane, k, width));
                if (k < width) {
                    CHECK(__shfl_up_sync(0xffffffffu, mine, k, width) == 100 + src_up(lane, k, width));
                    CHECK(__shfl_down_sync(0xffffffffu, mine, k, width) == 100 + src_down(lane, k, width));
                }
                CHECK(__shfl_xor_sync(0xffffffffu, mine, k, width) == 100 + src_xor(lane, k, width));
            }
        }
    }
    // A source lane that took no part (exited, or outside a partial warp): the lane's own value.
    g_arrived = 0x0000ffffu;
    for (int i = 0; i < 32; ++i) g_slots[i] = static_cast<uint64_t>(100 + i);
    wb_emu_thread()->lane = 10;
    CHECK(__shfl_down_sync(0xffffffffu, 110, 8) == 110);
    CHECK(__shfl_down_sync(0xffffffffu, 110, 5) == 115);
    CHECK(__ballot_sync(0xffffffffu, 1) == 0x0000ffffu);
    CHECK(__all_sync(0xffffffffu, 1) == 1);
    // Lanes released with another mask are no part of this one.
    g_arrived = 0xffffffffu;
    CHECK(__ballot_sync(0x000000ffu, 1) == 0x000000ffu);
    // 8-byte and 2-byte values go through whole.
    for (int i = 0; i < 32; ++i) { double d = 0.5 + i; std::memcpy(&g_slots[i], &d, 8); }
    wb_emu_thread()->lane = 3;
    CHECK(__shfl_xor_sync(0xffffffffu, 3.5, 1) == 2.5);
    for (int i = 0; i < 32; ++i) { long long v = (1ll << 40) + i; std::memcpy(&g_slots[i], &v, 8); }
    CHECK(__shfl_sync(0xffffffffu, (1ll << 40) + 3, 7) == (1ll << 40) + 7);
    for (int i = 0; i < 32; ++i) g_slots[i] = static_cast<uint64_t>((i % 3) == 0);
    wb_emu_thread()->lane = 0;
    CHECK(__ballot_sync(0xffffffffu, 1) == 0x49249249u);
    CHECK(__any_sync(0xffffffffu, 1) == 1);
    CHECK(__all_sync(0xffffffffu, 1) == 0);
    for (int i = 0; i < 32; ++i) g_slots[i] = static_cast<uint64_t>(i / 8);
    wb_emu_thread()->lane = 9;
    CHECK(__match_any_sync(0xffffffffu, 1) == 0x0000ff00u);
    for (int i = 0; i < 32; ++i) g_slots[i] = static_cast<uint64_t>(i);
    CHECK(__reduce_add_sync(0xffffffffu, 9u) == 496u);
    CHECK(__reduce_max_sync(0xffffffffu, 9u) == 31u);
    CHECK(__syncthreads_count(1) == 1 && __syncthreads_and(1) == 1 && __syncthreads_or(0) == 0);
}

static void check_atomics()
{
    int counter = 0; float fsum = 0.0f; double dsum = 0.0; unsigned long long ull = 0; unsigned inc = 0, dec = 0;
    int cas = 0, mx = -1, mn = 1 << 30; unsigned orbits = 0; __half hsum = __float2half(0.0f);
    std::vector<std::thread> threads;
    for (int t = 0; t < 8; ++t) {
        threads.emplace_back([&, t] {
            for (int k = 0; k < 10000; ++k) {
                atomicAdd(&counter, 1); atomicAdd(&fsum, 1.0f); atomicAdd(&dsum, 0.5); atomicAdd(&ull, 3ull);
                atomicInc(&inc, 9u); atomicDec(&dec, 9u);
                int old = cas, assumed;
                do { assumed = old; old = atomicCAS(&cas, assumed, assumed + 2); } while (old != assumed);
                atomicMax(&mx, t * 10000 + k); atomicMin(&mn, t * 10000 + k + 5); atomicOr(&orbits, 1u << ((t * 7 + k) % 32));
                if (k < 256) atomicAdd(&hsum, __float2half(1.0f));
            }
        });
    }
    for (auto& th : threads) th.join();
    CHECK(counter == 80000); CHECK(fsum == 80000.0f); CHECK(dsum == 40000.0); CHECK(ull == 240000ull);
    CHECK(inc == 80000u % 10u); CHECK(dec == (10u - 80000u % 10u) % 10u); CHECK(cas == 160000);
    CHECK(mx == 79999); CHECK(mn == 5); CHECK(orbits == 0xffffffffu); CHECK(__half2float(hsum) == 2048.0f);
    unsigned w = 9; CHECK(atomicInc(&w, 9u) == 9u && w == 0u);
    w = 0; CHECK(atomicDec(&w, 9u) == 0u && w == 9u);
    w = 20; CHECK(atomicDec(&w, 9u) == 20u && w == 9u);
    w = 20; CHECK(atomicInc(&w, 9u) == 20u && w == 0u);
    int e = 1; CHECK(atomicExch(&e, 7) == 1 && e == 7);
    float fe = 1.5f; CHECK(atomicExch(&fe, 2.5f) == 1.5f && fe == 2.5f);
    int c = 4; CHECK(atomicCAS(&c, 3, 9) == 4 && c == 4); CHECK(atomicCAS(&c, 4, 9) == 4 && c == 9);
    unsigned x = 0xf0u; CHECK(atomicAnd(&x, 0x3cu) == 0xf0u && x == 0x30u); CHECK(atomicXor(&x, 0xffu) == 0x30u && x == 0xcfu);
    int s = 10; CHECK(atomicSub(&s, 3) == 10 && s == 7);
    CHECK(atomicAdd_block(&s, 1) == 7 && atomicMax_system(&s, 100) == 8 && s == 100);
}

static void check_intrinsics()
{
    CHECK(__popc(0xf0f0u) == 8); CHECK(__popcll(~0ull) == 64);
    CHECK(__clz(0) == 32); CHECK(__clz(1) == 31); CHECK(__clz(-1) == 0); CHECK(__clzll(1ll) == 63);
    CHECK(__ffs(0) == 0); CHECK(__ffs(8) == 4); CHECK(__ffsll(1ll << 40) == 41);
    CHECK(__brev(1u) == 0x80000000u); CHECK(__brev(0x12345678u) == 0x1e6a2c48u); CHECK(__brevll(1ull) == (1ull << 63));
    CHECK(__float2int_rn(2.5f) == 2); CHECK(__float2int_rn(3.5f) == 4); CHECK(__float2int_rn(-2.5f) == -2);
    CHECK(__float2int_rz(-2.7f) == -2); CHECK(__float2int_rd(-2.2f) == -3); CHECK(__float2int_ru(2.2f) == 3);
    CHECK(__float2int_rn(3e9f) == INT_MAX); CHECK(__float2int_rn(-3e9f) == INT_MIN); CHECK(__float2int_rn(CUDART_NAN_F) == 0);
    CHECK(__float2uint_rn(-1.0f) == 0u); CHECK(__float2uint_rn(5e9f) == UINT_MAX); CHECK(__float2uint_rn(2.5f) == 2u);
    CHECK(__saturatef(1.5f) == 1.0f); CHECK(__saturatef(-0.5f) == 0.0f); CHECK(__saturatef(0.25f) == 0.25f);
    CHECK(__saturatef(CUDART_NAN_F) == 0.0f);
    CHECK(__fdividef(1.0f, 4.0f) == 0.25f); CHECK(rsqrtf(4.0f) == 0.5f); CHECK(rsqrt(16.0) == 0.25);
    CHECK(__float_as_int(1.0f) == 0x3f800000); CHECK(__int_as_float(0x40000000) == 2.0f);
    CHECK(__float_as_uint(-0.0f) == 0x80000000u); CHECK(__double_as_longlong(1.0) == 0x3ff0000000000000ll);
    CHECK(__mul24(0x00800000, 2) == -16777216); CHECK(__umul24(0x01000003u, 2u) == 6u);
    CHECK(__mulhi(0x40000000, 8) == 2); CHECK(__umulhi(0xffffffffu, 0xffffffffu) == 0xfffffffeu);
    CHECK(__umul64hi(~0ull, 2ull) == 1ull);
    CHECK(__sad(3, 10, 1u) == 8u); CHECK(__usad(10u, 3u, 1u) == 8u);
    CHECK(__hadd(-3, 0) == -2); CHECK(__rhadd(3, 0) == 2); CHECK(__hadd(INT_MAX, INT_MAX) == INT_MAX);
    CHECK(__funnelshift_l(0x80000000u, 0x1u, 1u) == 0x3u); CHECK(__funnelshift_l(0u, 1u, 33u) == 2u);
    CHECK(__funnelshift_lc(0u, 1u, 33u) == 0u); CHECK(__funnelshift_r(0x2u, 0x1u, 1u) == 0x80000001u);
    CHECK(__funnelshift_rc(0x2u, 0x1u, 40u) == 1u);
    CHECK(__byte_perm(0x33221100u, 0x77665544u, 0x3210u) == 0x33221100u);
    CHECK(__byte_perm(0x33221100u, 0x77665544u, 0x7654u) == 0x77665544u);
    CHECK(__byte_perm(0x33221100u, 0x77665544u, 0x0123u) == 0x00112233u);
    CHECK(__byte_perm(0x33221100u, 0x77665544u, 0x5140u) == 0x55114400u);
    CHECK(__dp4a(0x01020304, 0x01010101, 10) == 20); CHECK(__dp4a(static_cast<int>(0xff000000u), 0x01000000, 0) == -1);
    CHECK(min(3, 5) == 3); CHECK(max(3u, 5u) == 5u); CHECK(min(-1, 1u) == 1u); CHECK(max(2.0f, 3.0f) == 3.0f);
    CHECK(min(1ll, 2ll) == 1ll); CHECK(max(1.5, 2.5) == 2.5);
    CHECK(CUDART_INF_F > 3e38f); CHECK(CUDART_NAN_F != CUDART_NAN_F); CHECK(CUDART_PI_F == 3.141592654f);
    float s = 0, c = 0; __sincosf(0.0f, &s, &c); CHECK(s == 0.0f && c == 1.0f);
    CHECK(norm3df(2.0f, 3.0f, 6.0f) == 7.0f); CHECK(exp10f(2.0f) == 100.0f);

    CHECK(__half_as_ushort(__float2half(1.0f)) == 0x3c00); CHECK(__half_as_ushort(__float2half(0.1f)) == 0x2e66);
    CHECK(__half_as_ushort(__float2half(65504.0f)) == 0x7bff); CHECK(__half_as_ushort(__float2half(70000.0f)) == 0x7c00);
    CHECK(__half_as_ushort(__float2half(1.0f + 1.0f / 2048)) == 0x3c00);
    CHECK(__half_as_ushort(__float2half(1.0f + 3.0f / 2048)) == 0x3c02);
    CHECK(__half_as_ushort(__float2half(5.9604645e-8f)) == 0x0001); CHECK(__half_as_ushort(__float2half(2.0e-8f)) == 0);
    CHECK(__half2float(__ushort_as_half(0x3555)) == 0.333251953125f);
    CHECK(__half2float(__hadd(__float2half(1.0f), __float2half(0.1f))) == 1.099609375f);
    CHECK(__half2float(__hmul(__float2half(3.0f), __float2half(0.5f))) == 1.5f);
    CHECK(__half2float(__hfma(__float2half(2.0f), __float2half(3.0f), __float2half(1.0f))) == 7.0f);
    CHECK(__half2float(__hneg(__float2half(2.0f))) == -2.0f);
    CHECK(__hgt(__float2half(2.0f), __float2half(1.0f)) && __hlt(__float2half(1.0f), __float2half(2.0f)));
    const float2 f2 = __half22float2(__floats2half2_rn(0.5f, 0.25f)); CHECK(f2.x == 0.5f && f2.y == 0.25f);
    const __half2 h2 = __hadd2(__halves2half2(__float2half(1.0f), __float2half(2.0f)), __float2half2_rn(1.0f));
    CHECK(__low2float(h2) == 2.0f && __high2float(h2) == 3.0f);
    CHECK(__bfloat16_as_ushort(__float2bfloat16(1.0f)) == 0x3f80);
    CHECK(__bfloat162float(__float2bfloat16(1.00390625f)) == 1.0f);      // a tie: to even (down)
    CHECK(__bfloat162float(__float2bfloat16(1.01171875f)) == 1.015625f);  // a tie: to even (up)
}

static void check_assert_and_trap()
{
    g_trap.clear();
    try { int i = 7; assert(i < 5); } catch (int) {}
    CHECK(g_trap == "Assertion `i < 5` failed.");
    g_trap.clear();
    try { __trap(); } catch (int) {}
    CHECK(g_trap == "__trap() was called");
}

int main()
{
    wb_emu_bind(&kFake);
    check_shuffles();
    check_atomics();
    check_intrinsics();
    check_assert_and_trap();
    if (failures == 0) std::printf("all checks passed\n");
    return failures == 0 ? 0 : 1;
}
)CUDA";

TEST(EmulateHeader, IntrinsicsAtomicsAndWarpLaneArithmeticGiveTheGpusAnswers) {
    TempDir dir;
    const fs::path tu = dir.path() / "checks.cpp";
    std::ofstream(tu) << emulated_tu(kHostChecks, "checks.cu");
    const fs::path exe = dir.path() / "checks";
    const CommandResult build = run("g++ " + kFlags + " -o \"" + exe.string() + "\" \"" + tu.string() + "\"");
    ASSERT_EQ(build.status, 0) << build.output;
    const CommandResult r = run("\"" + exe.string() + "\"");
    EXPECT_EQ(r.status, 0) << r.output;
    EXPECT_NE(r.output.find("all checks passed"), std::string::npos) << r.output;
}

}  // namespace
