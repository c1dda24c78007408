// tests/unit/lesson_warnings_test.cpp — what `validate` warns about in a lesson that loads
// (runtime/lesson/warnings.hpp): a baseline whose output no compare names.
#include "lesson/loader.hpp"
#include "lesson/warnings.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

using namespace wb;
namespace fs = std::filesystem;

namespace {

std::vector<LessonIssue> warnings_of(const std::string& rel) {
    const std::string path = std::string(WB_SOURCE_DIR) + "/" + rel;
    auto r = load_lesson(path);
    EXPECT_TRUE(r.ok()) << rel;
    return r.ok() ? lesson_warnings(*r.lesson, rel) : std::vector<LessonIssue>{};
}

}  // namespace

// Lesson 22 times cuBLAS SGEMM on FP32 copies (A32, B32 -> C32) that no compare names: each
// step gets the warning, at the baseline's "c", naming the buffer and the step.
TEST(LessonWarnings, ABaselineWhoseOutputNoCompareNamesIsWarnedAbout) {
    const auto w = warnings_of("lessons/22_tensor_cores.json");
    ASSERT_EQ(w.size(), 2u);
    for (const LessonIssue& i : w) {
        EXPECT_EQ(i.json_path, "baseline.c");
        EXPECT_NE(i.message.find("'C32'"), std::string::npos) << i.message;
        EXPECT_NE(i.message.find("never checked"), std::string::npos) << i.message;
    }
    EXPECT_NE(w[0].message.find("step 'warp_tile'"), std::string::npos) << w[0].message;
}

// Every other shipped lesson's baseline writes a buffer its steps compare, or is a copy.
TEST(LessonWarnings, EveryOtherShippedBaselineIsChecked) {
    for (const auto& e : fs::directory_iterator(fs::path(WB_SOURCE_DIR) / "lessons")) {
        const std::string name = e.path().filename().string();
        if (e.path().extension() != ".json" || name == "lesson.schema.json" || name == "22_tensor_cores.json") continue;
        for (const LessonIssue& i : warnings_of("lessons/" + name))
            EXPECT_EQ(i.json_path.find("baseline"), std::string::npos) << i.to_string();
    }
}
