// tests/unit/host_step_test.cpp — host steps without a GPU: the format, nvcc builds and their
// diagnostics on the student's lines, the build cache, timelines, the wire, and the CPU backend's refusal.
#include "core/error.hpp"
#include "core/fs.hpp"
#include "host/host_build.hpp"
#include "host/host_step.hpp"
#include "host/timeline.hpp"
#include "lesson/loader.hpp"
#include "pipeline/run.hpp"
#include "pipeline/wire.hpp"
#include "scoped_cache_dir.hpp"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <stdexcept>

namespace fs = std::filesystem;
using namespace wb;

namespace {

const std::string kDir = std::string(WB_SOURCE_DIR) + "/tests/data/host";

std::shared_ptr<const Lesson> host_lesson() {
    auto r = load_lesson(kDir + "/host_add.json");
    EXPECT_TRUE(r.ok()) << (r.issues.empty() ? "" : r.issues.front().to_string());
    return r.ok() ? std::make_shared<const Lesson>(std::move(*r.lesson)) : nullptr;
}

SourceText fault_source(const std::string& name) {
    return {read_file(kDir + "/faults/" + name), name, ""};
}

// The issues of a lesson text made from host_add.json with `edit` applied.
std::vector<LessonIssue> issues_after(const std::function<void(nlohmann::ordered_json&)>& edit) {
    auto j = nlohmann::ordered_json::parse(read_file(kDir + "/host_add.json"));
    edit(j);
    return load_lesson_text(j.dump(), kDir + "/host_add.json").issues;
}

bool has_issue(const std::vector<LessonIssue>& issues, const std::string& path, const std::string& words) {
    for (const auto& i : issues)
        if (i.json_path == path && i.message.find(words) != std::string::npos) return true;
    return false;
}

std::string all(const std::vector<LessonIssue>& issues) {
    std::string s;
    for (const auto& i : issues) s += i.to_string() + "\n";
    return s;
}

}  // namespace

TEST(HostStepFormat, AHostLessonLoadsWithItsLibrariesPinningAndTarget) {
    auto lesson = host_lesson();
    ASSERT_TRUE(lesson);
    ASSERT_EQ(lesson->steps.size(), 2u);
    const Step& add = lesson->steps[0];
    EXPECT_TRUE(add.is_host());
    EXPECT_TRUE(add.launches.empty());
    EXPECT_FALSE(add.host->pinned);
    EXPECT_EQ(add.reference.args.size(), 4u);
    const Step& streams = lesson->steps[1];
    EXPECT_TRUE(streams.host->pinned);
    ASSERT_TRUE(streams.checks.target);
    EXPECT_EQ(streams.checks.target->step, "add");
    EXPECT_EQ(streams.checks.target->measure, TargetMeasure::Wall);
    EXPECT_EQ(streams.checks.target->json_path, "steps[1].checks.target");
}

TEST(HostStepFormat, MistakesAreNamedWithTheirJsonPath) {
    auto launches = issues_after([](auto& j) {
        j["launches"] = nlohmann::ordered_json::array({{{"entry", "add"}, {"grid", {1}}, {"block", {1}}, {"args", {"a"}}}});
    });
    EXPECT_TRUE(has_issue(launches, "launches", "a host step launches its own kernels")) << all(launches);

    auto no_args = issues_after([](auto& j) { j["reference"].erase("args"); });
    EXPECT_TRUE(has_issue(no_args, "reference", "missing key 'args'")) << all(no_args);

    auto library = issues_after([](auto& j) { j["host"]["libraries"] = {"cudnn"}; });
    EXPECT_TRUE(has_issue(library, "host.libraries[0]", "unknown library 'cudnn'")) << all(library);

    auto pinned = issues_after([](auto& j) { j["host"]["pinned"] = "yes"; });
    EXPECT_TRUE(has_issue(pinned, "host.pinned", "expected true or false")) << all(pinned);

    auto unknown_step = issues_after([](auto& j) { j["steps"][1]["checks"]["target"]["step"] = "nope"; });
    EXPECT_TRUE(has_issue(unknown_step, "steps[1].checks.target.step", "no step 'nope'")) << all(unknown_step);

    auto itself = issues_after([](auto& j) { j["steps"][1]["checks"]["target"]["step"] = "add_streams"; });
    EXPECT_TRUE(has_issue(itself, "steps[1].checks.target.step", "its own target")) << all(itself);

    auto measure = issues_after([](auto& j) { j["steps"][1]["checks"]["target"]["measure"] = "flops"; });
    EXPECT_TRUE(has_issue(measure, "steps[1].checks.target.measure", "unknown measure 'flops'")) << all(measure);

    auto ratio = issues_after([](auto& j) { j["steps"][1]["checks"]["target"]["at_most"] = 0; });
    EXPECT_TRUE(has_issue(ratio, "steps[1].checks.target.at_most", "above 0")) << all(ratio);
}

class HostBuild : public ScopedCacheDirTest {};

TEST_F(HostBuild, TheSolutionBuildsThenComesFromTheCache) {
    auto lesson = host_lesson();
    ASSERT_TRUE(lesson);
    const Step& s = lesson->steps[0];
    const HostStepBuild first = build_host_step(s.solution, *s.host, "sm_90");
    ASSERT_TRUE(first.ok) << first.log;
    EXPECT_TRUE(fs::is_regular_file(first.library));
    EXPECT_FALSE(first.from_cache);
    EXPECT_GT(first.seconds, 0);
    const HostStepBuild again = build_host_step(s.solution, *s.host, "sm_90");
    ASSERT_TRUE(again.ok);
    EXPECT_TRUE(again.from_cache);
    EXPECT_EQ(again.library, first.library);
    // Another architecture is another build of the kernels; the host code,
    // built apart from them (host_split.hpp), is the same library.
    ASSERT_TRUE(first.split) << first.whole_why;
    const HostStepBuild other = build_host_step(s.solution, *s.host, "sm_80");
    ASSERT_TRUE(other.ok) << other.log;
    EXPECT_NE(other.kernels_image, first.kernels_image);
    EXPECT_EQ(other.library, first.library);
}

TEST_F(HostBuild, AnErrorIsOnTheStudentsOwnFileAndLine) {
    const HostStepBuild b = build_host_step(fault_source("syntax_error.cu"), HostSpec{}, "sm_90");
    ASSERT_FALSE(b.ok);
    ASSERT_GE(b.error_count(), 1) << b.log;
    const Diagnostic& d = b.diagnostics.front();
    EXPECT_EQ(d.file, "syntax_error.cu");
    EXPECT_EQ(d.line, 4);
    EXPECT_GT(d.column, 0);
    EXPECT_NE(d.message.find("missing_variable"), std::string::npos) << d.message;
}

TEST_F(HostBuild, AnUndefinedFunctionIsALinkErrorThatSaysSo) {
    const HostStepBuild b = build_host_step(fault_source("undefined_function.cu"), HostSpec{}, "sm_90");
    ASSERT_FALSE(b.ok);
    ASSERT_GE(b.error_count(), 1) << b.log;
    EXPECT_EQ(b.diagnostics.front().file, "undefined_function.cu");
    EXPECT_NE(b.diagnostics.front().message.find("undefined reference to"), std::string::npos) << b.diagnostics.front().message;
}

TEST_F(HostBuild, ARunWithTheWrongSignatureIsACompileError) {
    SourceText src{"extern \"C\" void run(wb_host_ctx* ctx) {}\n", "wrong.cu", ""};
    const HostStepBuild b = build_host_step(src, HostSpec{}, "sm_90");
    ASSERT_FALSE(b.ok);
    ASSERT_GE(b.error_count(), 1) << b.log;
    EXPECT_EQ(b.diagnostics.front().file, "wrong.cu");
    EXPECT_EQ(b.diagnostics.front().line, 1);
}

TEST_F(HostBuild, CublasIsLinkedWhenTheLessonAsks) {
    SourceText src{"#include <cublas_v2.h>\nextern \"C\" int run(wb_host_ctx* ctx) { cublasHandle_t h; cublasCreate(&h); "
                   "cublasDestroy(h); return 0; }\n",
                   "blas.cu", ""};
    EXPECT_FALSE(build_host_step(src, HostSpec{}, "sm_90").ok);
    HostSpec with;
    with.libraries = {"cublas"};
    const HostStepBuild b = build_host_step(src, with, "sm_90");
    EXPECT_TRUE(b.ok) << b.log;
}

TEST(HostBuildLog, NvccsMessagesBecomeDiagnosticsOnTheOrigin) {
    const std::string log =
        "streams.cu(12): error: identifier \"dx\" is undefined\n"
        "      dx[i] = 0;\n"
        "      ^\n\n"
        "1 error detected in the compilation of \"/tmp/x.tmp-ab.cu\".\n"
        "/usr/bin/ld: /tmp/tmpxft_1.o: in function `run':\n"
        "tmpxft_00003a40_00000000-6_t.cudafe1.cpp:(.text+0x1c3): undefined reference to `nope'\n"
        "collect2: error: ld returned 1 exit status\n";
    const auto diags = parse_nvcc_log(log, "streams.cu");
    ASSERT_EQ(diags.size(), 2u);
    EXPECT_EQ(diags[0].file, "streams.cu");
    EXPECT_EQ(diags[0].line, 12);
    EXPECT_EQ(diags[0].column, 5);  // the echo indents the source line by two
    EXPECT_NE(diags[1].message.find("undefined reference to `nope'"), std::string::npos);
}

namespace {

Activity act(ActivityKind k, int device, unsigned stream, double start, double end, std::uint64_t bytes = 0) {
    Activity a;
    a.kind = k;
    a.device = device;
    a.stream = stream;
    a.start_us = start;
    a.end_us = end;
    a.bytes = bytes;
    if (k == ActivityKind::Kernel) a.name = "scale";
    return a;
}

}  // namespace

TEST(Timeline, SumsOverlapAndLanes) {
    Timeline t;
    t.wall_us = 100;
    // stream 7: copy 0-10, kernel 10-30; stream 9: copy 15-25 (under the kernel), kernel 30-40; GPU 1: copy 0-5
    t.activities = {act(ActivityKind::CopyHtoD, 0, 9, 15, 25, 1000), act(ActivityKind::Kernel, 0, 7, 10, 30),
                    act(ActivityKind::CopyHtoD, 0, 7, 0, 10, 2000), act(ActivityKind::Kernel, 0, 9, 30, 40),
                    act(ActivityKind::CopyDtoH, 1, 3, 0, 5, 500)};
    t.sort();
    EXPECT_EQ(t.activities.front().start_us, 0);
    EXPECT_DOUBLE_EQ(t.kernel_us(), 30);
    EXPECT_DOUBLE_EQ(t.copy_us(), 25);
    EXPECT_EQ(t.copy_bytes(), 3500u);
    EXPECT_DOUBLE_EQ(t.copy_kernel_overlap_us(), 10);
    EXPECT_DOUBLE_EQ(t.busy_us(), 40);
    EXPECT_EQ(t.devices(), 2);
    const auto lanes = t.lanes();
    ASSERT_EQ(lanes.size(), 3u);
    EXPECT_EQ(lanes[0].device, 0);
    EXPECT_EQ(lanes[0].stream, 7u);  // first seen
    EXPECT_DOUBLE_EQ(lanes[0].busy_us, 30);
    EXPECT_EQ(lanes[2].device, 1);
    EXPECT_DOUBLE_EQ(t.activities[0].gbs(), 2000.0 / 10 / 1e3);
}

TEST(Timeline, JsonRoundTripsAndBadInputIsNamed) {
    Timeline t;
    t.wall_us = 12.5;
    t.ran_past_return_us = 0.25;
    Activity k = act(ActivityKind::Kernel, 0, 13, 1.5, 3.25);
    k.grid = {4, 1, 1};
    k.block = {256, 1, 1};
    k.in_graph = true;
    Activity c = act(ActivityKind::CopyDtoH, 0, 14, 3.5, 9.75, 1 << 20);
    c.pageable = true;
    t.activities = {k, c};
    const Timeline back = timeline_from_json(timeline_to_json(t));
    ASSERT_EQ(back.activities.size(), 2u);
    EXPECT_EQ(back.activities[0].name, "scale");
    EXPECT_EQ(back.activities[0].block[0], 256);
    EXPECT_TRUE(back.activities[0].in_graph);
    EXPECT_TRUE(back.activities[1].pageable);
    EXPECT_EQ(back.activities[1].bytes, 1u << 20);
    EXPECT_DOUBLE_EQ(back.ran_past_return_us, 0.25);

    auto j = timeline_to_json(t);
    j["activities"][1]["kind"] = "teleport";
    try {
        timeline_from_json(j);
        FAIL() << "an unknown kind was accepted";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("activities[1].kind"), std::string::npos) << e.what();
    }
}

TEST(Wire, AHostStepsTimelineTargetAndWallTimeCrossTheWire) {
    RunResult r;
    r.status = RunStatus::Passed;
    r.host_step = true;
    Timing wall;
    wall.samples_ms = {3.25, 3.5};
    wall.median_ms = 3.375;
    wall.noise = 0.0125;
    r.wall_time = wall;
    Timeline t;
    t.wall_us = 3375.5;
    t.activities = {act(ActivityKind::Kernel, 0, 13, 0.5, 1.25), act(ActivityKind::CopyHtoD, 1, 21, 0.75, 2.5, 4096)};
    r.timeline = t;
    TargetResult target;
    target.step = "one_stream";
    target.at_most = 0.6;
    target.this_ms = 3.375;
    target.that_ms = 6.5;
    target.gpus = 1;
    r.target = target;
    const RunResult d = decode_result(encode_result(r));
    EXPECT_TRUE(d.host_step);
    ASSERT_TRUE(d.wall_time);
    EXPECT_EQ(d.wall_time->samples_ms, wall.samples_ms);
    ASSERT_TRUE(d.timeline);
    ASSERT_EQ(d.timeline->activities.size(), 2u);
    EXPECT_DOUBLE_EQ(d.timeline->activities[1].end_us, 2.5);
    EXPECT_EQ(d.timeline->activities[1].device, 1);
    ASSERT_TRUE(d.target);
    EXPECT_DOUBLE_EQ(d.target->at_most, 0.6);
    EXPECT_TRUE(d.target->met());
}

class HostRun : public ScopedCacheDirTest {};

TEST_F(HostRun, TheCpuEmulatorRefusesAHostStepWithASentenceAfterItsReferenceRan) {
    auto backend = make_local_backend();
    RunRequest req;
    req.lesson = host_lesson();
    req.step = "add";
    req.source = SourceChoice::Solution;
    req.executor = Executor::Cpu;
    req.trusted = true;
    const RunResult r = backend->run(req);
    EXPECT_EQ(r.status, RunStatus::Refused) << r.message;
    EXPECT_NE(r.message.find("need a GPU"), std::string::npos) << r.message;
    EXPECT_TRUE(r.host_step);
    EXPECT_TRUE(r.compile.ok);
    EXPECT_GE(r.cpu_ms, 0);
    EXPECT_NE(r.message_in("zh").find("GPU"), std::string::npos);
}

TEST_F(HostRun, ACompileErrorIsTheRunsVerdictWithTheStudentsLine) {
    auto backend = make_local_backend();
    RunRequest req;
    req.lesson = host_lesson();
    req.step = "add";
    req.source = SourceChoice::Custom;
    req.custom_source = read_file(kDir + "/faults/syntax_error.cu");
    req.custom_origin = "syntax_error.cu";
    req.compile_only = true;
    req.trusted = true;
    const RunResult r = backend->run(req);
    EXPECT_EQ(r.status, RunStatus::CompileError) << r.message;
    ASSERT_FALSE(r.compile.diagnostics.empty());
    EXPECT_EQ(r.compile.diagnostics.front().line, 4);
    EXPECT_NE(r.message.find("syntax_error.cu:4"), std::string::npos) << r.message;
}

// Timelines recorded on H100s by `cuda-workbook-cli run --json` (the streams
// lesson's last step, and the several-GPU lesson's on two GPUs): what the
// lessons promise is in them, and the sums read them as the GUI and CLI do.
TEST(Timeline, RecordedStreamsTimelineOverlapsCopiesWithKernels) {
    const Timeline t = timeline_from_json(nlohmann::json::parse(read_file(std::string(WB_SOURCE_DIR) + "/tests/data/timelines/streams_h100.json")));
    EXPECT_EQ(t.devices(), 1);
    EXPECT_EQ(t.lanes().size(), 4u);
    EXPECT_GT(t.copy_kernel_overlap_us(), 0.5 * t.kernel_us());
    EXPECT_LT(t.busy_us(), t.copy_us() + t.kernel_us());
    EXPECT_EQ(t.ran_past_return_us, 0);
}

TEST(Timeline, RecordedTwoGpuTimelineHasALanePerDevice) {
    const Timeline t = timeline_from_json(nlohmann::json::parse(read_file(std::string(WB_SOURCE_DIR) + "/tests/data/timelines/multi_gpu_2xh100.json")));
    EXPECT_EQ(t.devices(), 2);
    const auto lanes = t.lanes();
    ASSERT_EQ(lanes.size(), 2u);
    EXPECT_EQ(lanes[0].device, 0);
    EXPECT_EQ(lanes[1].device, 1);
    // The two GPUs' kernels run at the same time: together they are busy for less than their sum.
    EXPECT_LT(t.busy_us(), t.kernel_us());
}

// An exception out of run() is the student's error, named by its type as C++
// spells it and its what(): "run() threw std::runtime_error: no such file".
TEST(HostThrown, AnExceptionIsDescribedByItsDemangledTypeAndWhat) {
    wb::HostThrown t;
    try {
        throw std::runtime_error("no such file");
    } catch (...) {
        t = wb::describe_current_exception();
    }
    EXPECT_EQ(t.type, "std::runtime_error");
    ASSERT_TRUE(t.what.has_value());
    EXPECT_EQ(wb::render({wb::thrown_phrase(t)}, "en"), "run() threw std::runtime_error: no such file");
    EXPECT_EQ(wb::render({wb::thrown_phrase(t)}, "zh"), "run() 抛出了 std::runtime_error：no such file");
}

TEST(HostThrown, AThrowThatIsNoStdExceptionIsNamedByItsTypeAlone) {
    wb::HostThrown t;
    try {
        throw 42;
    } catch (...) {
        t = wb::describe_current_exception();
    }
    EXPECT_EQ(t.type, "int");
    EXPECT_FALSE(t.what.has_value());
    EXPECT_EQ(wb::render({wb::thrown_phrase(t)}, "en"), "run() threw int");
}
