// cli/commands/grade.cpp — `cuda-workbook-cli grade LESSON SUBMISSIONS --out DIR`:
// an instructor grades a class's submissions of one lesson.
//
// Each submission is graded by runtime/grade/ (grade.hpp) in a worker of its
// own (a fresh WorkerBackend: contained, with deadlines; with --worker CMD a
// fresh connection to the far end, which contains its runs the same way), so
// one cannot change another's result. What it writes under DIR: gradebook.csv, junit.xml, and per
// student results.json (Gradescope), log.txt (the verdicts as the student reads
// them) and grade.json (what a resumed grade reads back: a student whose
// grade.json is there is not graded again). --jobs grades submissions side by
// side: on the CPU emulator up to N at once, on GPUs one per GPU. Before the
// first submission, each case's CPU reference runs once here
// (prepare_references), and the workers read its outputs.
// docs/grading.md is the instructor's guide.
#include "commands.hpp"

#include "common.hpp"
#include "core/error.hpp"
#include "core/fs.hpp"
#include "core/sha256.hpp"
#include "grade/grade.hpp"
#include "grade/graded_lesson.hpp"
#include "grade/leaderboard.hpp"
#include "grade/slurm.hpp"
#include "junit.hpp"
#include "pipeline/worker.hpp"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>

namespace fs = std::filesystem;
using nlohmann::json;

namespace wb::cli {

namespace {


// What the grade in DIR is of: a resumed grade must be of the same lesson, hidden cases, seed and backend.
json grade_identity(const fs::path& lesson, const std::optional<fs::path>& hidden, const std::optional<std::uint64_t>& seed,
                    Executor executor) {
    return {{"lesson", lesson.string()},
            {"lesson_sha256", sha256_hex(read_file(lesson))},
            {"hidden_sha256", hidden ? sha256_hex(read_file(*hidden)) : std::string()},
            {"seed", seed ? json(*seed) : json(nullptr)},
            {"backend", executor_name(executor)}};
}

std::string duration_text(double s) {
    char buf[32];
    if (s >= 3600) std::snprintf(buf, sizeof buf, "%dh%02dm", int(s / 3600), int(s / 60) % 60);
    else if (s >= 60) std::snprintf(buf, sizeof buf, "%dm%02ds", int(s / 60), int(s) % 60);
    else std::snprintf(buf, sizeof buf, "%.0fs", s);
    return buf;
}

// One line, redrawn: "[#####.....] 12/100  2.3/s  about 40s left".
void draw_progress(std::size_t done, std::size_t total, double seconds) {
    constexpr int kWidth = 30;
    const int filled = total ? int(kWidth * done / total) : kWidth;
    const double rate = seconds > 0 ? double(done) / seconds : 0;
    std::string bar(std::size_t(filled), '#');
    bar += std::string(std::size_t(kWidth - filled), '.');
    std::fprintf(stderr, "\r[%s] %zu/%zu  %.2f/s  %s   ", bar.c_str(), done, total, rate,
                 rate > 0 && done < total ? ("about " + duration_text(double(total - done) / rate) + " left").c_str() : "");
    std::fflush(stderr);
}

JunitSuite junit_suite(const StudentGrade& g) {
    JunitSuite s;
    s.name = g.student;
    for (const GradeRow& row : g.rows) {
        if (row.verdict == "missing") {
            JunitCase c;
            c.classname = g.student + "/" + row.step_id;
            c.name = "handed in";
            c.outcome = JunitCase::Outcome::Failed;
            c.type = "missing";
            c.message = "no file for step " + std::to_string(row.step) + " (" + row.step_id + ")";
            s.cases.push_back(std::move(c));
        }
        for (const CaseGrade& k : g.cases) {
            if (k.step != row.step) continue;
            JunitCase c;
            c.classname = g.student + "/" + k.step_id;
            c.name = k.case_name + (k.hidden ? " (hidden)" : "");
            c.seconds = k.seconds;
            c.outcome = k.passed ? JunitCase::Outcome::Passed : JunitCase::Outcome::Failed;
            c.type = k.status;
            c.message = k.message;
            c.details = k.output;
            s.cases.push_back(std::move(c));
        }
    }
    return s;
}

// `grade --collect DIR`: a Slurm array's tasks merged into DIR (slurm.hpp).
int collect_main(const Args& a, const fs::path& dir, const std::string& lang) {
    if (!a.positional.empty()) throw UsageError("grade --collect DIR takes no lesson or submissions: they are in DIR/grade.sbatch");
    try {
        merge_task_folders(dir);
        const auto rows = parse_gradebook_csv(read_file(dir / "gradebook.csv"), (dir / "gradebook.csv").string());
        std::set<std::string> students;
        for (const GradeRow& r : rows) students.insert(r.student);
        std::printf("collected %zu student(s) into %s\n", students.size(), (dir / "gradebook.csv").string().c_str());
        if (a.flag("--html")) {
            write_leaderboard(dir / "leaderboard", leaderboard_pages(rows.empty() ? "" : rows[0].lesson, rows, lang));
            std::printf("leaderboard: %s\n", (dir / "leaderboard" / "index.html").string().c_str());
        }
    } catch (const Error& e) {
        std::cerr << "grade --collect: " << e.describe() << "\n";
        return kFailed;
    }
    return kOk;
}

int grade_main(const Args& a) {
    const std::string lang_asked = a.value("--lang").value_or(language_from_environment());
    if (auto dir = a.value("--collect")) return collect_main(a, *dir, lang_asked);
    if (a.positional.size() != 2) throw UsageError("grade needs a lesson and a folder (or manifest) of submissions");
    const auto out_arg = a.value("--out");
    if (!out_arg) throw UsageError("grade needs --out DIR, the folder the gradebook is written to");
    const fs::path lesson_file = a.positional[0];
    const fs::path out = *out_arg;
    if (!trusted_or_explain({lesson_file.string()}, a.flag("--trust"), "grade")) return kUntrusted;
    std::optional<fs::path> hidden;
    if (auto h = a.value("--hidden")) hidden = fs::path(*h);
    std::optional<std::uint64_t> seed;
    if (auto s = whole_number_option(a, "--seed", 0)) seed = static_cast<std::uint64_t>(*s);
    const Executor executor = executor_from_args(a);
    const long long jobs = whole_number_option(a, "--jobs", 1).value_or(1);
    const std::string lang = lang_asked;
    if (lang != "en" && lang != "zh" && lang != "zh-Hant")
        throw UsageError("--lang takes en, zh or zh-Hant, not '" + lang + "'");

    std::shared_ptr<const Lesson> lesson;
    std::vector<Submission> subs;
    try {
        lesson = graded_lesson(lesson_file, hidden, seed);
        subs = find_submissions(a.positional[1], *lesson);
    } catch (const Error& e) {
        std::cerr << "grade: " << e.describe() << "\n";
        return kUsage;
    }
    // A Slurm array task grades its chunk of the students, sorted by id.
    const auto task = whole_number_option(a, "--task", 0);
    const auto chunk = whole_number_option(a, "--chunk", 1);
    if (task && !chunk) throw UsageError("--task needs --chunk K, the number of submissions a task grades");
    if (task) {
        const std::size_t from = std::min(subs.size(), std::size_t(*task * *chunk));
        const std::size_t to = std::min(subs.size(), from + std::size_t(*chunk));
        subs = std::vector<Submission>(subs.begin() + std::ptrdiff_t(from), subs.begin() + std::ptrdiff_t(to));
    }

    std::error_code ec;
    fs::create_directories(out, ec);
    if (ec) throw UsageError("--out " + out.string() + ": cannot create this folder: " + ec.message());
    if (a.flag("--slurm") || a.flag("--dry-run")) {
        if (task) throw UsageError("--slurm writes the tasks' --task options itself");
        SlurmOptions so;
        so.cli = fs::read_symlink("/proc/self/exe");
        so.lesson = fs::absolute(lesson_file);
        so.submissions = fs::absolute(a.positional[1]);
        so.out = fs::absolute(out);
        if (hidden) so.hidden = fs::absolute(*hidden);
        so.seed = seed;
        so.backend = executor_name(executor);
        so.jobs = int(jobs);
        if (auto p = a.value("--partition")) so.partition = *p;
        if (auto g = a.value("--gres")) so.gres = *g;
        if (auto t = a.value("--time")) so.time_limit = *t;
        so.chunk = int(chunk.value_or(10));
        so.submissions_count = int(subs.size());
        for (const char* v : {"--lang", "--timeout", "--arch", "--worker"})
            if (auto x = a.value(v)) so.extra_args.insert(so.extra_args.end(), {v, *x});
        for (const char* f : {"--no-timing", "--trust"})
            if (a.flag(f)) so.extra_args.push_back(f);
        try {
            const fs::path script = write_slurm_script(so);
            if (a.flag("--dry-run")) {
                std::cout << slurm_script(so);
                std::cerr << "grade: wrote " << script.string() << " (" << slurm_task_count(so.submissions_count, so.chunk)
                          << " task(s)); submit it with: sbatch " << script.string() << "\n";
                return kOk;
            }
            const std::string job = submit_with_sbatch(script);
            std::printf("submitted job %s: %d task(s) of up to %d submission(s)\nwhen it is done: %s grade --collect %s\n",
                        job.c_str(), slurm_task_count(so.submissions_count, so.chunk), so.chunk, so.cli.string().c_str(),
                        so.out.string().c_str());
        } catch (const Error& e) {
            std::cerr << "grade --slurm: " << e.describe() << "\n";
            return e.kind() == ErrorKind::Usage ? kUsage : kFailed;
        }
        return kOk;
    }
    const json identity = grade_identity(lesson_file, hidden, seed, executor);
    const fs::path identity_file = out / "grade-of.json";
    if (fs::exists(identity_file) && !a.flag("--restart")) {
        json was;
        try {
            was = json::parse(read_file(identity_file));
        } catch (const json::parse_error&) {}
        if (was != identity) {
            std::cerr << "grade: " << out.string()
                      << " holds a grade of another lesson, hidden cases, seed or backend (grade-of.json says which):\n"
                         "       give another --out, or --restart to grade everyone again there\n";
            return kUsage;
        }
    }
    if (a.flag("--restart"))
        for (const Submission& s : subs) fs::remove(out / s.student / "grade.json", ec);
    write_file_atomic(identity_file, identity.dump(2) + "\n");

    // Who is left: a student whose grade.json is there was graded by an earlier, interrupted grade.
    std::vector<const Submission*> todo;
    for (const Submission& s : subs)
        if (!fs::exists(out / s.student / "grade.json")) todo.push_back(&s);
    WorkerOptions probe;
    probe.command = worker_command(a);  // --worker CMD: each submission's worker at the far end of CMD
    const BackendInfo info = WorkerBackend(probe).info();
    const bool on_gpu = executor == Executor::Gpu || (executor == Executor::Auto && info.has_gpu);
    const std::size_t gpus = info.has_gpu ? std::max<std::size_t>(1, info.devices.size()) : 1;
    const std::size_t workers = std::max<std::size_t>(1, std::min<std::size_t>(on_gpu ? gpus : std::size_t(jobs), todo.size()));
    const bool progress = isatty(2) && !a.flag("--quiet");
    std::printf("grade: %s, %zu submission(s), %zu to grade (%zu already graded in %s), %s, %zu at a time\n",
                lesson->id.c_str(), subs.size(), todo.size(), subs.size() - todo.size(), out.string().c_str(),
                on_gpu ? info.devices.empty() ? "GPU" : info.devices[0].name.c_str() : "the CPU emulator", workers);
    std::fflush(stdout);

    // Each case's CPU reference, once, before any submission runs: the workers read its outputs
    // (a remote worker's cache is its own, so it runs the reference itself).
    if (!todo.empty() && probe.command.empty()) {
        const auto r0 = std::chrono::steady_clock::now();
        int kept = 0, failed = 0;
        const auto prepared = prepare_references(lesson, !on_gpu, lang, [&](const PreparedReference& p) {
            kept += p.kept;
            if (!p.ok) {
                ++failed;
                std::cerr << "grade: step " << p.step << " (" << p.step_id << "), case " << p.case_name
                          << ": the lesson's CPU reference failed: " << p.message << "\n";
            }
        });
        if (failed) {
            std::cerr << "grade: fix the lesson's reference first; no submission was graded\n";
            return kUsage;
        }
        std::printf("grade: the CPU reference of %zu case(s), made once for every submission in %.1f s (%d kept from an earlier grade)\n",
                    prepared.size(), std::chrono::duration<double>(std::chrono::steady_clock::now() - r0).count(), kept);
        std::fflush(stdout);
    }

    GradeOptions o;
    o.executor = executor;
    o.arch = a.value("--arch").value_or("");
    o.timeout_s = seconds_option(a, "--timeout");
    o.timing = !a.flag("--no-timing");
    o.lang = lang;
    const auto t0 = std::chrono::steady_clock::now();
    std::atomic<std::size_t> next{0}, done{0};
    std::mutex lock;
    std::string failure;
    std::map<std::string, StudentGrade> graded;  // this run's; earlier runs' are read from their grade.json
    auto work = [&](std::size_t slot) {
        for (;;) {
            const std::size_t i = next++;
            if (i >= todo.size()) return;
            const Submission& s = *todo[i];
            try {
                WorkerOptions wo;
                wo.ordinal = on_gpu ? int(slot % gpus) : 0;
                wo.command = probe.command;
                WorkerBackend backend(wo);  // fresh for this submission
                const StudentGrade g = grade_submission(backend, lesson, s, o);
                const fs::path dir = out / s.student;
                fs::create_directories(dir);
                write_file_atomic(dir / "results.json", gradescope_results(g, lang).dump(2) + "\n");
                write_file_atomic(dir / "log.txt", student_log(g, *lesson, lang));
                write_file_atomic(dir / "grade.json", to_json(g).dump(1) + "\n");  // last: the student is graded
                std::lock_guard<std::mutex> l(lock);
                graded.emplace(s.student, g);
            } catch (const std::exception& e) {
                std::lock_guard<std::mutex> l(lock);
                if (failure.empty()) failure = s.student + ": " + e.what();
            }
            const std::size_t d = ++done;
            if (progress) {
                std::lock_guard<std::mutex> l(lock);
                draw_progress(d, todo.size(), std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
            }
        }
    };
    std::vector<std::thread> threads;
    for (std::size_t w = 1; w < workers; ++w) threads.emplace_back(work, w);
    work(0);
    for (auto& t : threads) t.join();
    if (progress) std::fprintf(stderr, "\n");
    if (!failure.empty()) {
        std::cerr << "grade: could not write a grade: " << failure << "\n";
        return kFailed;
    }

    // The whole class, from each student's grade.json (this run's and earlier ones').
    std::vector<GradeRow> rows;
    std::vector<JunitSuite> suites;
    int passed = 0, failed = 0, missing = 0;
    for (const Submission& s : subs) {
        const auto now = graded.find(s.student);
        const StudentGrade g = now != graded.end()
                                   ? now->second
                                   : student_grade_from_json(json::parse(read_file(out / s.student / "grade.json")));
        for (const GradeRow& r : g.rows) {
            rows.push_back(r);
            (r.verdict == "passed" ? passed : r.verdict == "missing" ? missing : failed)++;
        }
        suites.push_back(junit_suite(g));
    }
    write_file_atomic(out / "gradebook.csv", gradebook_csv(rows));
    write_file_atomic(out / "junit.xml", junit_xml(suites));
    const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("graded %zu submission(s) in %s: %d step(s) passed, %d failed, %d missing\n", todo.size(),
                duration_text(took).c_str(), passed, failed, missing);
    std::printf("gradebook: %s\n", (out / "gradebook.csv").string().c_str());
    if (a.flag("--html")) {
        write_leaderboard(out / "leaderboard", leaderboard_pages(lesson->title.get(lang), rows, lang));
        std::printf("leaderboard: %s\n", (out / "leaderboard" / "index.html").string().c_str());
    }
    return kOk;
}

}  // namespace

CommandSpec grade_command() {
    CommandSpec c;
    c.name = "grade";
    c.operands = "<lesson.json> <submissions>";
    c.summary = "grade a class's submissions of a lesson (gradebook, JUnit, Gradescope)";
    c.about =
        "Grades every student's files against every case of every step, hidden cases\n"
        "included, each submission in a contained worker of its own. <submissions> is a\n"
        "folder with one subfolder per student holding step<N>.cu or <step-id>.cu, or a\n"
        "manifest (CSV student,step,file, or JSON {student: {step: file}}). A missing file\n"
        "is a zero for its step. Writes DIR/gradebook.csv, DIR/junit.xml, and per student\n"
        "DIR/<student>/results.json (Gradescope) and log.txt. An interrupted grade resumes\n"
        "where it stopped when run again with the same --out. docs/grading.md has more.\n"
        "Exit 0 when every submission was graded, whatever its score.\n";
    c.options = {
        value_option("--out", "DIR", "where the gradebook and each student's results go (required)"),
        value_option("--backend", "B", "gpu, cpu (the CPU emulator) or auto (the default: the GPU when there is one)"),
        value_option("--jobs", "N", "submissions graded at once on the CPU emulator (default 1);\n"
                                    "on GPUs one per GPU"),
        value_option("--hidden", "FILE", "the instructor's hidden cases: {\"steps\": {\"<step>\": [<case>, ...]}}"),
        value_option("--seed", "S", "draw every random input from this seed (a whole number the\n"
                                    "students do not know), so outputs cannot be hard-coded"),
        value_option("--timeout", "SECONDS", "each run's deadline instead of the lesson's (a case's own longer one stays)"),
        value_option("--lang", "L", "the language of the logs and results.json: en, zh or zh-Hant (default: LANG)"),
        value_option("--arch", "sm_XX", "compile for this architecture instead of the device's"),
        value_option("--task", "I", "grade only chunk I of the students sorted by id (a Slurm array task)"),
        value_option("--chunk", "K", "the submissions a --task (or each Slurm task) grades (--slurm: default 10)"),
        flag_option("--html", "also write DIR/leaderboard/: a static page per step of the fastest passing kernels"),
        flag_option("--slurm", "grade as a Slurm job array: write DIR/grade.sbatch and submit it with sbatch"),
        flag_option("--dry-run", "with --slurm: write and print the script, submit nothing"),
        value_option("--partition", "P", "with --slurm: the partition (default: the cluster's)"),
        value_option("--gres", "G", "with --slurm: generic resources per task, e.g. gpu:1"),
        value_option("--time", "T", "with --slurm: each task's time limit, in Slurm's form (30, 01:00:00)"),
        value_option("--collect", "DIR", "merge a Slurm grade's tasks (DIR/tasks/*) into DIR's gradebook"),
        worker_option(),
        flag_option("--no-timing", "do not time the timing cases (faster; no times in the gradebook)"),
        flag_option("--restart", "grade everyone again, even students an earlier grade in DIR finished"),
        flag_option("--quiet", "no progress bar"),
        flag_option("--trust", "grade with a lesson from outside the shipped lessons folder"),
    };
    c.run = grade_main;
    return c;
}

}  // namespace wb::cli
