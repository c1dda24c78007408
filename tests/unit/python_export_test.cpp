// tests/unit/python_export_test.cpp — `export` (runtime/export/python_export.hpp):
// every home's file of every kernel step of the shipped lessons is valid
// Python (Python's own compile() reads each), lesson expressions become
// Python, and what cannot be exported is refused saying why. That the files
// run and pass on a GPU is tests/gpu/ and bench/device/export_proof.sh's.
#include "cli_runner.hpp"
#include "core/error.hpp"
#include "export/python_export.hpp"
#include "lesson/loader.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sys/wait.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace {

std::vector<fs::path> lesson_files() { return wb::list_lessons(WB_SOURCE_DIR "/lessons"); }

std::string python() { return fs::exists("/usr/bin/python3") ? "/usr/bin/python3" : "python3"; }

}  // namespace

TEST(PythonExport, EveryHomeOfEveryKernelStepIsValidPython) {
    const fs::path dir = fs::temp_directory_path() / ("wb-export-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    std::vector<std::string> files;
    int steps = 0, refused = 0;
    std::vector<std::shared_ptr<wb::Lesson>> keep;
    for (const fs::path& f : lesson_files()) {
        wb::LoadResult lr = wb::load_lesson(f);
        ASSERT_TRUE(lr.ok()) << f;
        keep.push_back(std::make_shared<wb::Lesson>(std::move(*lr.lesson)));
        const wb::Lesson& lesson = *keep.back();
        for (const wb::Step& step : lesson.steps) {
            wb::PythonExportRequest q;
            q.lesson = &lesson;
            q.step = &step;
            q.test_case = step.checks.cases.empty() ? nullptr : &step.checks.cases.front();
            q.source = step.solution;
            if (step.is_host()) {
                try {
                    wb::export_python(q);
                    ADD_FAILURE() << lesson.id << " step " << step.id << ": a host step was exported";
                } catch (const wb::Error& e) {
                    EXPECT_NE(e.message().find("host step"), std::string::npos) << e.message();
                }
                continue;
            }
            ++steps;
            for (wb::PythonHome home : wb::python_homes()) {
                q.home = home;
                try {
                    const wb::PythonExport x = wb::export_python(q);
                    EXPECT_NE(x.text.find(step.launches.front().entry), std::string::npos);
                    EXPECT_NE(x.text.find("Written for"), std::string::npos) << "each file names its library versions";
                    const fs::path p = dir / x.file_name;
                    std::ofstream(p) << x.text;
                    files.push_back(p.string());
                } catch (const wb::Error& e) {
                    // Only __constant__ memory is refused, and only where the home cannot set it.
                    EXPECT_FALSE(step.constants.empty()) << lesson.id << " " << step.id << ": " << e.message();
                    EXPECT_TRUE(home == wb::PythonHome::Numba || home == wb::PythonHome::CudaCore) << e.message();
                    EXPECT_NE(e.message().find("export it to CuPy or PyTorch"), std::string::npos) << e.message();
                    ++refused;
                }
            }
        }
    }
    ASSERT_FALSE(files.empty());
    std::string cmd = python() + " -c 'import sys\nfor f in sys.argv[1:]: compile(open(f).read(), f, \"exec\")'";
    for (const auto& f : files) cmd += " '" + f + "'";
    FILE* p = popen((cmd + " 2>&1").c_str(), "r");
    ASSERT_NE(p, nullptr);
    std::string out;
    char buf[4096];
    for (std::size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
    EXPECT_EQ(pclose(p), 0) << out;
    std::printf("[ figures  ] %zu exports of %d kernel steps are valid Python; %d refused (__constant__ memory)\n",
                files.size(), steps, refused);
    fs::remove_all(dir);
}

TEST(PythonExport, LessonExpressionsBecomePython) {
    EXPECT_EQ(wb::python_expr("ceil_div(N, block.x)"), "ceil_div(N, block_x)");
    EXPECT_EQ(wb::python_expr("2^k + floor(N/2)"), "2**k + math.floor(N/2)");
    EXPECT_EQ(wb::python_expr("max(1, N / 2^pass)"), "max(1, N / 2**pass_)");
    EXPECT_EQ(wb::python_expr("in * 2"), "in_ * 2") << "a Python keyword gets an underscore";
    EXPECT_EQ(wb::python_name("in"), "in_");
    EXPECT_EQ(wb::python_name("x"), "x");
    EXPECT_EQ(wb::python_expr("N > 2 ? 1 : 2"), "(1 if N > 2 else 2)");
    EXPECT_EQ(wb::python_expr("pass % 3 == 1 ? 1 : (N > 4 ? ceil_div(N, 4) : N)"),
              "(1 if pass_ % 3 == 1 else ((ceil_div(N, 4) if N > 4 else N)))");
    EXPECT_EQ(wb::python_expr("a ? b ? 1 : 2 : 3"), "((1 if b else 2) if a else 3)");
    EXPECT_THROW(wb::python_expr("ceil_div(N,"), wb::Error);
}

TEST(PythonExport, TheCliWritesAFileAndRefusesAnUnknownHomeOrAHostStep) {
    const CliResult r = run_cli("export lessons/01_vector_add.json --to cupy --solution -o -");
    ASSERT_EQ(r.code, 0) << r.out;
    EXPECT_NE(r.out.find("cp.RawModule"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("blockIdx.x * blockDim.x + threadIdx.x"), std::string::npos) << "the kernel, as written";
    const CliResult bad = run_cli("export lessons/01_vector_add.json --to fortran");
    EXPECT_EQ(bad.code, 2) << bad.out;
    EXPECT_NE(bad.out.find("expected cupy, torch, numba or cuda-core"), std::string::npos) << bad.out;
    const CliResult host = run_cli("export lessons/19_cublas.json --to torch --step 2 -o -");
    EXPECT_EQ(host.code, 2) << host.out;
    EXPECT_NE(host.out.find("host step"), std::string::npos) << host.out;
    const fs::path out = fs::temp_directory_path() / ("wb-export-cli-" + std::to_string(::getpid()) + ".py");
    const CliResult file = run_cli("export lessons/06_matmul.json --to torch --step 3 --case ragged -o '" + out.string() + "'");
    ASSERT_EQ(file.code, 0) << file.out;
    EXPECT_NE(file.out.find("wrote " + out.string()), std::string::npos) << file.out;
    std::ifstream in(out);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_NE(text.find("load_inline"), std::string::npos);
    EXPECT_NE(text.find("the case 'ragged'"), std::string::npos);
    fs::remove(out);
}

// Every CuPy export runs from its params to its check under a stand-in for CuPy
// (tests/tools/fake_cupy: launches are checked as CuPy takes them, none runs), so
// every name, launch expression, pass loop and NumPy reference in the files works;
// the outputs stay poisoned, so the check must report them.
TEST(PythonExport, EveryCupyExportRunsToItsCheckWithoutAGpu) {
    if (!fs::exists("/usr/bin/python3") || std::system("/usr/bin/python3 -c 'import numpy' 2>/dev/null") != 0)
        GTEST_SKIP() << "Debian's python3-numpy is missing (scripts/workbook.sh deps installs it)";
    const fs::path dir = fs::temp_directory_path() / ("wb-export-run-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    int ran = 0;
    for (const fs::path& f : lesson_files()) {
        wb::LoadResult lr = wb::load_lesson(f);
        ASSERT_TRUE(lr.ok()) << f;
        const wb::Lesson& lesson = *lr.lesson;
        for (const wb::Step& step : lesson.steps) {
            if (step.is_host()) continue;
            wb::PythonExportRequest q;
            q.lesson = &lesson;
            q.step = &step;
            for (const wb::TestCase& tc : step.checks.cases)
                if (!q.test_case && !tc.timing && tc.emulate) q.test_case = &tc;
            q.source = step.solution;
            q.home = wb::PythonHome::CuPy;
            const wb::PythonExport x = wb::export_python(q);
            const fs::path p = dir / x.file_name;
            std::ofstream(p) << x.text;
            const std::string cmd = "cd '" + dir.string() + "' && PYTHONPATH='" WB_SOURCE_DIR "/tests/tools/fake_cupy' /usr/bin/python3 '" +
                                    p.string() + "' 2>&1";
            FILE* pipe = popen(cmd.c_str(), "r");
            ASSERT_NE(pipe, nullptr);
            std::string out;
            char buf[4096];
            for (std::size_t n; (n = fread(buf, 1, sizeof buf, pipe)) > 0;) out.append(buf, n);
            const int st = pclose(pipe);
            const int code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
            const std::string where = lesson.id + " step " + step.id;
            EXPECT_EQ(out.find("Traceback"), std::string::npos) << where << ":\n" << out;
            EXPECT_NE(out.find("launch(es) checked"), std::string::npos) << where << ":\n" << out;
            if (step.python.present()) {
                EXPECT_TRUE(out.find(" differ; the first at ") != std::string::npos || out.find(": passed (") != std::string::npos)
                    << where << ": the check did not run:\n" << out;
                EXPECT_EQ(code, out.find(" differ; the first at ") != std::string::npos ? 1 : 0) << where << ":\n" << out;
            }
            ++ran;
        }
    }
    std::printf("[ figures  ] %d CuPy exports ran to their check under the stand-in\n", ran);
    fs::remove_all(dir);
}
