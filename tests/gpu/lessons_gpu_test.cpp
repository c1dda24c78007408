// tests/gpu/lessons_gpu_test.cpp — every case of every step of every shipped lesson passes on a GPU.
//
// One test per (lesson, step, case), so a failure names exactly what broke.
// Without a GPU each test is skipped with the driver's reason.
#include "gpu_test_support.hpp"
#include "pipeline/run.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ostream>
#include <vector>

namespace {

struct CaseId {
    std::string file, lesson, step, test_case;
};

// So ctest and gtest print "vector_add/one_thread_per_element/small", not bytes.
void PrintTo(const CaseId& id, std::ostream* os) { *os << id.lesson << "/" << id.step << "/" << id.test_case; }

std::vector<CaseId> all_cases() {
    std::vector<CaseId> out;
    for (const auto& f : wb::list_lessons(source_dir() + "/lessons")) {
        auto r = wb::load_lesson(f);
        if (!r.ok()) {
            out.push_back({f.filename().string(), "INVALID_" + f.stem().string(), "", ""});
            continue;
        }
        for (const auto& s : r.lesson->steps)
            for (const auto& c : s.checks.cases) out.push_back({f.filename().string(), r.lesson->id, s.id, c.name});
    }
    return out;
}

std::string case_name(const testing::TestParamInfo<CaseId>& info) {
    std::string n = info.param.lesson + "__" + info.param.step + "__" + info.param.test_case;
    for (char& ch : n)
        if (!isalnum((unsigned char)ch)) ch = '_';
    return n;
}

// Explicit rather than the lessons' own counts, so the test can check them;
// odd so the median is one of the samples.
constexpr int kWarmup = 2;
constexpr int kRepeat = 9;

wb::RunBackend& backend() {
    static auto b = wb::make_local_backend();
    return *b;
}

class SolutionPasses : public testing::TestWithParam<CaseId> {};

TEST_P(SolutionPasses, OnTheGpu) {
    const CaseId& id = GetParam();
    ASSERT_FALSE(id.step.empty()) << id.file << " does not load: run cuda-workbook-cli validate on it";
    WB_REQUIRE_GPU();
    auto lesson = load_shipped(id.file);
    ASSERT_TRUE(lesson);
    wb::RunRequest req;
    req.trusted = true;  // on a GPU machine the bundle's binaries may not know this checkout as shipped
    req.lesson = lesson;
    req.step = id.step;
    req.test_case = id.test_case;
    req.source = wb::SourceChoice::Solution;
    req.keep_buffers = false;
    req.warmup = kWarmup;
    req.repeat = kRepeat;
    wb::RunResult r = backend().run(req);
    std::string detail = r.message;
    for (const auto& c : r.comparisons)
        for (const auto& m : c.first)
            detail += "\n  " + c.buffer + "[" + std::to_string(m.flat) + "] got " + std::to_string(m.got) + " want " +
                      std::to_string(m.want);
    ASSERT_EQ(r.status, wb::RunStatus::Passed) << wb::run_status_name(r.status) << ": " << detail;
    // A passed run is timed as requested: at least `repeat` samples (more
    // until the median settles), each a real duration, and the summary
    // figures are those of the samples. A host step is timed by run()'s wall time.
    ASSERT_TRUE(r.step_time());
    EXPECT_EQ(r.host_step, r.wall_time.has_value());
    const wb::Timing& t = *r.step_time();
    EXPECT_EQ(t.warmup, kWarmup);
    ASSERT_GE(t.samples_ms.size(), std::size_t(kRepeat));
    EXPECT_FALSE(t.stopped_by.empty());
    for (double s : t.samples_ms) {
        EXPECT_TRUE(std::isfinite(s)) << s;
        EXPECT_GT(s, 0.0);
    }
    std::vector<double> sorted = t.samples_ms;
    std::sort(sorted.begin(), sorted.end());
    const std::size_t n = sorted.size();
    EXPECT_DOUBLE_EQ(t.median_ms, n % 2 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]));
    EXPECT_EQ(t.min_ms, *std::min_element(t.samples_ms.begin(), t.samples_ms.end()));
    EXPECT_EQ(t.max_ms, *std::max_element(t.samples_ms.begin(), t.samples_ms.end()));
    // The figures go in the test log so a GPU run documents itself.
    std::printf("[ figures  ] %s/%s/%s: %s median %.4f ms (min %.4f, max %.4f), CPU %.3f ms, %.1f GB/s, %.1f GFLOP/s\n",
                id.lesson.c_str(), id.step.c_str(), id.test_case.c_str(), r.host_step ? "run()" : "GPU", t.median_ms,
                t.min_ms, t.max_ms, r.cpu_ms, r.gbs(), r.gflops());
    // A host step with a target meets it on the lesson's timing case, where it
    // applies (on a tiny case, fixed costs decide the ratio; `check` times only the timing case).
    const wb::Step* step = lesson->find_step(id.step);
    const wb::TestCase* tc = step ? step->find_case(id.test_case) : nullptr;
    if (tc && tc->timing && r.target && r.target->applies()) {
        EXPECT_TRUE(r.target->met()) << "target: " << r.target->ratio() << "x of " << r.target->step << ", at most "
                                     << r.target->at_most;
    }
}

INSTANTIATE_TEST_SUITE_P(Lessons, SolutionPasses, testing::ValuesIn(all_cases()), case_name);

}  // namespace
