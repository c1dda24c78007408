// tests/app/session_test.cpp — the session file (app/student_work.hpp): the
// window's layout and the text size come back as they were saved, and a
// hand-edited file's values are clamped rather than trusted.
#include "student_work.hpp"

#include "core/fs.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <limits>

namespace wb::app {
namespace {

class Session : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = std::filesystem::temp_directory_path() /
               ("wb-session-test-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "-" +
                ::testing::UnitTest::GetInstance()->current_test_info()->name());
        std::filesystem::remove_all(dir_);
        std::filesystem::create_directories(dir_);
        const char* old = std::getenv("XDG_CONFIG_HOME");
        had_old_ = old != nullptr;
        if (had_old_) old_ = old;
        setenv("XDG_CONFIG_HOME", dir_.c_str(), 1);
    }
    void TearDown() override {
        if (had_old_) setenv("XDG_CONFIG_HOME", old_.c_str(), 1);
        else unsetenv("XDG_CONFIG_HOME");
        std::filesystem::remove_all(dir_);
    }
    std::filesystem::path state_file() const { return dir_ / "cuda-workbook" / "state.json"; }

    std::filesystem::path dir_;
    bool had_old_ = false;
    std::string old_;
};

TEST_F(Session, LayoutAndTextSizeComeBackAsSaved) {
    SessionState s;
    s.lesson = "matmul";
    s.step = "naive";
    s.text_zoom = 1.3f;
    s.layout.instructions_popped = true;
    s.layout.instructions_pinned = true;
    s.layout.lessons_collapsed = true;
    s.layout.top_fraction = 0.5f;
    s.layout.diagnostics_fraction = 0.2f;
    save_session(s);
    const SessionState back = load_session();
    EXPECT_EQ(back.lesson, "matmul");
    EXPECT_FLOAT_EQ(back.text_zoom, 1.3f);
    EXPECT_TRUE(back.layout.instructions_popped) << "pinned to their own window";
    EXPECT_TRUE(back.layout.lessons_collapsed);
    EXPECT_FLOAT_EQ(back.layout.top_fraction, 0.5f);
    EXPECT_FLOAT_EQ(back.layout.diagnostics_fraction, 0.2f);
}

// The cases each step passed come back, so the lesson list's "k/N cases" survives a restart.
TEST_F(Session, EachStepsPassedCasesComeBack) {
    SessionState s;
    CaseTally t;
    t.source_digest = "abc";
    t.emulated = true;
    t.passed = {"small", "one"};
    s.cases["vector_add/one_thread_per_element"] = t;
    save_session(s);
    const SessionState back = load_session();
    ASSERT_EQ(back.cases.count("vector_add/one_thread_per_element"), 1u);
    EXPECT_EQ(back.cases.at("vector_add/one_thread_per_element"), t);
}

// Popped-out instructions that were not pinned come back docked: a window left over the
// code in one session does not greet the next.
TEST_F(Session, UnpinnedPoppedOutInstructionsComeBackDocked) {
    SessionState s;
    s.layout.instructions_popped = true;
    save_session(s);
    EXPECT_FALSE(load_session().layout.instructions_popped);
}

TEST_F(Session, AHandEditedTextSizeIsClampedToTheMenusRange) {
    std::filesystem::create_directories(state_file().parent_path());
    write_file_atomic(state_file(), R"({"text_zoom": 50, "layout": {"instructions_popped": true}})");
    EXPECT_FLOAT_EQ(load_session().text_zoom, kTextZoomMax);
    write_file_atomic(state_file(), R"({"text_zoom": 0.01})");
    EXPECT_FLOAT_EQ(load_session().text_zoom, kTextZoomMin);
    // Not a number: the default, not a failure.
    write_file_atomic(state_file(), R"({"text_zoom": "big"})");
    EXPECT_FLOAT_EQ(load_session().text_zoom, 1.0f);
}

TEST(TextZoom, StepsAreWholeTenthsWithinTheRange) {
    EXPECT_FLOAT_EQ(clamp_text_zoom(1.0f + kTextZoomStep), 1.1f);
    EXPECT_FLOAT_EQ(clamp_text_zoom(1.1f - kTextZoomStep), 1.0f);
    EXPECT_FLOAT_EQ(clamp_text_zoom(1.04f), 1.0f);
    EXPECT_FLOAT_EQ(clamp_text_zoom(9.0f), kTextZoomMax);
    EXPECT_FLOAT_EQ(clamp_text_zoom(0.0f), kTextZoomMin);
    EXPECT_FLOAT_EQ(clamp_text_zoom(std::numeric_limits<float>::quiet_NaN()), 1.0f);
}

}  // namespace
}  // namespace wb::app
