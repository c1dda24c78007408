// tests/app/lesson_reload_test.cpp — the instructor's loop without a window
// (app/lesson_reload.hpp): a changed lesson file is reloaded once it settles;
// the student keeps the step (by id, else the nearest), their text and the
// launch settings they changed; a file that does not load keeps the last good
// lesson and says file, line and JSON path; a fix clears that. Also where a
// JSON path's line is found (app/json_path_line.hpp).
#include "app_state.hpp"
#include "json_path_line.hpp"
#include "lesson_reload.hpp"
#include "student_work.hpp"


#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace fs = std::filesystem;

namespace wb::app {
namespace {

// A lesson of `steps` (ids), each with an inline starter unless `starter_file`.
std::string lesson_json(const std::string& title, const std::vector<std::string>& steps,
                        const std::string& block = "64", const std::string& starter_file = "") {
    std::string j = R"({
  "$schema": "./lesson.schema.json",
  "format": 1,
  "id": "reload",
  "title": ")" + title + R"(",
  "params": {"N": {"type": "i32", "default": 16, "min": 1, "max": 1000}},
  "buffers": [
    {"name": "x", "type": "f32", "shape": ["N"], "role": "input", "init": {"kind": "ramp"}},
    {"name": "y", "type": "f32", "shape": ["N"], "role": "output"}
  ],
  "launches": [{"entry": "twice", "block": [)" + block + R"~(], "grid": ["ceil_div(N, block.x)"], "args": ["x", "y", "N"]}],
  "reference": {"source": "void reference(const float* x, float* y, int n) { for (int i = 0; i < n; ++i) y[i] = 2 * x[i]; }"},
  "checks": {"cases": [{"name": "default"}, {"name": "big", "params": {"N": 900}}]},
  "steps": [)~";
    for (std::size_t i = 0; i < steps.size(); ++i) {
        const std::string starter = starter_file.empty()
            ? R"~("extern \"C\" __global__ void twice(const float* x, float* y, int n) { /* )~" + steps[i] + R"( */ }")"
            : R"({"file": ")" + starter_file + R"("})";
        j += std::string(i ? ",\n" : "\n") + R"(    {"id": ")" + steps[i] + R"(", "title": "Step )" + steps[i] +
             R"(", "starter": )" + starter + R"~(, "solution": "extern \"C\" __global__ void twice(const float* x, float* y, int n) {}"})~";
    }
    return j + "\n  ]\n}\n";
}

class LessonReload : public ::testing::Test {
protected:
    void SetUp() override {
        char tmpl[] = "/tmp/wb_reload_test_XXXXXX";
        ASSERT_NE(mkdtemp(tmpl), nullptr);
        dir_ = tmpl;
        setenv("XDG_DATA_HOME", (dir_ / "data").c_str(), 1);
        fs::create_directories(dir_ / "lessons");
        file_ = dir_ / "lessons" / "reload.json";
    }
    void TearDown() override {
        std::error_code ec;
        fs::remove_all(dir_, ec);
    }
    void write(const fs::path& file, const std::string& text) {
        std::ofstream(file, std::ios::binary | std::ios::trunc) << text;
    }
    // Opens the lesson as the app does at start-up, at `step`.
    void open(const std::string& json, int step = 0) {
        write(file_, json);
        state_.lessons = load_catalog(dir_ / "lessons");
        ASSERT_EQ(state_.lessons.size(), 1u);
        ASSERT_TRUE(state_.lessons[0].ok()) << issues();
        select_lesson(state_, 0);
        select_step(state_, step);
        state_.now = 0;
        ASSERT_EQ(poll_lesson_files(state_), ReloadCheck::Unchanged);
    }
    // Polls until a reload happened (or failed): the change settles over two polls.
    ReloadCheck poll_until_reloaded() {
        for (int i = 0; i < 6; ++i) {
            state_.now += kLessonPollInterval;
            const ReloadCheck r = poll_lesson_files(state_);
            if (r == ReloadCheck::Reloaded || r == ReloadCheck::Failed) return r;
        }
        return ReloadCheck::Unchanged;
    }
    // The open entry's issues, for failure messages.
    std::string issues() const {
        std::string out;
        for (const LessonEntry& e : state_.lessons)
            for (const LessonIssue& i : e.issues) out += "\n  " + i.to_string();
        return out;
    }
    bool logged(const std::string& text) const {
        for (const LogLine& l : state_.log)
            if (l.text.find(text) != std::string::npos) return true;
        return false;
    }

    fs::path dir_;
    fs::path file_;
    AppState state_;
};

TEST_F(LessonReload, ANewTitleReloadsAndTheStudentsTextStays) {
    open(lesson_json("Old title", {"a", "b"}), 1);
    set_editor_text(state_, "// my own kernel\n");
    const std::uint64_t revision = state_.editor.revision;
    write(file_, lesson_json("A new title", {"a", "b"}));
    EXPECT_EQ(poll_until_reloaded(), ReloadCheck::Reloaded) << issues();
    ASSERT_TRUE(state_.lesson);
    EXPECT_EQ(state_.lesson->title.get(), "A new title");
    EXPECT_EQ(state_.lessons[0].lesson->title.get(), "A new title");
    EXPECT_EQ(state_.selected_step, 1);
    EXPECT_EQ(state_.editor.text, "// my own kernel\n");
    EXPECT_EQ(state_.editor.revision, revision) << "the student's text is not touched";
    EXPECT_NE(state_.editor.compile_submitted_revision, state_.editor.revision) << "compile-as-you-type runs again";
    EXPECT_TRUE(logged("reloaded " + file_.string()));
    EXPECT_FALSE(state_.lessons[0].broken());
}

TEST_F(LessonReload, AChangeIsReadOnlyOnceTheFileHoldsStill) {
    open(lesson_json("Old title", {"a"}));
    write(file_, lesson_json("Half saved", {"a"}));
    state_.now += kLessonPollInterval;
    EXPECT_EQ(poll_lesson_files(state_), ReloadCheck::Settling);
    state_.now += 0.1;
    EXPECT_EQ(poll_lesson_files(state_), ReloadCheck::NotDue);
    write(file_, lesson_json("Fully saved at last", {"a"}));
    state_.now += kLessonPollInterval;
    EXPECT_EQ(poll_lesson_files(state_), ReloadCheck::Settling) << "it moved since the last look";
    state_.now += kLessonPollInterval;
    EXPECT_EQ(poll_lesson_files(state_), ReloadCheck::Reloaded);
    EXPECT_EQ(state_.lesson->title.get(), "Fully saved at last");
    state_.now += kLessonPollInterval;
    EXPECT_EQ(poll_lesson_files(state_), ReloadCheck::Unchanged);
}

TEST_F(LessonReload, TheStepIsKeptByIdWhenStepsMove) {
    open(lesson_json("T", {"a", "b", "c"}), 1);
    write(file_, lesson_json("T", {"new_first", "a", "b", "c"}));
    EXPECT_EQ(poll_until_reloaded(), ReloadCheck::Reloaded) << issues();
    ASSERT_NE(selected_step(state_), nullptr);
    EXPECT_EQ(selected_step(state_)->id, "b");
    EXPECT_EQ(state_.selected_step, 2);
}

TEST_F(LessonReload, AStepThatIsGoneOpensTheNearestAndItsTextIsSaved) {
    open(lesson_json("T", {"a", "b", "c"}), 2);
    set_editor_text(state_, "// typed in c\n");
    write(file_, lesson_json("T", {"a", "b"}));
    EXPECT_EQ(poll_until_reloaded(), ReloadCheck::Reloaded) << issues();
    ASSERT_NE(selected_step(state_), nullptr);
    EXPECT_EQ(selected_step(state_)->id, "b");
    EXPECT_EQ(load_work("reload", "c").value_or(""), "// typed in c\n");
    EXPECT_TRUE(logged("step c is no longer in the lesson; opened b"));
}

TEST_F(LessonReload, AnUntouchedStarterFollowsTheLessonsNewStarter) {
    write(dir_ / "lessons" / "starter.cu", "// starter one\n");
    open(lesson_json("T", {"a"}, "64", "starter.cu"));
    EXPECT_EQ(state_.editor.text, "// starter one\n");
    write(dir_ / "lessons" / "starter.cu", "// starter two, longer\n");  // a side file, not the JSON
    EXPECT_EQ(poll_until_reloaded(), ReloadCheck::Reloaded) << issues();
    EXPECT_EQ(state_.editor.text, "// starter two, longer\n");
    EXPECT_TRUE(logged("reloaded " + (dir_ / "lessons" / "starter.cu").string()));
    EXPECT_EQ(state_.editor.saved_revision, state_.editor.revision) << "the lesson's text is not the student's work";

    set_editor_text(state_, "// the student's version\n");
    write(dir_ / "lessons" / "starter.cu", "// starter three, longer still\n");
    EXPECT_EQ(poll_until_reloaded(), ReloadCheck::Reloaded) << issues();
    EXPECT_EQ(state_.editor.text, "// the student's version\n");
}

TEST_F(LessonReload, LaunchSettingsTheStudentChangedStayTheRestFollowTheLesson) {
    open(lesson_json("T", {"a"}, "64"));
    state_.launch.params["N"] = 500;  // changed by the student
    state_.launch.shared_bytes = 128;
    write(file_, lesson_json("T", {"a"}, "32, 1"));  // the lesson's block changes (and the file's size)
    EXPECT_EQ(poll_until_reloaded(), ReloadCheck::Reloaded) << issues();
    EXPECT_EQ(state_.launch.block[0], 32) << "not changed by the student: follows the lesson";
    EXPECT_EQ(state_.launch.params["N"], 500);
    EXPECT_EQ(state_.launch.shared_bytes, 128);

    state_.launch.block = {128, 1, 1};
    state_.launch.test_case = "big";
    std::string json = lesson_json("T", {"a"}, "32, 1");
    json.replace(json.find("\"max\": 1000"), 11, "\"max\": 100");  // 500 is no longer allowed
    json.replace(json.find("\"N\": 900"), 8, "\"N\": 90");
    write(file_, json);
    EXPECT_EQ(poll_until_reloaded(), ReloadCheck::Reloaded) << issues();
    EXPECT_EQ(state_.launch.block[0], 128);
    EXPECT_EQ(state_.launch.test_case, "big");
    EXPECT_EQ(state_.launch.params["N"], 90) << "out of the new range: the case's value";
}

TEST_F(LessonReload, ASyntaxErrorKeepsTheLastGoodLessonWithTheLine) {
    open(lesson_json("Good", {"a"}));
    set_editor_text(state_, "// mine\n");
    std::string broken = lesson_json("Broken", {"a"});
    broken.replace(broken.find("\"params\""), 0, ",");  // a second comma on line 6
    write(file_, broken);
    EXPECT_EQ(poll_until_reloaded(), ReloadCheck::Failed);
    ASSERT_TRUE(state_.lesson);
    EXPECT_EQ(state_.lesson->title.get(), "Good");
    ASSERT_TRUE(state_.lessons[0].ok());
    ASSERT_TRUE(state_.lessons[0].broken());
    const LessonIssue& issue = state_.lessons[0].issues.front();
    EXPECT_EQ(issue.file, file_.string());
    EXPECT_EQ(issue.line, 6) << issue.to_string();
    EXPECT_EQ(state_.editor.text, "// mine\n");
    EXPECT_NE(selected_step(state_), nullptr) << "the old lesson is still usable";
    EXPECT_TRUE(logged("could not reload"));
    EXPECT_EQ(state_.lesson->json_text.find(",\"params\""), std::string::npos)
        << "a run sends the text of the version on screen, not the broken file";

    write(file_, lesson_json("Fixed", {"a"}));
    EXPECT_EQ(poll_until_reloaded(), ReloadCheck::Reloaded) << issues();
    EXPECT_FALSE(state_.lessons[0].broken());
    EXPECT_EQ(state_.lesson->title.get(), "Fixed");
    EXPECT_EQ(state_.editor.text, "// mine\n");
}

TEST_F(LessonReload, ASemanticErrorNamesItsJsonPathAndLine) {
    open(lesson_json("Good", {"a"}));
    std::string broken = lesson_json("Good", {"a"});
    broken.replace(broken.find("ceil_div(N, block.x)"), 20, "ceil_div(MM, block.x)");
    write(file_, broken);
    EXPECT_EQ(poll_until_reloaded(), ReloadCheck::Failed);
    const auto& issues = state_.lessons[0].issues;
    ASSERT_FALSE(issues.empty());
    EXPECT_EQ(issues.front().json_path.rfind("launches[0].grid", 0), 0u) << issues.front().to_string();
    EXPECT_EQ(issues.front().line, 11) << issues.front().to_string();
    EXPECT_NE(issues.front().to_string().find(file_.string() + ":11: launches[0].grid"), std::string::npos)
        << issues.front().to_string();
}

TEST_F(LessonReload, ALessonBrokenAtStartUpOpensOnceFixed) {
    write(file_, "{ \"format\": 1,\n  \"id\": \n}\n");
    state_.lessons = load_catalog(dir_ / "lessons");
    ASSERT_EQ(state_.lessons.size(), 1u) << "a broken lesson stays in the list";
    EXPECT_FALSE(state_.lessons[0].ok());
    ASSERT_FALSE(state_.lessons[0].issues.empty());
    EXPECT_EQ(state_.lessons[0].issues.front().line, 3);
    select_lesson(state_, 0);
    EXPECT_EQ(state_.lesson, nullptr);
    state_.now = 0;
    write(file_, lesson_json("Now it loads", {"a", "b"}));
    EXPECT_EQ(poll_until_reloaded(), ReloadCheck::Reloaded) << issues();
    ASSERT_TRUE(state_.lesson);
    EXPECT_EQ(state_.lesson->title.get(), "Now it loads");
    ASSERT_NE(selected_step(state_), nullptr);
    EXPECT_EQ(selected_step(state_)->id, "a");
}

TEST_F(LessonReload, TheLessonsSideFilesAreWatched) {
    write(dir_ / "lessons" / "starter.cu", "// s\n");
    open(lesson_json("T", {"a"}, "64", "starter.cu"));
    const std::vector<fs::path> files = lesson_files(*state_.lessons[0].lesson);
    ASSERT_EQ(files.size(), 2u);
    EXPECT_EQ(files[0], file_);
    EXPECT_EQ(files[1], dir_ / "lessons" / "starter.cu");
    EXPECT_TRUE(changed_files(state_.lessons[0]).empty());
    fs::remove(dir_ / "lessons" / "starter.cu");
    EXPECT_EQ(changed_files(state_.lessons[0]), std::vector<fs::path>{dir_ / "lessons" / "starter.cu"});
    EXPECT_EQ(poll_until_reloaded(), ReloadCheck::Failed) << "a side file that is gone is a problem, shown";
    EXPECT_TRUE(state_.lessons[0].ok());
}

TEST(JsonPathLine, FindsTheLineOfEachKindOfPath) {
    const std::string text =
        "{\n"
        "  \"id\": \"x\",\n"
        "  \"params\": {\"N\": {\"default\": 1}},\n"
        "  \"steps\": [\n"
        "    {\"id\": \"a\", \"s\": \"a } ] \\\" tricky\"},\n"
        "    {\"id\": \"b\",\n"
        "     \"buffers\": [1,\n"
        "        [2, 3]]},\n"
        "    {\"odd key\": 4}\n"
        "  ]\n"
        "}\n";
    EXPECT_EQ(json_path_line(text, "id"), 2);
    EXPECT_EQ(json_path_line(text, "params.N.default"), 3);
    EXPECT_EQ(json_path_line(text, "steps[1].id"), 6);
    EXPECT_EQ(json_path_line(text, "steps[1].buffers[1][1]"), 8);
    EXPECT_EQ(json_path_line(text, "steps[2][\"odd key\"]"), 9);
    EXPECT_EQ(json_path_line(text, "steps[1].launches"), 6) << "missing: the deepest part that exists";
    EXPECT_EQ(json_path_line(text, ""), 0);
    EXPECT_EQ(json_path_line(text, "nothing"), 0);
    EXPECT_EQ(json_path_line("{ broken", "id"), 0);
}

}  // namespace
}  // namespace wb::app
