// tests/unit/slurm_test.cpp — grading on Slurm without a cluster (grade/slurm.hpp):
// the job-array script's lines and quoting, run by bash with a stand-in CLI;
// the merge of the tasks' folders, and its refusal to merge an unfinished
// array; the JUnit merge; sbatch's id and errors, with stand-in sbatch
// programs on PATH. tests/slurm/ runs the same script on a real one-node cluster.
#include "core/error.hpp"
#include "core/fs.hpp"
#include "grade/gradebook.hpp"
#include "grade/slurm.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace {

struct TempDir {
    fs::path path;
    explicit TempDir(const std::string& name)
        : path(fs::temp_directory_path() / ("wb_slurm_" + name + "_" + std::to_string(::getpid()))) {
        fs::remove_all(path);
        fs::create_directories(path);
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
};

void write(const fs::path& p, const std::string& text, bool executable = false) {
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << text;
    if (executable) ::chmod(p.c_str(), 0755);
}

// What `sh -c COMMAND` prints on stdout.
std::string shell_output(const std::string& command) {
    std::string out;
    FILE* f = ::popen(command.c_str(), "r");
    if (!f) return "<popen failed>";
    char buf[4096];
    std::size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
    ::pclose(f);
    return out;
}

std::string error_of(auto&& f) {
    try {
        f();
    } catch (const wb::Error& e) {
        return e.describe();
    }
    return "<no error>";
}

wb::SlurmOptions options(const fs::path& out, int n, int chunk) {
    wb::SlurmOptions o;
    o.cli = "/opt/workbook/bin/cuda-workbook-cli";
    o.lesson = "/course/lessons/01_vector_add.json";
    o.submissions = "/course/week 1/submissions";
    o.out = out;
    o.submissions_count = n;
    o.chunk = chunk;
    return o;
}

bool has_line(const std::string& text, const std::string& line) {
    return ("\n" + text).find("\n" + line + "\n") != std::string::npos;
}

}  // namespace

TEST(ShellQuote, WordsTheShellReadsBackUnchanged) {
    const std::vector<std::string> words = {"a b",   "it's", "$HOME", "\"q\"", "`id`", "a\nb", "",
                                            "*",     "~",    "x;y",   "back\\slash", "tab\there",
                                            "/course/week 1/o'brien $(rm -rf x)/step1.cu"};
    for (const auto& w : words)
        EXPECT_EQ(shell_output("printf '%s' " + wb::shell_quote(w)), w) << "quoted as " << wb::shell_quote(w);
}

TEST(ShellQuote, PlainWordsStayReadableAndOthersAreSingleQuoted) {
    EXPECT_EQ(wb::shell_quote("/opt/bin/cuda-workbook-cli"), "/opt/bin/cuda-workbook-cli");
    EXPECT_EQ(wb::shell_quote("gpu:1,a=b@c%d+e"), "gpu:1,a=b@c%d+e");
    EXPECT_EQ(wb::shell_quote(""), "''");
    EXPECT_EQ(wb::shell_quote("a b"), "'a b'");
    EXPECT_EQ(wb::shell_quote("it's"), "'it'\\''s'");
    EXPECT_EQ(wb::shell_quote("$x"), "'$x'");
    EXPECT_NE(error_of([] { wb::shell_quote(std::string("a\0b", 3)); }).find("NUL"), std::string::npos);
}

TEST(SlurmScript, ArrayHasOneTaskPerChunkOfSubmissions) {
    EXPECT_TRUE(has_line(wb::slurm_script(options("/g/out", 1, 10)), "#SBATCH --array=0-0"));
    EXPECT_TRUE(has_line(wb::slurm_script(options("/g/out", 10, 10)), "#SBATCH --array=0-0"));
    EXPECT_TRUE(has_line(wb::slurm_script(options("/g/out", 11, 10)), "#SBATCH --array=0-1"));
    EXPECT_TRUE(has_line(wb::slurm_script(options("/g/out", 25, 10)), "#SBATCH --array=0-2"));
    EXPECT_TRUE(has_line(wb::slurm_script(options("/g/out", 3, 1)), "#SBATCH --array=0-2"));
    EXPECT_EQ(wb::slurm_task_count(25, 10), 3);
}

TEST(SlurmScript, NoSubmissionsOrABadChunkIsAnError) {
    EXPECT_NE(error_of([] { wb::slurm_script(options("/g/out", 0, 10)); }).find("no submissions"), std::string::npos);
    EXPECT_NE(error_of([] { wb::slurm_script(options("/g/out", 5, 0)); }).find("--chunk must be 1 or more"),
              std::string::npos);
    auto o = options("/g/out", 5, 2);
    o.jobs = 0;
    EXPECT_NE(error_of([&] { wb::slurm_script(o); }).find("--jobs"), std::string::npos);
    o = options("/g/out", 5, 2);
    o.backend = "tpu";
    EXPECT_NE(error_of([&] { wb::slurm_script(o); }).find("--backend must be auto, gpu or cpu"), std::string::npos);
}

TEST(SlurmScript, RelativePathsAreRefusedNamingWhich) {
    auto o = options("out", 5, 2);
    EXPECT_NE(error_of([&] { wb::slurm_script(o); }).find("out folder as an absolute path, not 'out'"),
              std::string::npos);
    o = options("/g/out", 5, 2);
    o.lesson = "lessons/01.json";
    EXPECT_NE(error_of([&] { wb::slurm_script(o); }).find("lesson as an absolute path"), std::string::npos);
    o = options("/g/out", 5, 2);
    o.hidden = "hidden.json";
    EXPECT_NE(error_of([&] { wb::slurm_script(o); }).find("hidden-cases file as an absolute path"), std::string::npos);
}

TEST(SlurmScript, PartitionGresAndTimeLinesOnlyWhenGiven) {
    const std::string plain = wb::slurm_script(options("/g/out", 5, 2));
    EXPECT_EQ(plain.find("--partition"), std::string::npos);
    EXPECT_EQ(plain.find("--gres"), std::string::npos);
    EXPECT_EQ(plain.find("--time"), std::string::npos);
    EXPECT_TRUE(has_line(plain, "#SBATCH --output=\"/g/out/tasks/%a/slurm.log\""));
    EXPECT_TRUE(has_line(plain, "#SBATCH --job-name=cuda-workbook-grade"));
    EXPECT_TRUE(has_line(plain, "#SBATCH --cpus-per-task=1"));
    EXPECT_TRUE(has_line(plain, "set -euo pipefail"));

    auto o = options("/g/out", 5, 2);
    o.partition = "gpu";
    o.gres = "gpu:1";
    o.time_limit = "00:30:00";
    o.jobs = 4;
    const std::string gpu = wb::slurm_script(o);
    EXPECT_TRUE(has_line(gpu, "#SBATCH --partition=gpu"));
    EXPECT_TRUE(has_line(gpu, "#SBATCH --gres=gpu:1"));
    EXPECT_TRUE(has_line(gpu, "#SBATCH --time=00:30:00"));
    EXPECT_TRUE(has_line(gpu, "#SBATCH --cpus-per-task=4"));
    // Every #SBATCH line comes before the first command: sbatch stops reading them there.
    EXPECT_LT(gpu.rfind("#SBATCH"), gpu.find("set -euo pipefail"));

    o.partition = "gpu debug";
    EXPECT_NE(error_of([&] { wb::slurm_script(o); }).find("--partition 'gpu debug' cannot be written"),
              std::string::npos);
    o.partition = "gpu";
    o.time_limit = "half an hour";
    EXPECT_NE(error_of([&] { wb::slurm_script(o); }).find("not a Slurm time limit"), std::string::npos);
}

TEST(SlurmScript, OutputLineEscapesPercentAndQuotesAndRefusesBackslashes) {
    EXPECT_TRUE(has_line(wb::slurm_script(options("/g/100% \"done\"", 5, 2)),
                         "#SBATCH --output=\"/g/100%% \\\"done\\\"/tasks/%a/slurm.log\""));
    EXPECT_NE(error_of([] { wb::slurm_script(options("/g/a\\b", 5, 2)); }).find("backslash"), std::string::npos);
    EXPECT_NE(error_of([] { wb::slurm_script(options("/g/a\nb", 5, 2)); }).find("line break"), std::string::npos);
}

// The script run by bash as one array task would be, with a stand-in CLI that
// prints its arguments one per line: awkward paths arrive whole, and `done` is
// written only when grade exits 0.
TEST(SlurmScript, BashPassesEveryPathWholeToGradeAndMarksTheTaskDone) {
    TempDir tmp("script");
    const fs::path cli = tmp.path / "bin dir/it's $cli";
    write(cli, "#!/bin/sh\nfor a in \"$@\"; do printf '[%s]\\n' \"$a\"; done\nexit \"${FAKE_EXIT:-0}\"\n", true);
    wb::SlurmOptions o;
    o.cli = cli;
    o.lesson = tmp.path / "les son's.json";
    o.submissions = tmp.path / "subs $HOME `id`";
    o.out = tmp.path / "out \"1\"";
    o.hidden = tmp.path / "hidden;rm.json";
    o.seed = 42;
    o.backend = "cpu";
    o.jobs = 2;
    o.chunk = 3;
    o.submissions_count = 7;
    o.extra_args = {"--lang", "zh cn"};  // grade's other options, each word whole
    const fs::path script = wb::write_slurm_script(o);
    EXPECT_EQ(script, o.out / "grade.sbatch");
    for (int i = 0; i < 3; ++i) EXPECT_TRUE(fs::is_directory(o.out / "tasks" / std::to_string(i))) << i;
    EXPECT_FALSE(fs::exists(o.out / "tasks" / "3"));
    EXPECT_EQ(wb::slurm_script_task_count(script), 3);
    EXPECT_EQ(shell_output("bash -n " + wb::shell_quote(script.string()) + " 2>&1"), "");

    const std::string run = "cd / && SLURM_ARRAY_TASK_ID=2 bash " + wb::shell_quote(script.string()) + " 2>&1";
    const std::string args = shell_output(run);
    const std::string want = "[grade]\n[" + o.lesson.string() + "]\n[" + o.submissions.string() + "]\n[--out]\n[" +
                             (o.out / "tasks/2").string() +
                             "]\n[--task]\n[2]\n[--chunk]\n[3]\n[--backend]\n[cpu]\n[--jobs]\n[2]\n[--seed]\n[42]\n"
                             "[--hidden]\n[" +
                             o.hidden->string() + "]\n[--lang]\n[zh cn]\n[--quiet]\n";
    EXPECT_EQ(args, want);
    EXPECT_TRUE(fs::exists(o.out / "tasks/2/done"));

    // A grade that fails leaves no `done`, even where an earlier run left one.
    shell_output("export FAKE_EXIT=3; " + run);
    EXPECT_FALSE(fs::exists(o.out / "tasks/2/done"));
    // Outside Slurm the script says what it is.
    EXPECT_NE(shell_output("bash " + wb::shell_quote(script.string()) + " 2>&1").find("submit it with sbatch"),
              std::string::npos);
}

namespace {

wb::GradeRow row(const std::string& student, int step, const std::string& verdict) {
    wb::GradeRow r;
    r.student = student;
    r.lesson = "vector_add";
    r.step = step;
    r.step_id = "step" + std::to_string(step);
    r.cases_total = 2;
    r.cases_passed = verdict == "passed" ? 2 : 0;
    r.verdict = verdict;
    r.max_score = 10;
    r.score = verdict == "passed" ? 10 : 0;
    return r;
}

// A finished task folder: gradebook rows (given out of order), a junit.xml,
// each student's folder, and `done`.
void finished_task(const fs::path& out, int task, const std::vector<wb::GradeRow>& rows) {
    const fs::path t = out / "tasks" / std::to_string(task);
    write(t / "gradebook.csv", wb::gradebook_csv(rows));
    std::string junit = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"cuda-workbook-cli grade\" tests=\"" +
                        std::to_string(rows.size()) + "\" failures=\"1\" errors=\"0\" skipped=\"0\" time=\"1.250\">\n";
    for (const auto& r : rows) {
        write(t / r.student / "results.json", "{\"score\": " + std::to_string(r.score) + "}");
        write(t / r.student / "log.txt", r.student + " step " + std::to_string(r.step) + ": " + r.verdict + "\n");
        junit += "  <testsuite name=\"" + r.student + "\" tests=\"1\"><testcase name=\"step\"/></testsuite>\n";
    }
    write(t / "junit.xml", junit + "</testsuites>\n");
    write(t / "slurm.log", "");
    write(t / "done", "");
}

}  // namespace

TEST(MergeTaskFolders, MergesRowsSortedByStudentThenStepAndCopiesStudentFolders) {
    TempDir tmp("merge");
    const fs::path out = tmp.path / "out";
    wb::write_slurm_script(options(out, 5, 2));
    finished_task(out, 0, {row("bob", 2, "mismatch"), row("alice", 1, "passed"), row("bob", 1, "passed"),
                           row("alice", 2, "passed")});
    finished_task(out, 1, {row("dave", 1, "missing"), row("carol", 1, "passed")});
    finished_task(out, 2, {row("erin", 1, "crashed")});

    EXPECT_EQ(wb::merge_task_folders(out), 7u);
    const auto rows = wb::parse_gradebook_csv(wb::read_file(out / "gradebook.csv"), "merged");
    std::vector<std::string> order;
    for (const auto& r : rows) order.push_back(r.student + "/" + std::to_string(r.step) + "/" + r.verdict);
    EXPECT_EQ(order, (std::vector<std::string>{"alice/1/passed", "alice/2/passed", "bob/1/passed", "bob/2/mismatch",
                                               "carol/1/passed", "dave/1/missing", "erin/1/crashed"}));
    for (const char* s : {"alice", "bob", "carol", "dave", "erin"}) {
        EXPECT_TRUE(fs::is_regular_file(out / s / "results.json")) << s;
        EXPECT_TRUE(fs::is_regular_file(out / s / "log.txt")) << s;
    }
    EXPECT_EQ(wb::read_file(out / "bob/log.txt"), "bob step 1: passed\n");
    const std::string junit = wb::read_file(out / "junit.xml");
    EXPECT_NE(junit.find("<testsuites name=\"cuda-workbook-cli grade\" tests=\"7\" failures=\"3\" errors=\"0\" "
                         "skipped=\"0\" time=\"3.750\">"),
              std::string::npos)
        << junit;

    // Collecting again after a task was rerun replaces what the first collect copied.
    write(out / "tasks/2/erin/log.txt", "erin step 1: passed\n");
    write(out / "tasks/2/gradebook.csv", wb::gradebook_csv({row("erin", 1, "passed")}));
    EXPECT_EQ(wb::merge_task_folders(out), 7u);
    EXPECT_EQ(wb::read_file(out / "erin/log.txt"), "erin step 1: passed\n");
    EXPECT_EQ(wb::parse_gradebook_csv(wb::read_file(out / "gradebook.csv"), "merged").back().verdict, "passed");
}

TEST(MergeTaskFolders, AnUnfinishedTaskIsNamedWithTheSbatchLineThatRerunsIt) {
    TempDir tmp("unfinished");
    const fs::path out = tmp.path / "out";
    wb::write_slurm_script(options(out, 7, 2));  // 4 tasks
    finished_task(out, 0, {row("a", 1, "passed")});
    finished_task(out, 2, {row("e", 1, "passed")});
    finished_task(out, 3, {row("g", 1, "passed")});
    fs::remove(out / "tasks/3/done");  // task 3 still running or failed; task 1 never started
    const std::string e = error_of([&] { wb::merge_task_folders(out); });
    EXPECT_NE(e.find("2 of the 4 array task(s)"), std::string::npos) << e;
    EXPECT_NE(e.find("task 1: not finished"), std::string::npos) << e;
    EXPECT_NE(e.find("task 3: not finished"), std::string::npos) << e;
    EXPECT_NE(e.find((out / "tasks/3/slurm.log").string()), std::string::npos) << e;
    EXPECT_NE(e.find("sbatch --array=1,3 " + (out / "grade.sbatch").string()), std::string::npos) << e;
    EXPECT_FALSE(fs::exists(out / "gradebook.csv"));

    // A task folder removed outright is named too.
    fs::remove_all(out / "tasks/2");
    EXPECT_NE(error_of([&] { wb::merge_task_folders(out); }).find("task 2: no folder"), std::string::npos);
}

TEST(MergeTaskFolders, StudentInTwoTasksOrAStrayTaskFolderOrNoScriptIsRefused) {
    TempDir tmp("refused");
    const fs::path out = tmp.path / "out";
    EXPECT_NE(error_of([&] { wb::merge_task_folders(out); }).find("there is no grade.sbatch here"), std::string::npos);
    wb::write_slurm_script(options(out, 3, 2));
    finished_task(out, 0, {row("a", 1, "passed"), row("b", 1, "passed")});
    finished_task(out, 1, {row("b", 1, "passed")});
    EXPECT_NE(error_of([&] { wb::merge_task_folders(out); }).find("student 'b' is in task 0 and in task 1"),
              std::string::npos);
    finished_task(out, 1, {row("c", 1, "passed")});
    fs::remove_all(out / "tasks/1/b");
    finished_task(out, 5, {row("z", 1, "passed")});
    EXPECT_NE(error_of([&] { wb::merge_task_folders(out); }).find("'5' is not one of the 2 tasks (0-1)"),
              std::string::npos);
    fs::remove_all(out / "tasks/5");
    EXPECT_EQ(wb::merge_task_folders(out), 3u);
}

TEST(MergeJunit, TestsuitesOfEveryDocumentUnderOneRootWithSummedCounts) {
    const std::string a = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                          "<!-- task 0 -->\n"
                          "<testsuites name=\"x\" tests=\"3\" failures=\"1\" errors=\"0\" skipped=\"1\" time=\"0.5\">\n"
                          "  <testsuite name=\"alice\" tests=\"2\"><testcase name=\"a &gt; b\"/></testsuite>\n"
                          "  <testsuite name=\"bob\" tests=\"1\"/>\n"
                          "</testsuites>\n";
    const std::string b = "<testsuite name='carol' tests='4' failures='2' errors='1' time='1.25'>\n"
                          "  <testcase name=\"c\"><failure message=\"m\"/></testcase>\n"
                          "</testsuite>";
    const std::string c = "<testsuites tests=\"0\"/>";
    const std::string merged = wb::merge_junit_documents({a, b, c}, {"a.xml", "b.xml", "c.xml"});
    EXPECT_EQ(merged, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                      "<testsuites name=\"cuda-workbook-cli grade\" tests=\"7\" failures=\"3\" errors=\"1\" "
                      "skipped=\"1\" time=\"1.750\">\n"
                      "  <testsuite name=\"alice\" tests=\"2\"><testcase name=\"a &gt; b\"/></testsuite>\n"
                      "  <testsuite name=\"bob\" tests=\"1\"/>\n"
                      "  <testsuite name='carol' tests='4' failures='2' errors='1' time='1.25'>\n"
                      "  <testcase name=\"c\"><failure message=\"m\"/></testcase>\n"
                      "</testsuite>\n"
                      "</testsuites>\n");
    EXPECT_NE(error_of([] { wb::merge_junit_documents({"<html></html>"}, {"page.xml"}); }).find("page.xml"),
              std::string::npos);
    EXPECT_NE(error_of([] { wb::merge_junit_documents({"<testsuites tests=\"1\">"}, {"cut.xml"}); })
                  .find("<testsuites> is not closed"),
              std::string::npos);
}

namespace {

// PATH set to one folder for a test's length.
struct PathOverride {
    std::string old = std::getenv("PATH") ? std::getenv("PATH") : "";
    explicit PathOverride(const fs::path& dir) { ::setenv("PATH", dir.c_str(), 1); }
    ~PathOverride() { ::setenv("PATH", old.c_str(), 1); }
};

}  // namespace

TEST(SubmitWithSbatch, ReturnsTheJobIdSbatchPrints) {
    TempDir tmp("sbatch_ok");
    write(tmp.path / "sbatch", "#!/bin/sh\n[ \"$1\" = --parsable ] || exit 9\nprintf '%s' \"$2\" > \"${0%/*}/got\"\n"
                               "echo '4242;cluster1'\n",
          true);
    PathOverride path(tmp.path);
    EXPECT_EQ(wb::submit_with_sbatch("/g/out dir/grade.sbatch"), "4242");
    EXPECT_EQ(wb::read_file(tmp.path / "got"), "/g/out dir/grade.sbatch");
}

TEST(SubmitWithSbatch, AFailureCarriesSbatchsOwnWords) {
    TempDir tmp("sbatch_fail");
    write(tmp.path / "sbatch", "#!/bin/sh\necho 'sbatch: error: invalid partition specified: gpu' >&2\nexit 1\n", true);
    PathOverride path(tmp.path);
    const std::string e = error_of([] { wb::submit_with_sbatch("/g/grade.sbatch"); });
    EXPECT_NE(e.find("sbatch exited with 1: sbatch: error: invalid partition specified: gpu"), std::string::npos) << e;
}

TEST(SubmitWithSbatch, NoSbatchOnPathSaysWhereToRunIt) {
    TempDir tmp("sbatch_none");
    PathOverride path(tmp.path);
    const std::string e = error_of([] { wb::submit_with_sbatch("/g/grade.sbatch"); });
    EXPECT_NE(e.find("sbatch was not found on PATH"), std::string::npos) << e;
    EXPECT_NE(e.find("login node"), std::string::npos) << e;
    EXPECT_NE(e.find("sbatch /g/grade.sbatch"), std::string::npos) << e;
}

TEST(SubmitWithSbatch, OutputThatIsNotAJobIdIsAnError) {
    TempDir tmp("sbatch_odd");
    write(tmp.path / "sbatch", "#!/bin/sh\necho 'Submitted batch job 12'\n", true);
    PathOverride path(tmp.path);
    EXPECT_NE(error_of([] { wb::submit_with_sbatch("/g/grade.sbatch"); }).find("not a job id"), std::string::npos);
}
