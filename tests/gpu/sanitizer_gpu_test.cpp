// tests/gpu/sanitizer_gpu_test.cpp — compute-sanitizer names the line of what a normal run can only see.
//
// The off-by-one write (`if (i <= n)`) fails a normal run through the guard
// zone after 'c', which can name the element but not the line. Under memcheck
// (which runs without guard zones) the same kernel is reported on its line,
// with the thread and block. A tiled
// matmul without its second __syncthreads() is reported by racecheck. The
// lesson's own solutions are clean. Skipped, with the reason, without a GPU or
// without compute-sanitizer. Prints the time of a sanitized run vs a normal one.
#include "gpu_test_support.hpp"
#include "compile/nvrtc.hpp"
#include "core/fs.hpp"
#include "pipeline/worker.hpp"
#include "sanitizer/sanitizer.hpp"

#include <chrono>
#include <cstdio>

namespace {

bool have_compute_sanitizer() {
    std::filesystem::path home;
    try {
        home = wb::cuda_home();
    } catch (const std::exception&) {
    }
    return !wb::find_compute_sanitizer(home).empty();
}

#define WB_REQUIRE_SANITIZER()                                                                     \
    do {                                                                                           \
        WB_REQUIRE_GPU();                                                                          \
        if (!have_compute_sanitizer())                                                             \
            GTEST_SKIP() << "needs compute-sanitizer (CUDA Toolkit bin/ or PATH); none was found"; \
    } while (0)

std::string data(const std::string& name) { return wb::read_file(source_dir() + "/tests/data/sanitizer/" + name, 1 << 20); }

wb::RunRequest request(const char* lesson, const char* step, const char* test_case, const std::string& source,
                       wb::SanitizerTool tool) {
    wb::RunRequest q;
    q.trusted = true;  // on a GPU machine the bundle's binaries may not know this checkout as shipped
    q.lesson = load_shipped(lesson);
    q.step = step;
    q.test_case = test_case;
    if (source.empty()) {
        q.source = wb::SourceChoice::Solution;
    } else {
        q.source = wb::SourceChoice::Custom;
        q.custom_source = source;
        q.custom_origin = "student.cu";
    }
    q.keep_buffers = false;
    q.sanitizer = tool;
    return q;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

TEST(Sanitizer, OffByOneWriteIsCaughtByTheGuardsAndMemcheckReportsItsLineThreadAndBlock) {
    WB_REQUIRE_SANITIZER();
    wb::WorkerBackend worker;
    auto normal_req = request("01_vector_add.json", "1", "ragged", data("off_by_one.cu"), wb::SanitizerTool::None);
    normal_req.timing = false;
    auto t0 = std::chrono::steady_clock::now();
    wb::RunResult normal = worker.run(normal_req);
    double normal_s = seconds_since(t0);
    // The guard zones after every buffer catch the write of c[1000] in a normal run too.
    ASSERT_EQ(normal.status, wb::RunStatus::Mismatch) << normal.message;
    EXPECT_NE(normal.message.find("wrote outside buffer 'c'"), std::string::npos) << normal.message;

    t0 = std::chrono::steady_clock::now();
    wb::RunResult r = worker.run(request("01_vector_add.json", "1", "ragged", data("off_by_one.cu"), wb::SanitizerTool::Memcheck));
    double memcheck_s = seconds_since(t0);
    ASSERT_EQ(r.status, wb::RunStatus::SanitizerErrors) << r.message << "\n" << r.output;
    EXPECT_GT(r.sanitizer_errors, 0);
    EXPECT_FALSE(r.gpu_time.has_value()) << "a sanitized run is not timed";
    // Memcheck stops at the first bad access of thread 232: the read of a[1000] on the same line.
    ASSERT_FALSE(r.sanitizer_findings.empty()) << r.output;
    const wb::SanitizerFinding* write = &r.sanitizer_findings[0];
    EXPECT_EQ(write->file, "student.cu");
    EXPECT_EQ(write->line, 5);
    ASSERT_TRUE(write->has_thread);
    // N = 1000, block 256: element 1000 belongs to block 3, thread 1000 - 768 = 232.
    EXPECT_EQ(write->block, (std::array<int, 3>{3, 0, 0}));
    EXPECT_EQ(write->thread, (std::array<int, 3>{232, 0, 0}));
    // The warm worker is untouched: the next normal run works.
    EXPECT_EQ(worker.run(request("01_vector_add.json", "1", "ragged", "", wb::SanitizerTool::None)).status,
              wb::RunStatus::Passed);
    std::printf("[ figures  ] vector_add ragged: normal run %.3f s, under memcheck %.3f s (%.0fx)\n", normal_s,
                memcheck_s, memcheck_s / normal_s);
}

// The issue's own case: only the write goes one element past the end.
TEST(Sanitizer, AWriteOnePastTheEndIsReportedAsAWriteOnItsLine) {
    WB_REQUIRE_SANITIZER();
    wb::WorkerBackend worker;
    auto normal_req = request("01_vector_add.json", "1", "ragged", data("write_past_end.cu"), wb::SanitizerTool::None);
    normal_req.timing = false;
    const wb::RunResult normal = worker.run(normal_req);
    ASSERT_EQ(normal.status, wb::RunStatus::Mismatch) << "the guard zone after 'c' sees the write: " << normal.message;
    EXPECT_NE(normal.message.find("first at element [1000], past its end"), std::string::npos) << normal.message;
    wb::RunResult r =
        worker.run(request("01_vector_add.json", "1", "ragged", data("write_past_end.cu"), wb::SanitizerTool::Memcheck));
    ASSERT_EQ(r.status, wb::RunStatus::SanitizerErrors) << r.message << "\n" << r.output;
    ASSERT_FALSE(r.sanitizer_findings.empty()) << r.output;
    const wb::SanitizerFinding& f = r.sanitizer_findings[0];
    EXPECT_NE(f.kind.find("write"), std::string::npos) << f.to_string();
    EXPECT_EQ(f.line, 5);
    ASSERT_TRUE(f.has_thread);
    EXPECT_EQ(f.block, (std::array<int, 3>{3, 0, 0}));
    EXPECT_EQ(f.thread, (std::array<int, 3>{232, 0, 0}));
    std::printf("[ finding  ] %s\n", f.to_string().c_str());
}

TEST(Sanitizer, TiledMatmulWithoutTheSecondSyncthreadsIsCaughtByRacecheck) {
    WB_REQUIRE_SANITIZER();
    wb::WorkerBackend worker;
    auto t0 = std::chrono::steady_clock::now();
    wb::RunResult r = worker.run(request("06_matmul.json", "shared_memory_tiles", "ragged", data("racy_matmul.cu"), wb::SanitizerTool::Racecheck));
    double s = seconds_since(t0);
    ASSERT_EQ(r.status, wb::RunStatus::SanitizerErrors) << r.message << "\n" << r.output;
    ASSERT_FALSE(r.sanitizer_findings.empty()) << r.output;
    bool on_tile_lines = false;
    for (const auto& f : r.sanitizer_findings)
        if ((f.line >= 15 && f.line <= 18) || (f.other_line >= 15 && f.other_line <= 18)) on_tile_lines = true;
    EXPECT_TRUE(on_tile_lines) << r.output;
    EXPECT_EQ(r.sanitizer_errors, 2) << r.output;
    std::printf("[ figures  ] racy tiled matmul ragged under racecheck: %.3f s, %d errors, %zu findings\n", s,
                r.sanitizer_errors, r.sanitizer_findings.size());
}

TEST(Sanitizer, LessonSolutionsAreCleanUnderMemcheckAndRacecheck) {
    WB_REQUIRE_SANITIZER();
    wb::WorkerBackend worker;
    auto t0 = std::chrono::steady_clock::now();
    wb::RunResult m = worker.run(request("01_vector_add.json", "1", "ragged", "", wb::SanitizerTool::Memcheck));
    double ms = seconds_since(t0);
    EXPECT_EQ(m.status, wb::RunStatus::Passed) << m.message << "\n" << m.output;
    EXPECT_EQ(m.sanitizer_errors, 0) << m.output;
    EXPECT_TRUE(m.sanitizer_findings.empty());
    wb::RunResult rc = worker.run(request("06_matmul.json", "shared_memory_tiles", "ragged", "", wb::SanitizerTool::Racecheck));
    EXPECT_EQ(rc.status, wb::RunStatus::Passed) << rc.message << "\n" << rc.output;
    EXPECT_EQ(rc.sanitizer_errors, 0) << rc.output;
    t0 = std::chrono::steady_clock::now();
    wb::RunResult big = worker.run(request("01_vector_add.json", "1", "large", "", wb::SanitizerTool::Memcheck));
    double big_s = seconds_since(t0);
    EXPECT_EQ(big.status, wb::RunStatus::Passed) << big.message << "\n" << big.output;
    auto plain = request("01_vector_add.json", "1", "large", "", wb::SanitizerTool::None);
    plain.timing = false;
    t0 = std::chrono::steady_clock::now();
    EXPECT_EQ(worker.run(plain).status, wb::RunStatus::Passed);
    double plain_s = seconds_since(t0);
    std::printf("[ figures  ] clean memcheck: vector_add ragged %.3f s; large (16M) %.3f s vs %.3f s normal\n", ms, big_s,
                plain_s);
}
