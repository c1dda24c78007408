// runtime/pipeline/run_request.cpp — what run.hpp declares besides the order of
// a run: names of executors and statuses, the launch rule over every launch
// and pass (for a run and the GUI's launch panel alike), the step, case and
// deadline a request names, and a sanitizer's report folded into a result.
#include "pipeline/run.hpp"

#include "core/error.hpp"

#include <algorithm>

namespace wb {

const char* executor_name(Executor e) {
    switch (e) {
    case Executor::Gpu: return "gpu";
    case Executor::Cpu: return "cpu";
    case Executor::Auto: return "auto";
    }
    return "gpu";
}

std::optional<Executor> parse_executor(std::string_view s) {
    if (s == "gpu") return Executor::Gpu;
    if (s == "cpu") return Executor::Cpu;
    if (s == "auto") return Executor::Auto;
    return std::nullopt;
}

const char* run_status_name(RunStatus s) {
    switch (s) {
    case RunStatus::Passed: return "passed";
    case RunStatus::Mismatch: return "mismatch";
    case RunStatus::CompileError: return "compile-error";
    case RunStatus::ReferenceError: return "reference-error";
    case RunStatus::Refused: return "refused";
    case RunStatus::CudaError: return "cuda-error";
    case RunStatus::InputError: return "input-error";
    case RunStatus::CompileOnly: return "compile-only";
    case RunStatus::TimedOut: return "timed-out";
    case RunStatus::Crashed: return "crashed";
    case RunStatus::Stopped: return "stopped";
    case RunStatus::SanitizerErrors: return "sanitizer-errors";
    case RunStatus::HostError: return "host-error";
    case RunStatus::AccessLimit: return "access-limit";
    }
    return "unknown";
}

const char* limit_verdict_name(LimitVerdict v) {
    switch (v) {
    case LimitVerdict::Passed: return "passed";
    case LimitVerdict::Failed: return "failed";
    case LimitVerdict::NotJudged: return "not-judged";
    }
    return "unknown";
}

std::string run_status_label(RunStatus s, std::string_view lang) {
    return render({{std::string("status.") + run_status_name(s), {}}}, lang);
}


std::vector<LaunchReport> check_step_launches(const Step& step, const std::map<std::string, double>& params,
                                              const std::vector<LaunchOverride>& overrides, const DeviceLimits& limits) {
    std::vector<LaunchReport> reports;
    for (std::size_t i = 0; i < step.launches.size(); ++i) {
        const LaunchSpec& spec = step.launches[i];
        const LaunchOverride* ov = i < overrides.size() ? &overrides[i] : nullptr;
        LaunchReport lr;
        lr.entry = spec.entry;
        lr.tuned = i == step.tuned_launch();
        lr.passes = resolve_passes(spec, params);
        lr.dims = resolve_launch(spec, params, ov, 0);
        // Every pass is sized and checked: a later pass may need another grid.
        for (long long p = 0; p < std::max(1ll, lr.passes) && !lr.refusal; ++p) {
            bool optin = false;
            lr.refusal = check_launch(p == 0 ? lr.dims : resolve_launch(spec, params, ov, p), limits, {}, &optin);
            lr.shared_optin = lr.shared_optin || optin;
            if (lr.refusal && spec.multi_pass()) lr.refusal->add({"refuse.pass", {std::to_string(p)}});
        }
        const bool refused = lr.refusal.has_value();
        reports.push_back(std::move(lr));
        if (refused) break;
    }
    return reports;
}

bool wants_fresh_context(const RunResult& r) {
    return r.context_lost && !r.message_said.empty() && r.message_said.front().key == "run.heap_fixed";
}

const Step* request_step(const RunRequest& req) {
    return req.lesson ? req.lesson->find_step(req.step.empty() ? "1" : req.step) : nullptr;
}

const TestCase* request_case(const RunRequest& req, const Step& step) {
    if (!req.test_case.empty()) return step.find_case(req.test_case);
    return step.checks.cases.empty() ? nullptr : &step.checks.cases[0];
}

double run_timeout(const RunRequest& req) {
    if (req.timeout_s > 0) return req.timeout_s;
    const Step* step = request_step(req);
    if (!step) return kDefaultRunTimeout;
    const TestCase* tc = request_case(req, *step);
    if (tc && tc->timeout_s > 0) return tc->timeout_s;
    return step->checks.timeout_s;
}

std::string run_timeout_source(const RunRequest& req) {
    if (req.timeout_s > 0) return "@deadline.given";
    const Step* step = request_step(req);
    if (!step) return "@deadline.default";
    const TestCase* tc = request_case(req, *step);
    if (tc && tc->timeout_s > 0) return "@deadline.case|" + tc->name;
    return "@deadline.lesson";
}

double sanitized_timeout(const RunRequest& req) { return std::max(120.0, 10 * run_timeout(req)); }

void apply_sanitizer_report(RunResult& r, SanitizerTool tool, const SanitizerReport& rep) {
    r.sanitizer = tool;
    r.sanitizer_findings = rep.findings;
    r.sanitizer_errors = rep.errors;
    const std::string name = std::string("compute-sanitizer ") + sanitizer_tool_name(tool);
    int errors = rep.errors;
    if (errors < 0) {  // no summary: the worker died or was stopped before the tool could write one
        errors = 0;
        for (const auto& f : rep.findings) errors += f.is_error ? f.count : 0;
    }
    if (errors == 0) {
        if (r.status == RunStatus::Passed) r.say_more({"sanitizer.clean", {name}});
        return;
    }
    Sentence before = r.message_said.empty() ? Sentence{verbatim(r.message)} : r.message_said;
    Sentence said = {errors == 1 ? Phrase{"sanitizer.found_one", {name}}
                                 : Phrase{"sanitizer.found", {name, std::to_string(errors)}}};
    for (const auto& f : rep.findings)
        if (f.is_error) {
            said.push_back({"sanitizer.first", {f.to_string()}});
            break;
        }
    said.push_back({"sanitizer.run_itself", {run_status_name(r.status)}});
    said.insert(said.end(), before.begin(), before.end());
    said.push_back({"sanitizer.run_itself_end", {}});
    r.status = RunStatus::SanitizerErrors;
    r.say(std::move(said));
    r.say_hint({{tool == SanitizerTool::Racecheck ? "hint.racecheck" : "hint.memcheck", {}}});
    r.context_lost = false;  // the sanitized worker was one-shot; nothing is lost
}


}  // namespace wb
