// tests/unit/grade_test.cpp — grading a class (runtime/grade/, `cuda-workbook-cli grade`):
// the gradebook's CSV, finding submissions, hidden cases and the seed, and a
// whole grade of a small class on the CPU emulator, resumed.
#include "cli_runner.hpp"
#include "core/error.hpp"
#include "grade/grade.hpp"
#include "grade/gradebook.hpp"
#include "grade/graded_lesson.hpp"
#include "grade/submissions.hpp"
#include "lesson/loader.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

fs::path temp_folder(const std::string& name) {
    const fs::path p = fs::temp_directory_path() / ("wb-grade-" + name + "-" + std::to_string(::getpid()));
    fs::remove_all(p);
    fs::create_directories(p);
    return p;
}

void write(const fs::path& p, const std::string& text) {
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << text;
}

std::string read(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::string lesson01() { return std::string(WB_SOURCE_DIR) + "/lessons/01_vector_add.json"; }

std::shared_ptr<const wb::Lesson> load01() {
    wb::LoadResult lr = wb::load_lesson(lesson01());
    EXPECT_TRUE(lr.ok());
    return std::make_shared<const wb::Lesson>(std::move(*lr.lesson));
}

const std::string kWrong = R"(extern "C" __global__ void vector_add(const float* a, const float* b, float* c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] - b[i];
}
)";

}  // namespace

TEST(Gradebook, RowsSurviveTheirCsvWithCommasQuotesAndUnknownFigures) {
    wb::GradeRow a;
    a.student = "o'brien, \"jr\"";
    a.lesson = "vector_add";
    a.step = 1;
    a.step_id = "one_thread_per_element";
    a.cases_passed = 3;
    a.cases_total = 4;
    a.verdict = "mismatch";
    a.score = 3;
    a.max_score = 4;
    wb::GradeRow b = a;
    b.student = "li";
    b.verdict = "passed";
    b.time_ms = 0.0123;
    b.device = "NVIDIA H200";
    b.share = 0.87;
    b.share_of = "device memcpy a -> c";
    const std::string csv = wb::gradebook_csv({a, b});
    EXPECT_EQ(csv.substr(0, csv.find('\n')),
              "student,lesson,step,step_id,cases_passed,cases_total,verdict,score,max_score,time_ms,device,share,share_of");
    const auto rows = wb::parse_gradebook_csv(csv, "gradebook.csv");
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[0].student, a.student);
    EXPECT_FALSE(rows[0].time_ms.has_value());
    EXPECT_DOUBLE_EQ(*rows[1].time_ms, 0.0123);
    EXPECT_DOUBLE_EQ(*rows[1].share, 0.87);
    EXPECT_EQ(rows[1].share_of, b.share_of);
}

TEST(Gradebook, ARowWithTheWrongFieldsIsRefusedWithItsLine) {
    const std::string csv = wb::gradebook_csv({}) + "li,vector_add,1\n";
    try {
        wb::parse_gradebook_csv(csv, "book.csv");
        FAIL() << "accepted";
    } catch (const wb::Error& e) {
        EXPECT_EQ(e.where().file, "book.csv");
        EXPECT_EQ(e.where().line, 2);
        EXPECT_NE(e.message().find("3 fields"), std::string::npos) << e.message();
    }
    EXPECT_THROW(wb::parse_gradebook_csv("a,b\n", "x.csv"), wb::Error);
}

TEST(Submissions, AFolderPerStudentFindsStepFilesByNumberAndByIdAndNotesTheRest) {
    const fs::path d = temp_folder("folder");
    write(d / "ana" / "step1.cu", "x");
    write(d / "ana" / "grid_stride_loop.cu", "x");
    write(d / "bo" / "step2.cu", "x");
    write(d / "bo" / "notes.cu", "x");
    write(d / "bo" / "README.md", "x");
    fs::create_directories(d / "cy");
    const auto lesson = load01();
    const auto subs = wb::find_submissions(d, *lesson);
    ASSERT_EQ(subs.size(), 3u);
    EXPECT_EQ(subs[0].student, "ana");
    EXPECT_EQ(subs[0].files.size(), 2u);
    EXPECT_TRUE(subs[0].files.count("one_thread_per_element"));
    EXPECT_TRUE(subs[0].files.count("grid_stride_loop"));
    EXPECT_EQ(subs[1].files.size(), 1u);
    ASSERT_EQ(subs[1].notes.size(), 1u);  // notes.cu names no step
    EXPECT_TRUE(subs[2].files.empty());   // cy handed in nothing: zeros, not an error
    fs::remove_all(d);
}

TEST(Submissions, ManifestsInCsvAndJsonAndABadIdNamedWithItsPlace) {
    const fs::path d = temp_folder("manifest");
    write(d / "f" / "a1.cu", "x");
    write(d / "class.csv", "student,step,file\nana,1,f/a1.cu\nbo,2,\n");
    const auto lesson = load01();
    auto subs = wb::find_submissions(d / "class.csv", *lesson);
    ASSERT_EQ(subs.size(), 2u);
    EXPECT_EQ(subs[0].files.at("one_thread_per_element"), d / "f" / "a1.cu");
    EXPECT_TRUE(subs[1].files.empty());
    write(d / "class.json", R"({"ana": {"grid_stride_loop": "f/a1.cu"}, "../x": {}})");
    try {
        wb::find_submissions(d / "class.json", *lesson);
        FAIL() << "accepted ../x";
    } catch (const wb::Error& e) {
        EXPECT_EQ(e.where().json_path, "$.../x");
        EXPECT_NE(e.message().find("'/'"), std::string::npos) << e.message();
    }
    write(d / "bad.csv", "student,file\n");
    EXPECT_THROW(wb::find_submissions(d / "bad.csv", *lesson), wb::Error);
    fs::remove_all(d);
}

TEST(GradedLesson, HiddenCasesJoinTheirStepMarkedHiddenAndTheSeedRedrawsTheInputs) {
    const fs::path d = temp_folder("hidden");
    write(d / "hidden.json", R"({"steps": {"1": [{"name": "odd", "params": {"N": 777}}], "grid_stride_loop": [{"name": "big", "params": {"N": 5000}}]}})");
    const auto g = wb::graded_lesson(lesson01(), d / "hidden.json", 42);
    const wb::TestCase* odd = g->steps[0].find_case("odd");
    ASSERT_NE(odd, nullptr);
    EXPECT_TRUE(odd->hidden);
    EXPECT_FALSE(g->steps[0].find_case("ragged")->hidden);
    EXPECT_EQ(g->steps[0].checks.cases.size(), load01()->steps[0].checks.cases.size() + 1);
    ASSERT_NE(g->steps[1].find_case("big"), nullptr);
    EXPECT_EQ(g->steps[0].find_case("big"), nullptr);
    // Every random input's seed is mixed with the grade's, the same way each time.
    const auto again = wb::graded_lesson(lesson01(), std::nullopt, 42);
    const auto other = wb::graded_lesson(lesson01(), std::nullopt, 43);
    const auto& b0 = load01()->steps[0].buffers[0];
    EXPECT_NE(again->steps[0].buffers[0].init.seed, b0.init.seed);
    EXPECT_EQ(again->steps[0].buffers[0].init.seed, wb::mixed_seed(b0.init.seed, 42));
    EXPECT_NE(other->steps[0].buffers[0].init.seed, again->steps[0].buffers[0].init.seed);
    fs::remove_all(d);
}

TEST(GradedLesson, ABadHiddenCaseIsNamedByItsPathInTheHiddenFile) {
    const fs::path d = temp_folder("badhidden");
    write(d / "hidden.json", R"({"steps": {"1": [{"name": "odd", "params": {"N": 777}, "colour": 1}]}})");
    try {
        wb::graded_lesson(lesson01(), d / "hidden.json", std::nullopt);
        FAIL() << "accepted";
    } catch (const wb::Error& e) {
        EXPECT_EQ(e.where().file, (d / "hidden.json").string());
        EXPECT_EQ(e.where().json_path.rfind("steps.1[0]", 0), 0u) << e.where().json_path;
    }
    write(d / "nostep.json", R"({"steps": {"tiled": [{"name": "x"}]}})");
    try {
        wb::graded_lesson(lesson01(), d / "nostep.json", std::nullopt);
        FAIL() << "accepted";
    } catch (const wb::Error& e) {
        EXPECT_EQ(e.where().json_path, "steps.tiled");
    }
    fs::remove_all(d);
}

TEST(GradeCli, AClassOnTheEmulatorGetsAGradebookGradescopeResultsAndLogsAndResumes) {
    const fs::path d = temp_folder("class");
    const fs::path subs = d / "subs", out = d / "out";
    write(subs / "ana" / "step1.cu", read(std::string(WB_SOURCE_DIR) + "/lessons/01_vector_add/solution_step1.cu"));
    write(subs / "ana" / "step2.cu", read(std::string(WB_SOURCE_DIR) + "/lessons/01_vector_add/solution_step2.cu"));
    write(subs / "bo" / "step1.cu", kWrong);
    write(subs / "cy" / "step1.cu", "this is not CUDA");
    write(d / "hidden.json", R"({"steps": {"1": [{"name": "secret", "params": {"N": 333}}]}})");
    const std::string args = "grade lessons/01_vector_add.json '" + subs.string() + "' --out '" + out.string() +
                             "' --backend cpu --jobs 2 --seed 7 --hidden '" + (d / "hidden.json").string() + "' --quiet";
    const CliResult r = run_cli(args, "LANG=C");
    ASSERT_EQ(r.code, 0) << r.out;
    EXPECT_TRUE(contains(r.out, "3 submission(s), 3 to grade")) << r.out;

    const auto rows = wb::parse_gradebook_csv(read(out / "gradebook.csv"), "gradebook.csv");
    ASSERT_EQ(rows.size(), 6u);  // 3 students x 2 steps
    // ana: both steps pass every case the emulator runs (large is left out there), hidden one too.
    EXPECT_EQ(rows[0].student, "ana");
    EXPECT_EQ(rows[0].verdict, "passed");
    EXPECT_EQ(rows[0].cases_passed, rows[0].cases_total);
    EXPECT_EQ(rows[0].device, "CPU emulator");
    EXPECT_EQ(rows[1].verdict, "passed");
    // bo: a wrong sum; no step 2 file is a zero.
    EXPECT_EQ(rows[2].verdict, "mismatch");
    EXPECT_EQ(rows[2].cases_passed, 0);
    EXPECT_EQ(rows[3].verdict, "missing");
    EXPECT_EQ(rows[3].score, 0);
    EXPECT_EQ(rows[4].verdict, "compile-error");

    const json res = json::parse(read(out / "bo" / "results.json"));
    EXPECT_EQ(res["score"], 0);
    bool hidden_seen = false;
    for (const auto& t : res["tests"]) {
        if (t["name"].get<std::string>().find("secret") == std::string::npos) continue;
        hidden_seen = true;
        EXPECT_EQ(t["output"], "A hidden case: only its result is shown.");  // not its inputs or the mismatch
    }
    EXPECT_TRUE(hidden_seen);
    const std::string log = read(out / "bo" / "log.txt");
    EXPECT_TRUE(contains(log, "FAIL ragged")) << log;
    EXPECT_TRUE(contains(read(out / "junit.xml"), "<testsuite name=\"ana\"")) << read(out / "junit.xml");

    // Run again: everyone is graded already; a grade of another seed in the same folder is refused.
    const CliResult again = run_cli(args, "LANG=C");
    ASSERT_EQ(again.code, 0) << again.out;
    EXPECT_TRUE(contains(again.out, "0 to grade (3 already graded")) << again.out;
    fs::remove(out / "cy" / "grade.json");
    EXPECT_TRUE(contains(run_cli(args, "LANG=C").out, "1 to grade (2 already graded"));
    const CliResult other = run_cli("grade lessons/01_vector_add.json '" + subs.string() + "' --out '" + out.string() +
                                    "' --backend cpu --seed 8 --quiet");
    EXPECT_EQ(other.code, 2) << other.out;
    EXPECT_TRUE(contains(other.out, "another lesson, hidden cases, seed or backend")) << other.out;

    // In Chinese: the log's sentences come from the catalogue.
    const CliResult zh = run_cli(args + " --restart --lang zh", "LANG=C");
    ASSERT_EQ(zh.code, 0) << zh.out;
    EXPECT_TRUE(contains(read(out / "cy" / "log.txt"), "第 2 步")) << read(out / "cy" / "log.txt");
    fs::remove_all(d);
}

TEST(GradeCli, HostOnlyCodeInASubmissionNeverRunsAndAnEndlessOneTimesOutOnce) {
    // The emulator compiles a kernel's device side (__CUDA_ARCH__ is defined, as
    // NVRTC's is): a system() call in #ifndef __CUDA_ARCH__ code is never built,
    // so it cannot write outside, whatever the containment around it.
    const fs::path d = temp_folder("hostile");
    const fs::path victim = d / "victim.txt";
    write(victim, "before\n");
    const std::string cmd = "echo pwned > " + (d / "pwned.txt").string() + "; echo pwned >> " + victim.string();
    std::string mallory = read(std::string(WB_SOURCE_DIR) + "/lessons/01_vector_add/solution_step1.cu");
    mallory.insert(mallory.find('{') + 1, "\n    if (threadIdx.x == 0 && blockIdx.x == 0) evil();\n");
    write(d / "subs" / "mallory" / "step1.cu",
          "#ifndef __CUDA_ARCH__\nextern \"C\" int system(const char*);\n#endif\n"
          "__host__ __device__ inline void evil() {\n#ifndef __CUDA_ARCH__\n    system(\"" + cmd + "\");\n#endif\n}\n" + mallory);
    // Thread 0 spins forever: the first case times out, the step's later ones are not run.
    std::string endless = read(std::string(WB_SOURCE_DIR) + "/lessons/01_vector_add/solution_step1.cu");
    endless.insert(endless.find('{') + 1, "\n    if (threadIdx.x == 0 && blockIdx.x == 0) { volatile int s = 1; while (s) {} }\n");
    write(d / "subs" / "spin" / "step1.cu", endless);
    const CliResult r = run_cli("grade lessons/01_vector_add.json '" + (d / "subs").string() + "' --out '" + (d / "out").string() +
                                    "' --backend cpu --timeout 2 --quiet",
                                "LANG=C");
    ASSERT_EQ(r.code, 0) << r.out;
    EXPECT_FALSE(fs::exists(d / "pwned.txt"));
    EXPECT_EQ(read(victim), "before\n");
    const auto rows = wb::parse_gradebook_csv(read(d / "out" / "gradebook.csv"), "gradebook.csv");
    ASSERT_EQ(rows.size(), 4u);
    EXPECT_EQ(rows[2].student, "spin");
    EXPECT_EQ(rows[2].verdict, "timed-out");
    const std::string log = read(d / "out" / "spin" / "log.txt");
    EXPECT_TRUE(contains(log, "Not run: this kernel already ran past its deadline")) << log;
    fs::remove_all(d);
}

TEST(GradeCli, AFifoHandedInThroughAManifestFailsItsStepWithoutWaitingOnIt) {
    const fs::path d = temp_folder("fifo");
    ASSERT_EQ(::mkfifo((d / "step1.cu").c_str(), 0600), 0);
    write(d / "class.csv", "student,step,file\nana,1,step1.cu\n");
    const CliResult r = run_cli("grade lessons/01_vector_add.json '" + (d / "class.csv").string() + "' --out '" +
                                    (d / "out").string() + "' --backend cpu --quiet",
                                "LANG=C");  // a read that waited on the FIFO would hang here (ctest stops it)
    ASSERT_EQ(r.code, 0) << r.out;
    const auto rows = wb::parse_gradebook_csv(read(d / "out" / "gradebook.csv"), "gradebook.csv");
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[0].verdict, "input-error");
    EXPECT_TRUE(contains(read(d / "out" / "ana" / "log.txt"), "step1.cu could not be read")) << read(d / "out" / "ana" / "log.txt");
    fs::remove_all(d);
}

namespace {

// A backend that runs nothing: it keeps the requests a grade makes, and answers each as passed
// (or, for the case named `times_out`, as timed out).
class RecordingBackend final : public wb::RunBackend {
public:
    std::vector<wb::RunRequest> requests;
    std::string times_out;
    wb::BackendInfo info() override { return {}; }
    wb::RunResult run(const wb::RunRequest& req) override {
        requests.push_back(req);
        wb::RunResult r;
        r.status = req.test_case == times_out ? wb::RunStatus::TimedOut : wb::RunStatus::Passed;
        return r;
    }
};

}  // namespace

// --timeout replaces the lesson's deadline, but a case that needs longer (06's huge, 240 s)
// keeps its own; after a case times out, the step's later cases are not run.
TEST(GradeSubmission, TheTimeoutGivenKeepsACasesLongerDeadlineAndATimeoutEndsTheStep) {
    wb::LoadResult lr = wb::load_lesson(std::string(WB_SOURCE_DIR) + "/lessons/06_matmul.json");
    ASSERT_TRUE(lr.ok());
    const auto lesson = std::make_shared<const wb::Lesson>(std::move(*lr.lesson));
    const fs::path d = temp_folder("deadline");
    write(d / "s" / "register_tiles.cu", "// a submission; the backend here runs nothing\n");
    wb::Submission s;
    s.student = "ana";
    s.files["register_tiles"] = d / "s" / "register_tiles.cu";
    wb::GradeOptions o;
    o.executor = wb::Executor::Gpu;
    o.timeout_s = 5;
    RecordingBackend backend;
    const wb::StudentGrade g = wb::grade_submission(backend, lesson, s, o);
    ASSERT_EQ(backend.requests.size(), lesson->find_step("register_tiles")->checks.cases.size());
    for (const wb::RunRequest& req : backend.requests) {
        if (req.test_case == "huge")
            EXPECT_EQ(wb::run_timeout(req), 240) << "the case's own, longer deadline";
        else
            EXPECT_EQ(wb::run_timeout(req), 5) << req.test_case;
    }
    EXPECT_EQ(g.rows[3].verdict, "passed");
    EXPECT_EQ(g.rows[0].verdict, "missing");

    RecordingBackend timing_out;
    timing_out.times_out = "ragged";  // the second case
    const wb::StudentGrade t = wb::grade_submission(timing_out, lesson, s, o);
    EXPECT_EQ(timing_out.requests.size(), 2u) << "small ran, ragged timed out, the rest were not run";
    EXPECT_EQ(t.rows[3].verdict, "timed-out");
    EXPECT_EQ(t.rows[3].cases_passed, 1);
    fs::remove_all(d);
}
