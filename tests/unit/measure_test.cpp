// tests/unit/measure_test.cpp — the parts of measure/ that need no GPU: the
// stopping rule, waiting for a quiet GPU (with a probe standing in for NVML),
// the words a timing is described by, and the check after timing's verdict.
#include "measure/gpu_quiet.hpp"
#include "measure/stopping.hpp"
#include "measure/timing.hpp"
#include "pipeline/verdict.hpp"
#include "pipeline/wire.hpp"

#include <gtest/gtest.h>


namespace {

TEST(StoppingRule, SteadySamplesStopAtTheNoiseTargetAfterTheLessonsRepeat) {
    wb::Timing t;
    int taken = 0;
    ASSERT_TRUE(wb::take_samples(t, 7, [&]() -> std::optional<double> {
        ++taken;
        return 2.0;
    }));
    EXPECT_EQ(taken, 7) << "never fewer than the lesson's repeat, and no more once the median is known";
    EXPECT_EQ(t.stopped_by, "noise");
    EXPECT_DOUBLE_EQ(t.median_ms, 2.0);
}

TEST(StoppingRule, NoisySamplesStopAtTheCap) {
    wb::Timing t;
    int k = 0;
    ASSERT_TRUE(wb::take_samples(t, 1, [&]() -> std::optional<double> { return (k++ % 2) ? 1.0 : 3.0; }));
    EXPECT_EQ(t.stopped_by, "samples");
    EXPECT_EQ(int(t.samples_ms.size()), wb::kTimingMaxSamples);
    EXPECT_DOUBLE_EQ(t.min_ms, 1.0);
    EXPECT_DOUBLE_EQ(t.max_ms, 3.0);
}

TEST(StoppingRule, AFailedSampleStopsSampling) {
    wb::Timing t;
    int k = 0;
    EXPECT_FALSE(wb::take_samples(t, 10, [&]() -> std::optional<double> {
        if (++k == 3) return std::nullopt;
        return 1.0;
    }));
    EXPECT_EQ(k, 3);
}

TEST(QuietGpu, WaitsWhileAnotherProcessIsBusyThenTimes) {
    int probes = 0;
    double slept = 0;
    wb::Timing t;
    wb::wait_for_quiet_gpu(
        t,
        [&]() -> std::optional<wb::GpuState> {
            wb::GpuState s;
            s.busy_processes = ++probes <= 3 ? 1 : 0;
            return s;
        },
        1.0, [&](double s) { slept += s; });
    EXPECT_EQ(probes, 4);
    EXPECT_NEAR(t.waited_ms, slept * 1e3, 1e-6);
    EXPECT_GT(t.waited_ms, 0.0);
    EXPECT_EQ(t.busy_processes, 0);
    const std::string said = wb::render(wb::timing_method(t), "en");
    EXPECT_NE(said.find("waited"), std::string::npos) << said;
    EXPECT_EQ(said.find("other process"), std::string::npos) << said;
}

TEST(QuietGpu, StopsWaitingAtTheLimitAndSaysWhatWasStillTrue) {
    double slept = 0;
    wb::Timing t;
    wb::wait_for_quiet_gpu(
        t,
        [&]() -> std::optional<wb::GpuState> {
            wb::GpuState s;
            s.busy_processes = 2;
            s.throttled = "power_cap";
            return s;
        },
        0.5, [&](double s) { slept += s; });
    EXPECT_NEAR(slept, 0.5, 0.06);
    EXPECT_EQ(t.busy_processes, 2);
    EXPECT_EQ(t.throttled_before, "power_cap");
    for (const char* lang : {"en", "zh"}) {
        const std::string said = wb::render(wb::timing_method(t), lang);
        EXPECT_NE(said.find("2"), std::string::npos) << said;
    }
    EXPECT_NE(wb::render(wb::timing_method(t), "en").find("2 other process(es) were busy"), std::string::npos);
    EXPECT_NE(wb::render(wb::timing_method(t), "en").find("still slowed"), std::string::npos);
    EXPECT_NE(wb::render(wb::timing_method(t), "zh").find("仍在降频"), std::string::npos);
}

TEST(QuietGpu, WithoutNvmlNothingIsWaitedForOrClaimed) {
    wb::Timing t;
    bool slept = false;
    wb::wait_for_quiet_gpu(t, [] { return std::optional<wb::GpuState>{}; }, 1.0, [&](double) { slept = true; });
    EXPECT_FALSE(slept);
    EXPECT_EQ(t.waited_ms, 0.0);
    EXPECT_EQ(t.busy_processes, 0);
    EXPECT_TRUE(t.throttled_before.empty());
    EXPECT_FALSE(wb::nvml_probe("")()) << "no bus id: NVML cannot tell";
}

wb::HostBuffer floats(const char* name, const std::vector<double>& v) {
    wb::HostBuffer b;
    b.name = name;
    b.type = wb::DType::F32;
    b.role = wb::BufferRole::Output;
    b.shape = {v.size()};
    b.bytes = wb::Bytes(v.size() * sizeof(float));
    for (std::size_t i = 0; i < v.size(); ++i) b.set(i, v[i]);
    return b;
}

TEST(CheckAfterTiming, OutputsThatChangedWhileTimedFailTheRunInBothLanguages) {
    wb::CompareSpec spec;
    spec.buffer = "c";
    spec.atol = 1e-6;
    const std::vector<wb::HostBuffer> want = {floats("c", {1, 2, 3, 4})};
    wb::RunResult same;
    same.status = wb::RunStatus::Passed;
    EXPECT_TRUE(wb::judge_after_timing(same, {spec}, {floats("c", {1, 2, 3, 4})}, want));
    EXPECT_EQ(same.status, wb::RunStatus::Passed);
    EXPECT_TRUE(same.comparisons.empty());

    wb::RunResult changed;
    changed.status = wb::RunStatus::Passed;
    EXPECT_FALSE(wb::judge_after_timing(changed, {spec}, {floats("c", {1, 2, 0, 0})}, want));
    EXPECT_EQ(changed.status, wb::RunStatus::Mismatch);
    EXPECT_NE(changed.message.find("its result changed while it was timed"), std::string::npos) << changed.message;
    EXPECT_NE(changed.message.find("2 of 4"), std::string::npos) << changed.message;
    EXPECT_NE(changed.message_in("zh").find("计时过程中结果变了"), std::string::npos);
    EXPECT_FALSE(changed.hint_in("zh").empty());
    ASSERT_EQ(changed.comparisons.size(), 1u);
    EXPECT_FALSE(changed.comparisons[0].passed);
    EXPECT_NE(changed.comparisons[0].note.find("after timing"), std::string::npos);
}

TEST(TimingMethod, TheKernelsOwnTimeFromCuptiIsSaidInBothLanguages) {
    wb::Timing t;
    t.samples_ms = {1, 1, 1};
    t.stopped_by = "noise";
    t.traced = true;
    t.l2_flushed = true;
    const std::string en = wb::render(wb::timing_method(t), "en");
    EXPECT_NE(en.find("the kernels' own time on the GPU (CUPTI's records) after L2 was flushed clean"), std::string::npos) << en;
    EXPECT_EQ(en.find("replay"), std::string::npos) << en;
    EXPECT_NE(wb::render(wb::timing_method(t), "zh").find("CUPTI"), std::string::npos);
}

TEST(TimingMethod, WhatTheRunFoundBeforeTimingCrossesThePipe) {
    wb::RunResult r;
    wb::Timing t;
    t.traced = true;
    t.waited_ms = 250;
    t.busy_processes = 1;
    t.throttled_before = "power_cap";
    r.gpu_time = t;
    const wb::RunResult back = wb::decode_result(wb::encode_result(r));
    ASSERT_TRUE(back.gpu_time);
    EXPECT_TRUE(back.gpu_time->traced);
    EXPECT_DOUBLE_EQ(back.gpu_time->waited_ms, 250);
    EXPECT_EQ(back.gpu_time->busy_processes, 1);
    EXPECT_EQ(back.gpu_time->throttled_before, "power_cap");
}

}  // namespace
