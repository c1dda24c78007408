// cli/commands/compile.cpp — `cuda-workbook-cli compile <lesson.json> [--step S] [--arch A]`.
//
// Compiles the starter and the solution of one step (default: every step) with
// NVRTC, in the worker process under the run's deadline, and prints the
// diagnostics on the student's lines. Needs no GPU.
#include "commands.hpp"

#include "common.hpp"
#include "compile/nvrtc.hpp"
#include "pipeline/report.hpp"
#include "pipeline/run.hpp"
#include "pipeline/worker.hpp"

#include <iostream>

using nlohmann::json;

namespace wb::cli {

namespace {

int compile_main(const Args& a) {
    int refused = kOk;
    auto lesson = open_one_lesson(a, "compile", refused);
    if (!lesson) return refused;
    bool as_json = a.flag("--json");
    std::vector<const Step*> steps;
    if (auto s = a.value("--step")) {
        steps.push_back(&step_or_usage_error(*lesson, *s));
    } else {
        for (const auto& s : lesson->steps) steps.push_back(&s);
    }
    const double timeout = seconds_option(a, "--timeout");
    // Through the worker, like run: a kernel that sends NVRTC into a template
    // explosion is stopped at the deadline instead of hanging the CLI.
    WorkerBackend backend;
    bool all_ok = true;
    std::string arch = a.value("--arch").value_or("");
    json results = json::array();
    for (const Step* st : steps) {
        for (int which = 0; which < 2; ++which) {
            RunRequest req;
            req.lesson = lesson;
            req.step = st->id;
            req.source = which == 0 ? SourceChoice::Starter : SourceChoice::Solution;
            req.arch = arch;
            req.compile_only = true;
            req.reference = false;
            req.keep_buffers = false;
            req.timing = false;
            req.timeout_s = timeout;
            req.trusted = true;  // open_one_lesson checked
            const RunResult r = backend.run(req);
            const CompileResult& c = r.compile;
            if (arch.empty()) arch = c.arch;
            // The compile's own verdict; a refused launch or no GPU is not a compile failure.
            const bool compiled = c.ok && r.status != RunStatus::TimedOut && r.status != RunStatus::Crashed &&
                                  r.status != RunStatus::Stopped && r.status != RunStatus::InputError;
            all_ok = all_ok && compiled;
            const char* which_name = which == 0 ? "starter" : "solution";
            if (as_json) {
                json j = report_json(c);
                j["step"] = st->id;
                j["source"] = which_name;
                j["ok"] = compiled;
                if (!c.ok || !compiled) j["status"] = run_status_name(r.status), j["message"] = r.message;
                results.push_back(j);
            } else if (!c.ok && c.options.empty()) {
                // It never got to NVRTC's answer: a deadline, a crash, bad input.
                std::cout << st->id << " " << (which == 0 ? "starter " : "solution") << ": FAILED ("
                          << run_status_name(r.status) << ": " << r.message << ")\n";
                if (!r.hint.empty()) std::cout << "  hint: " << r.hint << "\n";
            } else {
                std::cout << st->id << " " << (which == 0 ? "starter " : "solution") << ": " << (compiled ? "ok" : "FAILED")
                          << " (" << c.arch << (c.is_cubin ? " cubin, " : " PTX, ") << c.image_bytes << " bytes, "
                          << (c.from_cache ? c.cache_source + " cache" : fmt("%.2f s", c.seconds)) << ", "
                          << c.warning_count() << " warnings)\n";
                print_diagnostics(c.diagnostics, c.diagnostics_omitted);
            }
        }
    }
    if (as_json) std::cout << json{{"arch", arch}, {"results", results}}.dump(2) << "\n";
    return all_ok ? kOk : kFailed;
}

}  // namespace

CommandSpec compile_command() {
    CommandSpec c;
    c.name = "compile";
    c.operands = "<lesson.json>";
    c.summary = "compile a step's starter and solution with NVRTC";
    c.about =
        "Compiles the starter and the solution of step S (default: every step) with NVRTC,\n"
        "in the worker process under the run's deadline (the lesson's, or --timeout).\n"
        "Needs no GPU.\n";
    c.options = {
        value_option("--step", "S", "a step id or number, from 1 as in the app (default: every step)"),
        value_option("--arch", "A", "sm_XX or compute_XX (default: the GPU's own, or " + default_arch() + "\n"
                                    "without one)"),
        value_option("--timeout", "S", "stop after S seconds (default: the lesson's, else 30)"),
        flag_option("--trust", "the lesson is outside the shipped lessons folder and you trust its author"),
        flag_option("--json", "print the results as JSON"),
    };
    c.run = compile_main;
    return c;
}

}  // namespace wb::cli
