// Host steps split into their kernels (NVRTC) and their host code (the host
// compiler): every shipped host-step file splits, both parts build without a
// GPU, the lines stay the student's, and what the split does not understand is
// built whole by nvcc. Running split builds needs a GPU: tests/gpu/host_step_gpu_test.cpp.
#include "compile/nvrtc.hpp"
#include "core/fs.hpp"
#include "host/host_build.hpp"
#include "host/host_split.hpp"
#include "lesson/loader.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include <unistd.h>

namespace fs = std::filesystem;

namespace {

// The .cu files of the shipped lessons' host steps (the folders of lessons whose steps are host
// steps: 16 to 20; later lessons are kernel steps again), and of the host-step test lesson.
std::vector<fs::path> host_step_files() {
    std::vector<fs::path> out;
    std::vector<fs::path> dirs = {fs::path(WB_SOURCE_DIR) / "tests/data/host/host_add"};
    for (const auto& e : fs::directory_iterator(fs::path(WB_SOURCE_DIR) / "lessons")) {
        if (e.path().extension() != ".json" || e.path().filename() == "lesson.schema.json") continue;
        wb::LoadResult lr = wb::load_lesson(e.path());
        if (lr.ok() && !lr.lesson->steps.empty() && lr.lesson->steps.front().is_host())
            dirs.push_back(e.path().parent_path() / e.path().stem());
    }
    for (const fs::path& dir : dirs)
        for (const auto& e : fs::recursive_directory_iterator(dir))
            if (e.path().extension() == ".cu") out.push_back(e.path());
    std::sort(out.begin(), out.end());
    return out;
}

int lines(const std::string& s) { return int(std::count(s.begin(), s.end(), '\n')); }

}  // namespace

TEST(HostSplit, EveryShippedHostStepSplitsAndBothPartsKeepTheLines) {
    const auto files = host_step_files();
    ASSERT_GE(files.size(), 20u);
    for (const auto& f : files) {
        SCOPED_TRACE(f.string());
        const std::string text = wb::read_file(f, 1 << 20);
        const wb::HostSplit s = wb::split_host_step(text);
        ASSERT_TRUE(s.ok) << s.why;
        EXPECT_LE(lines(s.host), lines(text));  // blank lines at the end are dropped
        if (!s.device.empty()) EXPECT_EQ(lines(s.device), lines(text));
        EXPECT_EQ(s.host.find("<<<"), std::string::npos);
    }
}

TEST(HostSplit, KernelsGoToNvrtcAndLaunchesAreLowered) {
    const std::string text =
        "#include <vector>\n"
        "#define BLOCK 256\n"
        "struct Pair { float a, b; };\n"
        "struct HostOnly { std::vector<int> v; };\n"
        "__device__ float twice(float x) { return 2 * x; }  // a helper\n"
        "__global__ void scale(Pair* p, float k, int n)\n"
        "{\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i < n) p[i].a = twice(p[i].b) * k;\n"
        "}\n"
        "extern \"C\" int run(wb_host_ctx* ctx)\n"
        "{\n"
        "    Pair* d = nullptr; /* the kernel's name in a comment: scale */\n"
        "    scale<<<(10 + BLOCK - 1) / BLOCK, BLOCK, 0, 0>>>(d, 2.0f, 10);\n"
        "    return 0;\n"
        "}\n";
    const wb::HostSplit s = wb::split_host_step(text);
    ASSERT_TRUE(s.ok) << s.why;
    EXPECT_EQ(s.kernels, std::vector<std::string>{"scale"});
    // The device part: the kernel, its helper and the struct it names; not run(), <vector> or HostOnly.
    EXPECT_NE(s.device.find("__global__ void scale"), std::string::npos);
    EXPECT_NE(s.device.find("struct Pair"), std::string::npos);
    EXPECT_EQ(s.device.find("HostOnly"), std::string::npos);
    EXPECT_EQ(s.device.find("<vector>"), std::string::npos);
    EXPECT_EQ(s.device.find("run("), std::string::npos);
    // The host part: the helper gone, the kernel a launcher on its first line, the launch lowered.
    EXPECT_EQ(s.host.find("twice"), std::string::npos);
    EXPECT_NE(s.host.find("static void scale(Pair* p, float k, int n) { void* wb_args_[] = {(void*)&p, (void*)&k, (void*)&n, }; "
                          "wb_launch_kernel_(0, wb_args_); }"),
              std::string::npos);
    EXPECT_NE(s.host.find("(wb_launch_config_((10 + BLOCK - 1) / BLOCK, BLOCK, 0, 0), scale)(d, 2.0f, 10);"), std::string::npos);
    EXPECT_EQ(s.host.find("a helper"), std::string::npos);  // comments blanked
    // A comment's change leaves the host part as it was.
    EXPECT_EQ(wb::split_host_step(text + "// edited\n\n").host, s.host);
    EXPECT_EQ(wb::split_host_step(std::string(text).replace(text.find("a helper"), 8, "helps")).host, s.host);
    // The device part compiles, on the file's own lines.
    wb::CompileOptions o;
    o.arch = "sm_90";
    o.entries = s.kernels;
    const wb::CompileResult c = wb::compile_cuda(wb::SourceText{s.device, "step.cu", ""}, o);
    ASSERT_TRUE(c.ok) << c.log;
    EXPECT_EQ(c.lowered_names.count("scale"), 1u);
    const wb::CompileResult bad = wb::compile_cuda(
        wb::SourceText{wb::split_host_step(std::string(text).replace(text.find("* k;"), 4, "* q;")).device, "step.cu", ""}, o);
    ASSERT_FALSE(bad.ok);
    EXPECT_EQ(bad.diagnostics.at(0).line, 9);
}

TEST(HostSplit, WhatItDoesNotUnderstandIsBuiltWhole) {
    const auto why = [](const std::string& text) { return wb::split_host_step(text).why; };
    EXPECT_EQ(why("template <int N> __global__ void k(float* p) { p[0] = N; }\n"), "a kernel template");
    EXPECT_EQ(why("namespace a { int x; }\n"), "a namespace or an extern \"C\" block");
    EXPECT_EQ(why("__global__ void k(float* p) { }\nvoid f() { void* q = (void*)k; }\n"),
              "kernel 'k' is named other than in a <<<...>>> launch");
    EXPECT_EQ(why("__global__ void k(float*) { }\n"), "a parameter of kernel 'k' without a name");
    EXPECT_EQ(why("const char* s = R\"(x)\";\n"), "a raw string literal");
}

TEST(HostSplit, ShippedHostStepsBuildSplitWithoutAGpu) {
    for (const char* lesson : {"16_memory", "17_streams", "18_cuda_graphs", "19_cublas", "20_multi_gpu"})
        for (const char* file : {"solution_step1.cu", "solution_step2.cu"}) {
            const fs::path f = fs::path(WB_SOURCE_DIR) / "lessons" / lesson / file;
            SCOPED_TRACE(f.string());
            wb::HostSpec host;
            if (std::string(lesson) == "19_cublas") host.libraries = {"cublas"};
            const wb::HostStepBuild b = wb::build_host_step(wb::SourceText{wb::read_file(f, 1 << 20), file, ""}, host, "sm_90");
            EXPECT_TRUE(b.ok) << b.log;
            EXPECT_TRUE(b.split) << b.whole_why;
            EXPECT_EQ(b.kernels_lowered.empty(), b.kernels_image.empty());
        }
}

TEST(HostSplit, AMistakeIsReportedByTheWholeBuildOnTheStudentsLine) {
    const std::string text = "__global__ void k(float* p, int n) { if (n) p[0] = undefined_name; }\n"
                             "extern \"C\" int run(wb_host_ctx* ctx) { k<<<1, 1>>>(nullptr, 1); return 0; }\n";
    const wb::HostStepBuild b = wb::build_host_step(wb::SourceText{text, "mine.cu", ""}, wb::HostSpec{}, "sm_90");
    EXPECT_FALSE(b.ok);
    EXPECT_FALSE(b.split);
    EXPECT_EQ(b.whole_why, "its kernels did not compile apart");
    ASSERT_FALSE(b.diagnostics.empty());
    EXPECT_EQ(b.diagnostics[0].file, "mine.cu");
    EXPECT_EQ(b.diagnostics[0].line, 1);
}

// Without nvcc (a toolkit of NVRTC and the runtime only), a host step still
// builds split, and a mistake is reported by the part that did not compile.
TEST(HostSplit, WithoutNvccTheSplitBuildsMessagesStand) {
    if (fs::exists("/usr/bin/nvcc") || fs::exists("/bin/nvcc")) GTEST_SKIP() << "nvcc is in /usr/bin, which this test keeps on PATH";
    const fs::path toolkit = fs::temp_directory_path() / ("wb-no-nvcc-" + std::to_string(::getpid()));
    fs::create_directories(toolkit);
    for (const char* d : {"include", "lib64", "nvvm"}) fs::create_directory_symlink(wb::cuda_home() / d, toolkit / d);
    const std::string old_home = std::getenv("CUDA_HOME") ? std::getenv("CUDA_HOME") : "";
    const std::string old_path = std::getenv("PATH") ? std::getenv("PATH") : "";
    ::setenv("CUDA_HOME", toolkit.c_str(), 1);
    ::setenv("PATH", "/usr/bin:/bin", 1);
    EXPECT_TRUE(wb::find_toolkit_program("nvcc").empty());
    const std::string good = "__global__ void k(float* p) { p[0] = 1; }\n"
                             "extern \"C\" int run(wb_host_ctx* ctx) { k<<<1, 1>>>(nullptr); return 0; }\n";
    const wb::HostStepBuild ok = wb::build_host_step(wb::SourceText{good, "good.cu", ""}, wb::HostSpec{}, "sm_90");
    EXPECT_TRUE(ok.ok && ok.split) << ok.log;
    const std::string bad = "__global__ void k(float* p) { p[0] = 1; }\n"
                            "extern \"C\" int run(wb_host_ctx* ctx) { k<<<1, 1>>>(nullptr); return missing; }\n";
    const wb::HostStepBuild b = wb::build_host_step(wb::SourceText{bad, "bad.cu", ""}, wb::HostSpec{}, "sm_90");
    EXPECT_FALSE(b.ok);
    EXPECT_EQ(b.whole_why, "its host code did not compile apart");
    ASSERT_GE(b.error_count(), 1) << b.log;
    EXPECT_EQ(b.diagnostics[0].file, "bad.cu");
    EXPECT_EQ(b.diagnostics[0].line, 2);
    EXPECT_NE(b.diagnostics[0].message.find("missing"), std::string::npos) << b.diagnostics[0].message;
    if (old_home.empty()) ::unsetenv("CUDA_HOME");
    else ::setenv("CUDA_HOME", old_home.c_str(), 1);
    ::setenv("PATH", old_path.c_str(), 1);
    fs::remove_all(toolkit);
}
