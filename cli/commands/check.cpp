// cli/commands/check.cpp — `cuda-workbook-cli check <lesson or folder...>`, the instructor's check.
//
// For every lesson: it loads; every step's starter compiles (a student never
// opens a broken exercise) and, on a GPU, fails at least one case (no step is
// solved before the student starts); every step's solution passes every case.
// Without a GPU, or with --compile-only, everything up to the launch is checked.
// Each check is one line of text, one JSON object (--json), and one JUnit
// testcase (--junit FILE, junit.hpp).
#include "commands.hpp"

#include "common.hpp"
#include "compile/nvrtc.hpp"
#include "junit.hpp"
#include "lesson/loader.hpp"
#include "pipeline/report.hpp"
#include "pipeline/run.hpp"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

namespace fs = std::filesystem;
using nlohmann::json;

namespace wb::cli {

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// A failed run's details for JUnit: diagnostics, the hint, the first mismatches.
std::string failure_details(const RunResult& r) {
    std::ostringstream d;
    for (const auto& g : r.compile.diagnostics) d << g.to_string() << "\n";
    for (const auto& g : r.reference.diagnostics) d << "reference: " << g.to_string() << "\n";
    for (const auto& l : r.launches)
        if (l.refusal) d << l.entry << " refused (" << l.refusal->limit << "): " << l.refusal->message << "\n";
    for (const auto& c : r.comparisons)
        for (const auto& m : c.first)
            d << c.buffer << index_str(m.index) << ": got " << fmt("%.9g", m.got) << ", want " << fmt("%.9g", m.want)
              << " (" << mismatch_reason_name(m.reason) << ")\n";
    for (const auto& l : r.access_limits)
        if (l.verdict != LimitVerdict::Passed)
            d << "access limit " << l.json_path << " (" << l.limit_in("en") << "): " << limit_verdict_name(l.verdict) << ": "
              << l.said_in("en") << "\n";
    if (!r.hint.empty()) d << "hint: " << r.hint << "\n";
    return d.str();
}

int check_main(const Args& a) {
    if (a.positional.empty()) throw UsageError("check needs at least one lesson file or folder");
    bool as_json = a.flag("--json");
    std::vector<std::string> files;
    for (const auto& f : expand_lesson_args(a.positional)) {
        if (!is_schema_file(f)) files.push_back(f);
        else if (!as_json) std::cout << f << ": skipped: a JSON Schema, not a lesson\n";
    }
    if (files.empty()) throw UsageError("no lesson files found in the given files and folders");
    // Before anything is compiled: one untrusted lesson stops the whole check.
    if (!trusted_or_explain(files, a.flag("--trust"), "check")) return kUntrusted;
    // Opened now, so that a path that cannot be written is a usage error before minutes of checking.
    const auto junit_path = a.value("--junit");
    std::ofstream junit_out;
    if (junit_path) {
        junit_out.open(*junit_path, std::ios::binary | std::ios::trunc);
        if (!junit_out) throw UsageError("--junit " + *junit_path + ": cannot write this file");
    }

    auto backend = make_backend(a);
    BackendInfo bi = backend->info();
    const Executor executor = executor_from_args(a);
    const bool emulated = executor == Executor::Cpu || (executor == Executor::Auto && !bi.has_gpu);
    const bool asked = a.flag("--compile-only");
    const bool compile_only = asked || (!bi.has_gpu && !emulated);
    const std::string compile_only_reason = asked ? "asked for with --compile-only" : bi.no_gpu_reason;
    if (!as_json) {
        if (!compile_only && emulated) std::cout << "device: the CPU emulator (times are CPU times, not a GPU's)\n";
        else if (!compile_only) std::cout << "device: " << bi.devices[0].name << " (" << bi.devices[0].arch() << ")\n";
        else std::cout << "compile-only: " << compile_only_reason << "\n";
    }
    int passed = 0, failed = 0, invalid = 0, skipped = 0;
    json out = json::array();
    std::vector<JunitSuite> suites;
    for (const auto& file : files) {
        JunitSuite suite;
        suite.file = file;
        auto t_load = std::chrono::steady_clock::now();
        LoadResult lr = load_lesson(file);
        if (!lr.ok()) {
            ++invalid;
            ++failed;
            if (as_json) {
                out.push_back({{"file", file}, {"ok", false}, {"issues", issues_json(lr.issues)}});
            } else {
                std::cout << "FAIL " << file << ": invalid lesson\n";
                print_issues(lr.issues);
            }
            JunitCase jc;
            jc.classname = file;
            jc.name = "lesson loads";
            jc.seconds = seconds_since(t_load);
            jc.outcome = JunitCase::Outcome::Failed;
            jc.type = "invalid-lesson";
            jc.message = "invalid lesson: " + std::to_string(lr.issues.size()) + " problem" + (lr.issues.size() == 1 ? "" : "s");
            for (const auto& i : lr.issues) jc.details += i.to_string() + "\n";
            suite.name = file;
            suite.cases.push_back(jc);
            suites.push_back(std::move(suite));
            continue;
        }
        auto lesson = std::make_shared<const Lesson>(std::move(*lr.lesson));
        // Every run of the check: this lesson, no buffers back, the chosen
        // backend and arch; trusted_or_explain has checked every file.
        auto request = [&](const Step& step, const std::string& test_case, SourceChoice source) {
            RunRequest req;
            req.lesson = lesson;
            req.step = step.id;
            req.test_case = test_case;
            req.source = source;
            req.executor = executor;
            req.arch = a.value("--arch").value_or("");
            req.keep_buffers = false;
            req.trusted = true;
            return req;
        };
        suite.name = lesson->id;
        for (const auto& step : lesson->steps) {
            const std::string classname = lesson->id + "/" + step.id;
            // The CPU emulator runs kernels, not a host step's run(): there,
            // a host step is built and its reference run, as compile-only.
            const bool host_needs_gpu = emulated && step.is_host();
            // The lesson's own names first: a launch whose entry the solution does not define is the
            // lesson's error, said once to the instructor, not as a student's failing starter and cases.
            if (!step.is_host()) {
                RunRequest req = request(step, "", SourceChoice::Solution);
                req.compile_only = true;
                req.reference = false;
                auto t0 = std::chrono::steady_clock::now();
                const RunResult r = backend->run(req);
                std::string wrong;
                for (const Diagnostic& d : r.compile.diagnostics) {
                    if (d.code != kEntryNotFound) continue;
                    for (const LaunchSpec& l : step.launches)
                        if (d.message.find("'" + l.entry + "'") != std::string::npos)
                            wrong += (wrong.empty() ? "" : "; ") + l.json_path + ".entry '" + l.entry + "'";
                }
                if (!wrong.empty()) {
                    ++failed;
                    const std::string message = "lesson error: " + wrong + " names no kernel of the solution (" +
                                                step.solution.origin + "): fix the entry or the solution; the step's " +
                                                "starter and cases are not checked until then";
                    JunitCase jc{classname, "entries name kernels", seconds_since(t0)};
                    jc.outcome = JunitCase::Outcome::Failed;
                    jc.type = "lesson-error";
                    jc.message = message;
                    suite.cases.push_back(std::move(jc));
                    if (as_json)
                        out.push_back({{"check", "entries"}, {"lesson", lesson->id}, {"step", step.id}, {"ok", false},
                                       {"message", message}});
                    else
                        std::cout << "FAIL " << lesson->id << " / " << step.id << " / " << message << "\n";
                    continue;
                }
            }
            // The starter must compile, so a student never opens a broken exercise.
            {
                RunRequest req = request(step, "", SourceChoice::Starter);
                req.compile_only = true;
                req.reference = false;
                auto t0 = std::chrono::steady_clock::now();
                RunResult r = backend->run(req);
                bool ok = r.compile.ok;
                ok ? ++passed : ++failed;
                JunitCase jc{classname, "starter compiles", seconds_since(t0)};
                if (!ok) {
                    jc.outcome = JunitCase::Outcome::Failed;
                    jc.type = run_status_name(r.status);
                    jc.message = r.message;
                    jc.details = failure_details(r);
                }
                suite.cases.push_back(std::move(jc));
                if (as_json) {
                    json j = report_json(r);
                    j["check"] = "starter-compiles";
                    out.push_back(j);
                } else {
                    std::cout << (ok ? "ok   " : "FAIL ") << lesson->id << " / " << step.id << " / starter compiles";
                    if (!ok) std::cout << ": " << r.message;
                    std::cout << "\n";
                }
            }
            // On a GPU the starter must also fail a case as shipped, so no
            // step is solved before the student starts. Cases run in order
            // until one fails; none is timed.
            if (!compile_only && !host_needs_gpu) {
                auto t0 = std::chrono::steady_clock::now();
                std::string failed_case, why;
                bool does_not_compile = false;
                for (const auto& tc : step.checks.cases) {
                    if (emulated && !tc.emulate) continue;
                    RunRequest req = request(step, tc.name, SourceChoice::Starter);
                    req.timing = false;
                    RunResult r = backend->run(req);
                    if (r.status != RunStatus::Passed) {
                        failed_case = tc.name;
                        why = std::string(run_status_name(r.status));
                        does_not_compile = r.status == RunStatus::CompileError;
                        break;
                    }
                }
                // A starter that fails only because it does not compile shows nothing about being unsolved.
                const bool ok = !failed_case.empty() && !does_not_compile;
                ok ? ++passed : ++failed;
                JunitCase jc{classname, "starter fails a case", seconds_since(t0)};
                const std::string message =
                    ok                 ? "starter fails case " + failed_case + " (" + why + ")"
                    : does_not_compile ? "the starter does not compile, so no case shows it unsolved (see 'starter compiles')"
                                       : "the starter passes every case: the step is solved before the student starts";
                if (!ok) {
                    jc.outcome = JunitCase::Outcome::Failed;
                    jc.type = does_not_compile ? "starter-does-not-compile" : "starter-passes";
                    jc.message = message;
                }
                suite.cases.push_back(std::move(jc));
                if (as_json) {
                    out.push_back({{"check", "starter-fails"}, {"lesson", lesson->id}, {"step", step.id}, {"ok", ok},
                                   {"message", message}});
                } else {
                    std::cout << (ok ? "ok   " : "FAIL ") << lesson->id << " / " << step.id << " / " << message << "\n";
                }
            }
            for (const auto& tc : step.checks.cases) {
                if (emulated && !tc.emulate) {
                    JunitCase jc{classname, tc.name, 0};
                    jc.outcome = JunitCase::Outcome::Skipped;
                    jc.type = "not-emulated";
                    ++skipped;
                    jc.message = "left out on the CPU emulator: the lesson marks this case \"emulate\": false";
                    suite.cases.push_back(std::move(jc));
                    if (as_json)
                        out.push_back({{"check", "solution-passes"}, {"lesson", lesson->id}, {"step", step.id},
                                       {"case", tc.name}, {"skipped", "not emulated"}});
                    else
                        std::cout << "skip " << lesson->id << " / " << step.id << " / " << tc.name
                                  << ": left out on the CPU emulator (the lesson marks it \"emulate\": false)\n";
                    continue;
                }
                RunRequest req = request(step, tc.name, SourceChoice::Solution);
                req.compile_only = compile_only || host_needs_gpu;
                req.timing = tc.timing;
                auto t0 = std::chrono::steady_clock::now();
                RunResult r = backend->run(req);
                const bool only_compiled = req.compile_only && r.status == RunStatus::CompileOnly;
                // A case that requires a clean memory or race check runs once
                // more under compute-sanitizer memcheck, then racecheck; the
                // first such run that fails replaces the first run's verdict.
                std::string sanitizer_note;
                const struct {
                    SanitizerTool tool;
                    bool required;
                    const char* name;
                    const char* phrase;
                } sanitized[] = {
                    {SanitizerTool::Memcheck, step.checks.requires_memcheck(tc), "memcheck", "check.requires_memcheck"},
                    {SanitizerTool::Racecheck, step.checks.requires_racecheck(tc), "racecheck", "check.requires_racecheck"},
                };
                for (const auto& s : sanitized) {
                    if (r.status != RunStatus::Passed || !s.required) continue;
                    std::string note;
                    if (r.emulated) {
                        note = s.tool == SanitizerTool::Memcheck
                                   ? "memcheck required by the lesson: the CPU emulator's guard pages checked "
                                     "every access past a buffer's end instead"
                                   : "racecheck required by the lesson: the CPU emulator's race check watched every "
                                     "access instead, and found no race";
                    } else if (a.flag("--in-process")) {
                        note = std::string(s.name) + " required by the lesson: not run (--in-process has no worker to wrap)";
                    } else if (find_compute_sanitizer(cuda_home()).empty()) {
                        note = std::string(s.name) + " required by the lesson: not run (compute-sanitizer not found)";
                    } else {
                        RunRequest mreq = req;
                        mreq.sanitizer = s.tool;
                        mreq.timing = false;
                        RunResult m = backend->run(mreq);
                        if (m.status == RunStatus::Passed) {
                            note = std::string(s.name) + ": no errors";
                        } else {
                            Sentence said = {{s.phrase, {}}};
                            said.insert(said.end(), m.message_said.begin(), m.message_said.end());
                            if (m.message_said.empty()) said.push_back(verbatim(m.message));
                            m.say(std::move(said));
                            r = std::move(m);
                        }
                    }
                    sanitizer_note += (sanitizer_note.empty() ? "" : "; ") + note;
                }
                bool ok = r.status == RunStatus::Passed || only_compiled;
                // A host step's target (a share of another step's time, both
                // measured in this run) is part of passing, where it applies.
                const bool missed_target = ok && r.target && r.target->applies() && !r.target->met();
                if (missed_target) {
                    ok = false;
                    r.message = "missed its target: " + target_text(*r.target, r.host_step);
                }
                ok ? ++passed : ++failed;
                JunitCase jc{classname, tc.name + " (" + params_str(r.params) + ")", seconds_since(t0)};
                if (!ok) {
                    jc.outcome = JunitCase::Outcome::Failed;
                    jc.type = missed_target ? "missed-target" : run_status_name(r.status);
                    jc.message = r.message;
                    jc.details = failure_details(r);
                    for (const auto& f : r.sanitizer_findings) jc.details += f.to_string() + "\n";
                } else if (only_compiled) {
                    jc.outcome = JunitCase::Outcome::Skipped;
                    jc.type = "compile-only";
                    jc.message = "compile-only: compiled, reference built and run, launch checked; no kernel ran (" +
                                 (host_needs_gpu ? std::string("a host step's run() needs a GPU") : compile_only_reason) + ")";
                }
                suite.cases.push_back(std::move(jc));
                if (as_json) {
                    json j = report_json(r);
                    j["check"] = "solution-passes";
                    if (!sanitizer_note.empty()) j["sanitizer_note"] = sanitizer_note;
                    out.push_back(j);
                } else {
                    std::cout << (ok ? "ok   " : "FAIL ") << lesson->id << " / " << step.id << " / " << tc.name << " ("
                              << params_str(r.params) << "): " << run_status_name(r.status);
                    if (only_compiled && host_needs_gpu) std::cout << " (a host step's run() needs a GPU; nvcc built it, its reference ran)";
                    if (r.status == RunStatus::Passed && r.wall_time)
                        std::cout << fmt(", run() %.3f ms", r.wall_time->median_ms)
                                  << (r.timeline && r.timeline->unavailable.empty()
                                          ? fmt(", kernels %.3f ms", r.timeline->kernel_us() / 1e3) +
                                                fmt(", copies %.3f ms", r.timeline->copy_us() / 1e3) +
                                                fmt(", copies under kernels %.3f ms", r.timeline->copy_kernel_overlap_us() / 1e3)
                                          : std::string());
                    if (r.target) std::cout << "; target " << target_text(*r.target, r.host_step);
                    if (r.status == RunStatus::Passed && r.emulated && r.emulated_ms >= 0)
                        std::cout << fmt(", CPU emulation %.1f ms", r.emulated_ms) << fmt(", reference %.3f ms", r.cpu_ms);
                    if (r.status == RunStatus::Passed && r.gpu_time)
                        std::cout << fmt(", GPU %.4f ms", r.gpu_time->median_ms) << fmt(", CPU %.3f ms", r.cpu_ms)
                                  << (r.bytes > 0 ? fmt(", %.1f GB/s", r.gbs()) : "")
                                  << (r.bandwidth_fraction() > 0 ? fmt(" (%.0f%% of copy)", 100 * r.bandwidth_fraction()) : "")
                                  << (r.flops > 0 ? fmt(", %.1f GFLOP/s", r.gflops()) : "")
                                  << (r.compute_fraction() > 0 ? fmt(" (%.1f%% of FP32 peak)", 100 * r.compute_fraction()) : "");
                    if (r.status == RunStatus::Passed && r.baseline && r.baseline->ran && r.baseline_fraction() > 0)
                        std::cout << "; " << r.baseline->label << fmt(" %.4f ms", r.baseline->median_ms)
                                  << (r.baseline->passed    ? ""
                                      : r.baseline->checked ? " (its output FAILED the check)"
                                                            : " (its output " + r.baseline->note + ")") << ", yours "
                                  << fmt("%.0f%%", 100 * r.baseline_fraction())
                                  << (r.baseline->kind == "memcpy" ? " of its GB/s" : " of its speed");
                    if (!ok && !missed_target) std::cout << ": " << r.message;
                    else if (!sanitizer_note.empty()) std::cout << "; " << sanitizer_note;
                    std::cout << "\n";
                    if (!ok)
                        for (const auto& c : r.comparisons)
                            for (const auto& m : c.first)
                                std::cout << "       " << c.buffer << index_str(m.index) << ": got " << fmt("%.9g", m.got)
                                          << ", want " << fmt("%.9g", m.want) << "\n";
                }
            }
        }
        suites.push_back(std::move(suite));
    }
    if (as_json) std::cout << out.dump(2) << "\n";
    else
        std::cout << "check: " << passed << " passed, " << failed << " failed"
                  << (skipped ? ", " + std::to_string(skipped) + " skipped" : std::string())
                  << (compile_only ? " (compile-only: no kernel ran)" : "") << "\n";
    if (junit_path) {
        junit_out << junit_xml(suites);
        junit_out.close();
        if (!junit_out) {
            std::cerr << "cuda-workbook-cli check: could not write " << *junit_path << "\n";
            return kInternal;
        }
        if (!as_json) std::cout << "junit: " << *junit_path << "\n";
    }
    if (invalid) return kInvalidLesson;
    if (failed) return kFailed;
    // Asked-for compile-only is a complete answer (0); no GPU means nothing ran (4).
    return compile_only && !asked ? kNoGpu : kOk;
}

}  // namespace

CommandSpec check_command() {
    CommandSpec c;
    c.name = "check";
    c.operands = "<lesson or folder...>";
    c.summary = "every solution passes every case, every starter compiles";
    c.about =
        "The instructor's check: every lesson validates, every starter compiles (and fails at\n"
        "least one case, so no step is solved before the student starts), and every solution\n"
        "passes every test case, on the GPU or, without one, on the CPU emulator. With\n"
        "--compile-only (or --backend gpu and no GPU) it checks everything up to the launch:\n"
        "solutions compile, references build and run, and launches fit the target's limits.\n"
        "Asked for with --compile-only, that passing exits 0; with --backend gpu and no GPU,\n"
        "it exits 4 (nothing ran). A folder stands for every lesson\n"
        "in it; *.schema.json files are skipped. Lessons outside the shipped lessons folder\n"
        "need --trust: their CPU references are compiled and run on this computer.\n"
        "A case (or a step's checks) with \"memcheck\": true also runs under compute-sanitizer\n"
        "memcheck on the GPU, and any error it finds fails the case; \"racecheck\": true the\n"
        "same with racecheck, which needs a GPU (on the CPU emulator it is reported not run).\n"
        "A step's speed target is judged on a GPU only.\n";
    c.options = {
        flag_option("--compile-only", "check everything up to the launch, run nothing"),
        value_option("--backend", "B", "auto (default: the GPU, else the CPU emulator), gpu (compile-only\n"
                                       "without a GPU), or cpu (the CPU emulator: every check but the GPU's\n"
                                       "times; cases marked \"emulate\": false are left out, counted as skipped)"),
        value_option("--junit", "FILE", "also write JUnit XML: one testcase per check line, classname\n"
                                        "lesson_id/step_id; compile-only cases are <skipped>"),
        value_option("--arch", "A", "compile for A (default: the GPU's own sm_XX)"),
        flag_option("--in-process", "run in this process, not a worker (debugging; a fault ends the CLI)"),
        worker_option(),
        flag_option("--trust", "the lessons are outside the shipped lessons folder and you trust\n"
                               "their author (their CPU references are compiled and run here)"),
        flag_option("--json", "print the results as JSON"),
    };
    c.run = check_main;
    return c;
}

}  // namespace wb::cli
