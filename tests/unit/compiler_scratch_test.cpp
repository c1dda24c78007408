// tests/unit/compiler_scratch_test.cpp — every compiler run has a scratch
// folder of its own as its TMPDIR, and nothing it wrote there outlives it,
// even when it is killed at the run's deadline with its worker.
//
// A host step that nvcc builds whole (a raw string literal keeps the split
// build off it) and whose templates expand into 2^16 classes never finishes
// compiling before a 5-second deadline; the worker is killed with nvcc, whose
// tmpxft_* files were in its scratch folder. After the run the scratch folders
// are gone and the TMPDIR this test set for the process holds no tmpxft_ file.
// No GPU needed (WB_DISABLE_CUDA_DRIVER=1); nvcc is the CUDA Toolkit's.
#include "compile/host_library.hpp"
#include "compile/nvrtc.hpp"
#include "core/fs.hpp"
#include "lesson/loader.hpp"
#include "pipeline/worker.hpp"

#include "scoped_cache_dir.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace wb;

namespace {

// The tmpxft_ files under `dir`, at any depth.
int tmpxft_files(const fs::path& dir) {
    int n = 0;
    std::error_code ec;
    for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
        if (it->path().filename().string().rfind("tmpxft_", 0) == 0) ++n;
    return n;
}

int entries(const fs::path& dir) {
    int n = 0;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) ++n;
    return n;
}

// The test's own TMPDIR, on top of a fresh cache folder with the driver off.
class CompilerScratch : public DriverOffTest {
protected:
    void SetUp() override {
        DriverOffTest::SetUp();
        tmp_ = dir_ / "tmp";
        fs::create_directories(tmp_);
        const char* old = std::getenv("TMPDIR");
        had_old_tmp_ = old != nullptr;
        if (old) old_tmp_ = old;
        setenv("TMPDIR", tmp_.c_str(), 1);
    }
    void TearDown() override {
        if (had_old_tmp_) setenv("TMPDIR", old_tmp_.c_str(), 1);
        else unsetenv("TMPDIR");
        DriverOffTest::TearDown();
    }
    fs::path tmp_;
    std::string old_tmp_;
    bool had_old_tmp_ = false;
};

constexpr const char* kSlowForNvcc = R"(
template <int D, unsigned X> struct Tree {
    static constexpr unsigned value = Tree<D - 1, 2 * X>::value ^ Tree<D - 1, 2 * X + 1>::value;
};
template <unsigned X> struct Tree<0, X> { static constexpr unsigned value = X * 2654435761u; };
static const char* kWord = R"w(raw)w";
extern "C" int run(wb_host_ctx* ctx)
{
    return int(Tree<16, 1>::value & 0u) + (kWord[0] == 'r' ? 0 : 1) + (ctx ? 0 : 1);
}
)";

}  // namespace

TEST_F(CompilerScratch, NvccKilledAtTheDeadlineLeavesNoTemporaryFileBehind) {
    if (find_toolkit_program("nvcc").empty()) GTEST_SKIP() << "no nvcc: the CUDA Toolkit's compiler is needed";
    auto loaded = load_lesson(std::string(WB_SOURCE_DIR) + "/tests/data/host/host_add.json");
    ASSERT_TRUE(loaded.ok());
    auto lesson = std::make_shared<const Lesson>(std::move(*loaded.lesson));
    const fs::path scratch = cache_dir() / "scratch";

    // Watches the scratch folders while nvcc runs: its temporary files are there.
    std::atomic<bool> done{false};
    std::atomic<int> seen{0};
    std::thread watch([&] {
        while (!done) {
            seen = std::max(seen.load(), tmpxft_files(scratch));
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
    });
    // Uncontained: a contained worker's scratch is its own /tmp (sandbox/),
    // out of this test's sight, and gone with the worker anyway.
    setenv("WB_SANDBOX", "off", 1);
    WorkerBackend worker;
    RunRequest q;
    q.lesson = lesson;
    q.step = "add";
    q.source = SourceChoice::Custom;
    q.custom_source = kSlowForNvcc;
    q.custom_origin = "slow.cu";
    q.compile_only = true;
    q.timeout_s = 5;
    q.trusted = true;
    const RunResult r = worker.run(q);
    unsetenv("WB_SANDBOX");
    done = true;
    watch.join();

    EXPECT_EQ(r.status, RunStatus::TimedOut) << run_status_name(r.status) << ": " << r.message;
    EXPECT_GT(seen.load(), 0) << "nvcc wrote no tmpxft_ file in its scratch folder";
    EXPECT_EQ(entries(scratch), 0) << "a killed worker's scratch folder was left in " << scratch;
    EXPECT_EQ(tmpxft_files(tmp_), 0) << "nvcc wrote to the process's TMPDIR";
    EXPECT_EQ(entries(tmp_), 0);
}

TEST_F(CompilerScratch, AFinishedBuildRemovesItsScratchFolderAndAKilledProcesssFolderIsSweptAway) {
    // A folder left by a process that no longer exists (pid 2^22 + 1 is above
    // Linux's pid_max default) goes at this process's first build.
    const fs::path dead = compiler_scratch_root(4194305) / "run-x";
    fs::create_directories(dead);
    const HostLibrary lib =
        build_host_library("extern \"C\" int f() { return 1; }\n", {"-shared", "-fPIC", "-O0"}, CacheKind::Reference, "scratch-test");
    EXPECT_TRUE(lib.ok) << lib.log;
    EXPECT_FALSE(fs::exists(compiler_scratch_root(4194305)));
    EXPECT_EQ(entries(compiler_scratch_root(::getpid())), 0) << "the build's own scratch folder is removed when it ends";
    EXPECT_EQ(entries(tmp_), 0) << "the host compiler wrote to the process's TMPDIR";
}
