// tests/unit/special_files_test.cpp — lesson and source files must be ordinary files.
//
// Opened like an ordinary file, a FIFO named as a lesson would hang `validate`
// (and the app's start-up) until something wrote to it, and `/dev/zero` would
// be read until memory ran out. Each is refused at once, saying what it is,
// and reading stops at the size limit whatever the file claims.
#include "core/error.hpp"
#include "core/fs.hpp"
#include "lesson/loader.hpp"

#include "cli_runner.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace {

struct TempDir {
    fs::path path = fs::temp_directory_path() / ("wb_special_files_" + std::to_string(::getpid()));
    TempDir() { fs::create_directories(path); }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
};

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

std::string error_of(const fs::path& p, std::size_t max = 1 << 20, bool follow = true) {
    try {
        wb::read_file(p, max, follow);
    } catch (const wb::Error& e) {
        return e.describe();
    }
    return "";
}

}  // namespace

TEST(SpecialFiles, AFifoIsRefusedWithoutWaitingForAWriter) {
    TempDir tmp;
    const fs::path fifo = tmp.path / "lesson.json";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    auto t0 = std::chrono::steady_clock::now();
    const std::string why = error_of(fifo);
    EXPECT_LT(seconds_since(t0), 1.0);
    EXPECT_NE(why.find("is a FIFO (named pipe); expected an ordinary file"), std::string::npos) << why;
}

TEST(SpecialFiles, DevZeroIsRefusedNotReadUntilMemoryRunsOut) {
    const std::string why = error_of("/dev/zero");
    EXPECT_NE(why.find("is a character device"), std::string::npos) << why;
}

TEST(SpecialFiles, ReadingStopsAtTheCap) {
    TempDir tmp;
    const fs::path big = tmp.path / "big.cu";
    std::ofstream(big) << std::string(5000, 'x');
    EXPECT_NE(error_of(big, 4096).find("over the limit of 4096"), std::string::npos);
    EXPECT_EQ(wb::read_file(big, 5000).size(), 5000u);
}

TEST(SpecialFiles, AFinalSymlinkIsRefusedWhereThePathWasAlreadyResolved) {
    TempDir tmp;
    std::ofstream(tmp.path / "real.cu") << "x";
    fs::create_symlink(tmp.path / "real.cu", tmp.path / "link.cu");
    EXPECT_EQ(wb::read_file(tmp.path / "link.cu"), "x");
    EXPECT_NE(error_of(tmp.path / "link.cu", 1 << 20, false).find("is a symbolic link"), std::string::npos);
}

TEST(SpecialFiles, ASideFileThatIsAFifoIsALessonIssueNotAHang) {
    TempDir tmp;
    auto j = std::string(wb::read_file(std::string(WB_SOURCE_DIR) + "/tests/data/lessons_good/minimal.json"));
    const std::string starter = "\"starter\": \"extern \\\"C\\\" __global__ void twice(const float* x, float* y, int n) {}\"";
    ASSERT_NE(j.find(starter), std::string::npos);
    j.replace(j.find(starter), starter.size(), "\"starter\": {\"file\": \"starter.cu\"}");
    std::ofstream(tmp.path / "x.json") << j;
    ASSERT_EQ(::mkfifo((tmp.path / "starter.cu").c_str(), 0600), 0);
    auto t0 = std::chrono::steady_clock::now();
    wb::LoadResult r = wb::load_lesson(tmp.path / "x.json");
    EXPECT_LT(seconds_since(t0), 1.0);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.issues[0].json_path, "steps[0].starter.file") << r.issues[0].to_string();
    EXPECT_NE(r.issues[0].message.find("FIFO"), std::string::npos) << r.issues[0].to_string();
}

TEST(SpecialFiles, ValidateRefusesAFifoAndDevZeroAndExits3) {
    TempDir tmp;
    const fs::path fifo = tmp.path / "fifo.json";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    auto t0 = std::chrono::steady_clock::now();
    auto r = run_cli("validate '" + fifo.string() + "' /dev/zero");
    EXPECT_LT(seconds_since(t0), 10.0);
    EXPECT_EQ(r.code, 3) << r.out;
    EXPECT_TRUE(contains(r.out, "fifo.json: is a FIFO (named pipe)")) << r.out;
    EXPECT_TRUE(contains(r.out, "/dev/zero: is a character device")) << r.out;
}
