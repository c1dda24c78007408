// tests/unit/include_policy_test.cpp — an #include from outside the lesson's reach is refused by every compiler.
//
// Issue 24's cases, each through the compile paths it reached: `/dev/zero`
// behind `#ifndef __CUDACC_RTC__` (the CPU emulator's host compiler read it
// until memory ran out), `../../../x.h` (resolved above the cache folder), a
// bare name in the working folder (NVRTC read it), and `/etc/passwd` (its
// lines came back in NVRTC's log and nvcc's output). Each refusal names the
// student's file and line, and no byte of the target file, a temporary file
// holding a unique marker, appears in the result's log or diagnostics. Then
// the scan itself: what counts as an #include (splices, digraphs, #if 0
// blocks) and what does not (comments, raw strings), and that the toolkit's
// and the workbook's headers still pass. No GPU: nothing here runs a kernel.
#include "compile/include_policy.hpp"
#include "compile/nvrtc.hpp"
#include "emulate/emulator.hpp"
#include "host/host_build.hpp"
#include "lesson/loader.hpp"
#include "pipeline/run.hpp"
#include "reference/reference.hpp"

#include "cli_runner.hpp"
#include "scoped_cache_dir.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>

namespace fs = std::filesystem;
using namespace wb;

namespace {

class IncludePolicy : public ScopedCacheDirTest {
protected:
    void SetUp() override {
        ScopedCacheDirTest::SetUp();
        std::random_device rd;
        marker_ = "WB_SECRET_MARKER_" + std::to_string(rd()) + std::to_string(rd());
        outside_ = dir_ / "outside";
        fs::create_directories(outside_);
        secret_ = outside_ / "secret.h";
        std::ofstream(secret_) << "int " << marker_ << " = 1;\n#error " << marker_ << "\n";
    }

    // No byte of the secret file's marker in anything the compile returned.
    template <class Diags>
    void expect_no_marker(const std::string& log, const Diags& diags) {
        EXPECT_EQ(log.find(marker_), std::string::npos) << log;
        for (const Diagnostic& d : diags) EXPECT_EQ(d.to_string().find(marker_), std::string::npos) << d.to_string();
    }

    static void expect_refusal(const std::vector<Diagnostic>& diags, const std::string& file, int line,
                               const std::string& message) {
        ASSERT_FALSE(diags.empty());
        const Diagnostic& d = diags.front();
        EXPECT_EQ(d.file, file);
        EXPECT_EQ(d.line, line);
        EXPECT_EQ(d.severity, Severity::Error);
        EXPECT_EQ(d.code, kIncludeRefused);
        EXPECT_EQ(d.message, message);
    }

    std::string marker_;
    fs::path outside_, secret_;
};

const std::string kAbsolute = "an absolute path reaches outside the lesson and the CUDA Toolkit";
const std::string kDotDot = "a name with '..' reaches outside the folders headers are looked up in";
const std::string kNotFound =
    "it is not a header of the CUDA Toolkit, of CUDA Workbook or of the system (a lesson's code is one file, so it "
    "has no headers of its own)";
const std::string kNotAName =
    "the header's name must be written out in <> or \"\" (a name made by a macro cannot be checked)";

std::string refused(const std::string& name, const std::string& why) { return "#include " + name + " is refused: " + why; }

CompileOptions nvrtc_options() {
    CompileOptions o;
    o.arch = "compute_90";
    o.use_cache = false;
    o.entries = {"k"};
    return o;
}

// Runs the body with the working folder set to `dir`, and back.
template <class F>
void in_folder(const fs::path& dir, F body) {
    const fs::path before = fs::current_path();
    fs::current_path(dir);
    try {
        body();
    } catch (...) {
        fs::current_path(before);
        throw;
    }
    fs::current_path(before);
}

}  // namespace

TEST_F(IncludePolicy, DevZeroBehindNotCudaccRtcIsRefusedBeforeTheEmulatorsHostCompilerReadsIt) {
    const std::string src =
        "extern \"C\" __global__ void k(int* out) { out[0] = 1; }\n"
        "#ifndef __CUDACC_RTC__\n"
        "#include \"/dev/zero\"\n"
        "#endif\n";
    const auto t0 = std::chrono::steady_clock::now();
    const EmuBuild b = build_emulated(SourceText{src, "kernel.cu", ""}, {"k"});
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 2.0)
        << "refused without starting the host compiler";
    EXPECT_FALSE(b.ok);
    EXPECT_TRUE(b.log.empty()) << "the compiler did not run: " << b.log;
    expect_refusal(b.diagnostics, "kernel.cu", 3, refused("\"/dev/zero\"", kAbsolute));
    // NVRTC, which would skip the block, refuses it too: the scan does not guess what is compiled.
    const CompileResult c = compile_cuda(SourceText{src, "kernel.cu", ""}, nvrtc_options());
    EXPECT_FALSE(c.ok);
    expect_refusal(c.diagnostics, "kernel.cu", 3, refused("\"/dev/zero\"", kAbsolute));
}

TEST_F(IncludePolicy, DotDotNamesAreRefusedByEveryCompilerAndNothingAboveTheCacheIsRead) {
    // The secret sits above the cache folders, where "../" from a cache file leads.
    const std::string name = "../../../outside/secret.h";
    const std::string kernel = "extern \"C\" __global__ void k(int* out) { out[0] = 1; }\n\n#include \"" + name + "\"\n";
    const CompileResult c = compile_cuda(SourceText{kernel, "kernel.cu", ""}, nvrtc_options());
    EXPECT_FALSE(c.ok);
    expect_refusal(c.diagnostics, "kernel.cu", 3, refused("\"" + name + "\"", kDotDot));
    expect_no_marker(c.log, c.diagnostics);

    const EmuBuild e = build_emulated(SourceText{kernel, "kernel.cu", ""}, {"k"});
    expect_refusal(e.diagnostics, "kernel.cu", 3, refused("\"" + name + "\"", kDotDot));
    expect_no_marker(e.log, e.diagnostics);

    ReferenceSpec spec;
    spec.source = SourceText{"#include <" + name + ">\nvoid reference(int* out) { out[0] = 1; }\n", "reference.cpp", ""};
    const ReferenceBuild r = build_reference(spec);
    EXPECT_FALSE(r.ok);
    expect_refusal(r.diagnostics, "reference.cpp", 1, refused("<" + name + ">", kDotDot));
    expect_no_marker(r.log, r.diagnostics);
}

TEST_F(IncludePolicy, NvrtcReadsNoHeaderFromTheWorkingFolder) {
    // A bare name that is only in the working folder, where NVRTC looks first: refused.
    std::ofstream(outside_ / "helper.h") << "#error " << marker_ << "\n";
    in_folder(outside_, [&] {
        const CompileResult bare = compile_cuda(
            SourceText{"#include \"helper.h\"\nextern \"C\" __global__ void k(int* out) { out[0] = 1; }\n", "kernel.cu", ""},
            nvrtc_options());
        EXPECT_FALSE(bare.ok);
        expect_refusal(bare.diagnostics, "kernel.cu", 1, refused("\"helper.h\"", kNotFound));
        expect_no_marker(bare.log, bare.diagnostics);
    });
}

// Through the CLI, run from a folder that holds a file named like a toolkit
// header and one that is no header of anyone's: the worker works in an empty
// folder (sandbox/sandbox.hpp), so NVRTC, which looks for "..." first in the
// folder of the file that includes it (the working folder, for a source named
// without one), reads neither. The toolkit's header is used, and the other
// name is refused at its line. The folder is a copy of lesson 01, run by its
// relative path, so that a contained worker sees it (a lesson's folder is
// bound into the sandbox); and again uncontained.
TEST_F(IncludePolicy, AKernelRunFromAFolderWithHeadersInItReadsNone) {
    const fs::path work = dir_ / "work";
    fs::create_directories(work);
    fs::copy(fs::path(WB_SOURCE_DIR) / "lessons" / "01_vector_add", work / "01_vector_add", fs::copy_options::recursive);
    fs::copy_file(fs::path(WB_SOURCE_DIR) / "lessons" / "01_vector_add.json", work / "01_vector_add.json");
    std::ofstream(work / "cuda_fp16.h") << "#error " << marker_ << "\n";
    std::ofstream(work / "helper.h") << "#error " << marker_ << "\n";
    for (const char* sandbox : {"", "WB_SANDBOX=off"}) {
        SCOPED_TRACE(sandbox);
        const std::string body =
            "extern \"C\" __global__ void vector_add(const float* a, const float* b, float* c, int n)\n"
            "{\n"
            "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
            "    if (i < n) c[i] = __half2float(__float2half(0.0f)) + a[i] + b[i];\n"
            "}\n// " + marker_ + sandbox + "\n";  // a source no cache has seen
        std::ofstream(work / "toolkit_name.cu") << "#include \"cuda_fp16.h\"\n" << body;
        std::ofstream(work / "bare_name.cu") << "#include \"helper.h\"\n" << body;
        const std::string from_work = "cd '" + work.string() + "' && " + sandbox;
        const std::string run = "run 01_vector_add.json --trust --case ragged --backend cpu --no-timing --source ";
        const CliResult toolkit = run_cli(run + "toolkit_name.cu", from_work);
        EXPECT_EQ(toolkit.code, 0) << toolkit.out;
        EXPECT_FALSE(contains(toolkit.out, "#error")) << toolkit.out;
        const CliResult bare = run_cli(run + "bare_name.cu", from_work);
        EXPECT_EQ(bare.code, 1) << bare.out;
        EXPECT_TRUE(contains(bare.out, "bare_name.cu:1:1: error: #include \"helper.h\" is refused: it is not a header "
                                       "of the CUDA Toolkit, of CUDA Workbook or of the system"))
            << bare.out;
        EXPECT_FALSE(contains(bare.out, "#error")) << bare.out;
    }
}

TEST_F(IncludePolicy, AnAbsoluteFileNeverReachesTheLogOfNvrtcTheHostStepOrTheReference) {
    const std::string name = "\"" + secret_.string() + "\"";
    const std::string kernel = "// a kernel\n#include " + name + "\nextern \"C\" __global__ void k(int* out) { out[0] = 1; }\n";
    const CompileResult c = compile_cuda(SourceText{kernel, "kernel.cu", ""}, nvrtc_options());
    EXPECT_FALSE(c.ok);
    EXPECT_TRUE(c.log.empty()) << c.log;
    expect_refusal(c.diagnostics, "kernel.cu", 2, refused(name, kAbsolute));
    expect_no_marker(c.log, c.diagnostics);

    // A host step: neither the split build nor nvcc runs.
    const std::string host = "#include \"wb_host.h\"\n\n#include " + name + "\nextern \"C\" int run(wb_host_ctx* ctx) { return 0; }\n";
    const HostStepBuild h = build_host_step(SourceText{host, "lessons/x/host.cu", ""}, HostSpec{}, "sm_90");
    EXPECT_FALSE(h.ok);
    EXPECT_TRUE(h.log.empty()) << h.log;
    EXPECT_TRUE(h.command.empty());
    expect_refusal(h.diagnostics, "host.cu", 3, refused(name, kAbsolute));
    expect_no_marker(h.log, h.diagnostics);

    ReferenceSpec spec;
    spec.source = SourceText{"void reference(int* out) { out[0] = 1; }\n#include " + name + "\n", "reference.cpp", ""};
    const ReferenceBuild r = build_reference(spec);
    EXPECT_FALSE(r.ok);
    EXPECT_TRUE(r.command.empty()) << "the host compiler did not run";
    expect_refusal(r.diagnostics, "reference.cpp", 2, refused(name, kAbsolute));
    expect_no_marker(r.log, r.diagnostics);
}

TEST_F(IncludePolicy, ARefusedIncludeIsARunsCompileErrorInEnglishAndChinese) {
    auto loaded = load_lesson(std::string(WB_SOURCE_DIR) + "/lessons/01_vector_add.json");
    ASSERT_TRUE(loaded.ok());
    RunRequest q;
    q.lesson = std::make_shared<const Lesson>(std::move(*loaded.lesson));
    q.source = SourceChoice::Custom;
    q.custom_source = "#include \"/etc/passwd\"\n" + q.lesson->steps[0].solution.text;
    const RunResult r = make_local_backend()->run(q);
    ASSERT_EQ(r.status, RunStatus::CompileError) << r.message;
    EXPECT_NE(r.message.find("kernel.cu:1:1: error: #include \"/etc/passwd\" is refused: " + kAbsolute),
              std::string::npos)
        << r.message;
    EXPECT_EQ(r.compile.log.find("root:"), std::string::npos) << r.compile.log;
    const std::string zh = r.message_in("zh");
    EXPECT_NE(zh.find("#include \"/etc/passwd\" 被拒绝：绝对路径"), std::string::npos) << zh;
}

TEST_F(IncludePolicy, EveryIncludeIsSeenWhereverTheCompilerWouldSeeOne) {
    auto lines_of = [](const std::string& text) {
        std::vector<int> lines;
        for (const auto& r : refused_includes(text, "k.cu")) lines.push_back(r.diagnostic.line);
        return lines;
    };
    EXPECT_EQ(lines_of("#if 0\n#include \"/etc/passwd\"\n#endif\n"), std::vector<int>{2}) << "a skipped block";
    EXPECT_EQ(lines_of("  #  include   </etc/passwd>\n"), std::vector<int>{1}) << "blanks, angle brackets";
    EXPECT_EQ(lines_of("#inc\\\nlude \"/etc/passwd\"\n"), std::vector<int>{1}) << "a spliced line";
    EXPECT_EQ(lines_of("x;\n#include \\  \n\"/etc/passwd\"\n"), std::vector<int>{2}) << "a splice with blanks";
    EXPECT_EQ(lines_of("%:include \"/etc/passwd\"\n"), std::vector<int>{1}) << "a digraph";
    EXPECT_EQ(lines_of("?\?=include \"/etc/passwd\"\n"), std::vector<int>{1}) << "a trigraph";
    EXPECT_EQ(lines_of("/* a\n comment */ #include \"/etc/passwd\"\n"), std::vector<int>{2})
        << "after a comment, a '#' still starts the line";
    EXPECT_EQ(lines_of("# /**/ include_next \"/etc/passwd\"\n#import <../x>\n"), (std::vector<int>{1, 2}));
    EXPECT_EQ(lines_of("int a = 1'000;\n#include \"/etc/passwd\"\n"), std::vector<int>{2}) << "a digit separator";

    EXPECT_TRUE(lines_of("// #include \"/etc/passwd\"\n/*\n#include \"/etc/passwd\"\n*/\n").empty()) << "comments";
    EXPECT_TRUE(lines_of("const char* s = R\"x(\n#include \"/etc/passwd\"\n)x\";\n").empty()) << "a raw string";
    EXPECT_TRUE(lines_of("int x; #include \"/etc/passwd\"\n").empty()) << "not first on its line: not a directive";
    EXPECT_TRUE(lines_of("#define S \"#include </etc/passwd>\"\n").empty());

    const auto macro = refused_includes("#define H </etc/passwd>\n#include H\n", "k.cu");
    ASSERT_EQ(macro.size(), 1u);
    EXPECT_EQ(macro[0].diagnostic.line, 2);
    EXPECT_EQ(macro[0].diagnostic.message, refused("H", kNotAName));
    EXPECT_EQ(render(macro[0].said, "en"), macro[0].diagnostic.message);
}

TEST_F(IncludePolicy, TheToolkitsTheWorkbooksAndTheSystemsHeadersPass) {
    const std::string ok =
        "#include <cuda_fp16.h>\n#include \"cuda_fp16.h\"\n#include <cuda/std/cmath>\n#include \"cmath\"\n"
        "#include <cooperative_groups.h>\n#include <vector>\n#include \"stdio.h\"\n#include <sys/types.h>\n";
    for (const auto& r : refused_includes(ok, "k.cu")) ADD_FAILURE() << r.diagnostic.to_string();
    // The caller's own headers pass where it names them, and only there.
    EXPECT_TRUE(refused_includes("#include \"wb_host.h\"\n", "h.cu", {"wb_host.h"}).empty());
    EXPECT_EQ(refused_includes("#include \"wb_host.h\"\n", "k.cu").size(), 1u);
    // A link inside an allowed folder's name cannot lead out: no such name exists, so it is not found.
    EXPECT_EQ(refused_includes("#include \"cuda_fp16.h/x\"\n", "k.cu").size(), 1u);
}
