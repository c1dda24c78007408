// Baselines without a GPU: the lesson format's "baseline" and its errors, the
// CUB kernel compiling through NVRTC, the result crossing the pipe, and the
// share of the baseline's speed. Timed baselines run in tests/gpu/baseline_gpu_test.cpp.
#include "core/fs.hpp"
#include "lesson/loader.hpp"
#include "measure/baseline.hpp"
#include "pipeline/run.hpp"
#include "pipeline/wire.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace {

const std::string kDir = WB_SOURCE_DIR "/lessons/";

// 01_vector_add.json with its lesson-level baseline replaced by `baseline` (null: removed).
wb::LoadResult with_baseline(const nlohmann::ordered_json& baseline, const char* lesson = "01_vector_add.json") {
    auto j = nlohmann::ordered_json::parse(wb::read_file(kDir + lesson, 1 << 20));
    if (baseline.is_null()) j.erase("baseline");
    else j["baseline"] = baseline;
    return wb::load_lesson_text(j.dump(), kDir + lesson);
}

std::string issues(const wb::LoadResult& r) {
    std::string s;
    for (const auto& i : r.issues) s += i.json_path + ": " + i.message + "\n";
    return s;
}

}  // namespace

TEST(Baseline, ShippedLessonsNameTheirs) {
    auto vec = wb::load_lesson(kDir + "01_vector_add.json");
    ASSERT_TRUE(vec.ok());
    ASSERT_TRUE(vec.lesson->steps[0].baseline);
    EXPECT_EQ(vec.lesson->steps[0].baseline->kind, wb::BaselineKind::Memcpy);
    EXPECT_EQ(wb::baseline_label(*vec.lesson->steps[0].baseline), "device memcpy a -> c");
    auto mm = wb::load_lesson(kDir + "06_matmul.json");
    ASSERT_TRUE(mm.ok());
    for (const auto& step : mm.lesson->steps) {
        ASSERT_TRUE(step.baseline);
        EXPECT_EQ(step.baseline->kind, wb::BaselineKind::CublasSgemm);
        EXPECT_EQ(step.baseline->sizes.at("k"), "K");
    }
    auto red = wb::load_lesson(kDir + "07_reduction.json");
    ASSERT_TRUE(red.ok());
    EXPECT_EQ(red.lesson->steps[2].baseline->buffers.at("out"), "sum");
}

TEST(Baseline, MistakesAreNamedWithTheirPath) {
    auto r = with_baseline({{"kind", "cudnn"}});
    EXPECT_NE(issues(r).find("baseline.kind: unknown baseline kind 'cudnn'; expected one of cublas_sgemm, memcpy, cub_reduce_sum, cub_scan_sum"),
              std::string::npos) << issues(r);
    r = with_baseline({{"kind", "memcpy"}, {"from", "a"}, {"to", "d"}});
    EXPECT_NE(issues(r).find("baseline.to: unknown buffer 'd'"), std::string::npos) << issues(r);
    r = with_baseline({{"kind", "memcpy"}, {"from", "c"}, {"to", "a"}});
    EXPECT_NE(issues(r).find("baseline.to: buffer 'a' is an input"), std::string::npos) << issues(r);
    r = with_baseline({{"kind", "cub_reduce_sum"}, {"in", "a"}, {"out", "c"}});
    EXPECT_NE(issues(r).find("baseline: missing \"n\""), std::string::npos) << issues(r);
    r = with_baseline({{"kind", "cub_reduce_sum"}, {"in", "a"}, {"out", "c"}, {"n", "N"}, {"m", "N"}});
    EXPECT_NE(issues(r).find("baseline"), std::string::npos) << "an unknown key is reported";
    EXPECT_FALSE(r.ok());
    r = with_baseline({{"kind", "cub_reduce_sum"}, {"in", "a"}, {"out", "c"}, {"n", "M * 2"}});
    EXPECT_NE(issues(r).find("baseline.n"), std::string::npos) << issues(r);
    EXPECT_TRUE(with_baseline(nullptr).ok());
}

TEST(Baseline, TheCubKernelCompilesWithoutAGpu) {
    const wb::CompileResult c = wb::compile_cub_reduce("sm_90");
    EXPECT_TRUE(c.ok) << c.log;
    EXPECT_FALSE(c.image.empty());
}

// The scan baseline: the format takes it, and its six kernels (three passes,
// f32 and i32) compile through NVRTC with CUB's block primitives.
TEST(Baseline, TheCubScanParsesAndItsKernelsCompileWithoutAGpu) {
    auto r = with_baseline({{"kind", "cub_scan_sum"}, {"in", "a"}, {"out", "c"}, {"n", "N"}});
    ASSERT_TRUE(r.ok()) << issues(r);
    ASSERT_TRUE(r.lesson->steps[0].baseline);
    EXPECT_EQ(r.lesson->steps[0].baseline->kind, wb::BaselineKind::CubScanSum);
    EXPECT_EQ(wb::baseline_label(*r.lesson->steps[0].baseline), "CUB BlockScan inclusive sum");
    EXPECT_EQ(wb::baseline_kind_name(wb::BaselineKind::CubScanSum), std::string("cub_scan_sum"));
    r = with_baseline({{"kind", "cub_scan_sum"}, {"in", "a"}, {"out", "c"}});
    EXPECT_NE(issues(r).find("baseline: missing \"n\""), std::string::npos) << issues(r);
    r = with_baseline({{"kind", "cub_scan_sum"}, {"in", "x"}, {"out", "y"}, {"n", "N"}}, "07_reduction.json");
    EXPECT_FALSE(r.ok()) << "the reduction has no x and y";

    const wb::CompileResult c = wb::compile_cub_scan("sm_90");
    ASSERT_TRUE(c.ok) << c.log;
    EXPECT_EQ(c.lowered_names.size(), 6u);
    for (const char* entry : {"cub_scan_tiles_f32", "cub_scan_totals_i32", "cub_scan_add_f32"})
        EXPECT_TRUE(c.lowered_names.count(entry)) << entry;
}

TEST(Baseline, CrossesThePipeAndSaysTheShareOfItsSpeed) {
    wb::RunResult r;
    r.status = wb::RunStatus::Passed;
    r.bytes = 12e6;
    r.gpu_time = wb::Timing{};
    r.gpu_time->median_ms = 0.2;
    r.gpu_time->samples_ms = {0.2};
    wb::BaselineResult b;
    b.kind = "cublas_sgemm";
    b.label = "cuBLAS SGEMM";
    b.ran = b.passed = true;
    b.median_ms = 0.05;
    b.samples = 40;
    b.bytes = 12e6;
    b.check = wb::CompareResult{};
    b.check->buffer = "C";
    b.check->passed = true;
    r.baseline = b;
    EXPECT_DOUBLE_EQ(r.baseline_fraction(), 0.25);  // a quarter of cuBLAS's speed
    const wb::RunResult back = wb::decode_result(wb::encode_result(r));
    ASSERT_TRUE(back.baseline);
    EXPECT_EQ(back.baseline->label, "cuBLAS SGEMM");
    EXPECT_EQ(back.baseline->samples, 40);
    ASSERT_TRUE(back.baseline->check);
    EXPECT_EQ(back.baseline->check->buffer, "C");
    // Against a memcpy the share is of GB/s: the copy moves other bytes.
    r.baseline->kind = "memcpy";
    r.baseline->bytes = 8e6;  // 160 GB/s; the kernel's 12 MB in 0.2 ms is 60 GB/s
    EXPECT_DOUBLE_EQ(r.baseline_fraction(), 60.0 / 160.0);
    r.baseline->ran = false;
    EXPECT_EQ(r.baseline_fraction(), 0);
}

// A baseline that did not run says why in the student's language, across the pipe too.
TEST(Baseline, NoteInEveryLanguage) {
    wb::RunResult r;
    wb::BaselineResult b;
    b.label = "cuBLAS SGEMM";
    b.note_said = {{"baseline.buffer_too_small", {"A", "100", "4096"}}};
    b.note = wb::render(b.note_said, "en");
    r.baseline = b;
    const wb::RunResult back = wb::decode_result(wb::encode_result(r));
    ASSERT_TRUE(back.baseline);
    EXPECT_EQ(back.baseline->note_in("en"), "buffer 'A' holds 100 elements; the baseline needs 4096");
    EXPECT_EQ(back.baseline->note_in("zh"), "缓冲区 'A' 有 100 个元素；基准需要 4096 个");
    // A note edited after its sentence was made is shown as it is, never the stale sentence.
    wb::BaselineResult edited = *back.baseline;
    edited.note = "something else";
    EXPECT_EQ(edited.note_in("zh"), "something else");
}
