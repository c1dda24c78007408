// tests/unit/cli_instructor_test.cpp — the instructor's loop on the command line:
// `new` writes a lesson that validates and passes, `validate` takes folders and
// skips JSON Schema files, step numbers are 1-based as in the GUI, compile-only
// exits the same way in `run` and `check`, and `check --junit` writes JUnit XML
// that a real XML parser (python3's) reads. The driver is off (cli_runner.hpp).
#include "cli_runner.hpp"
#include "core/untranslated.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

namespace fs = std::filesystem;

namespace {

bool has_line(const std::string& out, const std::string& line) {
    return ("\n" + out).find("\n" + line + "\n") != std::string::npos;
}

std::string slurp(const fs::path& p) {
    std::ifstream f(p, std::ios::binary);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
}

// A fresh folder under the temp dir, removed at the end of the test. `name`
// may hold characters that need quoting in XML.
struct TempDir {
    fs::path path;
    explicit TempDir(const std::string& name = "wb_cli_instructor") {
        std::random_device rd;
        path = fs::temp_directory_path() / (name + "_" + std::to_string(rd()) + std::to_string(rd()));
        fs::create_directories(path);
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
    std::string q(const std::string& rel = "") const { return "'" + (rel.empty() ? path : path / rel).string() + "'"; }
};

// Parses a JUnit file with python3's xml.etree (an error if it is not well-formed XML)
// and prints "suites T F S" then one "case|classname|name|outcome|message" line per testcase.
std::string parse_junit(const fs::path& xml, const TempDir& tmp) {
    const fs::path script = tmp.path / "parse_junit.py";
    std::ofstream(script) << "import sys, xml.etree.ElementTree as E\n"
                             "root = E.parse(sys.argv[1]).getroot()\n"
                             "assert root.tag == 'testsuites', root.tag\n"
                             "print('suites', root.get('tests'), root.get('failures'), root.get('skipped'))\n"
                             "for s in root.findall('testsuite'):\n"
                             "    for c in s.findall('testcase'):\n"
                             "        f, k = c.find('failure'), c.find('skipped')\n"
                             "        o = 'failure' if f is not None else 'skipped' if k is not None else 'passed'\n"
                             "        m = (f if f is not None else k).get('message') if o != 'passed' else ''\n"
                             "        print('case|%s|%s|%s|%s' % (c.get('classname'), c.get('name'), o, m))\n";
    std::string cmd = "python3 '" + script.string() + "' '" + xml.string() + "' 2>&1";
    std::string out;
    FILE* p = popen(cmd.c_str(), "r");
    if (!p) return "popen failed";
    char buf[4096];
    std::size_t n;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
    const int status = pclose(p);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return "python3 could not parse it:\n" + out;
    return out;
}

}  // namespace

// ---- validate ------------------------------------------------------------------

TEST(CliValidate, AFolderValidatesEveryLessonInIt) {
    auto r = run_cli("validate lessons");
    EXPECT_EQ(r.code, 0) << r.out;
    EXPECT_TRUE(contains(r.out, "lessons/01_vector_add.json: ok (vector_add,")) << r.out;
    EXPECT_FALSE(contains(r.out, "lesson.schema.json")) << "a folder never lists the schema\n" << r.out;
}

TEST(CliValidate, AGlobThatTakesInTheSchemaSkipsIt) {
    // The shell expands lessons/*.json to the lessons and lessons/lesson.schema.json.
    auto r = run_cli("validate lessons/*.json");
    EXPECT_EQ(r.code, 0) << r.out;
    EXPECT_TRUE(has_line(r.out, "lessons/lesson.schema.json: skipped: a JSON Schema, not a lesson")) << r.out;
    EXPECT_TRUE(contains(r.out, "lessons/06_matmul.json: ok")) << r.out;
}

TEST(CliValidate, AFolderWithNoLessonsIsABadCommandLine) {
    TempDir tmp;
    auto r = run_cli("validate " + tmp.q());
    EXPECT_EQ(r.code, 2) << r.out;
    EXPECT_TRUE(contains(r.out, "no lesson files found")) << r.out;
}

// ---- exit codes ----------------------------------------------------------------

TEST(CliExitCodes, CompileOnlyAskedForExits0InRunAndCheckAlike) {
    auto run = run_cli("run lessons/01_vector_add.json --solution --case small --compile-only");
    EXPECT_EQ(run.code, 0) << run.out;
    EXPECT_TRUE(contains(run.out, "result  compile-only")) << run.out;
    auto check = run_cli("check lessons/01_vector_add.json --compile-only");
    EXPECT_EQ(check.code, 0) << check.out;
}

TEST(CliExitCodes, NoGpuWithBackendGpuExits4InRunAndCheckAlike) {
    EXPECT_EQ(run_cli("run lessons/01_vector_add.json --solution --case small --backend gpu").code, 4);
    EXPECT_EQ(run_cli("check lessons/01_vector_add.json --backend gpu").code, 4);
}

// Without a GPU and without --backend, the kernels run on the CPU emulator.
TEST(CliExitCodes, NoGpuByDefaultRunsOnTheCpuEmulator) {
    auto run = run_cli("run lessons/01_vector_add.json --solution --case small");
    EXPECT_EQ(run.code, 0) << run.out;
    EXPECT_TRUE(contains(run.out, "ran on the CPU emulator")) << run.out;
    // One device line, the emulator's, with why there is no GPU; never "device  none" before an emulated run.
    EXPECT_TRUE(contains(run.out, "\ndevice  CPU emulator (no GPU: The CUDA driver is disabled")) << run.out;
    EXPECT_FALSE(contains(run.out, "device  none")) << run.out;
    auto check = run_cli("check lessons/01_vector_add.json");
    EXPECT_EQ(check.code, 0) << check.out;
    EXPECT_TRUE(contains(check.out, "device: the CPU emulator")) << check.out;
    EXPECT_TRUE(contains(check.out, "starter fails case")) << check.out;
}

// An endless kernel on the CPU emulator: the timeout names the deadline and where it struck.
TEST(CliExitCodes, AnEndlessKernelOnTheEmulatorTimesOutSayingWhere) {
    TempDir tmp;
    std::ofstream(tmp.path / "endless.cu")
        << "extern \"C\" __global__ void vector_add(const float* a, const float* b, float* c, int n)\n"
           "{ volatile int spin = 1; while (spin) {} }\n";
    // The deadline covers the build too: 4 s leaves a cold build room on a busy machine.
    auto r = run_cli("run lessons/01_vector_add.json --case small --timeout 4 --source " + tmp.q("endless.cu"));
    EXPECT_EQ(r.code, 1) << r.out;
    EXPECT_TRUE(contains(r.out, "result  timed-out: timed out after 4 s while running kernel 'vector_add' on the CPU emulator\n"))
        << r.out;
}

// With LANG=zh_CN.UTF-8 the run's sentences are Chinese: the device line, the result and the hint
// for a write past the end on the emulator, a timeout with its deadline, and a refused block.
TEST(CliExitCodes, RunFollowsLangAndSpeaksChinese) {
    TempDir tmp;
    std::ofstream(tmp.path / "past_end.cu")
        << "extern \"C\" __global__ void vector_add(const float* a, const float* b, float* c, int n)\n"
           "{ int i = blockIdx.x * blockDim.x + threadIdx.x; c[i] = a[i] + b[i]; }\n";
    std::ofstream(tmp.path / "endless.cu")
        << "extern \"C\" __global__ void vector_add(const float* a, const float* b, float* c, int n)\n"
           "{ volatile int spin = 1; while (spin) {} }\n";
    const std::string zh = "LANG=zh_CN.UTF-8 LC_ALL= LC_MESSAGES=";
    // The lines a student reads: device, check notes, result, hint (the rest are the fields' names and figures).
    auto sentences = [](const std::string& out) {
        std::string kept;
        std::istringstream lines(out);
        for (std::string line; std::getline(lines, line);)
            for (const char* row : {"device  ", "result  ", "hint    ", "        REFUSED"})
                if (line.rfind(row, 0) == 0) kept += line.substr(std::string(row).size()) + "\n";
        return kept;
    };
    auto past = run_cli("run lessons/01_vector_add.json --case ragged --source " + tmp.q("past_end.cu"), zh);
    EXPECT_TRUE(contains(past.out, "result  CUDA 错误: 在 CPU 模拟器上，在核函数 'vector_add' 中，核函数")) << past.out;
    EXPECT_TRUE(contains(past.out, "device  CPU 模拟器（没有 GPU：")) << past.out;
    auto endless = run_cli("run lessons/01_vector_add.json --case small --timeout 4 --source " + tmp.q("endless.cu"), zh);
    EXPECT_TRUE(contains(endless.out, "result  超时: 在用 CPU 模拟器运行核函数 'vector_add' 时超时（4 秒）")) << endless.out;
    auto refused = run_cli("run lessons/01_vector_add.json --solution --case small --block 2048", zh);
    EXPECT_TRUE(contains(refused.out, "1024 个线程")) << refused.out;
    for (const auto* out : {&past.out, &endless.out, &refused.out})
        for (const wb::EnglishFound& f : wb::english_in(sentences(*out), {"vector", "add", "ragged", "small"}))
            ADD_FAILURE() << "English '" << f.words << "' in: " << f.line;
    // LANG=en (or unset) keeps English.
    auto en = run_cli("run lessons/01_vector_add.json --case ragged --source " + tmp.q("past_end.cu"), "LANG=C LC_ALL= LC_MESSAGES=");
    EXPECT_TRUE(contains(en.out, "result  cuda-error: on the CPU emulator, in kernel 'vector_add', the kernel")) << en.out;
}

// ---- the lesson's own errors, said to the instructor --------------------------------

// A copy of lesson 01 in `dir`, with `edit` applied to its JSON text and `ref_edit` to its reference.
void copy_lesson_01(const TempDir& dir, const std::pair<std::string, std::string>& edit,
                    const std::pair<std::string, std::string>& ref_edit = {}) {
    fs::copy(fs::path(WB_SOURCE_DIR) / "lessons/01_vector_add", dir.path / "01_vector_add", fs::copy_options::recursive);
    auto patch = [](const fs::path& file, const std::pair<std::string, std::string>& e) {
        std::ifstream in(file);
        std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        if (!e.first.empty()) {
            const auto at = text.find(e.first);
            ASSERT_NE(at, std::string::npos) << e.first;
            text.replace(at, e.first.size(), e.second);
        }
        std::ofstream(file, std::ios::trunc) << text;
    };
    fs::copy_file(fs::path(WB_SOURCE_DIR) / "lessons/01_vector_add.json", dir.path / "01_vector_add.json");
    patch(dir.path / "01_vector_add.json", edit);
    patch(dir.path / "01_vector_add/reference.cpp", ref_edit);
}

// A launch's entry that the solution does not define is the lesson's error: check says so once,
// naming the JSON path, instead of a failing starter and failing cases.
TEST(CliLessonErrors, AWrongEntryIsTheLessonsErrorNamedByItsPath) {
    TempDir dir;
    copy_lesson_01(dir, {"\"entry\": \"vector_add\"", "\"entry\": \"vector_ad\""});
    auto r = run_cli("check " + dir.q("01_vector_add.json") + " --trust", "XDG_CACHE_HOME=" + dir.q("cache"));
    EXPECT_EQ(r.code, 1) << r.out;
    EXPECT_TRUE(contains(r.out, "FAIL vector_add / one_thread_per_element / lesson error: launches[0].entry 'vector_ad' "
                                "names no kernel of the solution (01_vector_add/solution_step1.cu)"))
        << r.out;
    EXPECT_FALSE(contains(r.out, "one_thread_per_element / starter fails case")) << "no 'ok' for a starter that cannot compile\n"
                                                                                 << r.out;
}

// A reference that leaves output elements unwritten is the lesson's error, named with the reference,
// not a student's mismatch against "want 0".
TEST(CliLessonErrors, AReferenceThatLeavesOutputsUnwrittenIsAReferenceError) {
    TempDir dir;
    copy_lesson_01(dir, {}, {"for (int i = 0; i < n; ++i)", "for (int i = 0; i < n / 2; ++i)"});
    auto r = run_cli("run " + dir.q("01_vector_add.json") + " --solution --case ragged --trust",
                     "XDG_CACHE_HOME=" + dir.q("cache"));
    EXPECT_EQ(r.code, 1) << r.out;
    EXPECT_TRUE(contains(r.out, "result  reference-error: the CPU reference vector_add_ref() in 01_vector_add/reference.cpp "
                                "left 500 of 1000 elements of output 'c' unwritten (the first at [500])"))
        << r.out;
    EXPECT_TRUE(contains(r.out, "hint    this is the lesson's error, not the student's")) << r.out;
}

// ---- step numbers ----------------------------------------------------------------

TEST(CliSteps, NumbersStartAt1AsInTheGui) {
    // vector_add has two steps; "2" is the second, as the GUI's "2." in the lesson list.
    auto c = run_cli("compile lessons/01_vector_add.json --step 2");
    EXPECT_EQ(c.code, 0) << c.out;
    EXPECT_TRUE(contains(c.out, "grid_stride_loop starter : ok")) << c.out;
    EXPECT_FALSE(contains(c.out, "one_thread_per_element")) << c.out;

    auto r = run_cli("run lessons/01_vector_add.json --step 1 --solution --case small --compile-only");
    EXPECT_EQ(r.code, 0) << r.out;
    EXPECT_TRUE(contains(r.out, "lesson vector_add · step one_thread_per_element · case small")) << r.out;
}

TEST(CliSteps, IdsStillWork) {
    auto r = run_cli("run lessons/01_vector_add.json --step grid_stride_loop --solution --case small --compile-only");
    EXPECT_EQ(r.code, 0) << r.out;
    EXPECT_TRUE(contains(r.out, "· step grid_stride_loop ·")) << r.out;
}

TEST(CliSteps, AStepThatIsNotThereNamesTheNumbersAndIds) {
    for (const char* cmd : {"compile", "run"}) {
        for (const char* step : {"0", "3", "nope"}) {
            auto r = run_cli(std::string(cmd) + " lessons/01_vector_add.json --step " + step);
            EXPECT_EQ(r.code, 2) << cmd << " " << step << "\n" << r.out;
            EXPECT_TRUE(contains(r.out, "lesson 'vector_add' has no step '" + std::string(step) +
                                            "'; give a number from 1 to 2 or an id: one_thread_per_element, grid_stride_loop"))
                << r.out;
        }
    }
}

// ---- new ---------------------------------------------------------------------------

TEST(CliNew, IsListedAndHasHelp) {
    EXPECT_TRUE(contains(run_cli("--help").out, "new LESSON_ID"));
    auto r = run_cli("new --help");
    EXPECT_EQ(r.code, 0) << r.out;
    EXPECT_TRUE(contains(r.out, "Usage: cuda-workbook-cli new LESSON_ID [options]")) << r.out;
    EXPECT_TRUE(contains(r.out, "--dir D")) << r.out;
    EXPECT_TRUE(contains(r.out, "Exit codes")) << r.out;
}

TEST(CliNew, WritesALessonThatValidatesAndPassesCompileOnly) {
    TempDir tmp;
    auto n = run_cli("new my_scale --dir " + tmp.q());
    ASSERT_EQ(n.code, 0) << n.out;
    for (const char* f : {"my_scale.json", "my_scale/starter.cu", "my_scale/solution.cu", "my_scale/reference.cpp",
                          "lesson.schema.json"})
        EXPECT_TRUE(fs::is_regular_file(tmp.path / f)) << f << "\n" << n.out;
    // "$schema" resolves: the shipped schema was copied beside the lesson.
    EXPECT_EQ(slurp(tmp.path / "lesson.schema.json"), slurp(fs::path(WB_SOURCE_DIR) / "lessons/lesson.schema.json"));
    const std::string json = slurp(tmp.path / "my_scale.json");
    EXPECT_TRUE(contains(json, "\"$schema\": \"./lesson.schema.json\"")) << json;
    EXPECT_TRUE(contains(json, "\"zh\"")) << "text in both languages\n" << json;

    auto v = run_cli("validate " + tmp.q("my_scale.json"));
    EXPECT_EQ(v.code, 0) << v.out;
    EXPECT_TRUE(contains(v.out, ": ok (my_scale, 1 step)")) << v.out;
    EXPECT_TRUE(contains(json, "\"format\": 2,")) << "the format docs/lesson-format.md describes\n" << json;

    auto c = run_cli("check " + tmp.q("my_scale.json") + " --compile-only --trust");
    EXPECT_EQ(c.code, 0) << c.out;
    EXPECT_TRUE(contains(c.out, "ok   my_scale / scale / starter compiles")) << c.out;
    EXPECT_TRUE(contains(c.out, "ok   my_scale / scale / small (N=8 s=2): compile-only")) << c.out;
    EXPECT_TRUE(contains(c.out, "ok   my_scale / scale / ragged (N=1000 s=-0.5): compile-only")) << c.out;
    EXPECT_TRUE(contains(c.out, "ok   my_scale / scale / large (N=16777216 s=2): compile-only")) << c.out;
    EXPECT_TRUE(contains(c.out, "check: 4 passed, 0 failed")) << c.out;
}

TEST(CliNew, NeverOverwritesAndKeepsAnInstructorsSchema) {
    TempDir tmp;
    std::ofstream(tmp.path / "lesson.schema.json") << "{\"mine\": true}\n";
    auto first = run_cli("new twice --dir " + tmp.q());
    ASSERT_EQ(first.code, 0) << first.out;
    EXPECT_EQ(slurp(tmp.path / "lesson.schema.json"), "{\"mine\": true}\n");
    // Kept, but never silently: it may be an old copy that checks against an old format.
    EXPECT_TRUE(contains(first.out, "note: " + (tmp.path / "lesson.schema.json").string() + " is not this workbook's schema"))
        << first.out;
    std::ofstream(tmp.path / "twice/starter.cu") << "// my edits\n";

    auto again = run_cli("new twice --dir " + tmp.q());
    EXPECT_EQ(again.code, 2) << again.out;
    EXPECT_TRUE(contains(again.out, "already exists; new never overwrites a file")) << again.out;
    EXPECT_EQ(slurp(tmp.path / "twice/starter.cu"), "// my edits\n");

    // Only the JSON is left from another attempt: still refused, and nothing else is written.
    fs::remove_all(tmp.path / "twice");
    auto half = run_cli("new twice --dir " + tmp.q());
    EXPECT_EQ(half.code, 2) << half.out;
    EXPECT_FALSE(fs::exists(tmp.path / "twice")) << half.out;
}

// An older copy of the workbook's own schema (same "$id", older text) is updated, the old one kept.
TEST(CliNew, UpdatesAnOlderCopyOfTheSchemaAndKeepsIt) {
    TempDir tmp;
    const std::string older = "{\"$id\": \"https://cuda-workbook.example/lesson.schema.json\", \"title\": \"(format 1)\"}\n";
    std::ofstream(tmp.path / "lesson.schema.json") << older;
    auto r = run_cli("new fresh --dir " + tmp.q());
    ASSERT_EQ(r.code, 0) << r.out;
    EXPECT_EQ(slurp(tmp.path / "lesson.schema.json"), slurp(fs::path(WB_SOURCE_DIR) / "lessons/lesson.schema.json"));
    EXPECT_EQ(slurp(tmp.path / "lesson.schema.json.old"), older);
    EXPECT_TRUE(contains(r.out, "an older copy, updated from")) << r.out;
}

TEST(CliNew, RefusesABadIdAndMakesAMissingFolder) {
    TempDir tmp;
    for (const char* id : {"Bad-Id", "with.dot", "../escape", "''"}) {
        auto r = run_cli(std::string("new ") + id + " --dir " + tmp.q());
        EXPECT_EQ(r.code, 2) << id << "\n" << r.out;
        EXPECT_TRUE(contains(r.out, "is not a lesson id: use only a-z, 0-9 and _")) << r.out;
    }
    EXPECT_TRUE(fs::is_empty(tmp.path));
    auto r = run_cli("new fine --dir " + tmp.q("missing/deeper"));
    EXPECT_EQ(r.code, 0) << r.out;
    EXPECT_TRUE(fs::is_regular_file(tmp.path / "missing/deeper/fine.json")) << r.out;
    EXPECT_TRUE(fs::is_regular_file(tmp.path / "missing/deeper/lesson.schema.json")) << r.out;
    std::ofstream(tmp.path / "a_file") << "x";
    auto not_dir = run_cli("new fine --dir " + tmp.q("a_file"));
    EXPECT_EQ(not_dir.code, 2) << not_dir.out;
    EXPECT_TRUE(contains(not_dir.out, "exists and is not a folder")) << not_dir.out;
}

// ---- check --junit -------------------------------------------------------------------

TEST(CliJunit, OneTestcasePerCheckLineAndCompileOnlyCasesAreSkipped) {
    TempDir tmp;
    ASSERT_EQ(run_cli("new junit_ok --dir " + tmp.q()).code, 0);
    auto c = run_cli("check " + tmp.q("junit_ok.json") + " --compile-only --trust --junit " + tmp.q("out.xml"));
    ASSERT_EQ(c.code, 0) << c.out;
    const std::string parsed = parse_junit(tmp.path / "out.xml", tmp);
    EXPECT_TRUE(has_line(parsed, "suites 4 0 3")) << parsed;
    EXPECT_TRUE(has_line(parsed, "case|junit_ok/scale|starter compiles|passed|")) << parsed;
    EXPECT_TRUE(contains(parsed, "case|junit_ok/scale|ragged (N=1000 s=-0.5)|skipped|compile-only: compiled, reference "
                                 "built and run, launch checked; no kernel ran (asked for with --compile-only)")) << parsed;
    EXPECT_TRUE(contains(parsed, "case|junit_ok/scale|large (N=16777216 s=2)|skipped|")) << parsed;
}

TEST(CliJunit, FailuresCarryTheMessageAndOddTextStaysWellFormed) {
    // A folder whose name XML must escape, with a control character in it too.
    TempDir tmp("wb_junit_&<\">\x01");  // no ' : the shell command quotes with it
    ASSERT_EQ(run_cli("new broken --dir " + tmp.q()).code, 0);
    std::ofstream(tmp.path / "broken/solution.cu")
        << "extern \"C\" __global__ void scale(const float* x, float* y, float s, int n)\n"
           "{ if (n < 0 && s > 0) y[0] = x[j]; }\n";
    std::ofstream(tmp.path / "invalid.json") << "{\"format\": 1, \"title\": \"<&>\"}\n";
    auto c = run_cli("check " + tmp.q() + " --compile-only --trust --junit " + tmp.q("out.xml"));
    EXPECT_EQ(c.code, 3) << "an invalid lesson wins over a failed check\n" << c.out;
    const std::string parsed = parse_junit(tmp.path / "out.xml", tmp);
    // broken: the starter compiles, the three cases fail; invalid.json: one failure.
    EXPECT_TRUE(has_line(parsed, "suites 5 4 0")) << parsed;
    EXPECT_TRUE(contains(parsed, "case|broken/scale|small (N=8 s=2)|failure|")) << parsed;
    EXPECT_TRUE(contains(parsed, "|lesson loads|failure|invalid lesson:")) << parsed;
    EXPECT_TRUE(contains(parsed, "wb_junit_&<\">\xEF\xBF\xBD")) << "escaped, and the control character replaced\n"
                                                                << parsed;
}
