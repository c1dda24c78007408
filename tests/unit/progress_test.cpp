// tests/unit/progress_test.cpp — when a step counts as done (runtime/lesson/progress.hpp): every
// case that applies where it ran, passed by one text of the kernel; one passing case is progress,
// never the step.
#include "lesson/loader.hpp"
#include "lesson/progress.hpp"

#include <gtest/gtest.h>

namespace wb {
namespace {

const Lesson& vector_add() {
    static const LoadResult loaded = load_lesson(WB_SOURCE_DIR "/lessons/01_vector_add.json");
    EXPECT_TRUE(loaded.ok());
    return *loaded.lesson;
}

TEST(Progress, OnePassingCaseIsNotTheStep) {
    const Step& step = vector_add().steps[0];
    CaseTally t;
    // The Numba habit `int i = threadIdx.x;` with a bounds test passes `small` (N=8) only.
    t.add("numba-habit", true, "small", true);
    EXPECT_FALSE(t.done(step));
    EXPECT_EQ(t.passed_of(step), 1);
    t.add("numba-habit", true, "ragged", false);
    t.add("numba-habit", true, "large", false);
    EXPECT_FALSE(t.done(step));
}

TEST(Progress, EveryCasePassedByOneTextIsTheStep) {
    const Step& step = vector_add().steps[0];
    CaseTally t;
    for (const std::string& c : cases_to_pass(step, true)) t.add("solution", true, c, true);
    EXPECT_TRUE(t.done(step));
    EXPECT_EQ(t.passed_of(step), static_cast<int>(step.checks.cases.size()));
}

TEST(Progress, ANewTextStartsTheCountAgain) {
    const Step& step = vector_add().steps[0];
    const std::vector<std::string> cases = cases_to_pass(step, false);
    CaseTally t;
    for (std::size_t i = 0; i + 1 < cases.size(); ++i) t.add("text one", false, cases[i], true);
    // The last case passes only with another text: no mix of two texts adds up to a pass.
    t.add("text two", false, cases.back(), true);
    EXPECT_FALSE(t.done(step));
    EXPECT_EQ(t.passed_of(step), 1);
    // A failure takes a case out again.
    t.add("text two", false, cases.back(), false);
    EXPECT_EQ(t.passed_of(step), 0);
}

TEST(Progress, TheEmulatorSkipsWhatTheLessonKeepsForTheGpuAndNeverDoesAHostStep) {
    const Lesson& l = vector_add();
    EXPECT_EQ(cases_to_pass(l.steps[0], true).size(), l.steps[0].checks.cases.size());
    const LoadResult memory = load_lesson(WB_SOURCE_DIR "/lessons/16_memory.json");
    ASSERT_TRUE(memory.ok());
    const Step& host = memory.lesson->steps[0];
    ASSERT_TRUE(host.is_host());
    EXPECT_TRUE(cases_to_pass(host, true).empty());
    EXPECT_EQ(cases_to_pass(host, false).size(), host.checks.cases.size());
    CaseTally t;
    t.add("x", true, host.checks.cases[0].name, true);
    EXPECT_FALSE(t.done(host)) << "a step with no case to pass on the emulator is never done there";
    // A GPU's passes and the emulator's are not mixed.
    CaseTally mixed;
    const std::vector<std::string> cases = cases_to_pass(l.steps[0], false);
    for (std::size_t i = 0; i + 1 < cases.size(); ++i) mixed.add("same text", false, cases[i], true);
    mixed.add("same text", true, cases.back(), true);
    EXPECT_FALSE(mixed.done(l.steps[0]));
}

}  // namespace
}  // namespace wb
