// tests/unit/trust_test.cpp — lessons from outside the shipped lessons folder
// are not compiled or run until the user says they trust them.
//
// A lesson's CPU reference is C++ compiled and run natively, so the CLI's
// run, check and compile refuse such a lesson with exit 6 and a sentence
// naming its folder unless --trust is given; validate runs nothing and needs
// no trust. The GUI remembers trusted folders in trusted_folders.json
// (runtime/core/trust.hpp), tested here on disk in a private config folder.
// The CLI runs with WB_DISABLE_CUDA_DRIVER=1, so "compiled and ran as far as
// it could" is exit 4 on every machine.
#include "core/data_dirs.hpp"
#include "core/trust.hpp"

#include "cli_runner.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace {

CliResult cli(const std::string& args) { return run_cli(args); }

class TempDir {
public:
    TempDir() {
        path_ = fs::temp_directory_path() / ("wb_trust_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter_++));
        fs::remove_all(path_);
        fs::create_directories(path_);
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path_, ec);
    }
    const fs::path& path() const { return path_; }

private:
    fs::path path_;
    static inline int counter_ = 0;
};

// tests/data/lessons_good/minimal.json copied into a folder of its own: a
// complete lesson that is not one of the shipped ones.
fs::path copy_minimal(const fs::path& dir) {
    fs::create_directories(dir);
    fs::copy_file(fs::path(WB_SOURCE_DIR) / "tests/data/lessons_good/minimal.json", dir / "minimal.json");
    return dir / "minimal.json";
}

const std::string kWhy = "CPU reference is C++ that would be compiled and run on this computer";

}  // namespace

TEST(Trust, RunOfALessonOutsideTheShippedFolderExits6NamingTheFolderAndWhy) {
    TempDir tmp;
    const fs::path lesson = copy_minimal(tmp.path() / "theirs");
    auto r = cli("run '" + lesson.string() + "' --solution");
    EXPECT_EQ(r.code, 6) << r.out;
    EXPECT_TRUE(contains(r.out, fs::canonical(tmp.path() / "theirs").string())) << r.out;
    EXPECT_TRUE(contains(r.out, kWhy)) << r.out;
    EXPECT_TRUE(contains(r.out, "add --trust")) << r.out;
    EXPECT_FALSE(contains(r.out, "compile ok")) << "nothing may be compiled before trust:\n" << r.out;
}

TEST(Trust, RunWithTrustCompilesAndRunsTheReference) {
    TempDir tmp;
    const fs::path lesson = copy_minimal(tmp.path() / "theirs");
    setenv("XDG_CACHE_HOME", (tmp.path() / "cache").c_str(), 1);
    auto r = cli("run '" + lesson.string() + "' --solution --trust");
    EXPECT_EQ(r.code, 4) << r.out;  // compile-only: no driver
    EXPECT_TRUE(contains(r.out, "compile ok")) << r.out;
    EXPECT_TRUE(contains(r.out, "reference ok")) << r.out;
}

TEST(Trust, CheckAndCompileAlsoNeedTrustButValidateDoesNot) {
    TempDir tmp;
    const fs::path lesson = copy_minimal(tmp.path() / "theirs");
    setenv("XDG_CACHE_HOME", (tmp.path() / "cache").c_str(), 1);
    auto check = cli("check --compile-only '" + (tmp.path() / "theirs").string() + "'");
    EXPECT_EQ(check.code, 6) << check.out;
    EXPECT_TRUE(contains(check.out, kWhy)) << check.out;
    EXPECT_FALSE(contains(check.out, "ok   ")) << check.out;
    auto compile = cli("compile '" + lesson.string() + "'");
    EXPECT_EQ(compile.code, 6) << compile.out;
    EXPECT_EQ(cli("compile '" + lesson.string() + "' --trust").code, 0);
    EXPECT_EQ(cli("check --compile-only --trust '" + lesson.string() + "'").code, 0);
    auto validate = cli("validate '" + lesson.string() + "'");
    EXPECT_EQ(validate.code, 0) << validate.out;
}

TEST(Trust, ShippedLessonsNeedNoTrust) {
    TempDir tmp;
    setenv("XDG_CACHE_HOME", (tmp.path() / "cache").c_str(), 1);
    auto r = cli("run lessons/01_vector_add.json --solution --case one");
    EXPECT_EQ(r.code, 4) << r.out;
    EXPECT_FALSE(contains(r.out, "--trust")) << r.out;
    auto c = cli("compile lessons/01_vector_add.json");
    EXPECT_EQ(c.code, 0) << c.out;
    EXPECT_TRUE(wb::is_shipped_lesson(fs::path(WB_SOURCE_DIR) / "lessons/01_vector_add.json"));
    // Written another way, it is the same file.
    EXPECT_TRUE(wb::is_shipped_lesson(fs::path(WB_SOURCE_DIR) / "lessons/../lessons/./01_vector_add.json"));
}

TEST(Trust, ASymlinkInTheShippedFolderThatLeadsOutIsNotShipped) {
    TempDir tmp;
    const fs::path lesson = copy_minimal(tmp.path() / "theirs");
    EXPECT_FALSE(wb::is_shipped_lesson(lesson));
    // A folder whose name merely starts like the shipped one is not inside it.
    const auto shipped = wb::shipped_lessons_folder();
    ASSERT_TRUE(shipped);
    EXPECT_FALSE(wb::is_inside_folder(shipped->string() + "2/x.json", *shipped));
    EXPECT_FALSE(wb::is_inside_folder(*shipped, *shipped));
    // A link from elsewhere to a shipped lesson: its target is what counts.
    fs::create_symlink(fs::path(WB_SOURCE_DIR) / "lessons/01_vector_add.json", tmp.path() / "link.json");
    EXPECT_TRUE(wb::is_shipped_lesson(tmp.path() / "link.json"));
}

TEST(Trust, ATrustedLessonWhoseSideFileLinksOutOfItsFolderIsStillRefused) {
    // Trust is about running the author's code; it never widens what a lesson
    // may read. tests/unit/lesson_loader_test.cpp
    // (SymlinkLeadingOutOfTheLessonFolderIsRefused) covers the loader itself.
    TempDir tmp;
    fs::create_directories(tmp.path() / "theirs" / "x");
    std::ofstream(tmp.path() / "secret.cu") << "extern \"C\" __global__ void twice(const float*, float*, int) {}\n";
    fs::create_symlink(tmp.path() / "secret.cu", tmp.path() / "theirs" / "x" / "starter.cu");
    std::ifstream in(fs::path(WB_SOURCE_DIR) / "tests/data/lessons_good/minimal.json");
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::string starter = "\"starter\": \"extern \\\"C\\\" __global__ void twice(const float* x, float* y, int n) {}\"";
    ASSERT_NE(text.find(starter), std::string::npos);
    text.replace(text.find(starter), starter.size(), "\"starter\": {\"file\": \"x/starter.cu\"}");
    std::ofstream(tmp.path() / "theirs" / "x.json") << text;
    auto r = cli("run '" + (tmp.path() / "theirs" / "x.json").string() + "' --trust");
    EXPECT_EQ(r.code, 3) << r.out;
    EXPECT_TRUE(contains(r.out, "symlink that leads outside")) << r.out;
}

TEST(Trust, TrustedFoldersAreRememberedResolvedInTheConfigFolder) {
    TempDir tmp;
    setenv("XDG_CONFIG_HOME", (tmp.path() / "config").c_str(), 1);
    fs::create_directories(tmp.path() / "mine");
    fs::create_directory_symlink(tmp.path() / "mine", tmp.path() / "alias");
    EXPECT_FALSE(wb::is_trusted_folder(tmp.path() / "mine"));
    wb::remember_trusted_folder(tmp.path() / "alias");
    EXPECT_TRUE(wb::is_trusted_folder(tmp.path() / "mine"));
    EXPECT_TRUE(wb::is_trusted_folder(tmp.path() / "alias"));
    EXPECT_FALSE(wb::is_trusted_folder(tmp.path()));
    EXPECT_EQ(wb::trusted_folders_file(), tmp.path() / "config" / "cuda-workbook" / "trusted_folders.json");
    // A broken file is no trust at all, and is replaced by the next answer.
    std::ofstream(wb::trusted_folders_file()) << "{not json";
    EXPECT_FALSE(wb::is_trusted_folder(tmp.path() / "mine"));
    wb::remember_trusted_folder(tmp.path() / "mine");
    EXPECT_TRUE(wb::is_trusted_folder(tmp.path() / "mine"));
    unsetenv("XDG_CONFIG_HOME");
}
