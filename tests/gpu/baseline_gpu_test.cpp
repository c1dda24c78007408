// tests/gpu/baseline_gpu_test.cpp — the shipped lessons' baselines on a real
// GPU: cuBLAS SGEMM beside the tiled matmul, a device memcpy beside the vector
// add, a CUB block reduce beside the warp-shuffle reduction, a CUB scan
// beside a test lesson's multi-pass scan (i32). Each runs on the
// step's inputs, is checked (cuBLAS and CUB by the step's own compare rule),
// is timed, and the kernel's share of its speed is known.
#include "gpu_test_support.hpp"

#include "pipeline/run.hpp"

#include <cstdio>

namespace {

wb::RunResult run(const std::string& lesson, const std::string& step, const std::string& test_case) {
    static auto backend = wb::make_local_backend();
    return backend->run(solution_request(lesson, step, test_case));
}

void expect_baseline(const char* what, const wb::RunResult& r) {
    ASSERT_EQ(r.status, wb::RunStatus::Passed) << r.message;
    ASSERT_TRUE(r.baseline);
    const wb::BaselineResult& b = *r.baseline;
    ASSERT_TRUE(b.ran) << b.note;
    EXPECT_TRUE(b.passed) << b.note;
    EXPECT_GT(b.median_ms, 0);
    EXPECT_GT(r.baseline_fraction(), 0);
    std::printf("[ figures  ] baseline %s: %s %.4f ms (%.1f GB/s, %.1f GFLOP/s, %d samples, batch %d); yours %.4f ms, %.0f%%%s\n", what,
                b.label.c_str(), b.median_ms, b.gbs(), b.gflops(), b.samples, b.batch, r.gpu_time->median_ms,
                100 * r.baseline_fraction(), b.kind == "memcpy" ? " of its GB/s" : " of its speed");
}

}  // namespace

TEST(Baseline, CublasBesideTheTiledMatmul) {
    WB_REQUIRE_GPU();
    const wb::RunResult r = run("06_matmul.json", "3", "large");
    expect_baseline("tiled matmul 1024", r);
    ASSERT_TRUE(r.baseline->check);
    EXPECT_EQ(r.baseline->check->buffer, "C");
    EXPECT_LT(r.baseline->median_ms, r.gpu_time->median_ms) << "cuBLAS is faster than a 16x16 tiled kernel";
}

TEST(Baseline, MemcpyBesideTheVectorAdd) {
    WB_REQUIRE_GPU();
    const wb::RunResult r = run("01_vector_add.json", "2", "large");
    expect_baseline("vector add 16M", r);
    EXPECT_EQ(r.baseline->batch, r.gpu_time->batch) << "the copy is timed as the kernel was: graph replays alike";
}

TEST(Baseline, CubBesideTheWarpShuffleReduction) {
    WB_REQUIRE_GPU();
    const wb::RunResult r = run("07_reduction.json", "3", "n16777216");
    expect_baseline("reduction 16M", r);
    ASSERT_TRUE(r.baseline->check);
    EXPECT_EQ(r.baseline->check->buffer, "sum");
}

// tests/data/lessons_good/multipass_scan.json names the scan baseline; a
// ragged size checks the last tile's partial load and store, a large one the
// scan of 512 tile totals.
TEST(Baseline, CubScanBesideTheMultiPassScan) {
    WB_REQUIRE_GPU();
    static auto backend = wb::make_local_backend();
    for (const char* test_case : {"ragged", "large"}) {
        wb::RunRequest req = solution_request("", "", test_case);
        auto loaded = wb::load_lesson(source_dir() + "/tests/data/lessons_good/multipass_scan.json");
        ASSERT_TRUE(loaded.ok());
        req.lesson = std::make_shared<const wb::Lesson>(std::move(*loaded.lesson));
        const wb::RunResult r = backend->run(req);
        expect_baseline(test_case, r);
        ASSERT_TRUE(r.baseline->check);
        EXPECT_EQ(r.baseline->check->buffer, "y");
        EXPECT_EQ(r.baseline->check->mismatches, 0u);
    }
}
