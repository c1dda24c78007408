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
    EXPECT_EQ(r.code, 0) << r.out;  // no driver: the CPU emulator ran it, and it passed
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
    EXPECT_EQ(r.code, 0) << r.out;  // no driver: on the CPU emulator
    EXPECT_FALSE(contains(r.out, "--trust")) << r.out;
    auto c = cli("compile lessons/01_vector_add.json");
    EXPECT_EQ(c.code, 0) << c.out;
    EXPECT_TRUE(wb::is_shipped_lesson(fs::path(WB_SOURCE_DIR) / "lessons/01_vector_add.json"));
    // Written another way, it is the same file.
    EXPECT_TRUE(wb::is_shipped_lesson(fs::path(WB_SOURCE_DIR) / "lessons/../lessons/./01_vector_add.json"));
}

TEST(Trust, AFolderThatOnlyStartsLikeTheShippedOneIsNotInsideIt) {
    TempDir tmp;
    const fs::path lesson = copy_minimal(tmp.path() / "theirs");
    EXPECT_FALSE(wb::is_shipped_lesson(lesson));
    const auto shipped = wb::shipped_lessons_folder();
    ASSERT_TRUE(shipped);
    EXPECT_FALSE(wb::is_inside_folder(shipped->string() + "2/x.json", *shipped));
    EXPECT_FALSE(wb::is_inside_folder(*shipped, *shipped));
}

TEST(Trust, ALinkNeedsTheTrustOfBothItsOwnFolderAndItsTargets) {
    // The loader reads side files beside the link, and the JSON (which may
    // hold C++ inline) where the link leads: both folders must be trusted.
    TempDir tmp;
    const fs::path target = copy_minimal(tmp.path() / "real");
    fs::create_directories(tmp.path() / "links");
    fs::create_symlink(target, tmp.path() / "links" / "x.json");
    const auto folders = wb::lesson_trust_folders(tmp.path() / "links" / "x.json");
    ASSERT_EQ(folders.size(), 2u);
    EXPECT_EQ(folders[0], fs::canonical(tmp.path() / "links"));
    EXPECT_EQ(folders[1], fs::canonical(tmp.path() / "real"));
    setenv("XDG_CONFIG_HOME", (tmp.path() / "config").c_str(), 1);
    wb::remember_trusted_folder(tmp.path() / "links");
    EXPECT_FALSE(wb::lesson_is_trusted(tmp.path() / "links" / "x.json")) << "the target's folder is not trusted";
    wb::remember_lesson_trusted(tmp.path() / "links" / "x.json");
    EXPECT_TRUE(wb::lesson_is_trusted(tmp.path() / "links" / "x.json"));
    unsetenv("XDG_CONFIG_HOME");
}

TEST(Trust, ALinkElsewhereToAShippedLessonDoesNotBorrowItsTrust) {
    // A symlink to lessons/01_vector_add.json in another folder reads its side
    // files (starter, solution, CPU reference) from that other folder, so it
    // is not shipped: C++ placed beside it must not be compiled or run
    // without --trust.
    TempDir tmp;
    const fs::path shipped_json = fs::path(WB_SOURCE_DIR) / "lessons/01_vector_add.json";
    fs::create_directories(tmp.path() / "01_vector_add");
    for (const char* f : {"starter_step1.cu", "solution_step1.cu", "starter_step2.cu", "solution_step2.cu"})
        fs::copy_file(fs::path(WB_SOURCE_DIR) / "lessons/01_vector_add" / f, tmp.path() / "01_vector_add" / f);
    const fs::path marker = tmp.path() / "the_reference_ran";
    std::ofstream(tmp.path() / "01_vector_add" / "reference.cpp")
        << "#include <cstdio>\n"
           "static int planted = [] { std::fopen(\"" << marker.string() << "\", \"w\"); return 0; }();\n"
           "void vector_add(const float* a, const float* b, float* c, int n) {\n"
           "    for (int i = 0; i < n; ++i) c[i] = a[i] + b[i];\n"
           "}\n";
    fs::create_symlink(shipped_json, tmp.path() / "borrowed.json");
    EXPECT_FALSE(wb::is_shipped_lesson(tmp.path() / "borrowed.json"));
    auto r = cli("run '" + (tmp.path() / "borrowed.json").string() + "' --solution");
    EXPECT_EQ(r.code, 6) << r.out;
    EXPECT_TRUE(contains(r.out, "not the shipped lessons folder")) << r.out;
    EXPECT_FALSE(fs::exists(marker)) << "the planted reference was compiled and run";
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
