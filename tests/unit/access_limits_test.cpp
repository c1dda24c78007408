// tests/unit/access_limits_test.cpp — a lesson's access limits (checks.access)
// on real kernels on the CPU emulator: a vector add whose threads read twice
// keeps "at most 2 global reads per thread" and one thread that reads three
// times breaks it, named by its block and thread; an output element written
// by two threads breaks "each written exactly once", named by its index, and
// an unwritten one too, even where the comparison cannot see it (an output
// the lesson fills with 0); lesson 09's unpadded tile breaks "at most 1-way
// bank conflicts" on its column read and the padded one keeps it; lesson
// 12's strided reads break "at most 4 sectors per request"; a limit broken
// in a multi-pass launch names the kernel and the pass; the counts agree
// with the access record's; the loader's model of the limits; and the CLI's
// lines for them.
#include "cli_runner.hpp"

#include "core/error.hpp"
#include "lesson/loader.hpp"
#include "lesson/resolve.hpp"
#include "pipeline/run.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>

#include <unistd.h>

namespace {

const std::string kLesson = "tests/data/lessons_good/access_limits.json";

std::shared_ptr<wb::Lesson> load(const std::string& file) {
    auto loaded = wb::load_lesson(std::string(WB_SOURCE_DIR) + "/" + file);
    EXPECT_TRUE(loaded.ok()) << (loaded.issues.empty() ? "" : loaded.issues.front().to_string());
    if (!loaded.ok()) return nullptr;
    return std::make_shared<wb::Lesson>(std::move(*loaded.lesson));
}

// `source` ("" for the solution) of a step, on the emulator, in this process.
wb::RunResult run(std::shared_ptr<const wb::Lesson> lesson, const std::string& step, const std::string& test_case,
                  const std::string& source = "", std::map<std::string, double> params = {}, bool access = false) {
    wb::RunRequest req;
    req.trusted = true;
    req.lesson = std::move(lesson);
    req.step = step;
    req.test_case = test_case;
    req.params = std::move(params);
    req.source = source.empty() ? wb::SourceChoice::Solution : wb::SourceChoice::Custom;
    req.custom_source = source;
    req.executor = wb::Executor::Cpu;
    req.timing = false;
    req.keep_buffers = true;
    req.access = access;
    return wb::make_local_backend()->run(req);
}

// Vector adds of the test lesson that break its limits.
// Thread 77 (block 1, thread 13 at 64 a block) also reads a[78]: three reads.
const std::string kReadsThrice = R"(extern "C" __global__ void vadd(const float* a, const float* b, float* c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float s = a[i] + b[i];
    if (i == 77 && i + 1 < n && a[i + 1] < -1e30f) s = 0;
    c[i] = s;
}
)";
// Thread 0 of each block writes the next element again, after the barrier: no race, the same value.
const std::string kWritesTwice = R"(extern "C" __global__ void vadd(const float* a, const float* b, float* c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
    __syncthreads();
    if (threadIdx.x == 0 && i + 1 < n) c[i + 1] = a[i + 1] + b[i + 1];
}
)";
const std::string kSkipsFive = R"(extern "C" __global__ void vadd(const float* a, const float* b, float* c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && i != 5) c[i] = a[i] + b[i];
}
)";
// Right where the lesson fills y with 0: it writes only the positive elements.
const std::string kReluSkipsZeros = R"(extern "C" __global__ void relu(const float* x, float* y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && x[i] > 0) y[i] = x[i];
}
)";

TEST(AccessLimits, AVectorAddWhoseThreadsReadTwiceKeepsAtMostTwoReadsPerThread) {
    const wb::RunResult r = run(load(kLesson), "reads", "ragged");
    ASSERT_EQ(r.status, wb::RunStatus::Passed) << r.message;
    ASSERT_EQ(r.access_limits.size(), 1u);
    const wb::AccessLimitResult& l = r.access_limits[0];
    EXPECT_EQ(l.verdict, wb::LimitVerdict::Passed) << l.said_in("en");
    EXPECT_EQ(l.json_path, "steps[0].checks.access[0]");
    EXPECT_EQ(l.limit_in("en"), "global memory reads per thread: at most 2");
    // 16 blocks of 64: the 24 threads past N read nothing.
    EXPECT_EQ(l.said_in("en"), "1024 threads: the most 2, the fewest 0.");
    EXPECT_EQ(l.value, 2);
    EXPECT_FALSE(r.access) << "the record is not returned unless asked for";
}

TEST(AccessLimits, AThreadThatReadsThreeTimesFailsTheCaseNamedByItsBlockAndThread) {
    const wb::RunResult r = run(load(kLesson), "reads", "ragged", kReadsThrice);
    ASSERT_EQ(r.status, wb::RunStatus::AccessLimit) << r.message;
    EXPECT_EQ(r.comparisons.at(0).passed, true) << "the output is right: only the limit fails it";
    EXPECT_EQ(r.message,
              "Thread (13,0,0) of block (1,0,0) read global memory 3 times; this step allows at most 2. "
              "Why: Each thread needs a[i] and b[i], nothing more.");
    EXPECT_EQ(r.message_in("zh"), "线程块 (1,0,0) 中的线程 (13,0,0) 读取全局内存 3 次；本步骤最多允许 2 次。"
                                  "原因：每个线程只需要 a[i] 和 b[i]。");
    EXPECT_EQ(r.access_limits.at(0).verdict, wb::LimitVerdict::Failed);
    EXPECT_EQ(r.access_limits.at(0).value, 3);
    EXPECT_FALSE(r.hint.empty());
}

TEST(AccessLimits, AnElementWrittenByTwoThreadsFailsExactlyOnceNamedByItsIndex) {
    const wb::RunResult r = run(load(kLesson), "written_once", "ragged", kWritesTwice);
    ASSERT_EQ(r.status, wb::RunStatus::AccessLimit) << r.message;
    // Element 1 is the first: thread 1 of block 0 wrote it, then thread 0; and so on in each of the 16 blocks.
    EXPECT_EQ(r.message, "Element 1 of 'c' was written 2 times; this step wants exactly 1. 16 of the 1000 elements break this limit.");
    EXPECT_EQ(r.access_limits.at(0).value, 2);
}

TEST(AccessLimits, AnUnwrittenElementFailsExactlyOnceBesideTheMismatch) {
    const wb::RunResult r = run(load(kLesson), "written_once", "ragged", kSkipsFive);
    ASSERT_EQ(r.status, wb::RunStatus::Mismatch) << "the wrong output stays the verdict";
    ASSERT_EQ(r.access_limits.size(), 1u);
    EXPECT_EQ(r.access_limits[0].verdict, wb::LimitVerdict::Failed);
    EXPECT_EQ(r.access_limits[0].said_in("en"), "Element 5 of 'c' was written 0 times; this step wants exactly 1.");
}

TEST(AccessLimits, AnUnwrittenElementTheComparisonCannotSeeFailsAtLeastOnce) {
    const auto lesson = load(kLesson);
    ASSERT_EQ(run(lesson, "relu", "ragged").status, wb::RunStatus::Passed);
    const wb::RunResult r = run(lesson, "relu", "ragged", kReluSkipsZeros);
    ASSERT_EQ(r.status, wb::RunStatus::AccessLimit) << r.message;
    ASSERT_TRUE(r.comparisons.at(0).passed) << "y starts as 0, so the skipped elements compare right";
    const wb::AccessLimitResult& l = r.access_limits.at(0);
    ASSERT_EQ(l.said.at(0).key, "access.limit.element");
    // The element named is the first x[i] <= 0, which the kernel skipped.
    const wb::HostBuffer& x = r.inputs.at(0);
    ASSERT_EQ(x.name, "x");
    long long first = -1;
    for (std::size_t i = 0; i < x.count() && first < 0; ++i)
        if (x.get(i) <= 0) first = static_cast<long long>(i);
    ASSERT_GE(first, 0);
    EXPECT_EQ(l.said.at(0).args.at(0), std::to_string(first));
    EXPECT_NE(r.message.find("Why: y starts as 0 here only"), std::string::npos) << r.message;
}

TEST(AccessLimits, APerThreadCountOfOneBufferCountsOnlyItsReads) {
    const auto lesson = load(kLesson);
    const wb::RunResult ok = run(lesson, "reads_of_a", "ragged");
    ASSERT_EQ(ok.status, wb::RunStatus::Passed) << ok.message;
    ASSERT_EQ(ok.access_limits.size(), 3u);
    for (const auto& l : ok.access_limits) EXPECT_EQ(l.verdict, wb::LimitVerdict::Passed) << l.limit_in("en") << ": " << l.said_in("en");
    EXPECT_EQ(ok.access_limits[0].limit_in("en"), "global memory reads of 'a' per thread: at most 1");
    EXPECT_EQ(ok.access_limits[1].limit_in("en"), "global memory writes per thread: at least 0 and at most 1");
    EXPECT_EQ(ok.access_limits[2].limit_in("en"), "32-byte sectors per request on the worst line of global memory loads: at most 4");
    // The worst load line over the sampled blocks 0, 8 and 15: six warp-level requests each of a and b,
    // five of 32 lanes (4 sectors) and the last block's second warp of 8 lanes (1 sector): 42 / 12.
    EXPECT_DOUBLE_EQ(ok.access_limits[2].value, 3.5);

    // Thread 77 reads a[i] and a[i + 1]: two reads of 'a', three in all.
    const wb::RunResult r = run(lesson, "reads_of_a", "ragged", kReadsThrice);
    ASSERT_EQ(r.status, wb::RunStatus::AccessLimit) << r.message;
    EXPECT_EQ(r.access_limits[0].said_in("en"), "Thread (13,0,0) of block (1,0,0) read 'a' 2 times; this step allows at most 1.");
    EXPECT_EQ(r.access_limits[1].verdict, wb::LimitVerdict::Passed);
}

TEST(AccessLimits, TheCountsAreTheAccessRecordsForEveryRecordedThread) {
    // 5 blocks: every block is recorded, so the record has every thread.
    const wb::RunResult r = run(load(kLesson), "reads", "ragged", kReadsThrice, {{"N", 300}}, true);
    ASSERT_EQ(r.status, wb::RunStatus::AccessLimit) << r.message;
    ASSERT_TRUE(r.access);
    ASSERT_EQ(r.access->threads.size(), 320u);
    long long most = 0, at_most = 0;
    for (const wb::AccessThread& t : r.access->threads) {
        most = std::max(most, t.global_reads);
        if (t.global_reads == 3) {
            EXPECT_EQ(t.block, (std::array<long long, 3>{1, 0, 0}));
            EXPECT_EQ(t.thread, (std::array<long long, 3>{13, 0, 0}));
        }
        at_most += t.global_reads > 2;
    }
    EXPECT_EQ(most, 3);
    EXPECT_EQ(at_most, 1);
    EXPECT_EQ(r.access_limits.at(0).value, double(most));
}

// A shipped lesson's step with one more limit (the shipped lessons carry none of their own yet).
std::shared_ptr<wb::Lesson> with_limit(const std::string& lesson, std::size_t step, wb::AccessLimitSpec limit) {
    auto l = load(lesson);
    if (!l) return l;
    limit.json_path = l->steps.at(step).json_path + ".checks.access[0]";
    l->steps.at(step).checks.access = {limit};
    return l;
}

wb::AccessLimitSpec figure(wb::AccessFigure f, const std::string& op, double at_most) {
    wb::AccessLimitSpec a;
    a.is_figure = true;
    a.figure = f;
    a.op = op;
    a.figure_at_most = at_most;
    return a;
}

TEST(AccessLimits, TheUnpaddedTransposeTileBreaksOneWayBankConflictsAndThePaddedOneKeepsIt) {
    const auto plain = with_limit("lessons/09_transpose.json", 1, figure(wb::AccessFigure::BankConflictWays, "load", 1));
    const wb::RunResult r = run(plain, "shared_tile", "one_tile");
    ASSERT_EQ(r.status, wb::RunStatus::AccessLimit) << r.message;
    EXPECT_EQ(r.message, "Line 41 reads shared memory with 32-way bank conflicts; this step allows at most 1-way.");
    EXPECT_EQ(r.message_in("zh"), "第 41 行读取共享内存时有 32 路存储体冲突；本步骤最多允许 1 路。");

    const auto padded = with_limit("lessons/09_transpose.json", 2, figure(wb::AccessFigure::BankConflictWays, "load", 1));
    const wb::RunResult p = run(padded, "padded_tile", "one_tile");
    ASSERT_EQ(p.status, wb::RunStatus::Passed) << p.message;
    EXPECT_EQ(p.access_limits.at(0).verdict, wb::LimitVerdict::Passed);
    EXPECT_EQ(p.access_limits.at(0).value, 1);
}

TEST(AccessLimits, StridedReadsBreakFourSectorsPerRequestAndTheSharedTileKeepsIt) {
    const auto strided = with_limit("lessons/12_coalescing.json", 0, figure(wb::AccessFigure::SectorsPerRequest, "load", 4));
    const wb::RunResult r = run(strided, "strided_reads", "no_tail", "", {{"stride", 8}});
    ASSERT_EQ(r.status, wb::RunStatus::AccessLimit) << r.message;
    EXPECT_EQ(r.message, "Line 14 reads global memory with 32 sectors per request; this step allows at most 4.");

    const auto tiled = with_limit("lessons/12_coalescing.json", 1, figure(wb::AccessFigure::SectorsPerRequest, "", 4));
    const wb::RunResult t = run(tiled, "shared_tile", "no_tail", "", {{"stride", 8}});
    ASSERT_EQ(t.status, wb::RunStatus::Passed) << t.message;
    EXPECT_EQ(t.access_limits.at(0).value, 4);
}

TEST(AccessLimits, ALimitBrokenInAMultiPassLaunchNamesTheKernelAndThePass) {
    wb::AccessLimitSpec reads;
    reads.count = wb::AccessCount::GlobalReads;
    reads.at_most = "0";
    const auto lesson = with_limit("tests/data/lessons_good/multipass_scan.json", 0, reads);
    const wb::RunResult r = run(lesson, "", "seven");
    ASSERT_EQ(r.status, wb::RunStatus::AccessLimit) << r.message;
    // The first launch ('zero') reads nothing; in the scan's first pass thread 1 is the first to read
    // x[i] and x[i - 1]. N = 7: 128 threads of 'zero' and 3 passes of 256.
    EXPECT_EQ(r.message, "Thread (1,0,0) of block (0,0,0) read global memory 2 times in kernel 'scan_pass', pass 0; "
                         "this step allows at most 0. 21 of the 896 threads break this limit.");
}

TEST(AccessLimits, AStepWithoutLimitsHasNoneInItsResult) {
    const wb::RunResult r = run(load("tests/data/lessons_good/minimal.json"), "", "");
    ASSERT_EQ(r.status, wb::RunStatus::Passed) << r.message;
    EXPECT_TRUE(r.access_limits.empty());
}

// ---------------------------------------------------------------------------
// The lesson format
// ---------------------------------------------------------------------------

TEST(AccessLimitsFormat, TheLoaderKeepsEachLimitAsWritten) {
    const auto lesson = load(kLesson);
    ASSERT_TRUE(lesson);
    const auto& reads = lesson->steps[0].checks.access;
    ASSERT_EQ(reads.size(), 1u);
    EXPECT_FALSE(reads[0].is_figure);
    EXPECT_EQ(reads[0].count, wb::AccessCount::GlobalReads);
    EXPECT_FALSE(reads[0].per_element);
    EXPECT_EQ(reads[0].at_most, "2");
    EXPECT_EQ(reads[0].why.get("zh"), "每个线程只需要 a[i] 和 b[i]。");
    EXPECT_EQ(lesson->steps[0].checks.cases.size(), 3u) << "a step's checks.access keeps the lesson's cases (format 2)";
    const auto& once = lesson->steps[1].checks.access.at(0);
    EXPECT_TRUE(once.per_element);
    EXPECT_EQ(once.buffer, "c");
    EXPECT_EQ(once.exactly, "1");
    const auto& fig = lesson->steps[2].checks.access.at(2);
    EXPECT_TRUE(fig.is_figure);
    EXPECT_EQ(fig.figure, wb::AccessFigure::SectorsPerRequest);
    EXPECT_EQ(fig.op, "load");
    EXPECT_EQ(fig.figure_at_most, 4);
    EXPECT_EQ(fig.json_path, "steps[2].checks.access[2]");
}

// The minimal lesson with `access` as its checks.access and `cases` as its cases.
wb::LoadResult minimal_with(const nlohmann::json& access, const nlohmann::json& cases = nullptr) {
    std::ifstream in(std::string(WB_SOURCE_DIR) + "/tests/data/lessons_good/minimal.json");
    nlohmann::ordered_json j = nlohmann::ordered_json::parse(in);
    j["checks"]["access"] = access;
    if (!cases.is_null()) j["checks"]["cases"] = cases;
    return wb::load_lesson_text(j.dump(), std::string(WB_SOURCE_DIR) + "/tests/data/lessons_good/edited.json");
}

std::string issues_of(const wb::LoadResult& r) {
    std::string s;
    for (const auto& i : r.issues) s += i.json_path + ": " + i.message + "\n";
    return s;
}

TEST(AccessLimitsFormat, AStepWhoseCasesTheEmulatorNeverJudgesIsRefused) {
    const nlohmann::json limit = nlohmann::json::array({{{"count", "global_reads"}, {"per", "thread"}, {"at_most", 1}}});
    const wb::LoadResult ok = minimal_with(limit);
    EXPECT_TRUE(ok.ok()) << issues_of(ok);
    const wb::LoadResult r = minimal_with(limit, nlohmann::json::array({{{"name", "big"}, {"timing", true}},
                                                                        {{"name", "huge"}, {"emulate", false}}}));
    ASSERT_FALSE(r.ok());
    EXPECT_NE(issues_of(r).find("checks.access: access limits are judged on the cases the CPU emulator runs that are not timed"),
              std::string::npos)
        << issues_of(r);
}

TEST(AccessLimitsFormat, ABoundFromParamsIsEvaluatedForEachCaseAndAWrongOneNamesItsPath) {
    const wb::LoadResult r = minimal_with(nlohmann::json::array({{{"count", "global_reads"}, {"per", "thread"}, {"at_most", "N - 20"}}}));
    ASSERT_TRUE(r.ok()) << issues_of(r);
    const wb::Step& step = r.lesson->steps[0];
    const auto bounds = wb::resolve_access_limits(step, {{"N", 24}});
    ASSERT_EQ(bounds.size(), 1u);
    EXPECT_EQ(bounds[0].at_most, 4);
    EXPECT_FALSE(bounds[0].at_least);
    try {
        wb::resolve_access_limits(step, {{"N", 16}});
        ADD_FAILURE() << "a bound of -4 was taken";
    } catch (const wb::Error& e) {
        EXPECT_EQ(e.where().json_path, "checks.access[0].at_most") << "the lesson-level checks, where the bound is written";
    }
}

// ---------------------------------------------------------------------------
// The CLI
// ---------------------------------------------------------------------------

TEST(AccessLimitsCli, RunPrintsEachLimitAndFailsWithTheBrokenOne) {
    const std::filesystem::path kernel = std::filesystem::temp_directory_path() / ("wb_reads3_" + std::to_string(::getpid()) + ".cu");
    std::ofstream(kernel) << kReadsThrice;
    const CliResult bad = run_cli("run --trust " + kLesson + " --step reads --case ragged --source " + kernel.string() + " --backend cpu --no-timing");
    EXPECT_NE(bad.code, 0);
    EXPECT_TRUE(contains(bad.out, "limit   FAIL  global memory reads per thread: at most 2 — Thread (13,0,0) of block (1,0,0) read "
                                  "global memory 3 times; this step allows at most 2.\n        Why: Each thread needs a[i] and b[i], nothing more.\n"))
        << bad.out;
    EXPECT_TRUE(contains(bad.out, "result  access-limit: Thread (13,0,0)")) << bad.out;
    std::filesystem::remove(kernel);

    const CliResult json = run_cli("run --trust " + kLesson + " --step reads --case ragged --solution --backend cpu --no-timing --json");
    EXPECT_EQ(json.code, 0) << json.out;
    const auto j = nlohmann::json::parse(json.out.substr(json.out.find('{')));
    ASSERT_EQ(j.at("access_limits").size(), 1u);
    EXPECT_EQ(j["access_limits"][0].at("verdict"), "passed");
    EXPECT_EQ(j["access_limits"][0].at("json_path"), "steps[0].checks.access[0]");
}

}  // namespace
