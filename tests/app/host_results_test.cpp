// tests/app/host_results_test.cpp — what the results panel says about a host
// step's run: run()'s wall time (timed, or the one traced call), the
// timeline's sums, the target's verdict as the runtime decided it, in English
// and Chinese; and which tab a run opens on.
#include "app_state.hpp"
#include "host_step_text.hpp"
#include "ui_text.hpp"
#include "widgets/timeline_view.hpp"
#include "widgets/widget_text.hpp"

#include "core/fs.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>

namespace wb::app {
namespace {

RunResult streams_run() {
    const auto j = nlohmann::json::parse(read_file(std::string(WB_SOURCE_DIR) + "/tests/data/timelines/streams_fixture.json"));
    RunResult r;
    r.host_step = true;
    r.status = RunStatus::Passed;
    r.timeline = timeline_from_json(j.at("timeline"));
    return r;
}

Timing timed(double median, double lo, double hi, int samples) {
    Timing t;
    t.samples_ms.assign(static_cast<std::size_t>(samples), median);
    t.median_ms = median;
    t.min_ms = lo;
    t.max_ms = hi;
    t.noise = 0.004;
    return t;
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

TEST(HostResults, WallTimeIsTheMedianOfTheTimedCallsOrTheOneTracedCall) {
    RunResult r = streams_run();
    EXPECT_EQ(wall_time_text(r, "en"), "run() 5.968 ms (one call, not timed)");
    r.wall_time = timed(3.104, 2.981, 3.312, 25);
    EXPECT_EQ(wall_time_text(r, "en"), "run() 3.104 ms median of 25 calls (2.981 ms \u2013 3.312 ms, noise 0.4%)");
    EXPECT_EQ(wall_time_text(r, "zh"), "run() 中位数 3.104 ms（25 次调用，2.981 ms \u2013 3.312 ms，噪声 0.4%）");
    EXPECT_EQ(wall_time_text(RunResult{}, "en"), "");
}

TEST(HostResults, SummaryAddsUpWhatRanOnTheGpus) {
    const RunResult r = streams_run();
    // The figures after the wall time are kept together with no-break spaces.
    std::string s = timeline_summary_text(r, "en");
    EXPECT_TRUE(contains(s, "kernels\u00a04.6")) << s;
    for (std::size_t at; (at = s.find("\u00a0")) != std::string::npos;) s.replace(at, 2, " ");
    // 16 chunks of 8 MiB each way.
    EXPECT_TRUE(contains(s, "run() 5.968 ms")) << s;
    EXPECT_TRUE(contains(s, "kernels 4.6")) << s;
    EXPECT_TRUE(contains(s, ", 256 MiB")) << s;
    EXPECT_TRUE(contains(s, "copy/kernel overlap " + format_duration_us(r.timeline->copy_kernel_overlap_us()))) << s;
    EXPECT_TRUE(contains(s, "1 GPU(s)")) << s;
    EXPECT_GT(r.timeline->copy_kernel_overlap_us(), 3000);  // the streams overlap most of it
    // No timeline to sum: the wall time alone.
    RunResult none = r;
    none.timeline->unavailable = "CUPTI was not found";
    EXPECT_EQ(timeline_summary_text(none, "en"), "run() 5.968 ms (one call, not timed)");
}

TEST(HostResults, TargetLineSaysTheRuntimesVerdict) {
    TargetResult t;
    t.step = "one_stream";
    t.at_most = 0.6;
    t.this_ms = 3.1;
    t.that_ms = 6.9;
    ASSERT_TRUE(t.met());
    EXPECT_EQ(target_text(t, "One stream", "en"),
              "target: \u2264 0.6 \u00d7 One stream's wall time \u2014 yours 3.100 ms vs 6.900 ms = 0.45\u00d7 \u2713 met");
    EXPECT_EQ(target_text(t, "一个流", "zh"),
              "目标：\u2264 一个流 的运行时间 \u00d7 0.6 \u2014 你的 3.100 ms，对比 6.900 ms，= 0.45\u00d7 \u2713 已达到");
    t.this_ms = 5.0;
    t.measure = TargetMeasure::Copies;
    ASSERT_FALSE(t.met());
    EXPECT_TRUE(contains(target_text(t, "One stream", "en"), "One stream's copy time \u2014 yours 5.000 ms vs 6.900 ms = 0.72\u00d7 \u2717 not met"));
    t.not_applicable = {verbatim("it needs 2 GPUs and this machine has 1")};
    ASSERT_FALSE(t.applies());
    EXPECT_EQ(target_text(t, "One stream", "en"),
              "target: \u2264 0.6 \u00d7 One stream's copy time \u2014 does not apply here: it needs 2 GPUs and this machine has 1");
    EXPECT_TRUE(contains(target_text(t, "一个流", "zh"), "此处不适用：it needs 2 GPUs"));
}

TEST(HostResults, LaneLabelsSpeakTheWindowsLanguage) {
    set_widget_text(widget_text_in("zh"));
    EXPECT_EQ(timeline_lane_label({0, 13, 0, 0}), "GPU 0 \u00b7 流 13");
    EXPECT_EQ(timeline_message(Timeline{}), "run() 没有在 GPU 上执行任何核函数、拷贝或 memset。");
    set_widget_text(widget_text_in("en"));
    EXPECT_EQ(timeline_lane_label({1, 22, 0, 0}), "GPU 1 \u00b7 stream 22");
}

TEST(HostResults, AHostStepThatPassedOpensOnItsTimeline) {
    RunResult host = streams_run();
    EXPECT_EQ(tab_after_run(host, ResultsTab::Views), ResultsTab::Timeline);
    EXPECT_EQ(tab_after_run(host, ResultsTab::Sass), ResultsTab::Timeline);
    host.status = RunStatus::HostError;  // a failed run stays where the student is looking
    EXPECT_EQ(tab_after_run(host, ResultsTab::Check), ResultsTab::Check);
    EXPECT_EQ(tab_after_run(host, ResultsTab::Timeline), ResultsTab::Timeline);
    RunResult kernel;
    kernel.status = RunStatus::Passed;
    EXPECT_EQ(tab_after_run(kernel, ResultsTab::Timeline), ResultsTab::Views);  // no Timeline tab for it
    EXPECT_EQ(tab_after_run(kernel, ResultsTab::Timings), ResultsTab::Timings);
    EXPECT_STREQ(results_tab_name(ResultsTab::Timeline), "timeline");
}

TEST(HostResults, RecordingAHostRunKeepsItsWallTimeAndShowsTheTimeline) {
    AppState state;
    RunResult r = streams_run();
    r.wall_time = timed(3.1, 3.0, 3.2, 25);
    r.lesson_id = "streams";
    r.step_id = "four_streams";
    record_run(state, r);
    EXPECT_EQ(state.results_tab, ResultsTab::Timeline);
    EXPECT_TRUE(state.results_tab_requested);
    const std::vector<RunRecord>& runs = state.run_history["streams/four_streams"];
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_DOUBLE_EQ(runs[0].wall_ms, 3.1);
    EXPECT_DOUBLE_EQ(runs[0].gpu_ms, -1);
}

}  // namespace
}  // namespace wb::app
