// tests/unit/launch_limits_test.cpp — launches are refused before they run, with the limit named.
// check_launch is pure, so these run without a GPU against the limits of an architecture.
#include "driver/device.hpp"

#include <gtest/gtest.h>

using namespace wb;

namespace {
LaunchDims dims(std::array<long long, 3> grid, std::array<long long, 3> block, long long shared = 0) {
    LaunchDims d;
    d.grid = grid;
    d.block = block;
    d.shared_bytes = shared;
    return d;
}
}  // namespace

TEST(LaunchLimits, AFittingLaunchIsAccepted) {
    EXPECT_FALSE(check_launch(dims({4, 1, 1}, {256, 1, 1}), limits_for_arch(90)));
}

TEST(LaunchLimits, A2048ThreadBlockIsRefusedNamingTheLimit) {
    auto r = check_launch(dims({1, 1, 1}, {2048, 1, 1}), limits_for_arch(90));
    ASSERT_TRUE(r);
    // block.x alone is over the per-dimension limit of 1024.
    EXPECT_EQ(r->limit, "block.x");
    EXPECT_NE(r->message.find("1024"), std::string::npos) << r->message;
}

TEST(LaunchLimits, TooManyThreadsInTotalIsRefused) {
    auto r = check_launch(dims({1, 1, 1}, {64, 32, 1}), limits_for_arch(90));
    ASSERT_TRUE(r);
    EXPECT_EQ(r->limit, "threads_per_block");
    EXPECT_NE(r->message.find("2048 threads"), std::string::npos) << r->message;
    EXPECT_NE(r->message.find("at most 1024"), std::string::npos) << r->message;
}

TEST(LaunchLimits, BlockZOver64IsRefused) {
    auto r = check_launch(dims({1, 1, 1}, {1, 1, 128}), limits_for_arch(90));
    ASSERT_TRUE(r);
    EXPECT_EQ(r->limit, "block.z");
}

TEST(LaunchLimits, GridYOver65535IsRefused) {
    auto r = check_launch(dims({1, 70000, 1}, {32, 1, 1}), limits_for_arch(90));
    ASSERT_TRUE(r);
    EXPECT_EQ(r->limit, "grid.y");
    EXPECT_NE(r->message.find("65535"), std::string::npos);
}

TEST(LaunchLimits, ZeroSizedDimensionsAreRefused) {
    auto r = check_launch(dims({0, 1, 1}, {32, 1, 1}), limits_for_arch(90));
    ASSERT_TRUE(r);
    EXPECT_EQ(r->limit, "grid.x");
}

TEST(LaunchLimits, SharedMemoryOver48KiBNeedsOptInUpToTheDeviceMaximum) {
    bool optin = false;
    EXPECT_FALSE(check_launch(dims({1, 1, 1}, {128, 1, 1}, 64 * 1024), limits_for_arch(90), {}, &optin));
    EXPECT_TRUE(optin);
    optin = true;
    EXPECT_FALSE(check_launch(dims({1, 1, 1}, {128, 1, 1}, 16 * 1024), limits_for_arch(90), {}, &optin));
    EXPECT_FALSE(optin);
}

TEST(LaunchLimits, SharedMemoryOverTheDeviceMaximumIsRefused) {
    KernelResources res;
    res.static_shared = 16 * 1024;
    auto r = check_launch(dims({1, 1, 1}, {128, 1, 1}, 220 * 1024), limits_for_arch(90), res);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->limit, "shared_memory");
    EXPECT_NE(r->message.find("227 KiB"), std::string::npos) << r->message;
    EXPECT_NE(r->message.find("16 KiB static"), std::string::npos) << r->message;
}

TEST(LaunchLimits, RegistersTimesThreadsOverTheBlockLimitIsRefused) {
    KernelResources res;
    res.registers = 128;
    auto r = check_launch(dims({1, 1, 1}, {1024, 1, 1}), limits_for_arch(90), res);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->limit, "registers");
    EXPECT_NE(r->message.find("131072"), std::string::npos) << r->message;
}

TEST(LaunchLimits, ArchitectureNumbersParse) {
    EXPECT_EQ(arch_number("sm_90"), 90);
    EXPECT_EQ(arch_number("compute_86"), 86);
    EXPECT_EQ(arch_number("sm_90a"), 90);
    EXPECT_EQ(arch_number("garbage"), 0);
}

TEST(LaunchLimits, WithoutAGpuARefusalNamesTheTargetArchitectureNotAGpu) {
    LaunchDims d;
    d.block = {2048, 1, 1};
    auto r = check_launch(d, limits_for_arch(90));
    ASSERT_TRUE(r);
    EXPECT_NE(r->message.find("for sm_90, the target architecture"), std::string::npos) << r->message;
    EXPECT_EQ(r->message.find("GPU's"), std::string::npos) << r->message;
    EXPECT_EQ(r->message.find("on this GPU"), std::string::npos) << r->message;
    DeviceLimits gpu;  // as query_devices() fills them
    auto g = check_launch(d, gpu);
    ASSERT_TRUE(g);
    EXPECT_NE(g->message.find("on this GPU"), std::string::npos) << g->message;
}

TEST(KernelArgs, MatchingSizesPass) {
    EXPECT_FALSE(check_kernel_args("vector_add", {8, 8, 8, 4}, {{"a", 8}, {"b", 8}, {"c", 8}, {"n", 4}}));
}

TEST(KernelArgs, ACountThatDiffersNamesBoth) {
    auto r = check_kernel_args("vector_add", {8, 8, 4}, {{"a", 8}, {"b", 8}, {"c", 8}, {"n", 4}});
    ASSERT_TRUE(r);
    EXPECT_EQ(r->limit, "arguments");
    EXPECT_EQ(r->message, "kernel 'vector_add' takes 3 parameters, but the lesson passes 4 (a, b, c, n)");
}

TEST(KernelArgs, ASizeThatDiffersNamesTheArgument) {
    // double n where the lesson passes an i32
    auto r = check_kernel_args("vector_add", {8, 8, 8, 8}, {{"a", 8}, {"b", 8}, {"c", 8}, {"n", 4}});
    ASSERT_TRUE(r);
    EXPECT_EQ(r->message, "kernel 'vector_add' parameter 4 is 8 bytes, but the lesson passes 'n' there, which is 4 bytes");
}
