// Sweeps without a GPU: the range syntax, the points a plan holds and leaves
// out, the request each point makes, the summary, and the CLI's `sweep`.
#include "cli_runner.hpp"
#include "core/error.hpp"
#include "lesson/loader.hpp"
#include "measure/sweep.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace {

const wb::Lesson& lesson(const char* name) {
    static std::map<std::string, wb::Lesson> cache;
    auto it = cache.find(name);
    if (it == cache.end()) {
        auto r = wb::load_lesson(std::string(WB_SOURCE_DIR "/lessons/") + name);
        EXPECT_TRUE(r.ok());
        it = cache.emplace(name, std::move(*r.lesson)).first;
    }
    return it->second;
}

std::vector<std::string> labels(const wb::SweepPlan& p) {
    std::vector<std::string> v;
    for (const auto& pt : p.points) v.push_back(pt.label);
    return v;
}

std::string usage_message(const std::function<void()>& f) {
    try {
        f();
    } catch (const wb::Error& e) {
        EXPECT_EQ(e.kind(), wb::ErrorKind::Usage);
        return e.message();
    }
    return "(no error)";
}

}  // namespace

TEST(SweepRange, FactorStepAndListForms) {
    auto a = wb::parse_param_sweep("N=1024:16384:x2");
    EXPECT_EQ(a.param, "N");
    EXPECT_EQ(a.values, (std::vector<double>{1024, 2048, 4096, 8192, 16384}));
    EXPECT_EQ(wb::parse_param_sweep("N=256:1024:+256").values, (std::vector<double>{256, 512, 768, 1024}));
    EXPECT_EQ(wb::parse_param_sweep("N=5,1,3").values, (std::vector<double>{5, 1, 3}));
    // The end is reached despite rounding in the factor.
    EXPECT_EQ(wb::parse_param_sweep("x=0.1:0.4:+0.1").values.size(), 4u);
}

TEST(SweepRange, BadTextSaysWhatIsWrong) {
    EXPECT_NE(usage_message([] { wb::parse_param_sweep("1024:4096:x2"); }).find("NAME=FROM:TO:xFACTOR"), std::string::npos);
    EXPECT_NE(usage_message([] { wb::parse_param_sweep("N=1:8:y2"); }).find("must be xFACTOR"), std::string::npos);
    EXPECT_NE(usage_message([] { wb::parse_param_sweep("N=1:8:x1"); }).find("factor must be above 1"), std::string::npos);
    EXPECT_NE(usage_message([] { wb::parse_param_sweep("N=8:1:x2"); }).find("TO is below FROM"), std::string::npos);
    EXPECT_NE(usage_message([] { wb::parse_param_sweep("N=1,two,3"); }).find("'two' is not a number"), std::string::npos);
    EXPECT_NE(usage_message([] { wb::parse_param_sweep("N=1:1000:+1"); }).find("more than 64 points"), std::string::npos);
}

TEST(SweepPlan, A1DBlockTriesWarpMultiplesThatFit) {
    const wb::Step& step = *lesson("01_vector_add.json").find_step("grid_stride_loop");
    auto plan = wb::plan_sweep(step, {}, 1024);
    EXPECT_EQ(labels(plan), (std::vector<std::string>{"32", "64", "96", "128", "192", "256", "384", "512", "768", "1024"}));
    EXPECT_TRUE(plan.left_out.empty());
    EXPECT_EQ(plan.x_label, "threads per block");
    // A device with a smaller limit leaves the rest out, and says why.
    plan = wb::plan_sweep(step, {}, 512);
    EXPECT_EQ(plan.points.size(), 8u);
    ASSERT_EQ(plan.left_out.size(), 2u);
    EXPECT_EQ(plan.left_out[0], "768: over the 512 threads a block may have");
}

TEST(SweepPlan, A2DBlockKeepsItsShape) {
    const wb::Step& step = *lesson("03_rgb_to_gray.json").find_step("grid_2d_hwc");
    auto plan = wb::plan_sweep(step, {}, 1024);
    ASSERT_FALSE(plan.points.empty());
    for (const auto& p : plan.points) {
        ASSERT_TRUE(p.block);
        EXPECT_GE((*p.block)[1], 2) << p.label;
        EXPECT_GE(p.x, 64) << p.label;
        EXPECT_LE(p.x, 1024) << p.label;
        EXPECT_EQ(p.x, double((*p.block)[0] * (*p.block)[1]));
    }
    const auto l = labels(plan);
    EXPECT_NE(std::find(l.begin(), l.end(), "16x16"), l.end());
    EXPECT_NE(std::find(l.begin(), l.end(), "32x8"), l.end());
}

TEST(SweepPlan, AParamSweepKeepsToItsBounds) {
    const wb::Step& step = *lesson("01_vector_add.json").find_step("grid_stride_loop");
    auto plan = wb::plan_sweep(step, wb::parse_param_sweep("N=0.4,1000,1000.4,200000000"));
    // N is an i32 between 1 and 10^8: 0.4 rounds to 0 (below), 1000.4 to 1000 (a repeat).
    EXPECT_EQ(labels(plan), (std::vector<std::string>{"N=1000"}));
    EXPECT_EQ(plan.left_out, (std::vector<std::string>{"N=0: below its minimum 1", "N=200000000: above its maximum 100000000"}));
    EXPECT_EQ(plan.x_label, "N");
    EXPECT_NE(usage_message([&] { wb::plan_sweep(step, wb::parse_param_sweep("M=1,2")); }).find("has no param 'M' (it has N)"),
              std::string::npos);
}

TEST(SweepRequest, APointSetsTheTunedBlockOrItsParam) {
    const wb::Step& step = *lesson("01_vector_add.json").find_step("grid_stride_loop");
    wb::RunRequest base;
    base.params["N"] = 5000;
    base.launches.resize(1);
    base.launches[0].grid = std::array<long long, 3>{7, 1, 1};
    auto plan = wb::plan_sweep(step, {}, 1024);
    const wb::RunRequest r = wb::sweep_request(base, step, plan.points[1]);
    ASSERT_TRUE(r.launches[0].block);
    EXPECT_EQ((*r.launches[0].block)[0], 64);
    EXPECT_FALSE(r.launches[0].grid);  // the lesson's grid expression follows the block
    EXPECT_EQ(r.params.at("N"), 5000);
    const wb::RunRequest p = wb::sweep_request(base, step, wb::plan_sweep(step, wb::parse_param_sweep("N=64")).points[0]);
    EXPECT_EQ(p.params.at("N"), 64);
    EXPECT_TRUE(p.launches[0].grid);  // a param sweep keeps the launch it was given
}

TEST(SweepSummary, TheFastestIsAPointThatPassed) {
    wb::SweepPlan plan;
    plan.points.resize(3);
    plan.points[0].label = "32";
    plan.points[1].label = "64";
    plan.points[2].label = "128";
    std::vector<wb::RunResult> results(3);
    for (int i = 0; i < 3; ++i) {
        results[i].gpu_time = wb::Timing{};
        results[i].bytes = 1e6;
    }
    results[0].status = wb::RunStatus::Passed;
    results[0].gpu_time->median_ms = 0.5;
    results[1].status = wb::RunStatus::Mismatch;  // faster, but wrong
    results[1].gpu_time->median_ms = 0.1;
    results[2].status = wb::RunStatus::Passed;
    results[2].gpu_time->median_ms = 0.25;
    const auto s = wb::summarize_sweep(plan, results);
    EXPECT_EQ(s.fastest, 2);
    EXPECT_EQ(s.passed, 2);
    EXPECT_EQ(s.failed, 1);
    EXPECT_EQ(s.text, "3 points, 2 passed, 1 failed; fastest 128 at 0.2500 ms (4.0 GB/s)");
}

TEST(CliSweep, WithoutAGpuEveryPointCompilesAndChecksItsLimits) {
    auto r = run_cli("sweep lessons/01_vector_add.json --step grid_stride_loop --solution");
    EXPECT_EQ(r.code, 4) << r.out;
    EXPECT_TRUE(contains(r.out, "sweep block size of vector_add, 10 points")) << r.out;
    EXPECT_TRUE(contains(r.out, "1024         compile-only")) << r.out;
    EXPECT_TRUE(contains(r.out, "summary 10 points, 0 passed, 0 failed, 10 compile-only (no GPU ran them)\n")) << r.out;
}

TEST(CliSweep, JsonHasEveryPointAndWhatWasLeftOut) {
    auto r = run_cli("sweep lessons/01_vector_add.json --step 2 --solution --range N=0,1000,4096 --json");
    EXPECT_EQ(r.code, 4) << r.out;
    auto j = nlohmann::json::parse(r.out.substr(r.out.find('{')));
    EXPECT_EQ(j["axis"], "param");
    EXPECT_EQ(j["x_label"], "N");
    ASSERT_EQ(j["points"].size(), 2u);
    EXPECT_EQ(j["points"][1]["label"], "N=4096");
    EXPECT_EQ(j["points"][1]["status"], "compile-only");
    EXPECT_EQ(j["left_out"][0], "N=0: below its minimum 1");
}

TEST(CliSweep, ABadSweepIsABadCommandLine) {
    auto r = run_cli("sweep lessons/01_vector_add.json --range M=1:4:x2");
    EXPECT_EQ(r.code, 2) << r.out;
    EXPECT_TRUE(contains(r.out, "has no param 'M' (it has N)")) << r.out;
    r = run_cli("sweep lessons/01_vector_add.json --blocks --block 64");
    EXPECT_EQ(r.code, 2) << r.out;
    EXPECT_TRUE(contains(r.out, "--block fixes the block that --blocks sweeps")) << r.out;
}
