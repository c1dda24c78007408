// tests/app/edits_kept_test.cpp — the editor policy that keeps every edit (app_state.hpp), with no
// window: select_step and select_lesson save the text being left first; a failed save keeps the
// step open and is said, not thrown; replace_editor_text keeps the replaced text in the work
// folder's history and marks the change undoable. The widget side (one undo step) is in
// code_editor_test.cpp; tests/app/edits_kept_test.sh drives the same through the real window.
#include "app_state.hpp"
#include "lesson_catalog.hpp"
#include "student_work.hpp"

#include "core/fs.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;

namespace wb::app {
namespace {

std::string lesson_json(const std::string& id) {
    return R"~({
  "$schema": "./lesson.schema.json",
  "format": 2,
  "id": ")~" + id + R"~(",
  "title": "Edits",
  "params": {"N": {"type": "i32", "default": 16, "min": 1, "max": 1000}},
  "buffers": [
    {"name": "x", "type": "f32", "shape": ["N"], "role": "input", "init": {"kind": "ramp"}},
    {"name": "y", "type": "f32", "shape": ["N"], "role": "output"}
  ],
  "launches": [{"entry": "twice", "block": [64], "grid": ["ceil_div(N, block.x)"], "args": ["x", "y", "N"]}],
  "reference": {"source": "void reference(const float* x, float* y, int n) { for (int i = 0; i < n; ++i) y[i] = 2 * x[i]; }"},
  "checks": {"cases": [{"name": "default"}]},
  "steps": [
    {"id": "first", "title": "First", "starter": "extern \"C\" __global__ void twice(const float* x, float* y, int n) { /* first */ }",
     "solution": "extern \"C\" __global__ void twice(const float* x, float* y, int n) { /* solved */ }"},
    {"id": "second", "title": "Second", "starter": "extern \"C\" __global__ void twice(const float* x, float* y, int n) { /* second */ }",
     "solution": "extern \"C\" __global__ void twice(const float* x, float* y, int n) {}"}
  ]
}
)~";
}

class EditsKept : public ::testing::Test {
protected:
    void SetUp() override {
        char tmpl[] = "/tmp/wb_edits_test_XXXXXX";
        ASSERT_NE(mkdtemp(tmpl), nullptr);
        dir_ = tmpl;
        setenv("XDG_DATA_HOME", (dir_ / "data").c_str(), 1);
        fs::create_directories(dir_ / "lessons");
        std::ofstream(dir_ / "lessons" / "a.json") << lesson_json("edits_a");
        std::ofstream(dir_ / "lessons" / "b.json") << lesson_json("edits_b");
        state_.lessons = load_catalog(dir_ / "lessons");
        ASSERT_EQ(state_.lessons.size(), 2u);
        ASSERT_TRUE(state_.lessons[0].ok() && state_.lessons[1].ok());
        ASSERT_TRUE(select_lesson(state_, 0));
    }
    void TearDown() override {
        std::error_code ec;
        fs::remove_all(dir_, ec);
    }
    std::string id(int lesson) const { return state_.lessons[static_cast<std::size_t>(lesson)].id(); }

    fs::path dir_;
    AppState state_;
};

TEST_F(EditsKept, SwitchingStepSavesTheTextBeingLeftAtOnce) {
    set_editor_text(state_, "// typed a moment ago\n");
    ASSERT_TRUE(select_step(state_, 1));
    EXPECT_EQ(load_work(id(0), "first"), "// typed a moment ago\n");
    EXPECT_NE(state_.editor.text.find("/* second */"), std::string::npos);
    ASSERT_TRUE(select_step(state_, 0));
    EXPECT_EQ(state_.editor.text, "// typed a moment ago\n");
}

TEST_F(EditsKept, SwitchingLessonSavesUnderTheLessonBeingLeft) {
    set_editor_text(state_, "// lesson a's text\n");
    ASSERT_TRUE(select_lesson(state_, 1));
    EXPECT_EQ(load_work(id(0), "first"), "// lesson a's text\n");
    EXPECT_FALSE(load_work(id(1), "first")) << "the text went to the lesson being opened";
}

TEST_F(EditsKept, AFailedSaveKeepsTheStepOpenAndSaysWhy) {
    fs::create_directories(work_file(id(0), "first"));  // a folder where the file must go
    set_editor_text(state_, "// cannot be saved yet\n");
    EXPECT_FALSE(select_step(state_, 1));
    EXPECT_EQ(state_.selected_step, 0);
    EXPECT_EQ(state_.editor.text, "// cannot be saved yet\n");
    EXPECT_FALSE(state_.save_error.empty());
    EXPECT_FALSE(select_lesson(state_, 1));
    EXPECT_EQ(state_.selected_lesson, 0);
    // Once the path is free, the next try saves and the switch goes ahead.
    fs::remove(work_file(id(0), "first"));
    ASSERT_TRUE(select_step(state_, 1));
    EXPECT_TRUE(state_.save_error.empty());
    EXPECT_EQ(load_work(id(0), "first"), "// cannot be saved yet\n");
}

TEST_F(EditsKept, ReplacingTheTextKeepsAHistoryCopyAndIsUndoable) {
    set_editor_text(state_, "// my attempt\n");
    replace_editor_text(state_, state_.lessons[0].lesson->steps[0].starter.text, "reset to the starter");
    EXPECT_NE(state_.editor.text.find("/* first */"), std::string::npos);
    EXPECT_TRUE(state_.editor.replace_undoably);
    const fs::path history = work_file(id(0), "first").parent_path() / "history";
    int copies = 0;
    for (const auto& f : fs::directory_iterator(history)) {
        ++copies;
        EXPECT_EQ(read_file(f.path()), "// my attempt\n");
        EXPECT_EQ(f.path().filename().string().rfind("first.", 0), 0u) << f.path();
    }
    EXPECT_EQ(copies, 1);
    // Two replacements within the same second keep two copies.
    set_editor_text(state_, "// a second attempt\n");
    replace_editor_text(state_, state_.lessons[0].lesson->steps[0].solution.text, "show the solution");
    copies = 0;
    for ([[maybe_unused]] const auto& f : fs::directory_iterator(history)) ++copies;
    EXPECT_EQ(copies, 2);
}

}  // namespace
}  // namespace wb::app
