// tests/unit/launch_passes_test.cpp — multi-pass launches, the tuned launch
// and constants from values, up to the point where a GPU would take over.
//
// What the loader keeps, how passes and their sizes resolve for given params,
// and the errors a run reports with their JSON paths: a passes expression out
// of range, swapped buffers whose sizes differ. WB_DISABLE_CUDA_DRIVER=1 makes
// every run compile-only here and on the GPU machine; the kernels themselves
// run in tests/gpu/lessons_gpu_test.cpp.
#include "core/error.hpp"
#include "lesson/loader.hpp"
#include "pipeline/run.hpp"

#include "scoped_cache_dir.hpp"

#include <gtest/gtest.h>

#include <cstdlib>

using namespace wb;

namespace {

const std::string kGood = std::string(WB_SOURCE_DIR) + "/tests/data/lessons_good/";

class LaunchPasses : public DriverOffTest {};

Lesson load_ok(const std::string& file) {
    LoadResult r = load_lesson(kGood + file);
    EXPECT_TRUE(r.ok()) << (r.issues.empty() ? "" : r.issues[0].to_string());
    return r.ok() ? std::move(*r.lesson) : Lesson{};
}

// The scan lesson with one launch field replaced, as a lesson object.
std::shared_ptr<const Lesson> scan_with(void (*edit)(Lesson&)) {
    Lesson l = load_ok("multipass_scan.json");
    edit(l);
    return std::make_shared<const Lesson>(std::move(l));
}

}  // namespace

TEST(LaunchPassesLoader, PassesSwapAndTunedAreKept) {
    Lesson l = load_ok("multipass_scan.json");
    ASSERT_EQ(l.steps.size(), 1u);
    const Step& s = l.steps[0];
    ASSERT_EQ(s.launches.size(), 2u);
    EXPECT_FALSE(s.launches[0].multi_pass());
    EXPECT_FALSE(s.launches[0].tuned);
    EXPECT_TRUE(s.launches[1].multi_pass());
    EXPECT_EQ(s.launches[1].passes, "max(1, ceil(log2(N)))");
    ASSERT_EQ(s.launches[1].swap.size(), 1u);
    EXPECT_EQ(s.launches[1].swap[0], (std::pair<std::string, std::string>{"x", "y"}));
    EXPECT_TRUE(s.launches[1].tuned);
    EXPECT_EQ(s.tuned_launch(), 1u);
}

TEST(LaunchPassesLoader, WithoutAMarkTheFirstLaunchIsTuned) {
    Lesson l = load_ok("constant_mask.json");
    EXPECT_EQ(l.steps[0].tuned_launch(), 0u);
}

TEST(LaunchPassesLoader, ConstantValuesAreExpressionsWithAType) {
    Lesson l = load_ok("constant_mask.json");
    ASSERT_EQ(l.steps.size(), 2u);
    const Step& s = l.steps[1];
    ASSERT_EQ(s.constants.size(), 1u);
    EXPECT_TRUE(s.constants[0].buffer.empty());
    ASSERT_EQ(s.constants[0].values.size(), 5u);
    EXPECT_EQ(s.constants[0].values[4], "0.1 + 0.2*4");
    EXPECT_EQ(s.constants[0].type, DType::F32);
    EXPECT_EQ(s.constants[0].json_path, "steps[1].constants[0]");
}

TEST(LaunchPassesResolve, PassCountAndEachPassesSizesFollowTheParams) {
    Lesson l = load_ok("multipass_scan.json");
    const LaunchSpec& scan = l.steps[0].launches[1];
    EXPECT_EQ(resolve_passes(scan, {{"N", 1}}), 1);       // max(1, 0)
    EXPECT_EQ(resolve_passes(scan, {{"N", 1000}}), 10);   // 2^10 = 1024 >= 1000
    EXPECT_EQ(resolve_passes(scan, {{"N", 1024}}), 10);
    EXPECT_EQ(resolve_passes(scan, {{"N", 1025}}), 11);
    EXPECT_EQ(resolve_passes(l.steps[0].launches[0], {{"N", 1000}}), 1);  // no "passes": one

    // `pass` reaches the expressions of a multi-pass launch.
    LaunchSpec spec = scan;
    spec.grid = {"ceil_div(N, block.x * pow2(pass))", "1", "1"};
    EXPECT_EQ(resolve_launch(spec, {{"N", 4096}}, nullptr, 0).grid[0], 16);
    EXPECT_EQ(resolve_launch(spec, {{"N", 4096}}, nullptr, 3).grid[0], 2);
}

TEST(LaunchPassesResolve, APassesExpressionOutOfRangeNamesItsPath) {
    Lesson l = load_ok("multipass_scan.json");
    LaunchSpec spec = l.steps[0].launches[1];
    spec.passes = "N";
    try {
        resolve_passes(spec, {{"N", double(kMaxPasses + 1)}});
        FAIL() << "passes above the cap were accepted";
    } catch (const Error& e) {
        EXPECT_EQ(e.where().json_path, "launches[1].passes");  // the lesson-level launch the step inherits
        EXPECT_NE(e.message().find("0 to 4096 passes"), std::string::npos) << e.message();
    }
    spec.passes = "N - 2";
    EXPECT_THROW(resolve_passes(spec, {{"N", 1}}), Error);  // -1 passes
}

TEST_F(LaunchPasses, TheTunedLaunchTakesTheOverrideAndEveryLaunchIsReported) {
    auto lesson = std::make_shared<const Lesson>(load_ok("multipass_scan.json"));
    RunRequest q;
    q.lesson = lesson;
    q.source = SourceChoice::Solution;
    q.test_case = "ragged";
    LaunchOverride ov;
    ov.block = std::array<long long, 3>{64, 1, 1};
    q.launches.resize(lesson->steps[0].tuned_launch() + 1);
    q.launches.back() = ov;
    RunResult r = make_local_backend()->run(q);
    ASSERT_EQ(r.status, RunStatus::CompileOnly) << r.message;
    ASSERT_EQ(r.launches.size(), 2u);
    EXPECT_EQ(r.launches[0].entry, "zero");
    EXPECT_EQ(r.launches[0].dims.block[0], 128);  // the helper keeps the lesson's block
    EXPECT_EQ(r.launches[0].passes, 1);
    EXPECT_FALSE(r.launches[0].tuned);
    EXPECT_EQ(r.launches[1].entry, "scan_pass");
    EXPECT_EQ(r.launches[1].dims.block[0], 64);
    EXPECT_EQ(r.launches[1].dims.grid[0], 16);  // ceil(1000 / 64), from the lesson's grid expression
    EXPECT_EQ(r.launches[1].passes, 10);
    EXPECT_TRUE(r.launches[1].tuned);
}

TEST_F(LaunchPasses, ALaterPassThatBreaksALimitIsRefusedWithItsNumber) {
    auto lesson = scan_with([](Lesson& l) { l.steps[0].launches[1].block = {"256 * pow2(pass)", "1", "1"}; });
    RunRequest q;
    q.lesson = lesson;
    q.source = SourceChoice::Solution;
    q.test_case = "ragged";
    RunResult r = make_local_backend()->run(q);
    EXPECT_EQ(r.status, RunStatus::Refused) << r.message;
    EXPECT_NE(r.message.find("(pass 3)"), std::string::npos) << r.message;  // 2048 threads
}

// The rule the GUI's launch panel uses too (app_state.cpp): every launch, every pass, no run.
TEST_F(LaunchPasses, TheLaunchRuleChecksEveryPassWithoutARun) {
    auto lesson = scan_with([](Lesson& l) { l.steps[0].launches[1].block = {"256 * pow2(pass)", "1", "1"}; });
    const Step& step = lesson->steps[0];
    std::map<std::string, double> params = resolve_params(step, step.find_case("ragged"), {});
    const auto reports = check_step_launches(step, params, {}, limits_for_arch(90));
    ASSERT_EQ(reports.size(), 2u) << "stops at the refused launch";
    ASSERT_TRUE(reports[1].refusal.has_value());
    EXPECT_EQ(reports[1].refusal->limit, "block.x");  // 2048 threads in x, over 1024
    EXPECT_NE(reports[1].refusal->message.find("(pass 3)"), std::string::npos) << reports[1].refusal->message;
    EXPECT_NE(reports[1].refusal->message_in("zh").find("（第 3 遍）"), std::string::npos) << reports[1].refusal->message_in("zh");
}

TEST_F(LaunchPasses, SwappedBuffersOfDifferentSizesAreAnErrorAtTheSwap) {
    auto lesson = scan_with([](Lesson& l) {
        for (auto& b : l.steps[0].buffers)
            if (b.name == "y") b.shape = {"N + 1"};
    });
    RunRequest q;
    q.lesson = lesson;
    q.source = SourceChoice::Solution;
    q.test_case = "ragged";
    RunResult r = make_local_backend()->run(q);
    EXPECT_EQ(r.status, RunStatus::InputError);
    EXPECT_NE(r.message.find("cannot swap between passes"), std::string::npos) << r.message;
    EXPECT_NE(r.message.find("launches[1].swap[0]"), std::string::npos) << r.message;
}

TEST_F(LaunchPasses, ABadConstantValueIsReportedWithoutAGpu) {
    LoadResult lr = load_lesson(kGood + "constant_mask.json");
    ASSERT_TRUE(lr.ok());
    Lesson l = std::move(*lr.lesson);
    l.steps[1].constants[0].values[2] = "1 / (N - N)";
    RunRequest q;
    q.lesson = std::make_shared<const Lesson>(std::move(l));
    q.step = "2";
    q.source = SourceChoice::Solution;
    RunResult r = make_local_backend()->run(q);
    EXPECT_EQ(r.status, RunStatus::InputError) << r.message;
    EXPECT_NE(r.message.find("steps[1].constants[0].values[2]: '1 / (N - N)' is not a finite number"), std::string::npos) << r.message;
}
