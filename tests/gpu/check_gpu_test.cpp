// tests/gpu/check_gpu_test.cpp — `cuda-workbook-cli check` on a GPU refuses a
// lesson whose starter already passes every case: no step may be solved
// before the student starts. The shipped lessons' starters are held to the
// same rule by scripts/gpu-tests.sh (check lessons/).
#include "gpu_test_support.hpp"

TEST(CheckOnGpu, AStarterThatPassesEveryCaseFailsTheCheck) {
    WB_REQUIRE_GPU();
    auto [status, out] =
        run_cli("check --trust '" + source_dir() + "/tests/data/lessons_solved_starter/solved_starter.json'");
    EXPECT_EQ(status, 1) << out;
    EXPECT_NE(out.find("FAIL solved_starter / twice / the starter passes every case"), std::string::npos) << out;
    EXPECT_NE(out.find("ok   solved_starter / twice / default"), std::string::npos) << out;  // the solution still passes
}

TEST(CheckOnGpu, AnEmptyStarterFailsACaseAndTheCheckPasses) {
    WB_REQUIRE_GPU();
    auto [status, out] = run_cli("check --trust '" + source_dir() + "/tests/data/lessons_good/minimal.json'");
    EXPECT_EQ(status, 0) << out;
    EXPECT_NE(out.find("ok   minimal / twice / starter fails case default"), std::string::npos) << out;
}

// Each buffer's guard zone has its own pattern: a grayscale kernel without its
// bounds test copies rgb's guard bytes (three equal bytes average to the same
// byte) past the end of gray, and that write is still seen.
TEST(GuardZones, AnOutputsGuardDiffersFromTheInputsSoACopiedGuardIsSeen) {
    WB_REQUIRE_GPU();
    auto [status, out] = run_cli("run --trust '" + source_dir() + "/lessons/03_rgb_to_gray.json' --step 2 --case ragged --source '" +
                                 source_dir() + "/tests/data/sanitizer/gray_no_bounds.cu'");
    EXPECT_EQ(status, 1) << out;
    EXPECT_NE(out.find("the kernel wrote outside buffer 'gray'"), std::string::npos) << out;
}
