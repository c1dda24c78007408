// tests/unit/ceilings_test.cpp — the measured ceilings without a GPU: their
// cache (one file per GPU and driver, a broken or foreign file measured
// again), the JSON record, the fractions a run is shown as, and the trip
// through the worker's pipe. Measuring them needs a GPU: tests/gpu/.
#include "measure/ceilings.hpp"

#include "core/error.hpp"
#include "core/fs.hpp"
#include "pipeline/run.hpp"
#include "core/phrase.hpp"
#include "driver/monitor.hpp"
#include "driver/nvml.hpp"
#include "pipeline/wire.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <thread>
#include <filesystem>

namespace {

wb::Ceilings h100() {
    wb::Ceilings c;
    c.device = "NVIDIA H100 80GB HBM3";
    c.arch = "sm_90";
    c.driver_version = 13000;
    c.copy_gbs = 2900;
    c.fp32_gflops = 60000;
    c.fp16_gflops = 200000;
    c.sgemm_gflops = 50000;
    c.measured_at = "2026-11-23T17:00:00Z";
    return c;
}

wb::DeviceInfo device_of(const wb::Ceilings& c) {
    wb::DeviceInfo d;
    d.name = c.device;
    d.cc_major = 9;
    d.cc_minor = 0;
    d.driver_version = c.driver_version;
    return d;
}

class CeilingsCache : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = std::filesystem::temp_directory_path() /
               ("wb-ceilings-" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
        std::filesystem::remove_all(dir_);
        const char* old = std::getenv("XDG_CACHE_HOME");
        if (old) old_ = old, had_ = true;
        setenv("XDG_CACHE_HOME", dir_.c_str(), 1);
    }
    void TearDown() override {
        if (had_) setenv("XDG_CACHE_HOME", old_.c_str(), 1);
        else unsetenv("XDG_CACHE_HOME");
        std::filesystem::remove_all(dir_);
    }
    std::filesystem::path dir_;
    std::string old_;
    bool had_ = false;
};

TEST_F(CeilingsCache, ARecordComesBackForItsGpuAndDriverOnly) {
    const wb::Ceilings c = h100();
    const wb::DeviceInfo dev = device_of(c);
    EXPECT_FALSE(wb::load_cached_ceilings(dev));
    wb::save_cached_ceilings(c, dev);
    ASSERT_TRUE(wb::load_cached_ceilings(dev));
    EXPECT_EQ(*wb::load_cached_ceilings(dev), c);
    // A new driver measures again.
    wb::DeviceInfo newer = dev;
    newer.driver_version = 13010;
    EXPECT_FALSE(wb::load_cached_ceilings(newer));
    // The file name is the GPU's, made safe for a file system.
    EXPECT_EQ(wb::ceilings_cache_name(dev), "NVIDIA_H100_80GB_HBM3-sm_90-driver13000.json");
}

TEST_F(CeilingsCache, ABrokenRecordIsMeasuredAgainNotTrusted) {
    const wb::DeviceInfo dev = device_of(h100());
    std::filesystem::create_directories(dir_ / "cuda-workbook" / "ceilings");
    wb::write_file_atomic(dir_ / "cuda-workbook" / "ceilings" / wb::ceilings_cache_name(dev), "{\"device\": 3");
    EXPECT_FALSE(wb::load_cached_ceilings(dev));
    EXPECT_THROW(wb::ceilings_from_json("{}"), wb::Error);
    wb::Ceilings zero = h100();
    zero.copy_gbs = 0;
    EXPECT_THROW(wb::ceilings_from_json(wb::ceilings_to_json(zero)), wb::Error);
}

// The peak kernels are compiled on the GPU machine at its first timed run;
// here they must compile for every architecture the app targets.
TEST(Ceilings, ThePeakKernelsCompileForEveryTarget) {
    for (const char* arch : {"sm_75", "sm_80", "sm_86", "sm_89", "sm_90"}) {
        const wb::CompileResult c = wb::compile_ceiling_kernels(arch);
        EXPECT_TRUE(c.ok) << arch << ": " << c.log;
        EXPECT_EQ(c.lowered_names.size(), 2u) << arch;
    }
}

TEST(Ceilings, ARunIsShownAsAShareOfThem) {
    wb::RunResult r;
    r.bytes = 3.0 * 16777216 * 4;  // vector add at 16M: two reads and a write
    r.flops = 16777216;
    wb::Timing t;
    t.median_ms = 0.0787;
    r.gpu_time = t;
    EXPECT_EQ(r.bandwidth_fraction(), 0.0);  // no ceilings: no share
    r.ceilings = h100();
    EXPECT_NEAR(r.gbs(), 2558.2, 0.1);
    EXPECT_NEAR(r.bandwidth_fraction(), 2558.2 / 2900, 1e-4);
    EXPECT_NEAR(r.compute_fraction(), r.gflops() / 60000, 1e-9);
}

TEST(Ceilings, TheyCrossTheWorkersPipe) {
    wb::RunResult r;
    r.status = wb::RunStatus::Passed;
    r.ceilings = h100();
    r.ceilings->sgemm_gflops = 0;
    r.ceilings->sgemm_note = "cuBLAS could not be loaded (tried libcublas.so.13)";
    const wb::RunResult back = wb::decode_result(wb::encode_result(r));
    ASSERT_TRUE(back.ceilings);
    EXPECT_EQ(*back.ceilings, *r.ceilings);
    EXPECT_FALSE(wb::decode_result(wb::encode_result(wb::RunResult{})).ceilings);
}

}  // namespace

// How a time was taken travels with it and is said in words.
TEST(TimingMethod, IsSaidInWordsAndCrossesThePipe) {
    wb::Timing t;
    t.samples_ms = {0.004, 0.0041, 0.004};
    t.median_ms = 0.004;
    t.noise = 0.0031;
    t.stopped_by = "noise";
    t.batch = 1000;
    EXPECT_EQ(wb::render(wb::timing_method(t), "en"),
              "3 samples, spread 0.31% (stopped at the median known to 0.5%), each a CUDA Graph replay of 1000 "
              "launches, divided by 1000");
    t.batch = 1;
    t.l2_flushed = true;
    t.stopped_by = "budget";
    EXPECT_EQ(wb::render(wb::timing_method(t), "en"), "3 samples, spread 0.31% (stopped at the time budget), L2 flushed before each");
    EXPECT_NE(wb::render(wb::timing_method(t), "zh").find("清空 L2"), std::string::npos);
    t.not_batched = "inputs restored between launches";
    wb::RunResult r;
    r.gpu_time = t;
    const wb::RunResult back = wb::decode_result(wb::encode_result(r));
    ASSERT_TRUE(back.gpu_time);
    EXPECT_DOUBLE_EQ(back.gpu_time->noise, 0.0031);
    EXPECT_EQ(back.gpu_time->stopped_by, "budget");
    EXPECT_TRUE(back.gpu_time->l2_flushed);
    EXPECT_EQ(back.gpu_time->batch, 1);
    EXPECT_EQ(back.gpu_time->not_batched, t.not_batched);
}

// A cold kernel of tens of microseconds: replays of (flush, launch) pairs less the flushes alone.
TEST(TimingMethod, AFlushSubtractedBatchIsSaidAndCrossesThePipe) {
    wb::Timing t;
    t.samples_ms = {0.024, 0.0241, 0.024};
    t.stopped_by = "noise";
    t.l2_flushed = true;
    t.batch = 41;
    t.flush_subtracted = true;
    EXPECT_EQ(wb::render(wb::timing_method(t), "en"),
              "3 samples, spread 0.00% (stopped at the median known to 0.5%), each a CUDA Graph replay of 41 launches "
              "with L2 flushed before each, less a replay of the 41 flushes alone, divided by 41");
    EXPECT_NE(wb::render(wb::timing_method(t), "zh").find("减去只重放这 41 次清空的时间"), std::string::npos);
    wb::RunResult r;
    r.gpu_time = t;
    const wb::RunResult back = wb::decode_result(wb::encode_result(r));
    ASSERT_TRUE(back.gpu_time);
    EXPECT_TRUE(back.gpu_time->flush_subtracted);
    EXPECT_EQ(back.gpu_time->batch, 41);
}

// The clock the samples ran at, and a slowdown, are said with the time.
TEST(TimingMethod, SaysTheClockAndASlowdown) {
    wb::Timing t;
    t.samples_ms = {1.0, 1.0, 1.0};
    t.stopped_by = "noise";
    t.l2_flushed = true;
    t.sm_clock_mhz = 1755;
    t.max_sm_clock_mhz = 1980;
    t.throttled = "power_cap,hw_thermal";
    EXPECT_EQ(wb::render(wb::timing_method(t), "en"),
              "3 samples, spread 0.00% (stopped at the median known to 0.5%), L2 flushed before each, SM clock 1755 of "
              "1980 MHz; the GPU was slowed (power cap; thermal, hardware): these times are slower than its best");
    wb::RunResult r;
    r.gpu_time = t;
    const wb::RunResult back = wb::decode_result(wb::encode_result(r));
    EXPECT_EQ(back.gpu_time->sm_clock_mhz, 1755u);
    EXPECT_EQ(back.gpu_time->max_sm_clock_mhz, 1980u);
    EXPECT_EQ(back.gpu_time->throttled, "power_cap,hw_thermal");
}

TEST(Nvml, AMachineWithoutItSaysWhy) {
    if (wb::Nvml::get()) GTEST_SKIP() << "NVML is here: the GPU tests read the clock through it";
    EXPECT_FALSE(wb::Nvml::unavailable_reason().empty());
    wb::GpuClocks c;
    c.reasons = 0x4 | 0x40;
    EXPECT_TRUE(c.throttled());
    EXPECT_EQ(c.throttle_ids(), "power_cap,hw_thermal");
    c.reasons = 0x1;  // idle is not a slowdown
    EXPECT_FALSE(c.throttled());
}

// Without NVML the monitor samples nothing and says why, and stops at once.
TEST(GpuMonitor, WithoutNvmlItSaysWhy) {
    if (wb::Nvml::get()) GTEST_SKIP() << "NVML is here: tests/app/gpu/monitor.script reads a real GPU";
    wb::GpuMonitor m("0000:00:00.0", 0.05);
    for (int i = 0; i < 100 && m.unavailable().empty(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    EXPECT_FALSE(m.unavailable().empty());
    EXPECT_TRUE(m.samples().empty());
}

// The roofline: the lower of the copy slope and the FP32 roof, with the ridge between.
TEST(Roofline, MemoryRoofThenComputeRoof) {
    wb::Ceilings c;
    c.copy_gbs = 2000;
    c.fp32_gflops = 50000;
    const auto roof = wb::Roofline::of(c);
    EXPECT_DOUBLE_EQ(roof.ridge(), 25.0);
    EXPECT_DOUBLE_EQ(roof.attainable(0.25), 500.0);      // vector add's 1 FLOP per 12 bytes is below it
    EXPECT_DOUBLE_EQ(roof.attainable(100.0), 50000.0);
    EXPECT_TRUE(roof.memory_bound(1.0 / 12));
    EXPECT_FALSE(roof.memory_bound(170.0));              // a 1024^3 matmul's intensity
    EXPECT_DOUBLE_EQ(roof.fraction(0.25, 250.0), 0.5);
    EXPECT_EQ(wb::Roofline{}.fraction(1, 1), 0);         // no ceilings, no fraction

    wb::RunResult r;
    r.bytes = 12e6;
    r.flops = 1e6;
    r.gpu_time = wb::Timing{};
    r.gpu_time->median_ms = 0.01;  // 1200 GB/s, 100 GFLOP/s
    r.ceilings = c;
    EXPECT_NEAR(r.intensity(), 1.0 / 12, 1e-12);
    EXPECT_NEAR(r.roof_fraction(), 100.0 / (2000.0 / 12), 1e-9);  // = 60% of the copy roof
    r.flops = 0;
    EXPECT_EQ(r.roof_fraction(), 0);
}
