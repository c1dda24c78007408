// tests/unit/case_checks_test.cpp — the checks a case can require beyond its
// outputs: a clean race check ("racecheck"), a block size ("block"), exact
// rounding (a step compiled with --fmad=false and compared with atol 0), and
// a kernel step's speed target. The loader reads each and names the JSON path
// of a wrong one; on the CPU emulator a pinned block size runs, a truncating
// kernel fails lesson 03's exact step, and what needs a GPU (the race check,
// the target) is said not to have run, never said to have passed.
#include "cli_runner.hpp"
#include "lesson/loader.hpp"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

namespace {

namespace fs = std::filesystem;
using wb::LoadResult;

const fs::path kGood = fs::path(WB_SOURCE_DIR) / "tests" / "data" / "lessons_good";

std::string data(const std::string& name) { return std::string(WB_SOURCE_DIR) + "/tests/data/" + name; }

std::string slurp(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// The minimal good lesson (one kernel step), changed by `edit`, then loaded.
template <class Edit>
LoadResult minimal_after(Edit edit) {
    auto j = nlohmann::ordered_json::parse(slurp(kGood / "minimal.json"));
    edit(j);
    return wb::load_lesson_text(j.dump(2), kGood / "minimal.json");
}

// A second kernel step, "faster", a copy of the first, for targets.
void add_second_step(nlohmann::ordered_json& j) {
    auto step = j["steps"][0];
    step["id"] = "faster";
    j["steps"].push_back(step);
}

bool has_issue(const LoadResult& r, const std::string& path, const std::string& message_part) {
    return std::any_of(r.issues.begin(), r.issues.end(), [&](const wb::LessonIssue& i) {
        return i.json_path == path && i.message.find(message_part) != std::string::npos;
    });
}

std::string all(const LoadResult& r) {
    std::string out;
    for (const auto& i : r.issues) out += "  " + i.to_string() + "\n";
    return out;
}

TEST(CaseChecksLoader, RacecheckAndBlockAreReadPerCaseAndRacecheckPerStep) {
    auto r = minimal_after([](auto& j) {
        j["checks"]["racecheck"] = true;
        j["checks"]["cases"] = {{{"name", "default"}},
                                {{"name", "narrow"}, {"racecheck", false}, {"block", {96}}},
                                {{"name", "square"}, {"block", {16, 16}}}};
    });
    ASSERT_TRUE(r.ok()) << all(r);
    const wb::Step& s = r.lesson->steps[0];
    EXPECT_TRUE(s.checks.requires_racecheck(s.checks.cases[0]));  // the step's default
    EXPECT_FALSE(s.checks.requires_racecheck(s.checks.cases[1]));  // the case says otherwise
    EXPECT_FALSE(s.checks.cases[0].block);
    ASSERT_TRUE(s.checks.cases[1].block);
    EXPECT_EQ(*s.checks.cases[1].block, (std::array<long long, 3>{96, 1, 1}));
    EXPECT_EQ(*s.checks.cases[2].block, (std::array<long long, 3>{16, 16, 1}));
}

TEST(CaseChecksLoader, AWrongRacecheckOrBlockNamesItsJsonPath) {
    auto race = minimal_after([](auto& j) { j["checks"]["cases"][0]["racecheck"] = "yes"; });
    EXPECT_TRUE(has_issue(race, "checks.cases[0].racecheck", "expected true or false")) << all(race);
    auto step_race = minimal_after([](auto& j) { j["checks"]["racecheck"] = 1; });
    EXPECT_TRUE(has_issue(step_race, "checks.racecheck", "expected true or false")) << all(step_race);

    auto zero = minimal_after([](auto& j) { j["checks"]["cases"][0]["block"] = {64, 0}; });
    EXPECT_TRUE(has_issue(zero, "checks.cases[0].block[1]", "whole number of threads from 1 to 1024")) << all(zero);
    auto half = minimal_after([](auto& j) { j["checks"]["cases"][0]["block"] = {64.5}; });
    EXPECT_TRUE(has_issue(half, "checks.cases[0].block[0]", "whole number")) << all(half);
    auto many = minimal_after([](auto& j) { j["checks"]["cases"][0]["block"] = {64, 32}; });
    EXPECT_TRUE(has_issue(many, "checks.cases[0].block", "2048 threads is more than any GPU runs (1024)")) << all(many);
    auto shape = minimal_after([](auto& j) { j["checks"]["cases"][0]["block"] = 64; });
    EXPECT_TRUE(has_issue(shape, "checks.cases[0].block", "expected an array of 1 to 3 whole numbers")) << all(shape);
    auto expr = minimal_after([](auto& j) { j["checks"]["cases"][0]["block"] = {"N"}; });
    EXPECT_TRUE(has_issue(expr, "checks.cases[0].block[0]", "got a string")) << all(expr);
}

TEST(CaseChecksLoader, AKernelStepCanTargetAnotherKernelStepByItsGpuTime) {
    auto r = minimal_after([](auto& j) {
        j["format"] = 2;
        add_second_step(j);
        j["steps"][1]["checks"] = {{"target", {{"step", "twice"}, {"at_most", 0.7}}}};
    });
    ASSERT_TRUE(r.ok()) << all(r);
    const auto& t = r.lesson->steps[1].checks.target;
    ASSERT_TRUE(t);
    EXPECT_EQ(t->step, "twice");
    EXPECT_EQ(t->measure, wb::TargetMeasure::Kernels);
    EXPECT_DOUBLE_EQ(t->at_most, 0.7);
    EXPECT_EQ(t->json_path, "steps[1].checks.target");
    EXPECT_FALSE(r.lesson->steps[1].checks.cases.empty());  // format 2: the lesson's cases stay

    auto wall = minimal_after([](auto& j) {
        j["format"] = 2;
        add_second_step(j);
        j["steps"][1]["checks"] = {{"target", {{"step", "twice"}, {"at_most", 0.7}, {"measure", "wall"}}}};
    });
    EXPECT_TRUE(has_issue(wall, "steps[1].checks.target.measure", "a kernel step's target compares its kernels' GPU time"))
        << all(wall);
    auto itself = minimal_after([](auto& j) {
        j["format"] = 2;
        j["steps"][0]["checks"] = {{"target", {{"step", "twice"}, {"at_most", 0.7}}}};
    });
    EXPECT_TRUE(has_issue(itself, "steps[0].checks.target.step", "its own target")) << all(itself);
}

TEST(CaseChecksLoader, AKernelStepCannotTargetAHostStep) {
    auto j = nlohmann::ordered_json::parse(slurp(kGood / "minimal.json"));
    j["format"] = 2;
    add_second_step(j);
    j["steps"][1]["checks"] = {{"target", {{"step", "twice"}, {"at_most", 0.7}}}};
    j["steps"][0]["host"] = nlohmann::ordered_json::object();
    j["steps"][0]["reference"] = j["reference"];
    j["steps"][0]["reference"]["args"] = {"x", "y", "N"};
    const LoadResult mixed = wb::load_lesson_text(j.dump(2), kGood / "minimal.json");
    EXPECT_TRUE(has_issue(mixed, "steps[1].checks.target.step", "step 'twice' is a host step; a kernel step's target compares kernel steps"))
        << all(mixed);
}

TEST(CaseChecksLoader, AHostStepsCaseCannotPinABlock) {
    auto j = nlohmann::ordered_json::parse(slurp(kGood / "minimal.json"));
    j["steps"][0]["host"] = nlohmann::ordered_json::object();
    j["steps"][0]["reference"] = j["reference"];
    j["steps"][0]["reference"]["args"] = {"x", "y", "N"};
    j["steps"][0]["checks"] = j["checks"];
    j["steps"][0]["checks"]["cases"][0]["block"] = {64};
    const LoadResult r = wb::load_lesson_text(j.dump(2), kGood / "minimal.json");
    EXPECT_TRUE(has_issue(r, "steps[0].checks.cases[0].block", "a host step makes its own launches")) << all(r);
}

TEST(CaseChecksLoader, TheShippedLessonsUseTheNewChecks) {
    auto histogram = wb::load_lesson(fs::path(WB_SOURCE_DIR) / "lessons" / "08_histogram.json");
    ASSERT_TRUE(histogram.ok()) << all(histogram);
    const wb::Step& shared = histogram.lesson->steps[1];
    ASSERT_TRUE(shared.find_case("block_96") && shared.find_case("block_96")->block);
    EXPECT_EQ((*shared.find_case("block_96")->block)[0], 96);
    EXPECT_TRUE(shared.checks.requires_racecheck(*shared.find_case("ragged")));

    auto gray = wb::load_lesson(fs::path(WB_SOURCE_DIR) / "lessons" / "03_rgb_to_gray.json");
    ASSERT_TRUE(gray.ok()) << all(gray);
    const wb::Step& bytes = gray.lesson->steps[1];
    EXPECT_EQ(bytes.checks.compare.at(0).atol, 0);
    EXPECT_NE(std::find(bytes.compile.options.begin(), bytes.compile.options.end(), "--fmad=false"), bytes.compile.options.end());

    auto transpose = wb::load_lesson(fs::path(WB_SOURCE_DIR) / "lessons" / "09_transpose.json");
    ASSERT_TRUE(transpose.ok()) << all(transpose);
    ASSERT_TRUE(transpose.lesson->steps[2].checks.target);
    EXPECT_EQ(transpose.lesson->steps[2].checks.target->step, "shared_tile");
}

// On the CPU emulator, through the CLI as an instructor or a student meets it.

TEST(CaseChecksEmulator, AKernelThatAssumes256ThreadsFailsThePinnedBlockCase) {
    // The lesson's own 256-thread blocks: it passes.
    auto lesson_block = run_cli("run lessons/08_histogram.json --step 2 --case ragged --backend cpu --no-timing --source " +
                                data("checks/histogram_256_threads.cu"));
    EXPECT_EQ(lesson_block.code, 0) << lesson_block.out;
    auto narrow = run_cli("run lessons/08_histogram.json --step 2 --case block_96 --backend cpu --no-timing --source " +
                          data("checks/histogram_256_threads.cu"));
    EXPECT_EQ(narrow.code, 1) << narrow.out;
    // Bins 96..255 of `local` are never cleared, and the atomics read them: the emulator's initcheck names it.
    EXPECT_TRUE(contains(narrow.out, "of the __shared__ array 'local' at histogram_256_threads.cu:13, before any thread of "
                                     "the block wrote it"))
        << narrow.out;
    EXPECT_TRUE(contains(narrow.out, "histogram<<<(6,1,1), (96,1,1), 0>>>")) << narrow.out;  // the case's block, and the grid that follows it
    auto solution = run_cli("run lessons/08_histogram.json --step 2 --case block_96 --backend cpu --no-timing --solution");
    EXPECT_EQ(solution.code, 0) << solution.out;
    auto wide = run_cli("run lessons/08_histogram.json --step 2 --case block_1024 --backend cpu --no-timing --solution");
    EXPECT_EQ(wide.code, 0) << wide.out;
}

TEST(CaseChecksEmulator, TheStudentsOwnBlockOverrideWinsOverTheCases) {
    auto r = run_cli("run lessons/08_histogram.json --step 2 --case block_96 --block 256 --backend cpu --no-timing --source " +
                     data("checks/histogram_256_threads.cu"));
    EXPECT_EQ(r.code, 0) << r.out;
}

TEST(CaseChecksEmulator, TruncatingToAByteFailsTheExactRoundingStep) {
    auto truncating = run_cli("run lessons/03_rgb_to_gray.json --step 2 --case photo --backend cpu --no-timing --source " +
                              data("checks/gray_truncating.cu"));
    EXPECT_EQ(truncating.code, 1) << truncating.out;
    EXPECT_TRUE(contains(truncating.out, "output 'gray'")) << truncating.out;
    auto solution = run_cli("run lessons/03_rgb_to_gray.json --step 2 --case photo --backend cpu --no-timing --solution");
    EXPECT_EQ(solution.code, 0) << solution.out;
}

TEST(CaseChecksEmulator, ARequiredRaceCheckIsSaidToBeTheEmulatorsOwn) {
    auto r = run_cli("run lessons/08_histogram.json --step 2 --case ragged --backend cpu --no-timing --solution");
    EXPECT_EQ(r.code, 0) << r.out;
    EXPECT_TRUE(contains(r.out, "requires a clean race check: the emulator checked every access for races, as racecheck does "
                                "on a GPU, and found none"))
        << r.out;
    // A case that does not require it says nothing of it.
    auto other = run_cli("run lessons/08_histogram.json --step 2 --case one --backend cpu --no-timing --solution");
    EXPECT_FALSE(contains(other.out, "race check")) << other.out;
}

TEST(CaseChecksEmulator, TheCheckCommandReportsTheEmulatorsOwnRaceCheck) {
    auto r = run_cli("check lessons/08_histogram.json --backend cpu");
    EXPECT_EQ(r.code, 0) << r.out;
    EXPECT_TRUE(contains(r.out, "racecheck required by the lesson: the CPU emulator's race check watched every access "
                                "instead, and found no race"))
        << r.out;
    EXPECT_FALSE(contains(r.out, "racecheck: no errors")) << r.out;
}

TEST(CaseChecksEmulator, AKernelStepsTargetSaysItNeedsAGpu) {
    auto r = run_cli("run lessons/09_transpose.json --step 3 --case one_tile --backend cpu --solution");
    EXPECT_EQ(r.code, 0) << r.out;
    EXPECT_TRUE(contains(r.out, "does not apply: the speed target needs a GPU; here the step is judged on its cases alone"))
        << r.out;
}

}  // namespace
