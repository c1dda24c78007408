// tests/unit/roofline_test.cpp — a run's roofline point (measure/roofline.hpp):
// intensity and GFLOP/s from the result's bytes, FLOPs and median time, the
// bound and the share of the roof from its ceilings, and nothing made up when
// a metric, the time or the ceilings are missing.
#include "measure/roofline.hpp"

#include "measure/ceilings.hpp"
#include "pipeline/run.hpp"

#include <gtest/gtest.h>

namespace {

wb::Ceilings roofs(double copy_gbs, double fp32_gflops) {
    wb::Ceilings c;
    c.copy_gbs = copy_gbs;
    c.fp32_gflops = fp32_gflops;
    return c;
}

TEST(Roofline, AMemoryBoundKernelIsLeftOfTheRidgeAndMeasuredAgainstTheBandwidthRoof) {
    const wb::Ceilings h100 = roofs(3000, 60000);  // ridge at 20 FLOP/byte
    // 16M adds over 192 MB in 0.08 ms.
    const wb::RooflinePoint p = wb::roofline_point(192e6, 16e6, 0.08, &h100);
    EXPECT_DOUBLE_EQ(p.intensity, 16e6 / 192e6);
    EXPECT_DOUBLE_EQ(p.gflops, 16e6 / 0.08 / 1e6);  // 200 GFLOP/s
    EXPECT_TRUE(p.has_roof);
    EXPECT_DOUBLE_EQ(p.ridge, 20);
    EXPECT_TRUE(p.memory_bound);
    EXPECT_DOUBLE_EQ(p.attainable, 3000 * p.intensity);  // 250 GFLOP/s
    EXPECT_DOUBLE_EQ(p.roof_fraction, p.gflops / p.attainable);
    EXPECT_NEAR(p.roof_fraction, 0.8, 1e-12);
    EXPECT_TRUE(p.placed());
}

TEST(Roofline, AComputeBoundKernelIsRightOfTheRidgeAndMeasuredAgainstThePeak) {
    const wb::Ceilings h100 = roofs(3000, 60000);
    // matmul 1024^3: 2^31 FLOPs over 12 MiB in 0.1 ms.
    const double flops = 2.0 * 1024 * 1024 * 1024, bytes = 3.0 * 1024 * 1024 * 4;
    const wb::RooflinePoint p = wb::roofline_point(bytes, flops, 0.1, &h100);
    EXPECT_GT(p.intensity, p.ridge);
    EXPECT_FALSE(p.memory_bound);
    EXPECT_DOUBLE_EQ(p.attainable, 60000);
    EXPECT_DOUBLE_EQ(p.roof_fraction, flops / 0.1 / 1e6 / 60000);
}

TEST(Roofline, MissingMetricsTimeOrCeilingsGiveZeroesNotGuesses) {
    const wb::Ceilings h100 = roofs(3000, 60000);
    const wb::RooflinePoint no_bytes = wb::roofline_point(0, 1e6, 1, &h100);
    EXPECT_EQ(no_bytes.intensity, 0);
    EXPECT_GT(no_bytes.gflops, 0);
    EXPECT_EQ(no_bytes.roof_fraction, 0);
    EXPECT_FALSE(no_bytes.placed());
    const wb::RooflinePoint untimed = wb::roofline_point(1e6, 1e6, 0, &h100);
    EXPECT_EQ(untimed.intensity, 1);
    EXPECT_EQ(untimed.gflops, 0);
    EXPECT_EQ(untimed.roof_fraction, 0);
    EXPECT_DOUBLE_EQ(untimed.attainable, 3000) << "the roof at an intensity is known without a time";
    const wb::RooflinePoint no_gpu = wb::roofline_point(1e6, 1e6, 1, nullptr);
    EXPECT_FALSE(no_gpu.has_roof);
    EXPECT_EQ(no_gpu.ridge, 0);
    EXPECT_EQ(no_gpu.attainable, 0);
    const wb::Ceilings half = roofs(3000, 0);  // no FP32 peak measured: no roofline
    EXPECT_FALSE(wb::roofline_point(1e6, 1e6, 1, &half).has_roof);
}

TEST(Roofline, ARunResultGivesThePointOfItsFields) {
    wb::RunResult r;
    r.bytes = 192e6;
    r.flops = 16e6;
    r.gpu_time.emplace();
    r.gpu_time->median_ms = 0.08;
    r.ceilings = roofs(3000, 60000);
    const wb::RooflinePoint p = wb::roofline_point(r);
    EXPECT_DOUBLE_EQ(p.intensity, r.intensity());
    EXPECT_DOUBLE_EQ(p.gflops, r.gflops());
    EXPECT_DOUBLE_EQ(p.roof_fraction, r.roof_fraction());
    r.gpu_time.reset();
    r.ceilings.reset();
    EXPECT_EQ(wb::roofline_point(r).gflops, 0);
    EXPECT_FALSE(wb::roofline_point(r).has_roof);
}

}  // namespace
