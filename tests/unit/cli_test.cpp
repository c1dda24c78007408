// tests/unit/cli_test.cpp — the CLI's exit codes and messages, as a user sees them.
// The driver is switched off with WB_DISABLE_CUDA_DRIVER=1 so these behave the
// same on a GPU machine as in CI; GPU runs are in tests/gpu/.
#include "cli_runner.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

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

// True when `line` is one whole line of `out`.
bool has_line(const std::string& out, const std::string& line) {
    return ("\n" + out).find("\n" + line + "\n") != std::string::npos;
}

// runtime/driver/cuda_driver.cpp's reason when WB_DISABLE_CUDA_DRIVER is set.
const std::string kDisabledReason =
    "The CUDA driver is disabled (WB_DISABLE_CUDA_DRIVER is set).";

}  // namespace

TEST(Cli, HelpListsCommandsAndExitCodes) {
    auto r = cli("--help");
    EXPECT_EQ(r.code, 0);
    for (const char* word : {"validate", "compile", "run", "check", "device", "Exit codes"})
        EXPECT_TRUE(contains(r.out, word)) << word << "\n" << r.out;
}

TEST(Cli, EverySubcommandHasHelp) {
    for (const char* sub : {"validate", "compile", "run", "check", "device", "inspect"}) {
        auto r = cli(std::string(sub) + " --help");
        EXPECT_EQ(r.code, 0) << sub;
        EXPECT_TRUE(contains(r.out, "Usage: cuda-workbook-cli " + std::string(sub))) << r.out;
    }
}

TEST(Cli, UnknownCommandOrOptionExits2) {
    EXPECT_EQ(cli("frobnicate").code, 2);
    auto r = cli("run lessons/01_vector_add.json --blok 3");
    EXPECT_EQ(r.code, 2);
    EXPECT_TRUE(contains(r.out, "unknown option '--blok'")) << r.out;
}

TEST(Cli, DeviceWithoutDriverSaysCompileOnlyAndExits4) {
    auto r = cli("device");
    EXPECT_EQ(r.code, 4);
    EXPECT_TRUE(has_line(r.out, kDisabledReason)) << r.out;
}

TEST(Cli, ValidateShippedLessonsExits0) {
    auto r = cli("validate lessons/01_vector_add.json lessons/03_rgb_to_gray.json lessons/06_matmul.json");
    EXPECT_EQ(r.code, 0) << r.out;
}

TEST(Cli, ValidateBrokenLessonExits3WithFileAndJsonPath) {
    fs::path dir = fs::temp_directory_path() / "wb_cli_test";
    fs::create_directories(dir);
    fs::path bad = dir / "broken.json";
    std::ofstream(bad) << "{\n  \"$schema\": \"./lesson.schema.json\",\n  \"format\": 1,\n  \"id\": \"x\",\n  \"title\": 3\n}\n";
    auto r = cli("validate '" + bad.string() + "'");
    EXPECT_EQ(r.code, 3) << r.out;
    EXPECT_TRUE(contains(r.out, bad.string())) << r.out;
    EXPECT_TRUE(contains(r.out, "title")) << r.out;
}

// An instructor's lesson that uses a word the Chinese term list replaced still validates (exit 0),
// with a warning that names the text by its JSON path and the term to write instead.
TEST(Cli, ValidateWarnsAboutAChineseWordTheTermListReplacedAndStillExits0) {
    const fs::path dir = fs::temp_directory_path() / ("wb_cli_terms_" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    fs::copy(WB_SOURCE_DIR "/lessons/01_vector_add", dir / "01_vector_add", fs::copy_options::recursive);
    auto lesson = nlohmann::json::parse(std::ifstream(WB_SOURCE_DIR "/lessons/01_vector_add.json"));
    lesson["summary"]["zh"] = "和基线比较的第一个内核。";
    std::ofstream(dir / "01_vector_add.json") << lesson.dump(2);
    auto r = cli("validate '" + (dir / "01_vector_add.json").string() + "'");
    EXPECT_EQ(r.code, 0) << r.out;
    EXPECT_TRUE(contains(r.out, "summary.zh: warning: uses 基线 where the term list says 基准")) << r.out;
    EXPECT_TRUE(contains(r.out, "summary.zh: warning: uses 内核 where the term list says 核函数")) << r.out;
    auto shipped = cli("validate lessons/");
    EXPECT_EQ(shipped.code, 0) << shipped.out;
    EXPECT_FALSE(contains(shipped.out, "where the term list says")) << "the shipped lessons keep to the term list:\n"
                                                                    << shipped.out;
    fs::remove_all(dir);
}

TEST(Cli, RunWithoutDriverCompilesChecksAndExits4) {
    auto r = cli("run lessons/01_vector_add.json --solution --case small --backend gpu");
    EXPECT_EQ(r.code, 4) << r.out;
    EXPECT_TRUE(contains(r.out, "compile ok")) << r.out;
    EXPECT_TRUE(contains(r.out, "reference ok")) << r.out;
    // The device line says why nothing ran, and the verdict says what did.
    EXPECT_TRUE(has_line(r.out, "device  none: " + kDisabledReason)) << r.out;
    EXPECT_TRUE(has_line(r.out, "result  compile-only: compiled and checked; nothing ran on a GPU (see the device line)"))
        << r.out;
}

TEST(Cli, RunRefusesA2048ThreadBlockBeforeLaunchEvenWithoutAGpu) {
    auto r = cli("run lessons/01_vector_add.json --solution --block 2048");
    EXPECT_EQ(r.code, 1) << r.out;
    EXPECT_TRUE(contains(r.out, "refused")) << r.out;
    EXPECT_TRUE(contains(r.out, "1024")) << r.out;
}

TEST(Cli, RunReportsACompileErrorWithItsLineAndExits1) {
    fs::path dir = fs::temp_directory_path() / "wb_cli_test";
    fs::create_directories(dir);
    fs::path src = dir / "typo.cu";
    std::ofstream(src) << "extern \"C\" __global__ void vector_add(const float* a, const float* b, float* c, int n)\n"
                          "{\n"
                          "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                          "    if (i < n) c[i] = a[i] + b[j];\n"
                          "}\n";
    auto r = cli("run lessons/01_vector_add.json --source '" + src.string() + "'");
    EXPECT_EQ(r.code, 1) << r.out;
    EXPECT_TRUE(contains(r.out, "typo.cu:4")) << r.out;
    EXPECT_TRUE(contains(r.out, "\"j\"")) << r.out;
}

TEST(Cli, RunWithAnOutOfBoundsParamExits2) {
    auto r = cli("run lessons/01_vector_add.json --param N=0");
    EXPECT_EQ(r.code, 2) << r.out;
    EXPECT_TRUE(contains(r.out, "below its minimum")) << r.out;
}

TEST(Cli, RunJsonIsParseableAndCarriesTheStatus) {
    auto r = cli("run lessons/01_vector_add.json --solution --case one --json --backend gpu");
    EXPECT_EQ(r.code, 4);
    EXPECT_TRUE(contains(r.out, "\"status\": \"compile-only\"")) << r.out;
    // The result's one form (pipeline/result_json.hpp) with figures derived from it.
    const auto j = nlohmann::json::parse(r.out, nullptr, false);
    ASSERT_TRUE(j.is_object()) << r.out;
    EXPECT_EQ(j["lesson_id"], "vector_add");
    EXPECT_EQ(j["case_name"], "one");
    EXPECT_EQ(j["compile"]["ok"], true);
    EXPECT_EQ(j["compile"]["errors"], 0);
    EXPECT_EQ(j["launches"][0]["dims"]["block"].size(), 3u);
    EXPECT_TRUE(j["launches"][0].contains("threads_per_block"));
    EXPECT_TRUE(j["gpu_time"].is_null());
    EXPECT_TRUE(j["cpu_outputs"].is_array());  // empty: the CLI does not ask for the buffers
    EXPECT_TRUE(j["metrics"].contains("gb_per_s"));
}

TEST(Cli, CheckCompileOnlyPassesForShippedLessons) {
    auto r = cli("check lessons --compile-only");
    EXPECT_EQ(r.code, 0) << r.out;
    EXPECT_TRUE(contains(r.out, " 0 failed")) << r.out;
}

TEST(Cli, CheckWithoutAGpuExits4AndSaysNothingRan) {
    auto r = cli("check lessons/01_vector_add.json --backend gpu");
    EXPECT_EQ(r.code, 4) << r.out;
    EXPECT_TRUE(contains(r.out, "no kernel ran")) << r.out;
}

// Looking inside without a GPU: the architecture's published limits and
// ptxas's report, the same figures in text and JSON.
TEST(Cli, InspectResourcesAndOccupancyWorkWithoutAGpu) {
    auto r = cli("inspect lessons/06_matmul.json --step 3 --solution --resources --arch sm_90");
    ASSERT_EQ(r.code, 0) << r.out;
    EXPECT_TRUE(contains(r.out, "matmul_tiled: ")) << r.out;
    EXPECT_TRUE(contains(r.out, "registers/thread")) << r.out;
    EXPECT_TRUE(contains(r.out, "2048 bytes static shared")) << r.out;  // two 16x16 float tiles

    r = cli("inspect lessons/06_matmul.json --step 3 --solution --occupancy --arch sm_90");
    ASSERT_EQ(r.code, 0) << r.out;
    EXPECT_TRUE(contains(r.out, "sm_90's published limits (no GPU of it here)")) << r.out;
    EXPECT_TRUE(contains(r.out, "256 threads/block")) << r.out;  // the lesson's 16x16 block
    EXPECT_TRUE(contains(r.out, "occupancy, limited by")) << r.out;
    EXPECT_TRUE(contains(r.out, "256:")) << r.out;

    r = cli("inspect lessons/06_matmul.json --step 3 --solution --occupancy --arch sm_90 --block 1024 --json");
    ASSERT_EQ(r.code, 0) << r.out;
    const auto j = nlohmann::json::parse(r.out);
    ASSERT_EQ(j["kernels"].size(), 1u);
    EXPECT_EQ(j["kernels"][0]["at"]["block_threads"], 1024);
    EXPECT_EQ(j["kernels"][0]["by_block_size"].size(), 32u);
    EXPECT_GT(j["kernels"][0]["at"]["active_blocks"].get<int>(), 0);
}

TEST(Cli, InspectNamesABadBlockOrSharedSize) {
    for (const char* bad : {"--block abc", "--block 0", "--block 12x", "--shared -1", "--block 99999999999999999999"}) {
        auto r = cli(std::string("inspect lessons/06_matmul.json --step 3 --solution --occupancy --arch sm_90 ") + bad);
        EXPECT_EQ(r.code, 2) << bad << ": " << r.out;
        const std::string option = std::string(bad).substr(0, std::string(bad).find(' '));
        EXPECT_TRUE(contains(r.out, option + " takes a whole number")) << bad << ": " << r.out;
        EXPECT_FALSE(contains(r.out, "internal error")) << r.out;
    }
}

TEST(Cli, InspectPtxWeavesInTheSourceLines) {
    auto r = cli("inspect lessons/01_vector_add.json --solution --ptx");
    ASSERT_EQ(r.code, 0) << r.out;
    const auto add = r.out.find("c[i] = a[i] + b[i];");
    ASSERT_NE(add, std::string::npos) << r.out;
    EXPECT_NE(r.out.find("st.global.f32", add), std::string::npos) << r.out;
}

TEST(Cli, InspectWantsExactlyOneView) {
    EXPECT_EQ(cli("inspect lessons/01_vector_add.json").code, 2);
    EXPECT_EQ(cli("inspect lessons/01_vector_add.json --ptx --sass").code, 2);
}
